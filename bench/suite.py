#!/usr/bin/env python3
"""The benchmark suite behind bench/run.sh (which builds, checks the tools and sets up
the Python peers' venv, then runs this). Writes bench/RESULTS.md.

Environment (set by run.sh): AASMD (release binary), PEER_PYTHON (the venv's python),
CARGO_TARGET_DIR, and the knobs BENCH_ASSETS, BENCH_REPS, BENCH_WRK_SECONDS,
BENCH_CONCURRENCY ("1 8 32 64"), BENCH_SCALING ("100 10000": the other plant sizes),
BENCH_LATENCY_MS (20), BENCH_PIN (1: the demo service on CPU 0, every client on the others),
BENCH_SKIP_CRITERION=1, BENCH_CRITERION_TEST=1 (the criterion benches run once each as
tests, `cargo test --bench`, in the debug build: no figures), BENCH_OUT (the report,
default bench/RESULTS.md; its JSON beside it as BENCH_OUT.json, else
$CARGO_TARGET_DIR/bench-results.json).
"""
import datetime
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
TARGET = os.environ.get("CARGO_TARGET_DIR") or os.path.expanduser("~/.cache/aas-browser/target")
AASMD = os.environ.get("AASMD") or os.path.join(TARGET, "release", "aasmd")
PEER_PYTHON = os.environ.get("PEER_PYTHON") or sys.executable
ASSETS = int(os.environ.get("BENCH_ASSETS", "1000"))
REPS = int(os.environ.get("BENCH_REPS", "3"))
WRK_SECONDS = int(os.environ.get("BENCH_WRK_SECONDS", "3"))
CONCS = [int(c) for c in os.environ.get("BENCH_CONCURRENCY", "1 8 32 64").split()]
SCALING = [int(a) for a in os.environ.get("BENCH_SCALING", "100 10000").split()]
LATENCY_MS = int(os.environ.get("BENCH_LATENCY_MS", "20"))
PLANT = "DEMO-01"
SKIP_CRITERION = os.environ.get("BENCH_SKIP_CRITERION") == "1"
CRITERION_TEST = os.environ.get("BENCH_CRITERION_TEST") == "1"
OUT = os.environ.get("BENCH_OUT") or os.path.join(BENCH, "RESULTS.md")
OUT_JSON = OUT + ".json" if os.environ.get("BENCH_OUT") else os.path.join(TARGET, "bench-results.json")
# The longest chain of requests in a crawl: AAS list, then submodels, then elements.
DEPTH = 3

# With 2 cores shared, the server and the client under test fight over them and the
# figures say more about the scheduler than about either. So (unless BENCH_PIN=0) the
# demo service runs on CPU 0 and every client, ours, wrk and the peers alike, on the rest.
NCPU = os.cpu_count() or 1
PIN = os.environ.get("BENCH_PIN", "1") == "1" and NCPU >= 2 and shutil.which("taskset")
SERVER_CPUS = "0"
CLIENT_CPUS = "1" if NCPU == 2 else f"1-{NCPU - 1}"


def on_cpus(cpus, cmd):
    return ["taskset", "-c", cpus] + cmd if PIN else cmd

commands = []  # every command the suite ran, once each, for the report
WORK = tempfile.mkdtemp(prefix="aas-bench-")


def log(*args):
    print("bench:", *args, file=sys.stderr, flush=True)


def note(cmd):
    text = " ".join(cmd) if isinstance(cmd, list) else cmd
    text = text.replace(WORK + "/", "").replace(TARGET, "$CARGO_TARGET_DIR").replace(ROOT + "/", "")
    if text not in commands:
        commands.append(text)


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def fetch_json(url, data=None, headers=None):
    req = urllib.request.Request(url, data=data, headers=headers or {})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


