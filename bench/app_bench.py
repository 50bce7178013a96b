"""Times and memory of the real app window (issue 6, items 7 and 8).

Run by bench/app.sh (under Xvfb, in a D-Bus session with a fresh GNOME Keyring); writes
bench/APP-RESULTS.md. Drives release builds through WebKitWebDriver with the e2e
suite's driver (tests/e2e/app_driver.py). Timings are taken inside the page
(performance.now, requestAnimationFrame); memory is the proportional set size (PSS)
of the app's process tree: the app and its WebKit processes.

Environment: AAS_BROWSER_BIN, EMPTY_WINDOW_BIN, AASMD_BIN (release builds),
APP_BENCH_RUNS (app starts for the start-up and idle figures, default 5),
APP_BENCH_OUT (default bench/APP-RESULTS.md).
"""

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
from app_driver import AppTestCase, row  # noqa: E402

BENCH_PLANT = "BENCH-01"
BIG_TREE = 10_000  # AAS of one asset type, served from a generated environment file
CRAWL_ASSETS = 1_000  # the generated demo plant taken as a snapshot
SETTLE_S = 3  # let the page and WebKit's caches settle before reading memory
MB = 1024 * 1024

# --- the app's process tree and its memory -------------------------------------------


def children(pid):
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(p) for p in f.read().split()]


def descendants(pid):
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            todo.extend(children(p))
        except FileNotFoundError:
            pass  # gone meanwhile
    return found


def pss_bytes(root):
    """PSS summed over `root` and every process below it (WebKit's web and network
    processes are the app's children)."""
    total = 0
    for pid in descendants(root):
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                total += next(int(line.split()[1]) * 1024 for line in f if line.startswith("Pss:"))
        except (FileNotFoundError, ProcessLookupError, StopIteration):
            pass
    return total


def settled_pss(root):
    time.sleep(SETTLE_S)
    return pss_bytes(root)


def spawn_epoch_ms(pid):
    """When `pid` was started, on the wall clock the page's performance.timeOrigin uses.
    /proc gives clock ticks since boot; the offset to the wall clock is read now (not
    from btime, which drifts from the wall clock on a long-running host)."""
    with open(f"/proc/{pid}/stat") as f:
        start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
    boot_offset = time.time() - time.clock_gettime(time.CLOCK_BOOTTIME)
    return (start_ticks / os.sysconf("SC_CLK_TCK") + boot_offset) * 1000


# --- one app window ------------------------------------------------------------------


class Window(AppTestCase):
    """One window of `binary`, started by WebKitWebDriver as the e2e tests start it."""

    @classmethod
    def open(cls, binary):
        os.environ["AAS_BROWSER_BIN"] = binary
        cls.setUpClass()
        real = os.path.realpath(binary)
        (cls.pid,) = [p for p in children(cls.driver.pid) if os.path.realpath(f"/proc/{p}/exe") == real]
        return cls

    @classmethod
    def close(cls):
        cls.tearDownClass()

    @classmethod
    def run_async(cls, body, *args):
        """Runs `body` (JS; `done(value)` ends it) in the page and returns its value."""
        source = f"const done = arguments[arguments.length - 1]; {body}"
        return cls.wd.cmd("POST", "/execute/async", {"script": source, "args": list(args)})

    @classmethod
    def poll(cls, source, *args, timeout=60, what=""):
        deadline = time.monotonic() + timeout
        while True:
            got = cls.wd.script(source, *args)
            if got:
                return got
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout}s: {what or source}")
            time.sleep(0.05)


# After the next paint: requestAnimationFrame runs just before a frame is painted, a
# task queued from it runs once that frame is done.
AFTER_PAINT = "const afterPaint = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)));"


def first_rows_ms(w):
    """From the app's process start to the frame that painted the first tree rows."""
    origin, mark = w.poll("""
        const m = performance.getEntriesByName('tree-first-rows')[0];
        return m ? [performance.timeOrigin, m.startTime] : null;""", what="no tree rows painted")
    return origin + mark - spawn_epoch_ms(w.pid)


def time_until_rows(w, trigger_js, rows_css, target_css=None):
    """ms from running `trigger_js` (it may use `target`, the element `target_css`
    matches) to the paint of the frame that first shows a row matching `rows_css`."""
    return w.run_async(AFTER_PAINT + f"""
        const [rows, target] = [arguments[0], document.querySelector(arguments[1])];
        const t0 = performance.now();
        {trigger_js}
        const check = () => document.querySelector(rows)
          ? afterPaint().then(() => done(performance.now() - t0))
          : requestAnimationFrame(check);
        check();""", rows_css, target_css)


