"""The plant search's latency in the page: p50, p95 and max per kind of query.

Run by bench/search-p95.sh (under Xvfb, in a D-Bus session with a fresh GNOME Keyring).
One app window shows BENCH-01 (10,000 machines, APP_BENCH_SHELLS; served by an external
`aasmd demo-service`) from a snapshot taken beside it with aasmd, as bench/app_bench.py's
snapshot_session does; then SEARCH_BENCH_N queries are typed into the plant search (app_bench's
search_ms). Per query, in the page (performance.now):

  - call → hits painted: from the page's `search_snapshot` call (its fetch of
    ipc://localhost/search_snapshot) to the paint of the hits;
  - call → answer: the same fetch until it resolves (the IPC round trip as the page sees it);
  - invoke alone: `window.__TAURI_INTERNALS__.invoke('search_snapshot', args)` with the
    arguments the page passed, nothing drawn.

Environment: AAS_BROWSER_BIN, AASMD_BIN; SEARCH_BENCH_N (default 40), SEARCH_BENCH_OUT
(also write the Markdown there), SEARCH_BENCH_GAP_MS (between keys; default app_bench's
TYPING_GAP_MS).
"""

import json
import math
import os
import statistics
import sys
import tempfile

import app_bench
from app_bench import (BIG_TREE, app_window, big_environment, browse_ms, drawing_line, machine_line,
                       search_ms, start_demo_service, take_outside, use_bench_profile)

KINDS = ("serial number", "prefix", "word in every shell")

# Under search_ms's own fetch wrapper (which it puts back when done): counts the page's
# search_snapshot calls and keeps the last one's arguments, call and answer times.
WATCH_FETCH = """
    if (window.__searchWatch) return;
    const fetch = window.fetch;
    const watch = window.__searchWatch = { calls: 0, last: null };
    window.fetch = (url, options) => {
      if (!String(url).endsWith('/search_snapshot')) return fetch(url, options);
      const call = { body: String(options?.body), call: performance.now(), answer: null };
      watch.calls += 1;
      watch.last = call;
      return fetch(url, options).then((r) => { call.answer = performance.now(); return r; });
    };"""

INVOKE_ALONE = """
    const internals = window.__TAURI_INTERNALS__;
    if (!internals?.invoke) { done(null); return; }
    const t0 = performance.now();
    internals.invoke('search_snapshot', arguments[0])
      .then((r) => done({ ms: performance.now() - t0, hits: r.hits.length }),
            (e) => done({ error: String(e?.message ?? e) }));"""