class DemoService:
    def __init__(self, work, assets=ASSETS, faults=None):
        self.line = os.path.join(work, "demo-service.json")
        cmd = [AASMD, "demo-service", "--addr", "127.0.0.1:0", "--demo", str(assets)]
        if faults:
            cmd += ["--faults", faults]
        cmd = on_cpus(SERVER_CPUS, cmd)
        note(cmd + [">", "demo-service.json"])
        self.out = open(self.line, "w")
        self.proc = subprocess.Popen(cmd, stdout=self.out, stderr=subprocess.DEVNULL)
        for _ in range(3000):
            if os.path.getsize(self.line) > 0 and open(self.line).read().endswith("\n"):
                break
            if self.proc.poll() is not None:
                raise SystemExit("bench: the demo service did not start")
            time.sleep(0.05)
        self.conf = json.load(open(self.line))
        self.base = self.conf["registry_url"].rstrip("/")

    def rss_mb(self):
        """The demo service's resident memory now (taskset execs it, so the pid is its own)."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def stats(self):
        return fetch_json(self.base + "/demo-service/stats")

    def access_token(self):
        url = "{}/auth/realms/{}/protocol/openid-connect/token".format(
            self.conf["auth_url"].rstrip("/"), self.conf["realm"]
        )
        body = urllib.parse.urlencode(
            {
                "grant_type": "client_credentials",
                "client_id": self.conf["client_id"],
                "client_secret": self.conf["client_secret"],
            }
        ).encode()
        return fetch_json(url, data=body)["access_token"]

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.out.close()


def counted(sb, run):
    """Runs `run()` and returns its result with the demo service's token and request counts
    during it."""
    before = sb.stats()
    result = run()
    after = sb.stats()
    result["tokens"] = after["token_requests"] - before["token_requests"]
    # The second stats call itself is counted in requests_total: leave it out.
    result["server_requests"] = after["requests_total"] - before["requests_total"] - 1
    non200 = 0
    for route, by_status in after["requests"].items():
        for status, n in by_status.items():
            if status != "200":
                non200 += n - before["requests"].get(route, {}).get(status, 0)
    result["server_non200"] = non200
    return result


def crawl(sb, conc, out):
    cmd = on_cpus(CLIENT_CPUS, [AASMD, "--config", sb.line, "crawl", "--plant", PLANT,
                                "--format", "raw", "--out", out, "--concurrency", str(conc)])
    note([c if c != sb.line else "demo-service.json" for c in cmd])

    def run():
        # GNU time for the peak memory: a child forked from this Python would report
        # this Python's peak, which exec does not reset.
        peak = os.path.join(WORK, "peak-kb")
        with tempfile.TemporaryFile(mode="w+") as err:
            t0 = time.perf_counter()
            p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", peak] + cmd,
                                 stdout=subprocess.DEVNULL, stderr=err)
            _, status, usage = os.wait4(p.pid, 0)
            wall = time.perf_counter() - t0
            err.seek(0)
            stderr = err.read()
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"bench: crawl failed ({status}): {stderr[-2000:]}")
        m = re.search(r"aasmd: (\d+) requests in ([\d.]+)s", stderr)
        if not m:
            raise SystemExit(f"bench: no summary in: {stderr[-2000:]}")
        return {"requests": int(m.group(1)), "reported": float(m.group(2)), "wall": wall,
                "maxrss_mb": int(open(peak).read().split()[-1]) / 1024,
                # CPU of the crawl (GNU time's own is negligible).
                "cpu": usage.ru_utime + usage.ru_stime}

    return counted(sb, run)


def wrk(sb, conc, paths_file, token, seconds):
    threads = min(2, conc)
    cmd = on_cpus(CLIENT_CPUS, ["wrk", f"-t{threads}", f"-c{conc}", f"-d{seconds}s", "-s",
                                os.path.join(BENCH, "wrk-paths.lua"), sb.base])
    note(["WRK_PATHS=paths.txt", "ACCESS_TOKEN=…", "USER_TOKEN=…"]
         + [c.replace(sb.base, "$BASE") for c in cmd])
    env = dict(os.environ, WRK_PATHS=paths_file, ACCESS_TOKEN=token,
               USER_TOKEN=sb.conf["user_token"])

    def run():
        with tempfile.TemporaryFile(mode="w+") as out:
            p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
            _, status, usage = os.wait4(p.pid, 0)
            out.seek(0)
            stdout = out.read()
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"bench: wrk failed: {stdout}")
        # Let requests in flight when wrk stopped finish before the next count.
        time.sleep(0.5)
        rps = float(re.search(r"Requests/sec:\s+([\d.]+)", stdout).group(1))
        total = int(re.search(r"(\d+) requests in", stdout).group(1))
        return {"rps": rps, "requests": total, "cpu": usage.ru_utime + usage.ru_stime}

    return counted(sb, run)


def peer(sb, script, *args):
    cmd = on_cpus(CLIENT_CPUS, [PEER_PYTHON, os.path.join(BENCH, "peers", script), sb.line,
                                *map(str, args)])
    note(on_cpus(CLIENT_CPUS, ["python", f"bench/peers/{script}", "demo-service.json",
                               *map(str, args)]))

    def run():
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"bench: {script} failed: {p.stderr[-2000:]}")
        return json.loads(p.stdout.strip().splitlines()[-1])

    return counted(sb, run)


def paths_of(raw_file, out):
    """The request paths (path and query, as wrk wants them) of a raw export's nodes."""
    bundle = json.load(open(raw_file))
    paths = []
    for node in bundle["nodes"]:
        u = urllib.parse.urlsplit(node["url"])
        paths.append(u.path + ("?" + u.query if u.query else ""))
    with open(out, "w") as f:
        f.write("\n".join(paths) + "\n")
    return len(paths)


