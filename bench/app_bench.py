"""Times and memory of the real app window (issue 6, items 7 and 8; issue 17: snapshots).

Run by bench/app.sh (under Xvfb, in a D-Bus session with a fresh GNOME Keyring); writes
bench/APP-RESULTS.md. Drives release builds through WebKitWebDriver with the e2e
suite's driver (tests/e2e/app_driver.py). Timings are taken inside the page
(performance.now, requestAnimationFrame); memory is the proportional set size (PSS)
of the app's process tree: the app and its WebKit processes.

Environment: AAS_BROWSER_BIN, EMPTY_WINDOW_BIN, AASMD_BIN (release builds),
APP_BENCH_RUNS (app starts for the start-up and idle figures, default 5),
APP_BENCH_OUT (default bench/APP-RESULTS.md). Smaller runs (`make bench-smoke`, which
only checks that every step still runs): APP_BENCH_SHELLS (the machines of BENCH-01,
default 10000), APP_BENCH_ASSETS (the plant taken in the window, 1000), APP_BENCH_REPEATS
(of each snapshot timing, 3), APP_BENCH_FRAMES (a scroll's frames, 300), APP_BENCH_SETTLE_S
(the wait before a memory reading, 3); bench/table_app_bench.py, quality_bench.py and
search_p95.py read them too.
"""

import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
from app_driver import AppTestCase, row  # noqa: E402

BENCH_PLANT = "BENCH-01"
BIG_TREE = int(os.environ.get("APP_BENCH_SHELLS", "10000"))  # AAS of one asset type, served from a generated environment file
CRAWL_ASSETS = int(os.environ.get("APP_BENCH_ASSETS", "1000"))  # the generated demo plant taken as a snapshot
CHANGED_EVERY = 100  # between the two snapshots of BENCH_PLANT: 1% of its machines change
SEARCHES = {"one serial number": f"SN-B-{min(4321, BIG_TREE):05}", "a word in every shell": "Maschinenbau"}
TYPING_GAP_MS = 60  # between keystrokes, under the search box's typing pause
REPEATS = int(os.environ.get("APP_BENCH_REPEATS", "3"))  # of each snapshot timing (the search: of each query)
FRAMES = int(os.environ.get("APP_BENCH_FRAMES", "300"))  # of each scroll
SETTLE_S = float(os.environ.get("APP_BENCH_SETTLE_S", "3"))  # let the page and WebKit's caches settle before reading memory
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


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def e2e_out(prefix):
    """E2E_OUT (where the driver's logs go), a new temporary folder unless it is set."""
    if "E2E_OUT" not in os.environ:
        os.environ["E2E_OUT"] = tempfile.mkdtemp(prefix=prefix)


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
        # Processes of a window that outlive it share the WebKit libraries' pages with
        # the next window and lower its PSS (an empty window read 161 MB instead of
        # 194): the next window waits until they are gone.
        procs = descendants(cls.pid)
        cls.tearDownClass()
        deadline = time.monotonic() + 10
        while any(alive(p) for p in procs) and time.monotonic() < deadline:
            time.sleep(0.1)

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


def time_until(w, trigger_js, ready_js, target_css=None):
    """ms from running `trigger_js` (it may use `target`, the element `target_css`
    matches) to the paint of the frame in which the expression `ready_js` first holds."""
    return w.run_async(AFTER_PAINT + f"""
        const target = document.querySelector(arguments[0]);
        const t0 = performance.now();
        {trigger_js}
        const check = () => ({ready_js})
          ? afterPaint().then(() => done(performance.now() - t0))
          : requestAnimationFrame(check);
        check();""", target_css)


def time_until_rows(w, trigger_js, rows_css, target_css=None):
    """ms from `trigger_js` to the paint of the frame that first shows a row matching `rows_css`."""
    return time_until(w, trigger_js, f"document.querySelector({json.dumps(rows_css)})", target_css)


def big_tree_paint_ms(w):
    """Data ready (the list is loaded: its chip counts it) to the first paint of the
    tree of all its AAS: show another asset type, then time the click back."""
    w.wd.click(w.wd.wait_for('.chip[data-type="tool"]'))
    w.poll("return !document.querySelector('#tree li')", what="tree not emptied")
    return time_until_rows(w, "target.click();", "#tree li[role=treeitem]", '.chip[data-type="machine"]')


