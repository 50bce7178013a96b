#!/usr/bin/env python3
"""End to end: AAS V3 out of the app. Ticked shells exported as a V3.0 environment
(the file checked by the independent aasv3-check, its conversion report beside it, the
conversion's line on the page), then a V2 file converted to V3.1 through "Convert a
file…", reached from the keyboard, and its report read in the app (Show report). The native dialogs cannot be driven through WebDriver:
the build for these tests (feature e2e-hooks) takes the folder to save into and the file
to open from the environment."""

import json
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from app_driver import AppTestCase, row, screenshot, today_utc

ROOT = Path(__file__).resolve().parents[2]  # this repository
WORK = Path(__file__).resolve().parents[3]  # the folder holding this repository and ../shared
AASV3_CHECK = WORK / "shared" / "tools" / "aasv3-check"
V2_SAMPLE = WORK / "shared" / "aas-samples" / "v2-json" / "aas-specs" / "test_demo_full_example.json"
SAVE_DIR = tempfile.mkdtemp(prefix="aas-e2e-v3-")
ENTER = "\ue007"


class ConvertToV3(AppTestCase):
    app_env = {"AAS_BROWSER_SAVE_DIR": SAVE_DIR, "AAS_BROWSER_OPEN_FILE": str(V2_SAMPLE)}

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(SAVE_DIR, ignore_errors=True)

    def load_text(self):
        return self.wd.text_content("#load-text") or ""

    def conversion_line(self):
        """The conversion's line below the export actions ('' while hidden)."""
        return self.wd.script("const note = document.getElementById('export-note');"
                              "return note.hidden ? '' : note.textContent")

    def assert_v3_file(self, path, line, version="3.0"):
        """`path` is a V3 environment (of `version`) aasv3-check accepts, and `line` (what
        the page shows) names its conversion report, which is beside it."""
        with open(path, encoding="utf-8") as f:
            env = json.load(f)
        self.assertIn("assetAdministrationShells", env)
        self.assertNotIn("assets", env, "V3.0 has no assets list: they are in the shells")
        report = os.path.splitext(path)[0] + ".conversion.json"
        self.assertTrue(os.path.exists(report), f"{report} was written")
        self.assertRegex(line, f"AAS V{version}: " + r"\d+ changes? .*" + f"(each is listed in|the report is) {report}$")
        done = subprocess.run([str(AASV3_CHECK), "verify", "--version", version, path],
                              capture_output=True, text=True, timeout=600)
        self.assertEqual(done.returncode, 0, f"aasv3-check verify: {done.stdout}{done.stderr}")
        return env

    def test_export_of_ticked_shells_as_v3(self):
        wd = self.wd
        self.chip_count("machine", "3")
        # The formats say which AAS version they write.
        groups = wd.script("return [...document.querySelectorAll('#export-format optgroup')]"
                           ".map((g) => [g.label, [...g.children].map((o) => o.value + '=' + o.textContent)])")
        self.assertEqual(groups, [
            ["AAS V2.0.1", ["env=AAS V2.0.1 environment JSON", "aasx=AAS V2.0.1 AASX"]],
            ["AAS V3.0", ["v3-env=AAS V3.0 environment JSON", "v3-aasx=AAS V3.0 AASX",
                          "v3.0-xml=AAS V3.0 environment XML", "v3.0-aasx-xml=AAS V3.0 AASX with XML"]],
            ["AAS V3.1", ["v3.1-json=AAS V3.1 environment JSON", "v3.1-aasx=AAS V3.1 AASX",
                          "v3.1-xml=AAS V3.1 environment XML", "v3.1-aasx-xml=AAS V3.1 AASX with XML"]],
            ["Other", ["raw=Raw bundle", "csv=CSV of properties"]],
        ])
        wd.click(wd.wait_for(row("Machine_M0001") + " .check"))
        wd.click(wd.wait_for(row("Machine_M0002") + " .check"))
        wd.script("document.getElementById('export-format').value = 'v3-env'")
        path = os.path.join(SAVE_DIR, f"DEMO-01-machine-{today_utc()}-v3.json")
        wd.click(wd.wait_for("#export"))
        self.wait_until(lambda: self.load_text().startswith("Exported"), 60, self.load_text)
        self.assertTrue(self.load_text().startswith("Exported 2 shells ("), self.load_text())
        line = self.conversion_line()
        self.assertTrue(line.startswith("AAS V3.0: "), line)
        env = self.assert_v3_file(path, line)
        shells = sorted(s["idShort"] for s in env["assetAdministrationShells"])
        self.assertEqual(shells, ["Machine_M0001", "Machine_M0002"])
        self.assertEqual(wd.text_content("#status-errors"), f"Saved {path}")
        self.assertTrue(wd.script("return !document.getElementById('reveal-export').hidden"),
                        "Show in folder is offered")
        screenshot(os.path.join(self.out, "export-v3.png"))

        # The same shells as AAS V3.1 in an AASX with XML: judged as V3.1, held to its schema.
        wd.script("document.getElementById('export-format').value = 'v3.1-aasx-xml'")
        package = os.path.join(SAVE_DIR, f"DEMO-01-machine-{today_utc()}-v3.1-xml.aasx")
        wd.click(wd.wait_for("#export"))
        self.wait_until(lambda: wd.text_content("#status-errors") == f"Saved {package}", 60,
                        lambda: f"{self.load_text()!r} {wd.text_content('#status-errors')!r}")
        self.assertTrue(self.conversion_line().startswith("AAS V3.1: "), self.conversion_line())
        done = subprocess.run([str(AASV3_CHECK), "verify", "--version", "3.1", package],
                              capture_output=True, text=True, timeout=600)
        self.assertEqual(done.returncode, 0, f"aasv3-check verify: {done.stdout}{done.stderr}")
        schema = subprocess.run(["/usr/bin/python3", str(ROOT / "tests" / "support" / "xsd_valid.py"), package],
                                capture_output=True, text=True, timeout=120)
        self.assertEqual(schema.returncode, 0, schema.stdout + schema.stderr)

    def test_convert_a_v2_file_from_the_keyboard(self):
        wd = self.wd
        # Showing the demo plant at start-up hides the line below the exports: let that
        # happen before converting.
        self.chip_count("machine", "3")
        convert = wd.wait_for("#convert")
        self.assertEqual(wd.text(convert), "Convert a file…")
        wd.script("document.getElementById('load-text').textContent = ''")
        # Keyboard reachable: focused (as Tab would) and pressed with Enter; the dialog
        # asks the version (V3.1 first) and the kind: JSON chosen, then Enter.
        wd.script("document.getElementById('convert').focus()")
        wd.keys(convert, ENTER)
        self.wait_until(lambda: wd.script("return document.getElementById('convert-dialog').open"), 10,
                        "the dialog opens")
        self.assertEqual(wd.script("return document.querySelector('[name=convert-target]:checked').value"), "v3.1")
        json_kind = wd.wait_for("[name=convert-kind][value=json]")
        wd.click(json_kind)
        wd.keys(json_kind, ENTER)
        path = os.path.join(SAVE_DIR, "test_demo_full_example-v3.1.json")
        self.wait_until(lambda: self.load_text().startswith("Converted"), 120, self.load_text)
        self.assertEqual(self.load_text(), "Converted to test_demo_full_example-v3.1.json")
        line = self.conversion_line()
        self.assertTrue(line.startswith("AAS V3.1: "), line)
        env = self.assert_v3_file(path, line, "3.1")
        self.assertEqual(len(env["assetAdministrationShells"]), 4)
        self.assertEqual(wd.text_content("#status-errors"), f"Saved {path}")
        self.assertFalse(wd.script("return document.getElementById('convert').disabled"), "ready for another")
        screenshot(os.path.join(self.out, "converted-v3.png"))
        wd.click(wd.wait_for("#theme"))
        screenshot(os.path.join(self.out, "converted-v3-dark.png"))
        wd.click(wd.wait_for("#theme"))

        # Show report: each rule of the report file, with its count and its first changes.
        with open(os.path.splitext(path)[0] + ".conversion.json", encoding="utf-8") as f:
            report = json.load(f)
        wd.click(wd.wait_for("#report-show"))
        self.wait_until(lambda: wd.find_all("#report-rules details"), 20,
                        lambda: f"{wd.text_content('#report-heading')!r} {wd.text_content('#report-status')!r}")
        self.assertTrue(wd.text_content("#report-heading").startswith(
            f"AAS V3.1: {report['total']} changes writing test_demo_full_example-v3.1.json from "))
        shown = wd.script("return [...document.querySelectorAll('#report-rules details')]"
                          ".map((d) => [d.dataset.rule, d.querySelector('summary strong').textContent,"
                          " [...d.querySelectorAll('tbody tr td:first-child')].map((td) => td.textContent)])")
        self.assertEqual([rule for rule, _, _ in shown], list(report["summary"]))
        for rule, heading, paths in shown:
            self.assertEqual(heading, f"{rule} ({report['summary'][rule]})")
            listed = [c["path"] or "(the top of the file)" for c in report["changes"] if c["rule"] == rule]
            self.assertEqual(paths, listed[:100])
        first = wd.wait_for("#report-rules details summary")
        wd.click(first)
        screenshot(os.path.join(self.out, "conversion-report.png"))
        wd.click(wd.wait_for("#report-close"))
        self.assertFalse(wd.script("return document.getElementById('report-dialog').open"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