def criterion_estimate(group, name):
    d = os.path.join(TARGET, "criterion", group, name, "new")
    est = json.load(open(os.path.join(d, "estimates.json")))
    bench = json.load(open(os.path.join(d, "benchmark.json")))
    ns = est["median"]["point_estimate"]
    nbytes = (bench.get("throughput") or {}).get("Bytes")
    mbs = nbytes / (ns / 1e9) / 1e6 if nbytes else None
    return {"ns": ns, "bytes": nbytes, "mbs": mbs}


def run_criterion(package, bench, groups):
    """Runs a criterion bench and reads its medians; with BENCH_SKIP_CRITERION=1 only
    reads those the last `cargo bench` left (benches never run are left out); with
    BENCH_CRITERION_TEST=1 runs each of its benchmarks once as a test and reads nothing."""
    cmd = ["cargo", "bench", "-p", package, "--bench", bench]
    if CRITERION_TEST:
        cmd = ["cargo", "test", "-p", package, "--bench", bench]
        note(cmd)
        log(" ".join(cmd))
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=sys.stderr)
        return {}
    if SKIP_CRITERION:
        note(["(not run: BENCH_SKIP_CRITERION=1; the last figures of)"] + cmd)
    else:
        note(cmd)
        log(" ".join(cmd))
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=sys.stderr)
    found = {}
    for g, n in groups:
        try:
            found[f"{g}/{n}"] = criterion_estimate(g, n)
        except FileNotFoundError:
            pass
    return found


def machine():
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break

    def out(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True).stdout.strip().splitlines()[0]
        except (OSError, IndexError):
            return "?"

    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": str(os.cpu_count()),
        "cpu": cpu,
        "kernel": platform.release(),
        "os": out(["sh", "-c", ". /etc/os-release && echo $PRETTY_NAME"]),
        "rustc": out(["rustc", "--version"]),
        "wrk": out(["sh", "-c", "wrk -v 2>&1"]),
        "python": out([PEER_PYTHON, "-c", "import sys, requests, httpx; print(sys.version.split()[0], 'requests', requests.__version__, 'httpx', httpx.__version__)"]),
    }


def fmt(x, digits=0):
    if x is None or x != x:
        return "–"
    return f"{x:,.{digits}f}"


def versus_ceiling(sb, concs, work):
    """Rounds of our crawl and wrk, one right after the other, at each concurrency; one
    row per concurrency with medians and in-round ratios."""
    raw = os.path.join(work, "raw.json")
    paths = os.path.join(work, "paths.txt")
    # A first crawl (not counted) warms the demo service and gives the request list.
    first = crawl(sb, max(concs), raw)
    n_paths = paths_of(raw, paths)
    raw_mb = os.path.getsize(raw) / 1e6
    log(f"{first['requests']} requests per crawl, {n_paths} paths for wrk")
    token = sb.access_token()
    # wrk replays the list in order, and its head is the biggest answers (registry, AAS
    # lists): it must run long enough for whole passes, not just the head.
    seconds = max(WRK_SECONDS, math.ceil(1.5 * first["wall"]))
    ours = {c: [] for c in concs}
    ceiling = {c: [] for c in concs}
    for rep in range(REPS):
        for c in concs:
            ours[c].append(crawl(sb, c, raw))
            ceiling[c].append(wrk(sb, c, paths, token, seconds))
            o, w = ours[c][-1], ceiling[c][-1]
            log(f"round {rep + 1} c={c}: aasmd {o['requests'] / o['wall']:.0f} req/s "
                f"(wall {o['wall']:.2f}s, crawl {o['reported']:.2f}s), wrk {w['rps']:.0f} req/s")
    rows = []
    for c in concs:
        rps_wall = [r["requests"] / r["wall"] for r in ours[c]]
        rps_rep = [r["requests"] / r["reported"] for r in ours[c] if r["reported"] > 0]
        ratios = [r["requests"] / r["wall"] / w["rps"] for r, w in zip(ours[c], ceiling[c])]
        rows.append({
            "c": c,
            "wall": median([r["wall"] for r in ours[c]]),
            "reported": median([r["reported"] for r in ours[c]]),
            "rps": median(rps_wall),
            "rps_reported": median(rps_rep),
            "ceiling": median([w["rps"] for w in ceiling[c]]),
            "ratio": median(ratios),
            "ratio_reported": median([
                r["requests"] / r["reported"] / w["rps"]
                for r, w in zip(ours[c], ceiling[c]) if r["reported"] > 0
            ]),
            "maxrss_mb": median([r["maxrss_mb"] for r in ours[c]]),
            # CPU time per request (user + system): what each client costs the machine.
            "cpu_us": median([r["cpu"] / r["requests"] * 1e6 for r in ours[c]]),
            "wrk_cpu_us": median([w["cpu"] / w["requests"] * 1e6 for w in ceiling[c]]),
            "raw_mb": raw_mb,
            "tokens": sorted({r["tokens"] for r in ours[c]}),
            "requests": sorted({r["requests"] for r in ours[c]}),
            "server_requests": sorted({r["server_requests"] for r in ours[c]}),
            "non200": sum(r["server_non200"] for r in ours[c]),
            "wrk_non200": sum(w["server_non200"] for w in ceiling[c]),
            "wrk_tokens": sorted({w["tokens"] for w in ceiling[c]}),
        })
    return rows