def big_tree_paint_ms(w):
    """Data ready (the list is loaded: its chip counts it) to the first paint of the
    tree of all its AAS: show another asset type, then time the click back."""
    w.wd.click(w.wd.wait_for('.chip[data-type="tool"]'))
    w.poll("return !document.querySelector('#tree li')", what="tree not emptied")
    return time_until_rows(w, "target.click();", "#tree li[role=treeitem]", '.chip[data-type="machine"]')


SCROLL_ROWS = 30  # rows a frame


def scroll_frames(w, frames=300, rows_per_frame=SCROLL_ROWS):
    """Scrolls the tree by `rows_per_frame` rows each frame. Per frame: the main
    thread's work (the tree's scroll handler, then style, layout and paint up to the
    end of the frame) and the interval between frames."""
    return w.run_async(AFTER_PAINT + """
        const [frames, step] = [arguments[0], arguments[1] * 26];
        const viewport = document.getElementById('tree-viewport');
        viewport.scrollTop = 0;
        const work = [], intervals = [];
        let handlerStart = null, last = null;
        // Capture on document runs before the tree's own listener, bubbling after it.
        document.addEventListener('scroll', () => { handlerStart = performance.now(); }, true);
        viewport.addEventListener('scroll', () => { work.push(performance.now() - handlerStart); });
        let n = 0;
        const frame = (now) => {
          if (last !== null) intervals.push(now - last);
          last = now;
          const t = performance.now();
          setTimeout(() => {
            work.push(performance.now() - t);
            if (n++ < frames) { viewport.scrollTop += step; requestAnimationFrame(frame); }
            else done({ work: work.reduce((a, b) => a + b, 0) / frames, intervals,
                        rows: document.querySelectorAll('#tree li').length,
                        end: viewport.scrollTop });
          });
        };
        afterPaint().then(() => requestAnimationFrame(frame));""", frames, rows_per_frame)


def expand_ms(w, label):
    """Click on a collapsed AAS to the paint of its submodels (IPC, HTTP, parse, DOM)."""
    return time_until_rows(w, "target.querySelector('.twisty').click();",
                           'li[role=treeitem][aria-level="2"]', row(label))


def collapse_all(w):
    w.wd.script("""for (const t of document.querySelectorAll('li[aria-expanded="true"] .twisty')) t.click();""")
    w.poll("return !document.querySelector('li[aria-level=\"2\"]')", what="rows still expanded")


# --- the bench data --------------------------------------------------------------------


def big_environment(path, n):
    """An AAS V2.0.1 environment of `n` AAS, each with a small nameplate."""
    def ref(kind, value):
        return {"keys": [{"type": kind, "local": True, "value": value, "idType": "IRI"}]}

    def ident(value):
        return {"idType": "IRI", "id": value}

    shells, assets, submodels = [], [], []
    for i in range(1, n + 1):
        aas, asset, sm = (f"urn:bench:{BENCH_PLANT}:{kind}#B-{i:05}" for kind in ("aas", "asset", "sm"))
        shells.append({"modelType": {"name": "AssetAdministrationShell"}, "idShort": f"Machine_B{i:05}",
                       "identification": ident(aas), "asset": ref("Asset", asset),
                       "submodels": [ref("Submodel", sm)]})
        assets.append({"modelType": {"name": "Asset"}, "idShort": f"Asset_B{i:05}",
                       "identification": ident(asset), "kind": "Instance"})
        submodels.append({"modelType": {"name": "Submodel"}, "idShort": "Nameplate", "kind": "Instance",
                          "identification": ident(sm), "submodelElements": [
                              {"modelType": {"name": "Property"}, "idShort": "SerialNumber",
                               "kind": "Instance", "valueType": "string", "value": f"SN-B-{i:05}"}]})
    with open(path, "w") as f:
        json.dump({"assetAdministrationShells": shells, "assets": assets, "submodels": submodels,
                   "conceptDescriptions": []}, f)


