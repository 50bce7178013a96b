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
import time
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
            self.assertEqual(wd.text_content("#plant-hit-0 .hit-trail"), "Machine_M0001 › Nameplate › SerialNumber")
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
            self.assertFalse(self.shown("snapshot-banner"), "comparing leaves the live tree on screen")

            # Show: the changed node in the newer snapshot's tree, marked.
            wd.click(wd.wait_for('#changes-rows tr[data-change="changed"] button'))
            mark = row("CityTown") + ' .change-mark[data-change="changed"]'
            wd.wait_for(mark)
            self.assertTrue(self.shown("snapshot-banner"), "the newer snapshot is on screen")
            self.assertIn("what changed since", wd.text_content("#snapshot-banner-text"))
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
                             r"^Browse the snapshot of \d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?$")
            wd.click(wd.wait_for("#offline-browse"))
            self.wait_until(lambda: self.shown("snapshot-banner"), 10, "the snapshot browsed")
            # The comparison is still in the Changes tab and this is its newer snapshot: marked.
            self.assertRegex(wd.text_content("#snapshot-banner-text"),
                             r"^Browsing the snapshot of [\d: -]+, read-only — what changed since [\d: -]+ is marked\.$")
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


class TwoSnapshotsOfOneMinute(AppTestCase):
    """Two snapshots taken within one minute (issue "Everyday use", item 9): told apart by
    their seconds, the one on screen marked in the list, the banner naming both times
    once, and Changes that leave the tree where the user had it. Each test starts its
    own app and demo service."""

    app_per_test = True

    def admin(self, method, path, body=None):
        return Snapshots.admin(self, method, path, body)

    def shown(self, element_id):
        return not self.wd.script(HIDDEN, element_id)

    def expanded(self, label):
        return Snapshots.expanded(self, label)

    def two_snapshots(self, change):
        """Connects to a fresh demo service and takes two snapshots in one minute, the
        CityTown of M-0001 changed between them when `change`."""
        port = free_port()
        self.line = self.start_demo_service(port, os.path.join(self.data_home, "demo-service-state.json"),
                                            "--admin-token")
        self.addCleanup(lambda: self.demo_service.poll() is None and self.stop_demo_service())
        self.fill_profile_form("Minute", self.line)
        self.save_profile_and_connect("Minute")
        self.chip_count("machine", "3")
        while time.time() % 60 > 40:  # both within this minute
            time.sleep(0.5)
        self.take_snapshot()
        if change:
            self.assertEqual(self.admin("PATCH", "/elements", {
                "aas_id": MACHINE, "submodel": "Nameplate", "path": ["Address", "CityTown"], "value": "Esslingen"}), 204)
        time.sleep(1.1)  # another second
        self.take_snapshot()

    def open_list(self):
        """Opens the Snapshots dialog; returns the Taken cells, newest first."""
        wd = self.wd
        wd.click(wd.wait_for("#snapshots-open"))
        self.wait_until(lambda: len(wd.find_all(".snapshot-row")) == 2, 10, "two snapshots listed")
        return [wd.text_content(f".snapshot-row:nth-child({i}) td:nth-child(1)") for i in (1, 2)]

    def test_seconds_tell_two_snapshots_of_one_minute_apart(self):
        wd = self.wd
        self.two_snapshots(change=True)
        newer, older = self.open_list()
        self.assertRegex(older, r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")
        self.assertRegex(newer, r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")
        self.assertEqual(newer[:16], older[:16], "one minute")
        self.assertNotEqual(newer, older)
        # The older one browsed: the banner names it to the second.
        wd.click(wd.wait_for(".snapshot-row:nth-child(2) button"))
        self.wait_until(lambda: self.shown("snapshot-banner"), 10, "the snapshot browsed")
        self.assertEqual(wd.text_content("#snapshot-banner-text"), f"Browsing the snapshot of {older}, read-only.")
        # Its changes against the older one: each time said once, the older one's day not repeated.
        wd.click(wd.wait_for("#tab-changes"))
        wd.click(wd.wait_for("#changes-compare"))
        self.wait_until(lambda: (wd.text_content("#changes-status") or "").startswith("1 change "), 20,
                        lambda: wd.text_content("#changes-status"))
        self.assertTrue(wd.text_content("#changes-status").startswith(
            f"1 change from the snapshot of {older} to {newer[11:]}: "), wd.text_content("#changes-status"))
        wd.click(wd.wait_for('#changes-rows tr[data-change="changed"] button'))
        wd.wait_for(row("CityTown") + ' .change-mark[data-change="changed"]')
        self.assertEqual(wd.text_content("#snapshot-banner-text"),
                         f"Browsing the snapshot of {newer}, read-only — what changed since {older[11:]} is marked.")

    def test_the_search_names_its_snapshot_to_the_second(self):
        wd = self.wd
        self.two_snapshots(change=False)
        newer = self.open_list()[0]
        self.assertRegex(newer, r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$", "the list tells them apart by their seconds")
        wd.click(wd.wait_for("#snapshots-close"))
        wd.keys(wd.wait_for("#plant-search"), "SN-M-0001")
        status = self.wait_until(lambda: self.shown("plant-search-popup") and wd.text_content("#plant-search-status"),
                                 10, "the search to answer")
        self.assertTrue(status.endswith(f" in the snapshot of {newer}"), f"{status!r}, as the list says it: {newer!r}")

    def test_the_snapshot_on_screen_is_marked_in_the_list(self):
        wd = self.wd
        self.two_snapshots(change=False)
        self.open_list()
        self.assertEqual(wd.find_all('.snapshot-row[aria-current="true"]'), [], "live: no snapshot on screen")
        self.assertEqual(wd.find_all(".snapshot-row .on-screen"), [])
        wd.click(wd.wait_for(".snapshot-row:nth-child(2) button"))  # Browse the older one
        self.wait_until(lambda: self.shown("snapshot-banner"), 10, "the snapshot browsed")
        self.set_window(1024, 700)
        older = self.open_list()[1]
        # Marked in words (read with the row's date), not by colour alone, and for screen readers.
        self.assertEqual(wd.script("return [...document.querySelectorAll('.snapshot-row')]"
                                   ".map((tr) => tr.getAttribute('aria-current'))"), [None, "true"])
        self.assertTrue(older.endswith(" on screen"), older)
        self.assertEqual(wd.text_content(".snapshot-row:nth-child(2) .on-screen"), "on screen")
        self.assertTrue(wd.script("const r = document.querySelector('.snapshot-row .on-screen')"
                                  ".getBoundingClientRect(); return r.width > 0 && r.bottom <= innerHeight"))
        self.assertIsNone(wd.text_content(".snapshot-row:nth-child(1) .on-screen"))
        screenshot(os.path.join(self.out, "snapshot-list-on-screen.png"))
        wd.click(wd.wait_for("#snapshots-close"))
        wd.click(wd.wait_for("#theme"))
        self.open_list()
        screenshot(os.path.join(self.out, "snapshot-list-on-screen-dark.png"))

    def test_compare_leaves_the_tree_where_it_was(self):
        wd = self.wd
        self.two_snapshots(change=True)
        # The user's place in the live tree: M-0001 expanded, its Nameplate selected.
        wd.click(wd.wait_for(row("Machine_M0001") + " .twisty"))
        wd.click(wd.wait_for(row("Nameplate") + " .label"))
        self.wait_until(lambda: wd.script("return document.querySelector(arguments[0]).getAttribute('aria-selected')",
                                          row("Nameplate")) == "true", 10, "Nameplate selected")
        wd.click(wd.wait_for("#tab-changes"))
        wd.click(wd.wait_for("#changes-compare"))
        self.wait_until(lambda: (wd.text_content("#changes-status") or "").startswith("1 change "), 20,
                        lambda: wd.text_content("#changes-status"))
        self.assertFalse(self.shown("snapshot-banner"), "still the live data")
        self.assertEqual(self.expanded("Machine_M0001"), "true")
        self.assertEqual(wd.script("return document.querySelector(arguments[0])?.getAttribute('aria-selected')",
                                   row("Nameplate")), "true")
        self.assertEqual(wd.find_all("#tree .change-mark"), [], "the live tree is not marked")
        # Show goes to the change in the newer snapshot, which the banner names; marked there.
        wd.click(wd.wait_for('#changes-rows tr[data-change="changed"] button'))
        wd.wait_for(row("CityTown") + ' .change-mark[data-change="changed"]')
        self.assertTrue(self.shown("snapshot-banner"))
        self.assertIn("what changed since", wd.text_content("#snapshot-banner-text"))
        self.assertTrue(self.shown("changes"), "the Changes tab stays")
        wd.click(wd.wait_for("#snapshot-live"))
        self.wait_until(lambda: not self.shown("snapshot-banner"), 10, "back to live")
        # Live again, the tree where it was: CityTown selected, its ancestors expanded; no marks.
        self.wait_until(lambda: wd.script("return document.querySelector(arguments[0])?.getAttribute('aria-selected')",
                                          row("CityTown")) == "true", 15, "CityTown selected again")
        self.assertEqual([self.expanded(label) for label in ("Machine_M0001", "Nameplate", "Address")],
                         ["true", "true", "true"])
        self.assertEqual(wd.find_all("#tree .change-mark"), [])

    def test_the_changes_tab_shows_the_latest_two_unasked(self):
        wd = self.wd
        self.two_snapshots(change=True)
        self.set_window(1024, 700)
        wd.click(wd.wait_for("#tab-changes"))
        self.wait_until(lambda: (wd.text_content("#changes-status") or "").startswith("1 change "), 20,
                        lambda: wd.text_content("#changes-status"))
        self.assertEqual(len(wd.find_all("#changes-rows tr")), 1)
        self.assertFalse(self.shown("snapshot-banner"), "the tree stays on the live data")
        screenshot(os.path.join(self.out, "snapshot-changes-unasked.png"))
        wd.click(wd.wait_for("#theme"))
        screenshot(os.path.join(self.out, "snapshot-changes-unasked-dark.png"))



class SearchHitNames(AppTestCase):
    """The built-in demo's Company C-0001 and Component C-0001: each hit named by the
    idShort the tree shows for its shell, with its asset type."""

    HITS = ("return [...document.querySelectorAll('#plant-search-results [role=option]')]"
            ".map((li) => [li.querySelector('.hit-trail').textContent, li.querySelector('.hit-type').textContent])")

    def test_hits_are_named_as_the_tree_names_their_shells(self):
        wd = self.wd
        self.chip_count("machine", "3")
        self.take_snapshot()
        box = wd.wait_for("#plant-search")
        wd.keys(box, "SN-C-0001")
        hits = self.wait_until(lambda: len(wd.find_all("#plant-search-results [role=option]")) >= 2 and wd.script(self.HITS),
                               10, "the hits")
        serials = sorted(h for h in hits if h[0].endswith("SerialNumber"))
        self.assertEqual(serials, [["Company_C0001 › Nameplate › SerialNumber", "company"],
                                   ["Component_C0001 › Nameplate › SerialNumber", "component"]])
        self.assertEqual([h for h in hits if h[0].startswith("C-0001")], [], "no hit named by its identifier's tail")
        # The Component's hit opened: the tree names its shell the same.
        for _ in range(hits.index(next(h for h in hits if h[1] == "component"))):
            wd.keys(box, "\ue015")  # Down
        wd.keys(box, "\ue007")  # Enter
        self.wait_until(lambda: wd.script("return document.querySelector('li[role=treeitem][aria-selected=true]')?.dataset.label")
                        == "SerialNumber", 15, "the hit opened in the tree")
        self.assertEqual(wd.script("return document.querySelector(arguments[0])?.getAttribute('aria-expanded')",
                                   row("Component_C0001")), "true")


if __name__ == "__main__":
    unittest.main(verbosity=2)