def latency_bound(sb, conc, work):
    """Crawls at `conc` against a demo service that delays every data request: the crawl's
    own time against the lower bound max(depth, requests / concurrency) × latency."""
    raw = os.path.join(work, "raw.json")
    runs = [crawl(sb, conc, raw) for _ in range(REPS)]
    n = runs[0]["requests"]
    bound = max(DEPTH, -(-n // conc)) * LATENCY_MS / 1000
    took = median([r["reported"] for r in runs])
    return {"c": conc, "requests": n, "bound": bound, "crawl": took,
            "wall": median([r["wall"] for r in runs]), "ratio": bound / took,
            "tokens": sorted({r["tokens"] for r in runs})}


def main():
    started = time.time()
    work = WORK
    results = {"machine": machine()}
    sb = DemoService(work)
    try:
        log(f"demo service with {ASSETS} assets at {sb.base}")
        rows = versus_ceiling(sb, CONCS, work)
        results["crawl"] = rows
        best = max(rows, key=lambda r: r["rps"])
        results["best"] = best["c"]
        results["demo_service_rss"] = {ASSETS: sb.rss_mb()}

        # Peers: the same crawl, round by round beside ours, at the best concurrency.
        raw = os.path.join(work, "raw.json")
        peers = {"requests": [], "httpx": [], "ours": []}
        for rep in range(REPS):
            log(f"peers round {rep + 1}")
            peers["requests"].append(peer(sb, "crawl_requests.py"))
            peers["httpx"].append(peer(sb, "crawl_httpx.py", best["c"]))
            peers["ours"].append(crawl(sb, best["c"], raw))
        results["peers"] = peers
    finally:
        sb.stop()

    # Scaling: the same crawl and ceiling at the best concurrency on other plant sizes.
    scaling = {ASSETS: dict(best, assets=ASSETS, demo_service_rss=results["demo_service_rss"][ASSETS])}
    for assets in SCALING:
        sb = DemoService(work, assets)
        try:
            log(f"scaling: demo service with {assets} assets")
            row = versus_ceiling(sb, [best["c"]], work)[0]
            scaling[assets] = dict(row, assets=assets, demo_service_rss=sb.rss_mb())
        finally:
            sb.stop()
    results["scaling"] = [scaling[a] for a in sorted(scaling)]

    if LATENCY_MS > 0:
        sb = DemoService(work, ASSETS, f"latency={LATENCY_MS}ms")
        try:
            log(f"latency: {LATENCY_MS} ms per request")
            results["latency"] = [latency_bound(sb, c, work)
                                  for c in sorted({32, 64, best["c"]}) if c <= max(CONCS)]
        finally:
            sb.stop()

    results["parse"] = run_criterion("aas-model", "parse", [
        ("parse-samples", "typed"), ("parse-samples", "value"),
        ("parse-env-1000", "typed"), ("parse-env-1000", "typed-deep"),
        ("parse-env-1000", "value"),
        ("parse-env-10000", "typed"), ("parse-env-10000", "typed-deep"),
        ("parse-env-10000", "value"),
    ])
    results["export"] = run_criterion("aas-export", "export", [
        ("export-1000", "raw"), ("export-1000", "env"), ("export-1000", "aasx"),
    ])
    results["seconds"] = time.time() - started
    shutil.rmtree(work, ignore_errors=True)
    with open(OUT_JSON, "w") as f:
        json.dump(results, f, indent=1, default=str)
    write_report(results)


# Earlier figures (bench/RESULTS.md of former runs) for the before/after comparison;
# this run's are above them.
BEFORE_AFTER = [
    "**Before** (2026-11-22 01:44 UTC, unpinned, 1,000 assets, concurrency 64): 0.66 s wall, "
    "0.5 s crawl, 9,351 req/s against wrk's 20,238 — ratio 0.46 (wall), 0.61 (crawl); "
    "11.5× the sequential `requests` script. What changed since: the suite pins the server "
    "and the clients to separate cores (the client no longer competes with the demo service "
    "for a core, and wrk gets the same treatment); the crawl reads only the identifiers "
    "it follows from each AAS and submodel list instead of typing every shell and "
    "submodel (which copied every element's JSON once more per list); it no longer "
    "sleeps for zero before every request (a zero `tokio::time::sleep` still waits for "
    "the timer's next tick); bodies are read into a buffer sized from `Content-Length`; "
    "and `aasmd crawl` reports its time to 0.01 s.",
    "**Then** (2026-11-22 08:47 UTC, pinned, a quiet machine, 1,000 assets, best concurrency 64): "
    "0.64 s wall, 0.57 s crawl, 9,524 req/s against wrk's 13,713 — ratio 0.68 (wall), 0.76 "
    "(crawl); 85 µs of client CPU per request against wrk's 35; 11.3× the sequential script. "
    "`perf record` of the client: a fifth of its samples in serde_json's syntax skipping (a "
    "submodel list, half the bytes, was read three times: the syntax check, the list, each "
    "item's idShort), a tenth in glibc's malloc/free. What changed since: the identifiers a "
    "crawl follows are read in the pass that checks the syntax (`aas-client` `follow.rs`); "
    "`aasmd` allocates with mimalloc; the raw bundle is streamed to the file, each answer "
    "written as received instead of parsed again.",
    "**And then** (2026-11-22 09:04 UTC, the last suite on an Intel Xeon machine; the runs "
    "above are on an AMD EPYC one, so compare ratios, not seconds): best concurrency 8, "
    "0.52 s wall, 0.46 s crawl, 11,684 req/s against wrk's 12,866 — ratio 0.91 (wall), 1.04 "
    "(crawl), 62 µs of client CPU per request against wrk's 29; 18.7× the sequential script "
    "(missed). Both clients were held back by the demo service: it serialised every answer from "
    "`serde_json::Value` trees on each request, and wrk hit the same wall. What changed "
    "since: the demo service serialises its answers once at start (`aas-demo` `answers.rs`; "
    "pinned wrk against it at concurrency 8: 14.8-17.1k → 21.1-21.3k req/s in one session, "
    "and 209 → 69 MB resident for 1,000 assets), which uncovered the client's own cost: "
    "`strace -c` counted 9,863 futex calls per crawl, a cross-thread wake-up per answer on "
    "the multi-thread runtime; client commands of `aasmd` now run on a current-thread "
    "runtime (pinned crawl at concurrency 8, four runs each way: 0.35-0.51 s → 0.29-0.32 s, "
    "client CPU 60-90 → ~50 µs per request).",
]


def verdict(ok):
    return "**met**" if ok else "**missed**"


# The line of bench/RESULTS.md below which the figures of the other benches are kept.
KEEP_BELOW = "<!-- bench/run.sh rewrites what is above this line and keeps what is below it. -->"


def write_report(r):
    m = r["machine"]
    L = []
    L.append("# Benchmark results")
    L.append("")
    L.append("Written by `bench/run.sh` down to the other benchmarks' figures at the end (do not "
             "edit this part by hand; run it again). "
             f"The suite took {r['seconds'] / 60:.1f} minutes.")
    L.append("")
    L.append("## Machine")
    L.append("")
    L.append("| | |\n|---|---|")
    for k, label in [("date", "date"), ("nproc", "nproc"), ("cpu", "CPU"), ("kernel", "kernel"),
                     ("os", "OS"), ("rustc", "rustc"), ("wrk", "wrk"), ("python", "Python peers")]:
        L.append(f"| {label} | {m[k]} |")
    L.append("")
    L.append("Everything runs on this one machine: the demo service, the client under test and the "
             "load generator share its cores, so the figures are of a loaded machine. Ratios "
             "compare runs made in the same round, one right after the other; every figure is "
             f"the median of {REPS} rounds (criterion: the median of its samples).")
    L.append("")
    if PIN:
        L.append(f"Pinned (`taskset`): the demo service on CPU {SERVER_CPUS}; every client — "
                 f"`aasmd crawl`, `wrk` and the Python peers alike — on CPU {CLIENT_CPUS}, so "
                 "the server and the client under test do not take each other's core "
                 "(`BENCH_PIN=0` runs unpinned).")
    else:
        L.append("Not pinned: the demo service and the clients share every core.")
    L.append("")
    targets = []
    rows = r["crawl"]
    best = next(x for x in rows if x["c"] == r["best"])
    n_req = best["requests"][0]
    L.append(f"## 1. Crawl against the ceiling ({ASSETS:,} assets, {n_req:,} requests per crawl)")
    L.append("")
    L.append("`aasmd crawl --format raw` of the whole plant DEMO-01, timed from process start to exit "
             "(token, crawl and writing the raw bundle: *wall*), and as the crawl reports it "
             "(`aasmd: N requests in Ts`: *crawl*). The ceiling is `wrk` "
             "replaying the same request paths (the `url`s of the raw export's nodes) with the "
             "same two bearer headers, at the same number of connections, for "
             f"{WRK_SECONDS} s or 1.5 times a first crawl if longer (whole passes of the list).")
    L.append("")
    L.append("| concurrency | wall s | crawl s | ours req/s (wall) | ours req/s (crawl) | ceiling req/s (wrk) "
             "| ratio (wall) | ratio (crawl) | CPU µs/request ours, wrk | tokens per crawl | non-200 |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for x in rows:
        star = " **(best)**" if x["c"] == r["best"] else ""
        L.append(f"| {x['c']}{star} | {x['wall']:.2f} | {x['reported']:.2f} | {fmt(x['rps'])} | "
                 f"{fmt(x['rps_reported'])} | {fmt(x['ceiling'])} | {x['ratio']:.2f} | "
                 f"{x['ratio_reported']:.2f} | {x['cpu_us']:.0f}, {x['wrk_cpu_us']:.0f} | "
                 f"{', '.join(map(str, x['tokens']))} | "
                 f"{x['non200']} ours, {x['wrk_non200']} wrk |")
    L.append("")
    ok = best["ratio"] >= 0.8
    targets.append(("Crawl ≥ 0.8 × ceiling at the best concurrency",
                    f"{best['ratio']:.2f} (wall) / {best['ratio_reported']:.2f} (crawl) at {best['c']}",
                    verdict(ok)))
    L.append(f"Target ≥ 0.8 at the best concurrency ({best['c']}): {best['ratio']:.2f} by wall "
             f"time, {best['ratio_reported']:.2f} by the crawl's own time — {verdict(ok)}.")
    L.append("")
    L.append("*CPU µs/request* is the client process's user + system time (`wait4` rusage) over "
             "its requests: for `aasmd crawl` it includes start-up, the token and writing the "
             "raw bundle; wrk only sends and counts. It says how much of the machine each "
             "client needs, whoever the bottleneck is.")
    L.append("")
    L.extend(BEFORE_AFTER)
    L.append("")

    p = r["peers"]
    ours_t = median([x["wall"] for x in p["ours"]])
    req_t = median([x["seconds"] for x in p["requests"]])
    httpx_t = median([x["seconds"] for x in p["httpx"]])
    s_req = median([a["seconds"] / b["wall"] for a, b in zip(p["requests"], p["ours"])])
    s_httpx = median([a["seconds"] / b["wall"] for a, b in zip(p["httpx"], p["ours"])])
    L.append(f"## 2. Against the peers (same demo service, same requests, concurrency {r['best']})")
    L.append("")
    L.append("Each round runs the three one after the other; the speed-up is the median of the "
             "rounds' ratios. Our time is the wall time of `aasmd crawl` (process start, token, "
             "crawl, writing the raw bundle); the peers time from their start to the last answer "
             "(token included, nothing written).")
    L.append("")
    L.append("| client | requests | seconds (median) | req/s | tokens per run | our speed-up |")
    L.append("|---|---|---|---|---|---|")
    L.append(f"| `aasmd crawl --concurrency {r['best']}` | {p['ours'][0]['requests']:,} | {ours_t:.2f} | "
             f"{fmt(p['ours'][0]['requests'] / ours_t)} | {', '.join(sorted({str(x['tokens']) for x in p['ours']}))} | – |")
    L.append(f"| `bench/peers/crawl_requests.py` (sequential `requests`) | {p['requests'][0]['requests']:,} | "
             f"{req_t:.2f} | {fmt(p['requests'][0]['requests'] / req_t)} | "
             f"{', '.join(sorted({str(x['tokens']) for x in p['requests']}))} | **{s_req:.1f}×** |")
    L.append(f"| `bench/peers/crawl_httpx.py {r['best']}` (httpx asyncio) | {p['httpx'][0]['requests']:,} | "
             f"{httpx_t:.2f} | {fmt(p['httpx'][0]['requests'] / httpx_t)} | "
             f"{', '.join(sorted({str(x['tokens']) for x in p['httpx']}))} | **{s_httpx:.1f}×** |")
    L.append("")
    c1 = next((x for x in rows if x["c"] == 1), None)
    if c1:
        L.append(f"For a like-for-like sequential figure: `aasmd crawl --concurrency 1` took "
                 f"{c1['wall']:.2f} s, {req_t / c1['wall']:.1f}× faster than the sequential script "
                 "(medians of different rounds).")
        L.append("")
    L.append("Both peers are bound by one Python thread's CPU, not by the network: on this "
             "machine the httpx script got slower, not faster, as its concurrency rose "
             "(10.8 s at 1, 13.0 s at 8, 15.9 s at 32 in a trial run), and spent more per "
             "request than `requests`.")
    L.append("")
    targets.append(("≥ 20× the sequential `requests` script", f"{s_req:.1f}×", verdict(s_req >= 20)))
    targets.append(("≥ 2× the httpx asyncio script", f"{s_httpx:.1f}×", verdict(s_httpx >= 2)))

    L.append("## 3. Tokens")
    L.append("")
    toks = sorted({t for x in rows for t in x["tokens"]} | {x["tokens"] for x in p["ours"]})
    L.append(f"Token requests the demo service counted (`GET /demo-service/stats`, difference before/after) "
             f"during each of the {REPS * len(rows) + len(p['ours'])} timed `aasmd crawl` runs: "
             f"{', '.join(map(str, toks))} (each run is a new process, so one token per run is "
             f"the floor; the token lives 300 s). Each wrk run: "
             f"{', '.join(sorted({str(t) for x in rows for t in x['wrk_tokens']}))} (its token is "
             "fetched once before). Requests the demo service counted per crawl: "
             f"{', '.join(sorted({str(s) for x in rows for s in x['server_requests']}))}, "
             "the registry and gateway requests plus the token request.")
    L.append("")
    targets.append(("One token request per crawl", ", ".join(map(str, toks)), verdict(toks == [1])))

    sc = r.get("scaling")
    if sc:
        L.append(f"## Scaling (crawl at concurrency {r['best']}, the ceiling beside it)")
        L.append("")
        L.append("Each plant size has its own demo service; per size, rounds of our crawl and wrk "
                 "as in section 1. *Client peak* is `aasmd crawl`'s peak resident memory "
                 "(GNU `time`'s %M), which holds every answer until the export is written; "
                 "*demo service* its resident memory after the runs.")
        L.append("")
        L.append("| assets | requests | raw bundle MB | wall s | crawl s | µs per request (crawl) "
                 "| ours req/s (wall) | ceiling req/s | ratio (wall) | ratio (crawl) "
                 "| client peak MB | demo service MB |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for x in sc:
            n = x["requests"][0]
            L.append(f"| {x['assets']:,} | {n:,} | {fmt(x['raw_mb'])} | {x['wall']:.2f} | "
                     f"{x['reported']:.2f} | {x['reported'] / n * 1e6:.0f} | {fmt(x['rps'])} | "
                     f"{fmt(x['ceiling'])} | {x['ratio']:.2f} | {x['ratio_reported']:.2f} | "
                     f"{fmt(x['maxrss_mb'])} | {fmt(x['demo_service_rss'])} |")
        L.append("")
        lo, hi = sc[0], sc[-1]
        per = [x["reported"] / x["requests"][0] for x in sc]
        growth = max(per) / min(per)
        mem = (hi["maxrss_mb"] - lo["maxrss_mb"]) / max(1, hi["assets"] - lo["assets"]) * 1000
        linear = growth <= 1.5
        L.append(f"From {lo['assets']:,} to {hi['assets']:,} assets the requests grow "
                 f"{hi['requests'][0] / lo['requests'][0]:.0f}× and the crawl's time per request "
                 f"stays within {growth:.2f}× of its lowest, so the time grows linearly with "
                 f"the plant{'' if linear else ' — **not**: see the figures'}; the client's peak "
                 f"memory grows by {mem:.0f} MB per 1,000 assets (the answers it keeps).")
        L.append("")
        targets.append(("Scaling 100 → 10,000 assets linear (time per request within 1.5×)",
                        f"{growth:.2f}×", verdict(linear)))
        big = max(sc, key=lambda x: x["assets"])
        targets.append((f"Crawl ≥ 0.8 × ceiling ({big['assets']:,} assets, concurrency {r['best']})",
                        f"{big['ratio']:.2f} (wall) / {big['ratio_reported']:.2f} (crawl)",
                        verdict(big["ratio"] >= 0.8)))
    lat = r.get("latency")
    if lat:
        L.append(f"## Latency-bound crawl ({LATENCY_MS} ms added per request)")
        L.append("")
        L.append(f"`aasmd demo-service --demo {ASSETS} --faults latency={LATENCY_MS}ms` delays every "
                 "registry and gateway answer. No crawl can beat max(depth, ⌈requests / "
                 f"concurrency⌉) × latency (depth {DEPTH}: AAS list, submodels, elements); "
                 "speed against that bound = bound / the crawl's own time.")
        L.append("")
        L.append("| concurrency | requests | lower bound s | crawl s | wall s | speed vs bound |")
        L.append("|---|---|---|---|---|---|")
        for x in lat:
            L.append(f"| {x['c']} | {x['requests']:,} | {x['bound']:.2f} | {x['crawl']:.2f} | "
                     f"{x['wall']:.2f} | {x['ratio']:.2f} |")
        L.append("")
        top = lat[-1]
        targets.append((f"Latency-bound crawl ≥ 0.8 of the bound's speed (concurrency {top['c']})",
                        f"{top['ratio']:.2f}", verdict(top["ratio"] >= 0.8)))
    if r.get("parse"):
        ps = r["parse"]
        L.append("## 4. Model parse (criterion, `cargo bench -p aas-model --bench parse`)")
        L.append("")
        L.append("Typed: `aas_model::parse::<T>` with T picked by the document's shape (as "
                 "`tests/roundtrip.rs` does), after `str::from_utf8`. Ceiling: "
                 "`serde_json::from_slice::<serde_json::Value>` of the same bytes. The samples "
                 "are every JSON file under `shared/aas-samples` but the schema, read in one "
                 "iteration; the environments are "
                 "`aas_demo::environment(&demo_plant(\"P\", N, 1))` serialised, what an "
                 "environment export of an N-asset crawl holds.")
        L.append("")
        L.append("| input | bytes | typed MB/s | Value MB/s | ratio typed / Value |")
        L.append("|---|---|---|---|---|")
        for g, label in [("parse-samples", "public samples"),
                         ("parse-env-1000", "1,000-asset environment"),
                         ("parse-env-10000", "10,000-asset environment")]:
            t, v = ps.get(f"{g}/typed"), ps.get(f"{g}/value")
            if not (t and v):
                continue
            ratio = v["ns"] / t["ns"]
            L.append(f"| {label} | {t['bytes']:,} | {fmt(t['mbs'])} | {fmt(v['mbs'])} | {ratio:.2f} |")
            targets.append((f"Parse ≥ 0.5 × `Value` ({label})", f"{ratio:.2f}", verdict(ratio >= 0.5)))
            deep = ps.get(f"{g}/typed-deep")
            if deep:
                ratio = v["ns"] / deep["ns"]
                L.append(f"| {label}, every element typed | {deep['bytes']:,} | {fmt(deep['mbs'])} | "
                         f"{fmt(v['mbs'])} | {ratio:.2f} |")
                targets.append((f"Parse ≥ 0.5 × `Value` ({label}, every element typed)",
                                f"{ratio:.2f}", verdict(ratio >= 0.5)))
        L.append("")
        L.append("Read this with two facts in mind. The typed model keeps a submodel's elements "
                 "(and a collection's children) as their JSON text (`RawElement`, validated and "
                 "copied, typed on demand), so `typed` is the parse the app and the export do; "
                 "*every element typed* adds typing each element at every depth (each nested "
                 "text is scanned again per level), the cost of a full walk. And the workspace "
                 "builds `serde_json` with `preserve_order`, so `Value` objects are `IndexMap`s, "
                 "which makes this ceiling slower than a default `serde_json` build.")
        L.append("")
    if r.get("export"):
        ex = r["export"]
        L.append("## 5. Export of the 1,000-asset crawl (criterion, `cargo bench -p aas-export --bench export`)")
        L.append("")
        L.append("A demo service with 1,000 assets is crawled once (concurrency 32) in the bench's set-up; "
                 "each iteration is `aas_export::export(&crawl, format, …)` into a temporary "
                 "folder (temp file, fsync, rename). MB/s counts the bytes written for raw and "
                 "env; for aasx, the bytes of the environment JSON it packs.")
        L.append("")
        L.append("| format | bytes counted | median ms | MB/s |")
        L.append("|---|---|---|---|")
        for f in ["raw", "env", "aasx"]:
            e = ex.get(f"export-1000/{f}")
            if not e:
                continue
            L.append(f"| {f} | {e['bytes']:,} | {e['ns'] / 1e6:.1f} | {fmt(e['mbs'])} |")
            if f != "aasx":
                targets.append((f"Export {f} ≥ 100 MB/s", f"{fmt(e['mbs'])} MB/s", verdict(e["mbs"] >= 100)))
        L.append("")

    L.append("## Targets")
    L.append("")
    L.append("| target | measured | |")
    L.append("|---|---|---|")
    for t in targets:
        L.append(f"| {t[0]} | {t[1]} | {t[2]} |")
    L.append("")
    L.append("The app (cold start, first paint, frame cost) and its memory (issue 6, items 7 "
             "and 8) are measured by `bench/app.sh`: see `bench/APP-RESULTS.md`.")
    L.append("")
    L.append("## Commands")
    L.append("")
    L.append("`bench/run.sh` ran, in this order (`demo-service.json` is the demo service's start-up line; "
             "`$BASE` its `registry_url`; `paths.txt` the paths of the raw export's nodes):")
    L.append("")
    L.append("```")
    L.extend(commands)
    L.append("```")
    L.append("")
    out = OUT
    # The figures of the other benches (recorded by hand, dated) follow KEEP_BELOW in
    # the file; a new run rewrites only what is above it.
    kept = ""
    if os.path.exists(out):
        with open(out) as f:
            old = f.read()
        if KEEP_BELOW in old:
            kept = "\n" + old[old.index(KEEP_BELOW):]
    with open(out, "w") as f:
        f.write("\n".join(L) + kept)
    log(f"wrote {out}")


if __name__ == "__main__":
    main()
