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

from app_driver import ELEMENT, AppTestCase, screenshot, today_utc

TAB, ENTER, END, HOME, LEFT = "\ue004", "\ue007", "\ue010", "\ue011", "\ue012"
UP, RIGHT, DOWN, PAGE_UP, PAGE_DOWN, CTRL = "\ue013", "\ue014", "\ue015", "\ue00e", "\ue00f", "\ue009"
CITY = "0173-1#02-AAO132#002"  # CityTown's semanticId, in the ZVEI and the IDTA 3.0 nameplate
CITY_PATHS = ["Nameplate/Address/CityTown", "Nameplate/AddressInformation/CityTown"]
HEADERS = ("return [...document.querySelectorAll('#table-head button.sort')].map(b => ({"
           "name: (b.querySelector('.name') ?? b).textContent, where: b.querySelector('.where')?.textContent ?? '',"
           "title: b.title, cut: b.scrollWidth > b.clientWidth}))")
# Where an element is on screen, and whether it is what a click there would reach.
PLACE = """const el = arguments[0] instanceof Element ? arguments[0] : document.querySelector(arguments[0]);
const r = el.getBoundingClientRect(); const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, seen: el.contains(hit),
        visible: getComputedStyle(el).visibility !== 'hidden' && r.width > 0};"""
# The focused element (whether it is `arguments[0]`) and its ring: its outline, and the
# theme's focus colour as the outline's colour would read.
RING = """const el = document.activeElement; const s = getComputedStyle(el);
const probe = document.body.appendChild(document.createElement('i')); probe.style.color = 'var(--focus)';
const focus = getComputedStyle(probe).color; probe.remove();
return {is: el.matches(arguments[0]), style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor, focus};"""
# The focused cell: [its row among the rows shown, its column, its text], from the grid's
# own numbering (aria-rowindex counts the two header rows); else what has the focus.
FOCUSED_CELL = """const el = document.activeElement;
if (!el.matches('#table-body td')) return el.id || el.tagName;
return [Number(el.parentElement.getAttribute('aria-rowindex')) - 3, el.cellIndex, el.textContent];"""

SAVE_DIR = tempfile.mkdtemp(prefix="aas-e2e-table-")
ROWS = "return [...document.querySelectorAll('#table-body tr:not(.spacer)')].map(r => [...r.cells].map(c => c.textContent))"


class TableStatus:
    """The Table tab's status line, for the classes below."""

    def status(self):
        return self.wd.text_content("#table-status") or ""


class PlantTable(TableStatus, AppTestCase):
    app_env = {"AAS_BROWSER_SAVE_DIR": SAVE_DIR}

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(SAVE_DIR, ignore_errors=True)

    def rows(self):
        return self.wd.script(ROWS)

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
        path = os.path.join(SAVE_DIR, f"DEMO-01-machine-{today_utc()}.xlsx")
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
        wd.script("document.querySelectorAll('#table-body tr:not(.spacer) td')[3].scrollIntoView({block: 'nearest', inline: 'nearest'})")
        wd.click(wd.find_all("#table-body tr:not(.spacer) td")[3])
        wd.keys(wd.active(), ENTER)
        self.wait_until(lambda: not wd.script("return document.getElementById('details').hidden"), 10)
        self.wait_until(lambda: first[3] in (wd.text_content("#details") or ""), 20,
                        lambda: wd.text_content("#details"))
        selected = wd.script("return document.querySelector('li[role=\"treeitem\"][aria-selected=\"true\"]')?.dataset.label")
        self.assertEqual(selected, "SerialNumber")