SCROLL_ROWS = 30  # rows a frame


def scroll_frames(w, rows_per_frame=SCROLL_ROWS, viewport="tree-viewport"):
    """Scrolls the tree (or another viewport of 26-pixel rows) by `rows_per_frame` rows
    each frame. Per frame: the main thread's work (the viewport's scroll handler, then
    style, layout and paint up to the end of the frame) and the interval between frames."""
    return w.run_async(AFTER_PAINT + """
        const [frames, step] = [arguments[0], arguments[1] * 26];
        const viewport = document.getElementById(arguments[2]);
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
                        rows: viewport.querySelectorAll('li, tbody tr').length,
                        end: viewport.scrollTop });
          });
        };
        afterPaint().then(() => requestAnimationFrame(frame));""", FRAMES, rows_per_frame, viewport)


def expand_ms(w, label):
    """Click on a collapsed AAS to the paint of its submodels (IPC, HTTP, parse, DOM)."""
    return time_until_rows(w, "target.querySelector('.twisty').click();",
                           'li[role=treeitem][aria-level="2"]', row(label))


def collapse_all(w):
    w.wd.script("""for (const t of document.querySelectorAll('li[aria-expanded="true"] .twisty')) t.click();""")
    w.poll("return !document.querySelector('li[aria-level=\"2\"]')", what="rows still expanded")


# A snapshot's rows have no export box (aria-checked), the live tree's shells all have one.
SNAPSHOT_ROWS = "#tree li[role=treeitem]:not([aria-checked])"


def browse_ms(w, snapshot_id):
    """Browse in the Snapshots dialog to the paint of the snapshot's tree (the live
    tree of the same shells is on screen before). `snapshot_id`: its id in this
    computer's store (a row's data-id is its store and id, ui/snapshots/snapshot-model.js
    snapshotKey; its first button is Browse)."""
    w.wd.click(w.wd.wait_for("#snapshots-open"))
    browse = f'.snapshot-row[data-id="here:{snapshot_id}"] button'
    w.wd.wait_for(browse)
    return time_until_rows(w, "target.click();", SNAPSHOT_ROWS, browse)


def back_to_live(w):
    w.wd.click(w.wd.wait_for("#snapshot-live"))
    w.wd.wait_for("#tree li[role=treeitem][aria-checked]", timeout=120)


def search_ms(w, query):
    """Types `query` into the plant search, a key every TYPING_GAP_MS (within its typing
    pause). From the last input event: to the search command's call (the pause) and to
    the paint of its hits."""
    return w.run_async(AFTER_PAINT + """
        const [query, gap] = [arguments[0], arguments[1]];
        const box = document.getElementById('plant-search');
        // A command reaches the app as a fetch of ipc://localhost/COMMAND, its arguments the body.
        const fetch = window.fetch;
        let last = null, asked = null;
        window.fetch = (url, options) => {
          if (String(url).endsWith('/search_snapshot') && String(options?.body).includes(JSON.stringify(query))) {
            asked = performance.now();
          }
          return fetch(url, options);
        };
        const hits = new MutationObserver(() => {
          if (asked === null) return; // an answer to fewer keys
          hits.disconnect();
          window.fetch = fetch;
          afterPaint().then(() => done({ pause: asked - last, total: performance.now() - last,
            status: document.getElementById('plant-search-status').textContent }));
        });
        hits.observe(document.getElementById('plant-search-results'), { childList: true });
        let n = 0;
        const key = () => {
          box.value = query.slice(0, ++n);
          box.dispatchEvent(new Event('input'));
          last = performance.now();
          if (n < query.length) setTimeout(key, gap);
        };
        key();""", query, TYPING_GAP_MS)


def changes_ms(w):
    """Compare in the Changes tab (the latest two snapshots) to the paint of the list."""
    w.wd.script("document.getElementById('tab-changes').click();"  # the search's hits may cover it
                "document.getElementById('changes-status').textContent = ''")
    return time_until(w, "target.click();",
                      "/^\\d+ changes? from/.test(document.getElementById('changes-status').textContent)",
                      "#changes-compare")