def queries(n):
    """`n` (kind, query) pairs, the kinds taken in turn, the same every run."""
    out = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        serial = f"SN-B-{1 + (i * 2477) % (BIG_TREE - 1):05}"  # 1..9999 of 10,000: SN-B-0xxxx
        if kind == "serial number":
            out.append((kind, serial))
        elif kind == "prefix":
            out.append((kind, serial[:7 + (i // 3) % 3]))  # SN-B-0x, SN-B-0xx, SN-B-0xxx
        else:
            out.append((kind, "Maschinenbau"))
    return out


def one_query(w, query):
    calls_before = w.wd.script("return window.__searchWatch.calls")
    typed = search_ms(w, query)
    watch = w.wd.script("return window.__searchWatch")
    last = watch["last"]
    args = json.loads(last["body"])
    if args.get("query") != query:
        raise AssertionError(f"the last search_snapshot call was {last['body']}, not for {query!r}")
    alone = w.run_async(INVOKE_ALONE, args)
    return {"painted": typed["total"] - typed["pause"], "answer": last["answer"] - last["call"],
            "alone": alone.get("ms") if alone else None, "calls": watch["calls"] - calls_before,
            "status": typed["status"], "args": args, "alone_error": (alone or {}).get("error")}


def p95(xs):
    """Nearest rank: the smallest value at or above 95% of them (of 13 values, the largest)."""
    return sorted(xs)[math.ceil(0.95 * len(xs)) - 1]


def cell(xs):
    xs = [x for x in xs if x is not None]
    return f"{statistics.median(xs):.1f} / {p95(xs):.1f} / {max(xs):.1f}" if xs else "n/a"


def report(runs, warm_up, snap, snap_s, browse):
    rows = []
    for kind in (*KINDS, "all"):
        rs = [r for r in runs if kind in ("all", r["kind"])]
        calls = [r["calls"] for r in rs]
        rows.append(f"| {kind} | {len(rs)} | {cell([r['painted'] for r in rs])} | {cell([r['answer'] for r in rs])} "
                    f"| {cell([r['alone'] for r in rs])} | {min(calls)}–{max(calls)} |")
    errors = {r["alone_error"] for r in runs if r["alone_error"]}
    example = {k: v for k, v in runs[0]["args"].items() if k != "query"}
    return "\n".join([
        "## Plant search latency (bench/search-p95.sh)", "",
        f"Machine: {machine_line()}. Drawing: {drawing_line()}", "",
        f"Binary: {os.path.realpath(os.environ['AAS_BROWSER_BIN'])}. A snapshot of {snap['shells']:,} shells "
        f"({snap['nodes']:,} answers) taken with aasmd beside the window in {snap_s:.1f} s, browsed "
        f"(Browse → tree painted {browse:.0f} ms); queries typed a key every {app_bench.TYPING_GAP_MS} ms. "
        f"The page passed {json.dumps(example)} besides the query. Warm-up search (not counted): "
        f"{warm_up['painted']:.1f} ms call → hits painted, invoke alone {warm_up['alone'] or 0:.1f} ms.", "",
        "ms, p50 / p95 / max (p95 by nearest rank)", "",
        "| query kind | n | call → hits painted | call → answer (fetch) | invoke alone | search_snapshot calls a query |",
        "|---|---|---|---|---|---|",
        *rows, "",
        "Statuses: " + "; ".join(sorted({f"{r['kind']}: {r['status']!r}" for r in runs})) + "."
        + (f" invoke alone failed: {sorted(errors)}." if errors else ""), "",
    ])


def main():
    app, aasmd = os.environ["AAS_BROWSER_BIN"], os.environ["AASMD_BIN"]
    n = int(os.environ.get("SEARCH_BENCH_N", "40"))
    if "SEARCH_BENCH_GAP_MS" in os.environ:
        app_bench.TYPING_GAP_MS = int(os.environ["SEARCH_BENCH_GAP_MS"])  # search_ms reads it per call
    app_bench.e2e_out(prefix="search-bench-")
    with tempfile.TemporaryDirectory() as workdir:
        env_file = os.path.join(workdir, f"bench-{BIG_TREE}.json")
        big_environment(env_file, BIG_TREE)
        demo_service, line = start_demo_service(aasmd, env_file)
        try:
            with app_window(app) as (w, _):
                use_bench_profile(w, line)
                snap, snap_s = take_outside(aasmd, w, line)
                browse = browse_ms(w, snap["id"])  # the Snapshots dialog lists it when opened
                w.wd.script(WATCH_FETCH)
                warm_up = one_query(w, "Maschinenbau GmbH")
                runs = []
                for kind, query in queries(n):
                    runs.append(dict(one_query(w, query), kind=kind, query=query))
                    print(f"{kind}: {query}: {runs[-1]['painted']:.1f} ms painted, {runs[-1]['answer']:.1f} "
                          f"answer, {runs[-1]['alone']} alone, {runs[-1]['calls']} calls", file=sys.stderr, flush=True)
        finally:
            demo_service.terminate()
            demo_service.wait(10)
    text = report(runs, warm_up, snap, snap_s, browse)
    if os.environ.get("SEARCH_BENCH_OUT"):
        with open(os.environ["SEARCH_BENCH_OUT"], "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