def start_sandbox(aasmd, env_file):
    """An external sandbox (its memory is not the app's): the generated plant DEMO-01
    of CRAWL_ASSETS assets, and BENCH-01 with the BIG_TREE machines of `env_file`."""
    proc = subprocess.Popen([aasmd, "sandbox", "--addr", "127.0.0.1:0", "--demo", str(CRAWL_ASSETS),
                             "--data", env_file, "--plant", BENCH_PLANT, "--asset-type", "machine"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return proc, json.loads(proc.stdout.readline())


def use_bench_profile(w, line):
    """Saves a profile of the external sandbox (secrets to the keychain, as the profile
    form does) and switches to it as the profile picker does."""
    profile = {key: line[key] for key in ("registry_url", "gateway_url", "auth_url", "realm", "client_id")}
    profile.update(name="Bench", client_auth="form", plants=[BENCH_PLANT, "DEMO-01"])
    err = w.run_async("""
        window.__TAURI__.core.invoke('save_profile', arguments[0])
          .then(() => { const s = document.getElementById('profile');
                        s.append(new Option('Bench', 'Bench')); s.value = 'Bench';
                        s.dispatchEvent(new Event('change')); done(null); },
                (e) => done(String(e?.message ?? e)));""",
                      {"profile": profile, "clientSecret": line["client_secret"], "userToken": line["user_token"],
                       "sessionOnly": False})
    if err:
        raise AssertionError(f"saving the bench profile failed: {err}")
    w.poll("return document.querySelector('.chip[data-type=\"machine\"] .count')?.textContent === arguments[0]",
           str(BIG_TREE), timeout=120, what="the 10,000 machines were not listed")
    w.wd.wait_for(row("Machine_B00001"), timeout=30)


def load_everything(w, plant):
    w.wd.script("const p = document.getElementById('plant'); p.value = arguments[0];"
                "p.dispatchEvent(new Event('change'));", plant)
    w.wd.wait_for(row("Machine_M0001"), timeout=60)
    t0 = time.monotonic()
    w.wd.click(w.wd.wait_for("#take-snapshot"))
    w.poll("return /^(Snapshot taken|Cancelled)/.test(document.getElementById('load-text').textContent)",
           timeout=600, what="the snapshot did not finish")
    return time.monotonic() - t0, w.wd.text_content("#load-text")


# --- the runs ---------------------------------------------------------------------------


def starts(binary, runs, measure_start):
    """`runs` fresh windows: start-up time (if `measure_start`) and idle PSS of each."""
    times, memory = [], []
    for _ in range(runs):
        w = Window.open(binary)
        try:
            if measure_start:
                times.append(first_rows_ms(w))
            else:
                w.poll("return document.readyState === 'complete'")
            memory.append(settled_pss(w.pid))
        finally:
            w.close()
    return times, memory


def big_session(app, aasmd, workdir):
    env_file = os.path.join(workdir, "bench-10000.json")
    big_environment(env_file, BIG_TREE)
    sandbox, line = start_sandbox(aasmd, env_file)
    w = Window.open(app)
    r = {}
    try:
        first_rows_ms(w)
        r["idle"] = settled_pss(w.pid)
        r["expand"] = []
        for label in (f"Machine_M{i:04}" for i in (1, 2, 3)):
            r["expand"].append(expand_ms(w, label))
            collapse_all(w)
        use_bench_profile(w, line)
        r["big_paint"] = [big_tree_paint_ms(w) for _ in range(5)]
        r["big"] = settled_pss(w.pid)
        r["scroll"] = [scroll_frames(w) for _ in range(3)]
        r["scrolled"] = settled_pss(w.pid)
        r["crawl_s"], r["crawl_text"] = load_everything(w, "DEMO-01")
        r["crawled"] = settled_pss(w.pid)
    finally:
        w.close()
        sandbox.terminate()
        sandbox.wait(10)
    return r


def median(xs):
    return statistics.median(xs)


def report(machine, runs, start, app_idle, floor, big):
    scroll_work = median([s["work"] for s in big["scroll"]])
    intervals = [i for s in big["scroll"] for i in s["intervals"]]
    idle = median(app_idle)
    rows = [
        ("Cold start to the demo tree painted", f"{median(start):.0f} ms (first {start[0]:.0f}, "
         f"min {min(start):.0f}, max {max(start):.0f}; {runs} starts)", "≤ 1500 ms",
         median(start) <= 1500),
        ("10,000 AAS: data ready to first paint", f"{median(big['big_paint']):.1f} ms "
         f"(median of {len(big['big_paint'])}, max {max(big['big_paint']):.1f})", "≤ 100 ms",
         median(big["big_paint"]) <= 100),
        ("Scrolling 10,000 AAS: main-thread work a frame", f"{scroll_work:.2f} ms "
         f"(frame interval: median {median(intervals):.1f} ms, p95 "
         f"{sorted(intervals)[int(len(intervals) * .95)]:.1f} ms)", "≤ 16 ms", scroll_work <= 16),
        ("Expand an AAS to its submodels painted", f"{median(big['expand']):.1f} ms "
         f"(median of {len(big['expand'])}, max {max(big['expand']):.1f})", "—", None),
        ("PSS: empty Tauri window (floor)", f"{median(floor) / MB:.1f} MB", "—", None),
        ("PSS: idle on the demo profile", f"{idle / MB:.1f} MB (floor + {(idle - median(floor)) / MB:.1f})",
         "≤ floor + 30 MB", idle - median(floor) <= 30 * MB),
        ("PSS: 10,000 AAS in the tree", f"{big['big'] / MB:.1f} MB (idle + {(big['big'] - big['idle']) / MB:.1f})",
         "≤ idle + 80 MB", big["big"] - big["idle"] <= 80 * MB),
        ("PSS: after scrolling through them 3 times", f"{big['scrolled'] / MB:.1f} MB "
         f"(idle + {(big['scrolled'] - big['idle']) / MB:.1f}; {scrolled_rows(big):,} rows scrolled into view)", "—", None),
        ("PSS: after loading everything, 1,000 assets", f"{big['crawled'] / MB:.1f} MB "
         f"(idle + {(big['crawled'] - big['idle']) / MB:.1f}; load took {big['crawl_s']:.1f} s)", "—", None),
    ]
    verdict = {True: "met", False: "**missed**", None: ""}
    lines = [
        "# The app: timings and memory", "",
        "Written by `bench/app.sh` (bench/app_bench.py); issue 6, items 7 and 8.", "",
        f"Machine: {machine}.", "",
        "Release builds, under Xvfb (1280×800), started by WebKitWebDriver as the e2e tests",
        "start them. Timings are taken inside the page (`performance.now`, a frame is",
        "painted when a task queued from its `requestAnimationFrame` runs); start-up is from",
        "the app's process start (`/proc/PID/stat`) to the frame that painted the first",
        "tree rows (a `performance.mark` of ui/tree.js). Memory is PSS from",
        "`/proc/PID/smaps_rollup` summed over the app and its WebKit processes, read",
        f"{SETTLE_S} s after each step. The 10,000 AAS and the 1,000-asset plant are served",
        "by an external `aasmd sandbox` (not counted); the demo profile's sandbox runs in",
        "the app and is counted.", "",
        f"Drawing: {drawing_line()}", "",
        "| measure | result | target | |", "|---|---|---|---|",
        *[f"| {m} | {res} | {t} | {verdict[ok]} |" for m, res, t, ok in rows], "",
        f"Idle PSS of each start (MB): {', '.join(f'{x / MB:.1f}' for x in app_idle)}; "
        f"empty window: {', '.join(f'{x / MB:.1f}' for x in floor)}.", "",
        f"Loading everything ended with: {big['crawl_text']!r}.", "",
        f"Scrolling: {len(big['scroll'])} runs of 300 frames, 30 rows a frame; rows in the DOM at "
        f"the end: {big['scroll'][-1]['rows']}.", "",
    ]
    return "\n".join(lines)


def scrolled_rows(big):
    return sum(len(s["intervals"]) for s in big["scroll"]) * SCROLL_ROWS


def drawing_line():
    """How WebKit draws here: src-tauri/src/rendering.rs turns compositing off where no
    GPU render node exists (the app and the empty window alike)."""
    if os.environ.get("WEBKIT_DISABLE_COMPOSITING_MODE") is not None:
        return f"WEBKIT_DISABLE_COMPOSITING_MODE={os.environ['WEBKIT_DISABLE_COMPOSITING_MODE']} set by the caller."
    if os.path.isdir("/dev/dri") and any(n.startswith("renderD") for n in os.listdir("/dev/dri")):
        return "a GPU render node exists: WebKit composites (its default)."
    return "no GPU render node (/dev/dri/renderD*): the app and the empty window draw without compositing."


def machine_line():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    webkit = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libwebkit2gtk-4.1-0"],
                            capture_output=True, text=True).stdout or "?"
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, WebKitGTK {webkit}"


def main():
    app, floor_bin, aasmd = (os.environ[k] for k in ("AAS_BROWSER_BIN", "EMPTY_WINDOW_BIN", "AASMD_BIN"))
    runs = int(os.environ.get("APP_BENCH_RUNS", "5"))
    out = os.environ.get("APP_BENCH_OUT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "APP-RESULTS.md"))
    os.environ.setdefault("E2E_OUT", tempfile.mkdtemp(prefix="app-bench-"))
    start, app_idle = starts(app, runs, measure_start=True)
    print(f"start (ms): {[round(x) for x in start]}; idle PSS (MB): {[round(x / MB, 1) for x in app_idle]}", flush=True)
    _, floor = starts(floor_bin, runs, measure_start=False)
    print(f"empty window PSS (MB): {[round(x / MB, 1) for x in floor]}", flush=True)
    with tempfile.TemporaryDirectory() as workdir:
        big = big_session(app, aasmd, workdir)
    print(json.dumps({k: v for k, v in big.items() if k != "scroll"}), flush=True)
    text = report(machine_line(), runs, start, app_idle, floor, big)
    with open(out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
