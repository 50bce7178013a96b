#!/usr/bin/env python3
"""End to end: ticking shells and submodels and exporting them (files checked, the
environment by the independent aasv2-check), then a separately started demo service that
stops and comes back (offline banner, recovery) and withdraws a grant (node marked)."""

import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest
import urllib.request

from app_driver import AppTestCase, free_port, row, screenshot, today_utc

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AASV2_CHECK = os.path.join(REPO, "..", "shared", "tools", "aasv2-check")
SAVE_DIR = tempfile.mkdtemp(prefix="aas-e2e-exports-")


class Browse(AppTestCase):
    # The native save dialog cannot be driven through WebDriver: the app saves here.
    app_env = {"AAS_BROWSER_SAVE_DIR": SAVE_DIR}

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(SAVE_DIR, ignore_errors=True)

    def tick(self, label):
        self.wd.click(self.wd.wait_for(row(label) + " .check"))

    def checked(self, label):
        return self.wd.script("return document.querySelector(arguments[0])?.getAttribute('aria-checked')", row(label))

    def export(self, fmt, name):
        wd = self.wd
        wd.script("document.getElementById('export-format').value = arguments[0]", fmt)
        path = os.path.join(SAVE_DIR, name)
        if os.path.exists(path):
            os.remove(path)
        wd.click(wd.wait_for("#export"))
        self.wait_until(lambda: (wd.text_content("#load-text") or "").startswith("Exported"), 60,
                        lambda: wd.text_content("#load-text"))
        self.assertTrue(os.path.exists(path), f"{path} was written")
        return path

    def test_export_of_ticked_shells_and_submodels(self):
        wd = self.wd
        self.chip_count("machine", "3")
        self.tick("Machine_M0001")  # the whole shell, submodels not loaded yet
        self.assertEqual(self.checked("Machine_M0001"), "true")
        wd.click(wd.wait_for(row("Machine_M0002") + " .twisty"))
        wd.wait_for(row("Nameplate"))
        self.tick("Nameplate")  # one submodel of M0002
        self.assertEqual(self.checked("Machine_M0002"), "mixed")
        self.assertEqual(wd.text(wd.wait_for("#export")), "Export 2 shells…")
        # Space on a focused row ticks too: tick and untick M0003.
        wd.click(wd.wait_for(row("Machine_M0003") + " .label"))
        wd.keys(wd.wait_for(row("Machine_M0003")), " ")
        self.assertEqual(self.checked("Machine_M0003"), "true")
        wd.keys(wd.wait_for(row("Machine_M0003")), " ")
        self.assertEqual(self.checked("Machine_M0003"), "false")
        screenshot(os.path.join(self.out, "ticked.png"))

        # Names that say what is inside: plant, asset type, day, format.
        env_path = self.export("env", f"DEMO-01-machine-{today_utc()}.json")
        with open(env_path) as f:
            env = json.load(f)
        shells = sorted(s["idShort"] for s in env["assetAdministrationShells"])
        self.assertEqual(shells, ["Machine_M0001", "Machine_M0002"])
        nameplates = [s for s in env["submodels"] if s["idShort"] == "Nameplate"]
        self.assertEqual(len(nameplates), 2, "M0001's (whole shell) and M0002's")
        self.assertEqual(len(env["submodels"]), 6 + 1, "M0001's six submodels and M0002's Nameplate")
        self.assertEqual(len(env["assets"]), 2)
        for check in ("schema", "load"):
            done = subprocess.run([AASV2_CHECK, check, env_path], capture_output=True, text=True, timeout=300)
            self.assertEqual(done.returncode, 0, f"aasv2-check {check}: {done.stdout}{done.stderr}")
        self.assertTrue(wd.script("return !document.getElementById('reveal-export').hidden"),
                        "Show in folder is offered")
        screenshot(os.path.join(self.out, "exported.png"))

        raw_path = self.export("raw", f"DEMO-01-machine-{today_utc()}-raw.json")
        with open(raw_path) as f:
            bundle = json.load(f)
        picks = {p["aas_id"].rsplit("#", 1)[-1]: p["submodels"] for p in bundle["manifest"]["selection"]}
        self.assertEqual(picks, {"M-0001": None, "M-0002": ["Nameplate"]})
        elements = [n["path"] for n in bundle["nodes"] if n["path"]["level"] == "elements"]
        self.assertEqual(len(elements), 6 + 1, "one elements request per exported submodel")
        self.assertEqual(bundle["manifest"]["failures"], [])


class ServerComesAndGoes(AppTestCase):
    def test_offline_banner_recovery_and_withdrawn_grant(self):
        wd = self.wd
        port = free_port()
        state = os.path.join(self.data_home, "demo-service-state.json")
        line = self.start_demo_service(port, state, "--admin-token")
        try:
            self.fill_profile_form("Comes and goes", line)
            self.save_profile_and_connect("Comes and goes")
            self.chip_count("machine", "3")
            wd.click(wd.wait_for(row("Machine_M0001") + " .twisty"))
            wd.wait_for(row("Nameplate"))
            banner_hidden = "return document.getElementById('offline-banner').hidden"
            self.assertTrue(wd.script(banner_hidden))

            # The server goes away: the next request fails as offline, the banner shows.
            self.stop_demo_service()
            wd.click(wd.wait_for(row("Machine_M0002") + " .twisty"))
            self.wait_until(lambda: not wd.script(banner_hidden), 30, "the offline banner")
            wd.wait_for(row("Machine_M0002") + '[data-failure="offline"]')
            self.assertIsNotNone(wd.text_content(row("Nameplate")), "what was loaded stays")
            screenshot(os.path.join(self.out, "offline.png"))

            # It comes back on the same address: the banner goes by itself and the
            # failed node is fetched again.
            line = self.start_demo_service(port, state, "--admin-token")
            self.wait_until(lambda: wd.script(banner_hidden), 75, "the banner to go")
            self.wait_until(lambda: wd.script(
                "return document.querySelector(arguments[0])?.getAttribute('aria-expanded')",
                row("Machine_M0002")) == "true", 30, "M0002 expanded after the retry")

            # The customer withdraws M-0003 from this application while we browse.
            base = line["registry_url"]
            grants = self.admin(base, line["admin_token"], "GET")
            m3 = next(g for g in grants if g["aas_id"].endswith("#M-0003") and g["asset_type"] == "machine")
            self.admin(base, line["admin_token"], "PUT",
                       {"client_id": m3["client_id"], "aas_id": m3["aas_id"], "grant": "denied"})
            wd.click(wd.wait_for(row("Machine_M0003") + " .twisty"))
            marked = row("Machine_M0003") + '[data-failure="not_found"] .node-error'
            wd.wait_for(marked)
            self.assertIn("No longer shared with this application", wd.text_content(marked))
            screenshot(os.path.join(self.out, "withdrawn.png"))
            # The rest stays usable.
            wd.click(wd.wait_for(row("Machine_M0001") + " .label"))
            wd.wait_for('#details dd[data-field="idShort"]', text="Machine_M0001")
        finally:
            if self.demo_service.poll() is None:
                self.stop_demo_service()

    @staticmethod
    def admin(base, token, method, body=None):
        req = urllib.request.Request(f"{base}/demo-service/admin/grants", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())


if __name__ == "__main__":
    unittest.main(verbosity=2)