# A minimal page in the empty window, scrolled as the tree is (scroll_frames): a list
# of BIG_TREE rows of which a fixed pool of 40 <li>s is shown (row i in <li> i % 40).
# `how` the rows are drawn: "top" (placed with `top`, their text set in place),
# "transform" (moved with a transform), "canvas" (no rows: the text drawn on a canvas),
# "no rows" (only the scrolling), "re-inserted, custom property" (as "top", but a row's
# <li> is taken out and put back when it shows another row, and is indented through a
# custom property set on it: what ui/tree/tree.js did until issue 17).
MINIMAL_PAGE = """
    const [how, count, height] = arguments;
    document.body.style.margin = '0';
    const viewport = Object.assign(document.createElement('div'), { id: 'tree-viewport' });
    viewport.style.cssText = 'height: 100vh; overflow: auto; position: relative; font: 14px sans-serif';
    const list = Object.assign(document.createElement('ul'), { id: 'tree' });
    list.style.cssText = `position: relative; margin: 0; padding: 0; list-style: none; height: ${count * height}px`;
    viewport.append(list);
    document.body.replaceChildren(viewport);
    const pool = how === 'canvas' || how === 'no rows' ? [] : Array.from({ length: 40 }, () => {
      const li = document.createElement('li');
      li.style.cssText = `position: absolute; left: 0; right: 0; top: 0; height: ${height}px; contain: strict`;
      li.append(document.createTextNode(''));
      return list.appendChild(li);
    });
    const canvas = document.createElement('canvas');
    if (how === 'canvas') {
      [canvas.width, canvas.height] = [innerWidth, innerHeight];
      canvas.style.cssText = 'position: sticky; top: 0; display: block';
      list.append(canvas);
    }
    const paint = () => {
      const first = Math.floor(viewport.scrollTop / height);
      if (how === 'canvas') {
        const g = canvas.getContext('2d');
        g.clearRect(0, 0, canvas.width, canvas.height);
        g.font = '14px sans-serif';
        const offset = viewport.scrollTop % height;
        for (let i = first; i < first + 40 && i < count; i += 1) {
          g.fillText(`Machine_B${String(i + 1).padStart(5, '0')}`, 8, (i - first) * height + 18 - offset);
        }
        return;
      }
      for (let i = first; i < first + pool.length && i < count; i += 1) {
        const li = pool[i % pool.length];
        if (how === 'transform') li.style.transform = `translateY(${i * height}px)`;
        else li.style.top = `${i * height}px`;
        li.firstChild.data = `Machine_B${String(i + 1).padStart(5, '0')}`;
        if (how.startsWith('re-inserted') && li.dataset.row !== String(i)) {
          li.dataset.row = String(i);
          li.style.setProperty('--depth', '0');
          li.style.paddingLeft = 'calc(10px + var(--depth) * 18px)';
          li.remove();
          list.append(li);
        }
      }
    };
    viewport.addEventListener('scroll', paint);
    paint();"""
MINIMAL_WAYS = ("no rows", "top", "transform", "canvas", "re-inserted, custom property")


def minimal_page_scroll(floor_bin, how):
    """The empty window's PSS with the minimal page built, and after scrolling it as the
    tree is scrolled (3 runs)."""
    w = Window.open(floor_bin)
    try:
        w.poll("return document.readyState === 'complete'")
        w.wd.script(MINIMAL_PAGE, how, BIG_TREE, 26)
        built = settled_pss(w.pid)
        for _ in range(3):
            scroll_frames(w)
        return built, settled_pss(w.pid)
    finally:
        w.close()


# --- the bench data --------------------------------------------------------------------


def big_environment(path, n):
    """An AAS V2.0.1 environment of `n` AAS, each with a nameplate of two properties."""
    def ref(kind, value):
        return {"keys": [{"type": kind, "local": True, "value": value, "idType": "IRI"}]}

    def ident(value):
        return {"idType": "IRI", "id": value}

    def prop(id_short, value):
        return {"modelType": {"name": "Property"}, "idShort": id_short, "kind": "Instance",
                "valueType": "string", "value": value}

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
                              prop("SerialNumber", f"SN-B-{i:05}"),
                              prop("ManufacturerName", "Bench Maschinenbau GmbH")]})
    with open(path, "w") as f:
        json.dump({"assetAdministrationShells": shells, "assets": assets, "submodels": submodels,
                   "conceptDescriptions": []}, f)


