#!/usr/bin/env python3
"""End to end: the plant as a table on the built-in demo. Without a snapshot the Table
tab says how to get one; after Take snapshot it shows the machines with the default
columns; a column is added from the picker (its unit in the header), a header click
sorts, a filter box filters, Enter on a cell opens its element in the tree with its
details, and Export XLSX writes a workbook that openpyxl (an independent reader) reads
with the rows shown. Screenshots of the table in both themes. The page's process runs
with the heap growth the app sets (crates/aas-app/src/page_heap.rs)."""

import json
import os
import shutil
import subprocess
import tempfile
import unittest

from app_driver import AppTestCase, screenshot

SAVE_DIR = tempfile.mkdtemp(prefix="aas-e2e-table-")
ROWS = "return [...document.querySelectorAll('#table-body tr:not(.spacer)')].map(r => [...r.cells].map(c => c.textContent))"


class PlantTable(AppTestCase):
    app_env = {"AAS_BROWSER_SAVE_DIR": SAVE_DIR}

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(SAVE_DIR, ignore_errors=True)

    def rows(self):
        return self.wd.script(ROWS)

    def status(self):
        return self.wd.text_content("#table-status") or ""

    def web_process_environments(self):
        """The environment of each WebKit web process started under the driver."""
        found, todo = [], [self.driver.pid]
        while todo:
            pid = todo.pop()
            try:
                with open(f"/proc/{pid}/task/{pid}/children") as f:
                    todo.extend(int(p) for p in f.read().split())
                with open(f"/proc/{pid}/comm") as f:
                    if f.read().strip().startswith("WebKitWebProces"):
                        with open(f"/proc/{pid}/environ", "rb") as e:
                            found.append(dict(v.decode().split("=", 1) for v in e.read().split(b"\0") if b"=" in v))
            except FileNotFoundError:
                pass  # gone meanwhile
        return found

    def test_page_heap_is_collected_sooner(self):
        environments = self.wait_until(self.web_process_environments, 10)
        self.assertEqual({e.get("JSC_heapGrowthMaxIncrease") for e in environments}, {"0.5"})
        self.assertEqual({e.get("JSC_largeHeapSize") for e in environments}, {"8388608"})

    def test_table_from_a_snapshot(self):
        wd = self.wd
        self.chip_count("machine", "3")
        wd.click(wd.wait_for("#tab-table"))
        self.wait_until(lambda: "snapshot" in self.status().lower(), 20, self.status)
        self.assertEqual(self.rows(), [])

        wd.click(wd.wait_for("#take-snapshot"))
        self.wait_until(lambda: (wd.text_content("#load-text") or "").startswith("Snapshot taken"), 120,
                        lambda: wd.text_content("#load-text"))
        wd.click(wd.wait_for("#tab-details"))
        wd.click(wd.wait_for("#tab-table"))
        self.wait_until(lambda: self.status().startswith("3 shells"), 30, self.status)
        headers = wd.script("return [...document.querySelectorAll('#table-head button.sort')].map(b => b.textContent)")
        self.assertEqual(headers, ["idShort", "ManufacturerName", "ManufacturerProductDesignation", "SerialNumber",
                                   "YearOfConstruction"])
        self.assertEqual([r[0] for r in self.rows()], ["Machine_M0001", "Machine_M0002", "Machine_M0003"])

        # A column from the picker: searched, ticked, shown with its unit.
        wd.click(wd.wait_for("#table-columns"))
        wd.keys(wd.wait_for("#table-picker-search"), "Weight")
        weight = "#table-picker-list input[value='TechnicalData/TechnicalProperties/Weight']"
        box = wd.wait_for(weight)
        label = wd.script("return document.querySelector(arguments[0]).parentElement.textContent", weight)
        self.assertIn("of 3", label)
        wd.click(box)
        wd.click(wd.wait_for("#table-picker-apply"))
        self.wait_until(lambda: "Weight [kg]" in wd.script(
            "return [...document.querySelectorAll('#table-head button.sort')].map(b => b.textContent)"), 20)

        # The columns are remembered for the plant and type, and saved as a named set.
        def stored():
            try:
                with open(self.preferences_path()) as f:
                    return json.load(f)
            except (OSError, ValueError):
                return {}
        columns = self.wait_until(lambda: stored().get("tables", {}).get("Demo platform (built in)", {})
                                  .get("DEMO-01|machine", {}).get("columns"), 10, stored)
        self.assertIn("TechnicalData/TechnicalProperties/Weight", columns)
        wd.click(wd.wait_for("#table-columns"))
        wd.keys(wd.wait_for("#table-picker-set-name"), "Weights")
        wd.click(wd.wait_for("#table-picker-save-set"))
        self.wait_until(lambda: stored().get("column_sets", {}).get("Weights") == columns, 10, stored)
        self.assertIn("Weights (", wd.text_content("#table-picker-sets"))
        wd.click(wd.wait_for("#table-picker-cancel"))

        # Sort by the year, descending (two clicks), as numbers.
        wd.script("document.querySelectorAll('#table-head button.sort')[4].scrollIntoView({block: 'nearest', inline: 'nearest'})")
        year = wd.find_all("#table-head button.sort")[4]
        wd.click(year)
        wd.click(year)
        self.wait_until(lambda: wd.script("return document.querySelectorAll('#table-head th')[4].getAttribute('aria-sort')")
                        == "descending", 10)
        years = self.wait_until(lambda: [int(r[4]) for r in self.rows()] if self.rows() else None, 10)
        self.assertEqual(years, sorted(years, reverse=True))
        wd.script("document.getElementById('table-viewport').scrollLeft = 0")
        screenshot(os.path.join(self.out, "table-light.png"))
        wd.click(wd.wait_for("#theme"))
        screenshot(os.path.join(self.out, "table-dark.png"))
        wd.click(wd.wait_for("#theme"))

        # A filter: the serial number of the first row only.
        first = self.rows()[0]
        wd.script("document.querySelectorAll('#table-head tr.filters input')[3].scrollIntoView({block: 'nearest', inline: 'nearest'})")
        boxes = wd.find_all("#table-head tr.filters input")
        wd.keys(boxes[3], "=" + first[3])
        self.wait_until(lambda: self.status().startswith("1 of 3 shells"), 10, self.status)
        self.wait_until(lambda: self.rows() == [first], 10, self.rows)

        # XLSX of what is shown, read back by openpyxl.
        path = os.path.join(SAVE_DIR, "DEMO-01-table.xlsx")
        wd.click(wd.wait_for("#table-export-xlsx"))
        self.wait_until(lambda: self.status().startswith("Saved"), 20, self.status)
        reader = os.path.join(os.path.dirname(__file__), "..", "support", "read_xlsx.py")
        read = subprocess.run(["/usr/bin/python3", reader, path], capture_output=True, text=True, check=True)
        rows = json.loads(read.stdout)["sheets"]["Table"]["rows"]
        self.assertEqual(len(rows), 2)
        self.assertEqual(rows[1][0], first[0])
        # A year typed as a number is a number cell; an IDTA 3.0 nameplate's is text.
        self.assertEqual(str(rows[1][4]), first[4])

        # Enter on the serial number cell opens it in the tree, with its details.
        viewport = wd.wait_for("#table-viewport")
        wd.script("document.querySelectorAll('#table-body tr:not(.spacer) td')[3].scrollIntoView({block: 'nearest', inline: 'nearest'})")
        wd.click(wd.find_all("#table-body tr:not(.spacer) td")[3])
        wd.keys(viewport, "\ue007")  # Enter
        self.wait_until(lambda: not wd.script("return document.getElementById('details').hidden"), 10)
        self.wait_until(lambda: first[3] in (wd.text_content("#details") or ""), 20,
                        lambda: wd.text_content("#details"))
        selected = wd.script("return document.querySelector('li[role=\"treeitem\"][aria-selected=\"true\"]')?.dataset.label")
        self.assertEqual(selected, "SerialNumber")


if __name__ == "__main__":
    unittest.main()
