#!/usr/bin/env python3
"""End to end: plant snapshots in the app. Against a separately started demo service (its
admin surface changes the plant, and it can be stopped): the search says how to get a
snapshot, Take snapshot makes one, a machine's serial number is found and opened in the
tree; the admin changes a value and removes an asset; a second snapshot, and the Changes
view shows exactly those two changes (marked in the newer tree, exported as CSV); the
service stops and the offline banner offers the latest snapshot, browsed read-only."""

import json
import os
import shutil
import tempfile
import unittest
import urllib.parse
import urllib.request

from app_driver import AppTestCase, free_port, row, screenshot

SAVE_DIR = tempfile.mkdtemp(prefix="aas-e2e-snapshots-")
MACHINE = "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001"
TOOL = "urn:demo-platform:acme:DEMO-01:aas:tool#T-0002"
HIDDEN = "return document.getElementById(arguments[0]).hidden"


class Snapshots(AppTestCase):
    # The native save dialog cannot be driven through WebDriver: the app saves here.
    app_env = {"AAS_BROWSER_SAVE_DIR": SAVE_DIR}

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(SAVE_DIR, ignore_errors=True)

    def admin(self, method, path, body=None):
        """The demo service's admin surface: the HTTP status."""
        req = urllib.request.Request(f"{self.line['registry_url']}/demo-service/admin{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {self.line['admin_token']}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status

    def shown(self, element_id):
        return not self.wd.script(HIDDEN, element_id)

    def search(self, text):
        """Types `text` into the plant search (it searches when the typing pauses)."""
        box = self.wd.wait_for("#plant-search")
        self.wd.clear(box)
        self.wd.keys(box, text)

    def expanded(self, label):
        return self.wd.script("return document.querySelector(arguments[0])?.getAttribute('aria-expanded')", row(label))

    def test_snapshots_search_changes_and_offline_browsing(self):
        wd = self.wd
        port = free_port()
        state = os.path.join(self.data_home, "demo-service-state.json")
        self.line = self.start_demo_service(port, state, "--admin-token")
        try:
            self.fill_profile_form("Snapshots", self.line)
            self.save_profile_and_connect("Snapshots")
            self.chip_count("machine", "3")

            # No snapshot yet: the search says how to get one, and lists nothing.
            self.search("Stuttgart")
            status = self.wait_until(lambda: self.shown("plant-search-popup") and wd.text_content("#plant-search-status"),
                                     10, "the search to answer")
            self.assertIn("snapshot", status.lower())
            self.assertEqual(wd.find_all("#plant-search-results [role='option']"), [])
            wd.keys(wd.wait_for("#plant-search"), "\ue00c")  # Escape closes the list
            self.assertFalse(self.shown("plant-search-popup"))

            # M-0001's serial number, read live; then its shell is folded again.
            wd.click(wd.wait_for(row("Machine_M0001") + " .twisty"))
            wd.click(wd.wait_for(row("Nameplate") + " .twisty"))
            serial = self.wait_until(lambda: wd.text_content(row("SerialNumber") + " .value"), 15, "the serial number")
            self.assertRegex(serial, r"^SN-M-0001-\d+$")
            wd.click(wd.wait_for(row("Machine_M0001") + " .twisty"))
            self.assertEqual(self.expanded("Machine_M0001"), "false")

            summary = self.take_snapshot()
            self.assertRegex(summary, r"^Snapshot taken: \d+ shells, [\d.]+ [kMG]?B$")

            # The serial is found in the snapshot; Enter opens it with its ancestors expanded.
            self.search(serial)
            self.wait_until(lambda: wd.text_content("#plant-hit-0 .hit-value") == serial, 10,
                            lambda: wd.text_content("#plant-search-status"))
            self.assertRegex(wd.text_content("#plant-search-status"),
                             r"^\d+ hits? in the snapshot of \d{4}-\d\d-\d\d \d\d:\d\d$")
            self.assertEqual(wd.script("return document.getElementById('plant-hit-0').getAttribute('aria-selected')"),
                             "true", "the first hit is active: Enter opens it")
            self.assertEqual(wd.text_content("#plant-hit-0 .hit-trail"), "M-0001 › Nameplate › SerialNumber")
            self.assertEqual(wd.text_content("#plant-hit-0 .hit-value"), serial)
            screenshot(os.path.join(self.out, "snapshot-search.png"))
            # The same hits in the dark theme (the theme button takes the focus: search again).
            wd.click(wd.wait_for("#theme"))
            self.search(serial)
            self.wait_until(lambda: self.shown("plant-search-popup")
                            and wd.text_content("#plant-hit-0 .hit-value") == serial, 10, "the hits again")
            screenshot(os.path.join(self.out, "snapshot-search-dark.png"))
            wd.click(wd.wait_for("#theme"))
            self.search(serial)
            self.wait_until(lambda: self.shown("plant-search-popup")
                            and wd.text_content("#plant-hit-0 .hit-value") == serial, 10, "the hits again")
            wd.keys(wd.wait_for("#plant-search"), "\ue007")  # Enter
            wd.wait_for('#details dd[data-field="idShort"]', text="SerialNumber")
            self.assertEqual(wd.text(wd.wait_for('#details dd[data-field="Value"]')), serial)
            self.assertEqual(self.expanded("Machine_M0001"), "true")
            self.assertEqual(self.expanded("Nameplate"), "true")
            self.assertEqual(wd.script("return document.activeElement.dataset.label"), "SerialNumber")
            self.assertFalse(self.shown("plant-search-popup"))

            # The plant changes: one value, one asset gone. Then a second snapshot.
            self.assertEqual(self.admin("PATCH", "/elements", {
                "aas_id": MACHINE, "submodel": "Nameplate", "path": ["Address", "CityTown"], "value": "Esslingen"}), 204)
            self.assertEqual(self.admin("DELETE", "/assets/" + urllib.parse.quote(TOOL, safe="")), 204)
            self.take_snapshot()

            # Both are listed, complete, with the store's place.
            wd.click(wd.wait_for("#snapshots-open"))
            self.wait_until(lambda: len(wd.find_all(".snapshot-row")) == 2, 10, "two snapshots listed")
            self.assertEqual([wd.text_content(f".snapshot-row:nth-child({i}) td:nth-child(5)") for i in (1, 2)],
                             ["complete", "complete"])
            self.assertIn("Kept on this computer in ", wd.text_content("#snapshots-store"))
            screenshot(os.path.join(self.out, "snapshot-list.png"))
            wd.click(wd.wait_for("#snapshots-close"))

            # Changes between the latest two: exactly the two made.
            wd.click(wd.wait_for("#tab-changes"))
            wd.click(wd.wait_for("#changes-compare"))
            self.wait_until(lambda: (wd.text_content("#changes-status") or "").startswith("2 changes"), 20,
                            lambda: wd.text_content("#changes-status"))
            cells = wd.script("return [...document.querySelectorAll('#changes-rows tr')]"
                              ".map((tr) => [...tr.cells].slice(0, 5).map((td) => td.textContent))")
            self.assertEqual(sorted(cells), [
                ["changed", "M-0001", "Nameplate", "Address / CityTown", "Stuttgart → Esslingen"],
                ["removed", "T-0002", "", "", ""],
            ])
            self.assertTrue(self.shown("snapshot-banner"), "the newer snapshot is on screen")
            self.assertIn("what changed since", wd.text_content("#snapshot-banner-text"))

            # Show: the changed node in the newer snapshot's tree, marked.
            wd.click(wd.wait_for('#changes-rows tr[data-change="changed"] button'))
            mark = row("CityTown") + ' .change-mark[data-change="changed"]'
            wd.wait_for(mark)
            self.assertEqual(wd.script("return document.querySelector(arguments[0]).title", mark),
                             "Changed: Stuttgart → Esslingen")
            wd.wait_for(row("Machine_M0001") + ' .change-mark[data-change="inside"]')
            self.assertEqual(wd.text_content(row("CityTown") + " .value"), "Esslingen")
            screenshot(os.path.join(self.out, "snapshot-changes.png"))
            wd.click(wd.wait_for("#theme"))
            screenshot(os.path.join(self.out, "snapshot-changes-dark.png"))
            wd.click(wd.wait_for("#theme"))

            # The changes as CSV.
            wd.click(wd.wait_for("#changes-export-csv"))
            saved = self.wait_until(lambda: (wd.text_content("#changes-status") or "").startswith("Saved ")
                                    and wd.text_content("#changes-status")[len("Saved "):], 20,
                                    lambda: wd.text_content("#changes-status"))
            with open(saved) as f:
                self.assertIn(f"changed,{MACHINE},Nameplate,Address/CityTown,Stuttgart,Esslingen", f.read())

            # The service stops: live again, the offline banner offers the latest snapshot.
            wd.click(wd.wait_for("#snapshot-live"))
            self.wait_until(lambda: not self.shown("snapshot-banner"), 10, "back to live")
            self.stop_demo_service()
            wd.click(wd.wait_for("#refresh"))
            self.wait_until(lambda: self.shown("offline-browse"), 60, "the offer to browse a snapshot")
            self.assertRegex(wd.text_content("#offline-browse"),
                             r"^Browse the snapshot of \d{4}-\d\d-\d\d \d\d:\d\d$")
            wd.click(wd.wait_for("#offline-browse"))
            self.wait_until(lambda: self.shown("snapshot-banner"), 10, "the snapshot browsed")
            self.assertRegex(wd.text_content("#snapshot-banner-text"), r"^Browsing the snapshot of .*, read-only\.$")
            self.assertFalse(self.shown("offline-browse"), "no offer while a snapshot is on screen")

            # Read from the snapshot while the service is away: the new value, no tool T-0002.
            wd.click(wd.wait_for(row("Machine_M0001") + " .twisty"))
            wd.click(wd.wait_for(row("Nameplate") + " .twisty"))
            wd.click(wd.wait_for(row("Address") + " .twisty"))
            self.assertEqual(self.wait_until(lambda: wd.text_content(row("CityTown") + " .value"), 10, "CityTown"),
                             "Esslingen")
            self.assertIsNone(wd.text_content(row("Machine_M0001") + " .check"), "a snapshot is read-only")
            wd.click(wd.wait_for('.chip[data-type="tool"]'))
            wd.wait_for(row("Tool_T0001"))
            self.assertIsNone(wd.text_content(row("Tool_T0002")))
            self.assertEqual(wd.text_content('.chip[data-type="tool"] .count'), "2",
                             "the chips count the snapshot's shells, not the stopped service's")
            screenshot(os.path.join(self.out, "snapshot-offline.png"))
            wd.click(wd.wait_for("#theme"))
            screenshot(os.path.join(self.out, "snapshot-offline-dark.png"))
        finally:
            if self.demo_service.poll() is None:
                self.stop_demo_service()


if __name__ == "__main__":
    unittest.main(verbosity=2)