def start_demo_service(aasmd, env_file):
    """An external demo service (its memory is not the app's): the generated plant DEMO-01
    of CRAWL_ASSETS assets, and BENCH-01 with the BIG_TREE machines of `env_file`; its
    admin API changes them between two snapshots."""
    proc = subprocess.Popen([aasmd, "demo-service", "--addr", "127.0.0.1:0", "--demo", str(CRAWL_ASSETS),
                             "--data", env_file, "--plant", BENCH_PLANT, "--asset-type", "machine",
                             "--admin-token"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return proc, json.loads(proc.stdout.readline())


FIRST_SHELL = {BENCH_PLANT: "Machine_B00001", "DEMO-01": "Machine_M0001"}


def use_bench_profile(w, line, plant=BENCH_PLANT):
    """Saves a profile of the external demo service (secrets to the keychain, as the profile
    form does) and switches to it as the profile picker does; `plant` is shown first."""
    profile = {key: line[key] for key in ("registry_url", "gateway_url", "auth_url", "realm", "client_id")}
    profile.update(name="Bench", client_auth="form", plants=sorted(FIRST_SHELL, key=lambda p: p != plant))
    err = w.run_async("""
        window.__TAURI__.core.invoke('profile', {ask: {what: 'save', ...arguments[0]}})
          .then(() => { const s = document.getElementById('profile');
                        s.append(new Option('Bench', 'Bench')); s.value = 'Bench';
                        s.dispatchEvent(new Event('change')); done(null); },
                (e) => done(String(e?.message ?? e)));""",
                      {"form": {"profile": profile, "client_secret": line["client_secret"],
                                "user_token": line["user_token"]}, "session_only": False})
    if err:
        raise AssertionError(f"saving the bench profile failed: {err}")
    # The demo profile's tree is gone once the bench profile's address shows.
    w.poll("return document.getElementById('status-connection').textContent.includes(arguments[0])",
           line["gateway_url"], what="the bench profile was not shown")
    w.wd.wait_for(row(FIRST_SHELL[plant]), timeout=120)


def take_snapshot(w):
    t0 = time.monotonic()
    w.wd.click(w.wd.wait_for("#take-snapshot"))
    w.poll("return /^(Snapshot taken|Cancelled)/.test(document.getElementById('load-text').textContent)",
           timeout=600, what="the snapshot did not finish")
    return time.monotonic() - t0, w.wd.text_content("#load-text")


def take_outside(aasmd, w, line, plant=BENCH_PLANT):
    """`aasmd snapshot take` of `plant` as the window's Bench profile, into its store:
    the app lists it as the profile's. Its line (`id`, `shells`…) and its time (s)."""
    env = dict(os.environ, XDG_DATA_HOME=w.data_home, AASMD_CLIENT_SECRET=line["client_secret"],
               AASMD_USER_TOKEN=line["user_token"])
    t0 = time.monotonic()
    out = subprocess.run([aasmd, "--profile", "Bench", "snapshot", "take", "--plant", plant],
                         env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out), time.monotonic() - t0


class DemoSnapshotInWindow:
    """A fresh window of the release app (AAS_BROWSER_BIN) and its `idle` PSS on the
    demo profile; then the profile of an external `aasmd demo-service --demo ASSETS`
    (AASMD_BIN), with a snapshot of its plant DEMO-01 (`taken`, its line; `take_s`)
    taken outside the window and listed in it. ASSETS and RUNS (the timings a bench
    repeats) are the environment's NAME_ASSETS (default `assets`) and NAME_RUNS (3)."""

    def __init__(self, name, assets):
        self.assets = int(os.environ.get(f"{name}_ASSETS", str(assets)))
        self.runs = int(os.environ.get(f"{name}_RUNS", "3"))
        e2e_out(prefix=f"{name.lower()}-bench-")
        aasmd = os.environ["AASMD_BIN"]
        self.demo_service = subprocess.Popen([aasmd, "demo-service", "--addr", "127.0.0.1:0", "--demo", str(self.assets)],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = json.loads(self.demo_service.stdout.readline())
        self.w = Window.open(os.environ["AAS_BROWSER_BIN"])
        try:
            first_rows_ms(self.w)
            self.idle = settled_pss(self.w.pid)
            use_bench_profile(self.w, line, "DEMO-01")
            self.taken, self.take_s = take_outside(aasmd, self.w, line, "DEMO-01")
            self.w.wd.click(self.w.wd.wait_for("#refresh"))  # the app reads the plant's snapshots again
            self.w.poll("return !document.getElementById('refresh').disabled", what="the plant was not read again")
        except BaseException:
            self.close()
            raise

    def close(self):
        self.w.close()
        self.demo_service.terminate()
        self.demo_service.wait(10)


def change_machines(line):
    """1 in CHANGED_EVERY machines of BENCH_PLANT gets a new ManufacturerName (the admin API)."""
    for i in range(1, BIG_TREE + 1, CHANGED_EVERY):
        body = {"aas_id": f"urn:bench:{BENCH_PLANT}:aas#B-{i:05}", "submodel": "Nameplate",
                "path": ["ManufacturerName"], "value": f"Changed {i}"}
        req = urllib.request.Request(f"{line['registry_url']}/demo-service/admin/elements", method="PATCH",
                                     data=json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {line['admin_token']}",
                                              "Content-Type": "application/json"})
        urllib.request.urlopen(req, timeout=10).close()


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


@contextlib.contextmanager
def app_window(app):
    """A fresh window of the app, its idle PSS on the demo profile read: (window, results)."""
    w = Window.open(app)
    try:
        first_rows_ms(w)
        yield w, {"idle": settled_pss(w.pid)}
    finally:
        w.close()


def big_session(app, line):
    """Expanding on the demo profile; then 10,000 AAS listed live: painted, scrolled."""
    with app_window(app) as (w, r):
        r["expand"] = []
        for label in (f"Machine_M{i:04}" for i in (1, 2, 3)):
            r["expand"].append(expand_ms(w, label))
            collapse_all(w)
        use_bench_profile(w, line)
        r["big_paint"] = [big_tree_paint_ms(w) for _ in range(5)]
        r["big"] = settled_pss(w.pid)
        r["scroll"] = [scroll_frames(w) for _ in range(3)]
        r["scrolled"] = settled_pss(w.pid)
    return r


def take_session(app, line):
    """Take snapshot of the CRAWL_ASSETS-asset plant in a fresh window."""
    with app_window(app) as (w, r):
        use_bench_profile(w, line, "DEMO-01")
        r["live"] = settled_pss(w.pid)
        r["take_s"], r["take_text"] = take_snapshot(w)
        r["taken"] = settled_pss(w.pid)
    return r


def snapshot_session(app, aasmd, line):
    """Two snapshots of the 10,000 machines, 1% changed between them, taken outside a
    fresh window that shows them live: Browse one, search it, compare the two."""
    with app_window(app) as (w, r):
        use_bench_profile(w, line)
        r["live"] = settled_pss(w.pid)
        r["outside"] = [take_outside(aasmd, w, line)]
        change_machines(line)
        r["outside"].append(take_outside(aasmd, w, line))
        newer = r["outside"][-1][0]["id"]
        w.wd.click(w.wd.wait_for("#refresh"))  # the app reads the plant's snapshots again
        w.poll("return !document.getElementById('refresh').disabled"
               " && !document.getElementById('changes-compare').disabled", what="the snapshots were not listed")
        r["browse"] = [browse_ms(w, newer)]
        r["opened"] = settled_pss(w.pid)
        for _ in range(REPEATS - 1):
            back_to_live(w)
            r["browse"].append(browse_ms(w, newer))
        r["search"] = {what: [search_ms(w, query) for _ in range(REPEATS)] for what, query in SEARCHES.items()}
        r["changes"] = [changes_ms(w) for _ in range(REPEATS)]
        r["changes_text"] = w.wd.text_content("#changes-status")
    return r


def median(xs):
    return statistics.median(xs)


def timing(xs, note=""):
    return f"{median(xs):.1f} ms (median of {len(xs)}, max {max(xs):.1f}{note})"


def memory_row(what, r, key, limit_mb=None, note=""):
    """PSS after step `key` of session `r` over the idle PSS of the same window."""
    extra = r[key] - r["idle"]
    return (what, f"{r[key] / MB:.1f} MB (idle + {extra / MB:.1f}{note})",
            f"≤ idle + {limit_mb} MB" if limit_mb else "—", extra <= limit_mb * MB if limit_mb else None)


def search_rows(snap):
    rows = []
    for what, runs in snap["search"].items():
        after = [x["total"] - x["pause"] for x in runs]
        rows.append((f"Search a {BIG_TREE:,}-asset snapshot for {what}: typing pause to hits painted",
                     timing(after, f"; from the last key {median([x['total'] for x in runs]):.0f} ms, of which "
                                   f"the pause {median([x['pause'] for x in runs]):.0f}"),
                     "≤ 100 ms after typing stops", median(after) <= 100))
    return rows


def minimal_table(minimal):
    return ["| rows drawn | PSS, page built | after scrolling | growth |", "|---|---|---|---|",
            *[f"| {how} | {built / MB:.1f} MB | {scrolled / MB:.1f} MB | + {(scrolled - built) / MB:.1f} MB |"
              for how, (built, scrolled) in minimal.items()]]


def report(machine, runs, start, app_idle, floor, big, take, snap, minimal):
    scroll_work = median([s["work"] for s in big["scroll"]])
    intervals = [i for s in big["scroll"] for i in s["intervals"]]
    idle = median(app_idle)
    live = snap["live"] - snap["idle"]
    (first, first_s), (second, second_s) = snap["outside"]
    rows = [
        ("Cold start to the demo tree painted", f"{median(start):.0f} ms (first {start[0]:.0f}, "
         f"min {min(start):.0f}, max {max(start):.0f}; {runs} starts)", "≤ 1500 ms",
         median(start) <= 1500),
        (f"{BIG_TREE:,} AAS: data ready to first paint", timing(big["big_paint"]), "≤ 100 ms",
         median(big["big_paint"]) <= 100),
        (f"Scrolling {BIG_TREE:,} AAS: main-thread work a frame", f"{scroll_work:.2f} ms "
         f"(frame interval: median {median(intervals):.1f} ms, p95 "
         f"{sorted(intervals)[int(len(intervals) * .95)]:.1f} ms)", "≤ 16 ms", scroll_work <= 16),
        ("Expand an AAS to its submodels painted", timing(big["expand"]), "—", None),
        *search_rows(snap),
        (f"Open a {BIG_TREE:,}-asset snapshot: Browse to its tree painted",
         timing(snap["browse"], f"; first {snap['browse'][0]:.1f}"), "≤ 100 ms", median(snap["browse"]) <= 100),
        (f"Changes of two {BIG_TREE:,}-asset snapshots, 1% changed: Compare to the list painted",
         timing(snap["changes"], f"; first {snap['changes'][0]:.1f}"), "≤ 1500 ms", median(snap["changes"]) <= 1500),
        ("PSS: empty Tauri window (floor)", f"{median(floor) / MB:.1f} MB", "—", None),
        ("PSS: idle on the demo profile", f"{idle / MB:.1f} MB (floor + {(idle - median(floor)) / MB:.1f})",
         "≤ floor + 30 MB", idle - median(floor) <= 30 * MB),
        memory_row(f"PSS: {BIG_TREE:,} AAS in the tree", big, "big", 80),
        memory_row("PSS: after scrolling through them 3 times", big, "scrolled", 80,
                   f"; {scrolled_rows(big):,} rows scrolled into view"),
        memory_row(f"PSS: a {BIG_TREE:,}-asset snapshot open", snap, "opened", 80,
                   f"; its plant shown live before: idle + {live / MB:.1f}"),
        memory_row(f"PSS: after Take snapshot of the {CRAWL_ASSETS:,}-asset plant", take, "taken", 50,
                   f"; shown live before: idle + {(take['live'] - take['idle']) / MB:.1f}; "
                   f"the snapshot took {take['take_s']:.1f} s"),
    ]
    verdict = {True: "met", False: "**missed**", None: ""}
    lines = [
        "# The app: timings and memory", "",
        "Written by `bench/app.sh` (bench/app_bench.py); issue 6, items 7 and 8; issue 17, speed and memory.", "",
        f"Machine: {machine}.", "",
        f"Binaries: {os.environ['AAS_BROWSER_BIN']}, {os.environ['EMPTY_WINDOW_BIN']}, {os.environ['AASMD_BIN']}.", "",
        "Release builds, under Xvfb (1280×800), started by WebKitWebDriver as the e2e tests",
        "start them. Timings are taken inside the page (`performance.now`, a frame is",
        "painted when a task queued from its `requestAnimationFrame` runs); start-up is from",
        "the app's process start (`/proc/PID/stat`) to the frame that painted the first",
        "tree rows (a `performance.mark` of ui/tree/tree.js). Memory is PSS from",
        "`/proc/PID/smaps_rollup` summed over the app and its WebKit processes, read",
        f"{SETTLE_S} s after each step, over the idle PSS of the same window (three fresh",
        f"windows: scrolling, Take snapshot, the {BIG_TREE:,}-asset snapshots). The {BIG_TREE:,} AAS and",
        f"the {CRAWL_ASSETS:,}-asset plant are served by an external `aasmd demo-service` (not counted);",
        "the demo profile's demo service runs in the app and is counted.", "",
        f"Drawing: {drawing_line()}", "",
        "| measure | result | target | |", "|---|---|---|---|",
        *[f"| {m} | {res} | {t} | {verdict[ok]} |" for m, res, t, ok in rows], "",
        f"Idle PSS of each start (MB): {', '.join(f'{x / MB:.1f}' for x in app_idle)}; "
        f"empty window: {', '.join(f'{x / MB:.1f}' for x in floor)}.", "",
        f"Scrolling: {len(big['scroll'])} runs of {FRAMES} frames, 30 rows a frame; rows in the DOM at "
        f"the end: {big['scroll'][-1]['rows']}.", "",
        f"The same scrolling (3 runs, {scrolled_rows(big):,} rows into view) of a minimal page in the empty",
        f"window, a list of {BIG_TREE:,} rows of which a pool of 40 <li>s is shown (`MINIMAL_PAGE`):", "",
        *minimal_table(minimal), "",
        f"Take snapshot ended with: {take['take_text']!r}.", "",
        f"The {BIG_TREE:,}-asset snapshots (the machines of {BENCH_PLANT}, each with a nameplate of a serial",
        "number and a manufacturer name) were taken outside the window, as its profile and into its",
        f"store (`aasmd --profile Bench snapshot take --plant {BENCH_PLANT}`): {first['shells']:,} shells,",
        f"{first['nodes']:,} answers, {first_s:.1f} s; between the two, 1 machine in {CHANGED_EVERY} got another",
        f"ManufacturerName through the demo service's admin API; the second took {second_s:.1f} s. The window",
        "showed the plant live, then read the snapshots again (↻). Browse is timed from its click in the",
        "Snapshots dialog (the live tree of the same shells on screen; back to live between runs);",
        f"Compare in the Changes tab said: {snap['changes_text']!r}.", "",
        f"Search: keys typed into the box every {TYPING_GAP_MS} ms (an input event each); the box searches",
        "once typing pauses (ui/snapshots/plant-search.js, TYPING_PAUSE_MS), so the time from the last key is the",
        "pause (to the search command's call) and then the search and the paint of its hits. Statuses: "
        + "; ".join(repr(runs[-1]["status"]) for runs in snap["search"].values()) + ".", "",
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
    e2e_out(prefix="app-bench-")
    start, app_idle = starts(app, runs, measure_start=True)
    print(f"start (ms): {[round(x) for x in start]}; idle PSS (MB): {[round(x / MB, 1) for x in app_idle]}", flush=True)
    _, floor = starts(floor_bin, runs, measure_start=False)
    print(f"empty window PSS (MB): {[round(x / MB, 1) for x in floor]}", flush=True)
    minimal = {how: minimal_page_scroll(floor_bin, how) for how in MINIMAL_WAYS}
    print("\n".join(minimal_table(minimal)), flush=True)
    with tempfile.TemporaryDirectory() as workdir:
        env_file = os.path.join(workdir, f"bench-{BIG_TREE}.json")
        big_environment(env_file, BIG_TREE)
        demo_service, line = start_demo_service(aasmd, env_file)
        try:
            big = big_session(app, line)
            take = take_session(app, line)
            snap = snapshot_session(app, aasmd, line)  # last: it changes the plant
        finally:
            demo_service.terminate()
            demo_service.wait(10)
    for name, r in (("big", big), ("take", take), ("snapshots", snap)):
        print(name, json.dumps({k: v for k, v in r.items() if k != "scroll"}), flush=True)
    text = report(machine_line(), runs, start, app_idle, floor, big, take, snap, minimal)
    with open(out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
