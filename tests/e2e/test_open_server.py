#!/usr/bin/env python3
"""End to end: Open server… on a real, independent AAS V3 server: Eclipse BaSyx Python
SDK 1.2.1's own Part 2 server (tests/v3-server/serve.py, in the virtual environment
`scripts/install-deps.sh test` makes) serving the FA³ST example package. The dialog
reads the address, the tree shows the server's shell, its submodels and their elements
as the independent reader (`aas-dump`) reads the package; Take in keeps it as a snapshot
the plant search then reads; a File element's content is saved as the server's
attachment holds it (the package's part); Close server shows the demo plant again. A
server that does not answer is said in the dialog, which stays open."""

import http.server
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import unittest
import urllib.request
import zipfile
from pathlib import Path

from app_driver import AppTestCase, row, screenshot

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT.parent  # the folder holding this repository and ../shared
FAAAST = WORK / "shared" / "aas-files" / "C-v3.0" / "FAAAST-Service" / "model.aasx"
PYTHON = Path(os.environ.get("AAS_V3_SERVER_PYTHON",
                             Path.home() / ".cache" / "aas-browser" / "basyx-server" / "bin" / "python"))


def with_package_paths(package, into):
    """A copy of `package` whose File values name their parts as BaSyx Python serves them
    (`/aasx/suppl/…`; it takes `file:///aasx/suppl/…` for a file outside the package)."""
    copy = Path(into) / package.name
    with zipfile.ZipFile(package) as source, zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in source.infolist():
            data = source.read(entry)
            if entry.filename == "aasx/data.xml":
                data = data.replace(b"file:///aasx/", b"/aasx/")
            target.writestr(entry, data)
    return copy