class TableRoom(TableStatus, AppTestCase):
    """At 1024×700, in both themes, by keyboard: the row's name stays in view, the table
    can take the window's width, a header is the element's name (the path on hover), and
    two columns of one name and one semanticId are offered joined."""

    app_per_test = True

    def headers(self):
        return self.wd.script(HEADERS)

    def open_table(self):
        """A snapshot of the demo at 1024×700, its machines in the Table tab."""
        self.set_window(1024, 700)
        self.chip_count("machine", "3")
        self.take_snapshot()
        self.wd.click(self.wd.wait_for("#tab-table"))
        self.wait_until(lambda: self.status().startswith("3 shells"), 30, self.status)

    def add_columns(self, search, columns):
        """Ticks `columns` in the picker, found by `search`, and shows them."""
        wd = self.wd
        before = len(self.headers())
        wd.click(wd.wait_for("#table-columns"))
        wd.keys(wd.wait_for("#table-picker-search"), search)
        for column in columns:
            wd.click(wd.wait_for(f"#table-picker-list input[value='{column}']"))
        wd.click(wd.wait_for("#table-picker-apply"))
        self.wait_until(lambda: len(self.headers()) == before + len(columns), 20, self.headers)
        self.wait_until(lambda: self.status().startswith("3 shells"), 20, self.status)

    def assert_ring(self, css, what):
        ring = self.wd.script(RING, css)
        self.assertTrue(ring["is"], f"{what}: the focus is on {css}")
        self.assertNotEqual(ring["style"], "none", f"{what}: the focus is drawn: {ring}")
        self.assertGreaterEqual(ring["width"], 2, f"{what}: the focus is drawn: {ring}")

    def ring_in_both_themes(self, tab_from, focused, what, shot):
        """Tab from `tab_from` reaches `focused` with its ring drawn, in each theme
        (a picture `shot`-light/-dark.png of each); ends in the light theme."""
        for dark in (False, True):
            self.theme(dark)
            self.wd.keys(self.wd.wait_for(tab_from), TAB)  # the next control, by keyboard
            self.assert_ring(focused, f"{what}, {'dark' if dark else 'light'}")
            screenshot(os.path.join(self.out, f"{shot}-{'dark' if dark else 'light'}.png"))
        self.theme(False)

    def test_a_header_is_the_element_name_with_the_path_on_hover(self):
        self.open_table()
        self.add_columns("CityTown", CITY_PATHS)
        city = self.headers()[-2:]
        self.assertEqual([h["name"] for h in city], ["CityTown", "CityTown"], city)
        self.assertEqual([h["where"] for h in city], ["Address", "AddressInformation"], city)
        for header, path in zip(city, CITY_PATHS):
            self.assertTrue(header["title"].startswith(path + "\n"), header)
            self.assertIn(f"semanticId {CITY}", header["title"])
        self.assertEqual([h for h in self.headers() if h["cut"]], [], "no header is cut")
        screenshot(os.path.join(self.out, "table-headers-1024.png"))

    def test_columns_of_one_semantic_id_are_offered_joined(self):
        wd = self.wd
        self.open_table()
        # In the picker: one column by semanticId, before the paths it joins.
        wd.click(wd.wait_for("#table-columns"))
        wd.keys(wd.wait_for("#table-picker-search"), "CityTown")
        join = f"#table-picker-list li.join input[value='semanticId:{CITY}']"
        wd.wait_for(join)
        line = wd.script("return document.querySelector(arguments[0]).closest('li').textContent", join)
        self.assertIn("CityTown by semanticId — joins " + " and ".join(CITY_PATHS), line)
        # Two and one machines have the paths; one may have both: 2 to 3 of the 3 have one.
        self.assertIn("— 2 to 3 of 3", line)
        listed = wd.script("return [...document.querySelectorAll('#table-picker-list input')].map(i => i.value)")
        self.assertEqual(listed, [f"semanticId:{CITY}", *CITY_PATHS])
        screenshot(os.path.join(self.out, "table-picker-join.png"))
        wd.click(wd.wait_for("#table-picker-cancel"))

        # Two CityTown columns shown: the table offers to join them.
        self.add_columns("CityTown", CITY_PATHS)
        offer = wd.wait_for("#table-joins button")
        self.assertEqual(wd.text(offer), "Join CityTown by semanticId")
        self.assertIn(f"share semanticId {CITY}", wd.text_content("#table-joins"))
        self.ring_in_both_themes("#table-export-csv", "#table-joins button", "the offer", "table-join")
        wd.keys(offer, ENTER)
        self.wait_until(lambda: [h["name"] for h in self.headers()].count("CityTown") == 1, 20, self.headers)
        self.wait_until(lambda: self.status().startswith("3 shells"), 20, self.status)
        cities = wd.script("return [...document.querySelectorAll('#table-body tr:not(.spacer)')].map(r => r.cells[r.cells.length - 1].textContent)")
        self.assertEqual(len(cities), 3)
        self.assertNotIn("—", cities, "every machine's city, from either nameplate")
        self.assertTrue(wd.script("return document.getElementById('table-joins').hidden"))
        self.assertTrue(wd.script("return document.activeElement.matches('#table-body td.cursor')"), "the grid has the focus")

    def test_the_row_name_stays_in_view(self):
        wd = self.wd
        self.open_table()
        self.add_columns("CityTown", CITY_PATHS)
        self.add_columns("Weight", ["TechnicalData/TechnicalProperties/Weight"])
        self.assertGreater(wd.script("const v = document.getElementById('table-viewport'); return v.scrollWidth - v.clientWidth"),
                           100, "the table is wider than its pane")
        first = "#table-body tr:not(.spacer) td"
        for dark in (False, True):
            self.theme(dark)
            wd.click(wd.wait_for(first))
            wd.keys(wd.active(), HOME)
            wd.keys(wd.active(), END)  # the last column, by keyboard
            self.wait_until(lambda: wd.script("return document.getElementById('table-viewport').scrollLeft") > 100, 10,
                            "the table scrolls to the cursor")
            view = wd.script(PLACE, "#table-viewport")
            cursor = wd.script(PLACE, "#table-body td.cursor")
            self.assertLessEqual(cursor["right"], view["right"] + 1, f"the cursor's cell is in view: {cursor} {view}")
            self.assertTrue(cursor["seen"], f"the cursor's cell is in view: {cursor}")
            name = wd.script(PLACE, first)
            self.assertTrue(name["seen"] and name["left"] <= view["left"] + 2, f"the row's name stays in view: {name} {view}")
            self.assertEqual(wd.text_content(first), "Machine_M0001")
            head = wd.script(PLACE, "#table-head th")
            self.assertTrue(head["seen"] and head["left"] <= view["left"] + 2, f"its header too: {head}")
            self.assertTrue(wd.script("return document.activeElement.matches('#table-body td.cursor')"))
            self.assertEqual(wd.script("const s = getComputedStyle(document.querySelector('#table-body td.cursor'));"
                                       "return [s.outlineStyle, parseFloat(s.outlineWidth)]"), ["solid", 2])
            screenshot(os.path.join(self.out, f"table-frozen-{'dark' if dark else 'light'}.png"))
            # ← back along the row: each cell comes out from under the row's name.
            for _ in range(3):
                wd.keys(wd.active(), LEFT)
            name = wd.script(PLACE, first)
            cursor = wd.script(PLACE, "#table-body td.cursor")
            self.assertGreaterEqual(cursor["left"], name["right"] - 1, f"not under the name: {cursor} {name}")
            self.assertTrue(cursor["seen"], cursor)
        self.theme(False)

    def test_the_table_takes_the_window(self):
        wd = self.wd
        self.open_table()
        narrow = wd.script(PLACE, "#table-viewport")
        button = wd.wait_for("#table-full-width")
        self.assertEqual(wd.script("return document.getElementById('table-full-width').getAttribute('aria-pressed')"), "false")
        wd.keys(button, ENTER)
        self.wait_until(lambda: wd.script(PLACE, "#table-viewport")["width"] > narrow["width"] + 300, 10,
                        lambda: wd.script(PLACE, "#table-viewport"))
        wide = wd.script(PLACE, "#table-viewport")
        self.assertLessEqual(wide["right"], 1024)
        self.assertLessEqual(wd.script("return document.documentElement.scrollWidth"), 1024, "no page scrollbar")
        self.assertEqual(wd.script("return document.getElementById('table-full-width').getAttribute('aria-pressed')"), "true")
        self.assertFalse(wd.script(PLACE, ".tree-pane")["visible"], "the tree gives its room")
        self.ring_in_both_themes("#table-columns", "#table-full-width", "Full width", "table-full-width")
        # Another tab brings the tree back; the Table takes the window again.
        wd.click(wd.wait_for("#tab-details"))
        self.wait_until(lambda: wd.script(PLACE, ".tree-pane")["width"] >= 320, 10, "the tree is back")
        self.assertTrue(wd.script(PLACE, ".tree-pane")["visible"])
        wd.click(wd.wait_for("#tab-table"))
        self.wait_until(lambda: wd.script(PLACE, "#table-viewport")["width"] == wide["width"], 10,
                        lambda: wd.script(PLACE, "#table-viewport"))
        wd.keys(wd.wait_for("#table-full-width"), ENTER)
        self.wait_until(lambda: wd.script(PLACE, "#table-viewport")["width"] == narrow["width"], 10,
                        lambda: wd.script(PLACE, "#table-viewport"))

    def focused(self):
        return self.wd.script(FOCUSED_CELL)

    def test_the_cells_are_a_grid_with_one_cell_in_the_tab_order(self):
        wd = self.wd
        self.open_table()
        grid = wd.script("""const grid = document.getElementById('table-grid');
            const rows = [...document.querySelectorAll('#table-body tr:not(.spacer)')];
            return {role: grid.getAttribute('role'), rowcount: grid.getAttribute('aria-rowcount'),
                    rows: rows.map((r) => [r.getAttribute('role'), r.getAttribute('aria-rowindex')]),
                    cells: [...new Set(rows.flatMap((r) => [...r.cells].map((c) => c.getAttribute('role'))))],
                    spacers: [...document.querySelectorAll('#table-body tr.spacer')].map((r) => r.getAttribute('role')),
                    stops: [...document.querySelectorAll('#table-viewport, #table-viewport [tabindex]')]
                      .filter((e) => e.tabIndex >= 0 && !e.matches('#table-head *'))
                      .map((e) => (e.classList.contains('cursor') ? 'cursor' : e.id || e.tagName))};""")
        self.assertEqual(grid["role"], "grid")
        self.assertEqual(grid["rowcount"], "5", "two header rows and three shells")
        self.assertEqual(grid["rows"], [["row", "3"], ["row", "4"], ["row", "5"]])
        self.assertEqual(grid["cells"], ["gridcell"])
        self.assertEqual(grid["spacers"], ["none", "none"])
        self.assertEqual(grid["stops"], ["cursor"], "one cell in the tab order: the cursor's")

        # Tab from the last filter box into the grid, onto the cursor's cell; the keys move the focus.
        wd.keys(wd.find_all("#table-head tr.filters input")[-1], TAB)
        self.assertEqual(self.focused(), [0, 0, "Machine_M0001"])
        last = len(self.wd.script(HEADERS)) - 1
        for keys, row, col in ((RIGHT, 0, 1), (DOWN, 1, 1), (END, 1, last), (HOME, 1, 0), (UP, 0, 0),
                               (CTRL + END, 2, last), (PAGE_UP, 0, last), (PAGE_DOWN, 2, last), (CTRL + HOME, 0, 0)):
            wd.keys(wd.active(), keys)
            self.wait_until(lambda: self.focused()[:2] == [row, col], 5,
                            lambda: f"{keys!r}: the focus on {self.focused()}, not [{row}, {col}]")
            self.assertEqual(wd.find_all('#table-body td[tabindex="0"]'), [wd.active()], "the focused cell alone is in the tab order")
        # A click moves the cursor and the focus there.
        wd.click(wd.script("return document.querySelectorAll('#table-body tr:not(.spacer)')[1].cells[1]")[ELEMENT])
        self.wait_until(lambda: self.focused()[:2] == [1, 1], 5, self.focused)

        # The focus ring, in both themes (the theme button takes the focus: Tab back in).
        for dark in (False, True):
            self.theme(dark)
            wd.keys(wd.find_all("#table-head tr.filters input")[-1], TAB)
            # The last filter box was scrolled to: the cell comes out from under the row's name.
            self.wait_until(lambda: wd.script(PLACE, "#table-body td.cursor")["seen"], 5,
                            lambda: wd.script(PLACE, "#table-body td.cursor"))
            ring = wd.script(RING, "#table-body td.cursor")
            self.assertTrue(ring["is"], ring)
            self.assertEqual((ring["style"], ring["color"]), ("solid", ring["focus"]), ring)
            self.assertGreaterEqual(ring["width"], 2, ring)
            screenshot(os.path.join(self.out, f"table-grid-focus-{'dark' if dark else 'light'}.png"))
        self.theme(False)

    def test_full_width_is_remembered(self):
        wd = self.wd
        pressed = "return document.getElementById('table-full-width').getAttribute('aria-pressed')"
        self.open_table()
        wd.keys(wd.wait_for("#table-full-width"), ENTER)
        self.assertEqual(wd.script(pressed), "true")

        def stored():
            try:
                with open(self.preferences_path()) as f:
                    return json.load(f).get("table_full_width")
            except (OSError, ValueError):
                return None
        self.wait_until(stored, 10, "Full width in the preferences")
        # The Table reopened, for another asset type too: still the window's width.
        wd.click(wd.wait_for("#tab-details"))
        wd.click(wd.wait_for('.chip[data-type="tool"]'))
        wd.click(wd.wait_for("#tab-table"))
        self.wait_until(lambda: self.status().startswith("3 shells"), 30, self.status)
        self.assertEqual(wd.script(pressed), "true")
        self.assertFalse(wd.script(PLACE, ".tree-pane")["visible"], "the tree gives its room")

        # After a restart as well.
        self.restart_app()
        self.set_window(1024, 700)
        self.chip_count("machine", "3")
        wd = self.wd
        wd.click(wd.wait_for("#tab-table"))
        self.wait_until(lambda: self.status().startswith("3 shells"), 30, self.status)
        self.assertEqual(wd.script(pressed), "true")
        self.assertFalse(wd.script(PLACE, ".tree-pane")["visible"], "the tree gives its room")
        # Pressed again: back, and so it stays.
        wd.keys(wd.wait_for("#table-full-width"), ENTER)
        self.wait_until(lambda: stored() is False, 10, "Full width off in the preferences")
        self.assertTrue(wd.script(PLACE, ".tree-pane")["visible"])


if __name__ == "__main__":
    unittest.main()