def dumped(path):
    """What the independent readers read from `path`: its lines, as dicts."""
    done = subprocess.run([str(WORK / "shared" / "tools" / "aas-dump"), str(path)],
                          capture_output=True, text=True, timeout=300, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


SAVE_DIR = tempfile.mkdtemp(prefix="aas-e2e-server-saves-")


def gated_server(gate):
    """A V3 server on this machine of three shells, each naming a submodel, which it
    answers only once `gate` (a threading.Event) is set: the server and its address."""
    def shell(i):
        return {"modelType": "AssetAdministrationShell", "id": f"urn:gated:shell:{i}", "idShort": f"GatedShell{i}",
                "assetInformation": {"assetKind": "Instance"},
                "submodels": [{"type": "ModelReference", "keys": [{"type": "Submodel", "value": f"urn:gated:sm:{i}"}]}]}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path.startswith("/shells"):
                items = [shell(i) for i in range(3)]
            elif self.path.startswith("/submodels"):
                gate.wait(60)
                items = [{"modelType": "Submodel", "id": f"urn:gated:sm:{i}", "idShort": f"GatedSubmodel{i}"}
                         for i in range(3)]
            else:
                items = []
            body = json.dumps({"paging_metadata": {}, "result": items}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


class OpenServer(AppTestCase):
    # The native save dialog cannot be driven through WebDriver: the app saves here.
    app_env = {"AAS_BROWSER_SAVE_DIR": SAVE_DIR}

    @classmethod
    def setUpClass(cls):
        if not PYTHON.exists():
            raise RuntimeError(f"{PYTHON} is missing: run scripts/install-deps.sh test")
        served = with_package_paths(FAAAST, SAVE_DIR)
        cls.server = subprocess.Popen([str(PYTHON), str(ROOT / "tests" / "v3-server" / "serve.py"), str(served)],
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        cls.url = json.loads(cls.server.stdout.readline())["url"]
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.server.kill()
        cls.server.wait()
        shutil.rmtree(SAVE_DIR, ignore_errors=True)

    def open_server(self, address):
        wd = self.wd
        wd.click(wd.wait_for("#open-server"))
        field = wd.wait_for("#server-address")
        wd.clear(field)
        wd.keys(field, address)
        wd.click(wd.wait_for("#server-open"))

    def test_a_v3_server_is_browsed_taken_in_searched_and_closed(self):
        wd = self.wd
        lines = dumped(FAAAST)
        shell = next(line for line in lines if line["kind"] == "shell")
        submodels = {line["idShort"]: line for line in lines if line["kind"] == "submodel"}
        self.chip_count("machine", "3")  # the demo plant first
        self.open_server(self.url)
        banner = f"V3 server {self.url}: 1 shell, 5 submodels, as read now. Read-only."
        self.wait_until(lambda: wd.text_content("#file-banner-text") == banner, 30,
                        lambda: f"banner {wd.text_content('#file-banner-text')!r}; dialog {wd.text_content('#server-status')!r}")
        self.assertFalse(wd.script("return document.getElementById('server-dialog').open"))
        self.assertEqual(wd.text_content("#file-close"), "Close server")
        # The server's shell, its submodels and one submodel's elements, as the package holds them.
        wd.click(wd.wait_for(row(shell["idShort"]) + " .twisty"))
        self.wait_until(lambda: len(wd.find_all("#tree li[aria-level='2']")) == len(submodels), 10,
                        "the shell's submodels are shown")
        shown = wd.script("return [...document.querySelectorAll('#tree li[aria-level=\"2\"]')].map((li) => li.dataset.label)")
        self.assertEqual(sorted(shown), sorted(submodels))
        nameplate = submodels["Nameplate"]["id"]
        top = [line for line in lines if line["kind"] == "element" and line["submodel"] == nameplate and "/" not in line["path"]]
        wd.click(wd.wait_for(row("Nameplate") + " .twisty"))
        for element in top:
            wd.wait_for(row(element["path"]))
        screenshot(os.path.join(self.out, "open-server.png"))

        # A File's content is the server's attachment: the package's part, byte for byte.
        wd.click(wd.wait_for(row("CompanyLogo") + " .label"))
        wd.click(wd.wait_for("#details dd[data-field='Path'] button", text="Save to disk…"))
        saved = os.path.join(SAVE_DIR, "example.png")
        self.wait_until(lambda: f"Saved to {saved}" in (wd.text_content("#details") or ""), 20,
                        lambda: wd.text_content("#details"))
        with zipfile.ZipFile(FAAAST) as package, open(saved, "rb") as f:
            self.assertEqual(f.read(), package.read("aasx/suppl/example.png"))

        # Take in: a snapshot of its own, which the plant search reads.
        wd.click(wd.wait_for("#file-take-in"))
        self.wait_until(lambda: "Taken in as snapshot" in (wd.text_content("#file-banner-text") or ""), 60,
                        lambda: f"{wd.text_content('#file-banner-text')!r}; {wd.text_content('#status-errors')!r}")
        box = wd.wait_for("#plant-search")
        wd.keys(box, "Chat")
        self.wait_until(lambda: wd.find_all("#plant-search-results [role='option']"), 20,
                        lambda: wd.text_content("#plant-search-status"))
        wd.keys(box, "\ue00c")  # Escape closes the list

        wd.click(wd.wait_for("#file-close"))
        self.chip_count("machine", "3")
        self.assertTrue(wd.script("return document.getElementById('file-banner').hidden"))

        # The address read is kept in the preferences, the token nowhere; the next
        # opening offers the address, also after a restart.
        with open(self.preferences_path(), encoding="utf-8") as f:
            kept = f.read()
        self.assertEqual(json.loads(kept)["v3_server"], self.url)
        self.assertNotIn("token", kept.lower())
        self.restart_app()
        self.chip_count("machine", "3")
        wd = self.wd
        wd.click(wd.wait_for("#open-server"))
        self.assertEqual(wd.script("return document.getElementById('server-address').value"), self.url)
        wd.click(wd.wait_for("#server-cancel"))

    def test_the_demo_server_is_one_click_away_and_not_remembered(self):
        wd = self.wd
        self.chip_count("machine", "3")
        wd.click(wd.wait_for("#open-server"))
        wd.wait_for("#server-demo")
        screenshot(os.path.join(self.out, "open-server-dialog.png"))
        wd.click(wd.wait_for("#server-demo"))
        self.wait_until(lambda: (wd.text_content("#file-banner-text") or "").startswith("V3 server"), 60,
                        lambda: f"{wd.text_content('#file-banner-text')!r}; {wd.text_content('#server-status')!r}")
        url = wd.script("return document.getElementById('server-address').value")
        self.assertRegex(url, r"^http://127\.0\.0\.1:\d+/api/v3\.0$")
        # What the banner counts is what the server lists, read here on its own.
        with urllib.request.urlopen(url + "/shells") as answer:
            shells = json.load(answer)["result"]
        with urllib.request.urlopen(url + "/submodels") as answer:
            submodels = json.load(answer)["result"]
        self.assertEqual(wd.text_content("#file-banner-text"),
                         f"V3 server {url}: {len(shells)} shells, {len(submodels)} submodels, as read now. Read-only.")
        for shell in shells[:3]:
            wd.wait_for(row(shell["idShort"]))
        # Its address changes with every start of the app: not kept.
        with open(self.preferences_path(), encoding="utf-8") as f:
            self.assertNotEqual(json.load(f).get("v3_server"), url)
        wd.click(wd.wait_for("#file-close"))
        self.chip_count("machine", "3")

    def test_the_shells_are_browsed_while_their_submodels_are_read(self):
        wd = self.wd
        gate = threading.Event()
        server, url = gated_server(gate)
        try:
            self.chip_count("machine", "3")
            self.open_server(url)
            # The shells, in the tree, while the banner says the rest is read, with Stop.
            wd.wait_for(row("GatedShell2"), 30)
            self.assertFalse(wd.script("return document.getElementById('server-dialog').open"))
            self.assertEqual(wd.text_content("#file-banner-text"),
                             f"V3 server {url}: 3 shells, their submodels being read. Read-only.")
            self.assertTrue(wd.script("return document.getElementById('file-banner').classList.contains('reading')"))
            self.assertEqual(wd.text_content("#file-reading-text"), f"Reading {url}: 3 shells, 0 submodels so far")
            self.assertEqual(wd.text_content("#file-reading-cancel"), "Stop")
            screenshot(os.path.join(self.out, "open-server-reading.png"))
            # A shell opened meanwhile shows its submodels once they are read.
            wd.click(wd.wait_for(row("GatedShell1") + " .twisty"))
            gate.set()
            wd.wait_for(row("GatedSubmodel1"), 30)
            banner = f"V3 server {url}: 3 shells, 3 submodels, as read now. Read-only."
            self.wait_until(lambda: wd.text_content("#file-banner-text") == banner, 20,
                            lambda: wd.text_content("#file-banner-text"))
            self.assertFalse(wd.script("return document.getElementById('file-banner').classList.contains('reading')"))
            self.assertEqual(wd.text_content("#file-reading-cancel"), "Cancel")
            wd.click(wd.wait_for("#file-close"))
            self.chip_count("machine", "3")
        finally:
            gate.set()
            server.shutdown()
            server.server_close()

    def test_a_server_that_does_not_answer_is_said_in_the_dialog(self):
        wd = self.wd
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.chip_count("machine", "3")
        self.open_server(f"http://127.0.0.1:{port}/api/v3.0")
        self.wait_until(lambda: (wd.text_content("#server-status") or "").startswith("Not opened: cannot reach"), 60,
                        lambda: wd.text_content("#server-status"))
        self.assertTrue(wd.script("return document.getElementById('server-dialog').open"))
        wd.click(wd.wait_for("#server-cancel"))
        self.assertFalse(wd.script("return document.getElementById('server-dialog').open"))
        self.assertTrue(wd.script("return document.getElementById('file-banner').hidden"))


if __name__ == "__main__":
    unittest.main()
