#!/usr/bin/env python3
"""End to end: the window in everyday use. The tree's keyboard cursor is drawn (with
contrast, in both themes) and the details follow it; at 1024×700 every control can be
reached, with long profile names and plant codes too; controls keep their place while
a snapshot is taken, an export is written and the Columns dialog is searched; panes never
show what belongs to another source, plant or selection; profiles are listed, made new
and deleted only after a confirmation. Each class starts its own app."""

import os
import shutil
import tempfile
import time
import unittest

from app_driver import AppTestCase, free_port, row, screenshot

SAVE_DIR = tempfile.mkdtemp(prefix="aas-e2e-window-")
DOWN, ENTER = "\ue015", "\ue007"

# The WCAG contrast ratio of the focused element's indicator (outline, else an inset
# box-shadow) against the background it is drawn on.
FOCUS_CONTRAST = """
const el = document.activeElement;
const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
const lum = (c) => { const [r, g, b] = rgb(c).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
                     return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const opaque = (c) => c && rgb(c).length >= 3 && (rgb(c).length < 4 || rgb(c)[3] > 0);
let bg = null;
for (let n = el; n && !bg; n = n.parentElement) { const c = getComputedStyle(n).backgroundColor; if (opaque(c)) bg = c; }
const s = getComputedStyle(el);
const ring = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2 ? s.outlineColor
  : (s.boxShadow.match(/rgba?\\([^)]*\\)/) || [null])[0];
if (!ring || !opaque(ring)) return {label: el.dataset.label, ring: null, ratio: 0};
const [a, b] = [lum(ring), lum(bg)].sort((x, y) => y - x);
return {label: el.dataset.label, ring, bg, ratio: (a + 0.05) / (b + 0.05)};
"""

# Every control of the toolbar and the type bar, with where it is; `job`: in the job's
# own slot (Cancel, Show in folder), which comes and goes with the job.
CONTROLS = """
return [...document.querySelectorAll('.toolbar :is(button, select, input), .typebar :is(button, select, input)')]
  .filter((el) => el.getClientRects().length > 0)
  .map((el) => { const r = el.getBoundingClientRect();
                 return {id: el.id || el.dataset.type || el.textContent, left: r.left, top: r.top, right: r.right,
                         bottom: r.bottom, job: Boolean(el.closest('#load-progress'))}; });
"""
TREE_TOP = "return document.getElementById('tree-viewport').getBoundingClientRect().top"
# The label of the node the details pane shows (after its badge), or null.
DETAILS_HEADING = "return document.querySelector('#details h2')?.lastChild.textContent.trim() ?? null"


class _Window(AppTestCase):
    app_env = {"AAS_BROWSER_SAVE_DIR": SAVE_DIR}
    maxDiff = None

    def shot(self, name):
        screenshot(os.path.join(self.out, name))


class TreeCursor(_Window):
    def assert_cursor_drawn(self, label):
        got = self.wd.script(FOCUS_CONTRAST)
        self.assertEqual(got["label"], label, "the focus is on the row moved to")
        self.assertGreaterEqual(got["ratio"], 3, f"the focused row is drawn with contrast: {got}")

    def test_the_cursor_is_drawn_and_the_details_follow_it(self):
        wd = self.wd
        self.chip_count("machine", "3")
        # The WAI-ARIA tree: levels, positions, one tab stop.
        attrs = wd.script("return [...document.querySelectorAll('#tree [role=treeitem]')].map((li) =>"
                          " [li.getAttribute('aria-level'), li.getAttribute('aria-posinset'), li.getAttribute('aria-setsize'),"
                          "  li.getAttribute('aria-expanded'), li.tabIndex])")
        self.assertEqual(wd.script("return document.getElementById('tree').getAttribute('role')"), "tree")
        self.assertEqual([a[:4] for a in attrs], [["1", str(i), "3", "false"] for i in (1, 2, 3)])
        self.assertEqual(sorted(a[4] for a in attrs), [-1, -1, 0])

        for dark in (False, True):
            self.theme(dark)
            wd.click(wd.wait_for(row("Machine_M0001") + " .label"))
            self.wait_until(lambda: wd.script(DETAILS_HEADING) == "Machine_M0001", 10,
                            lambda: wd.script(DETAILS_HEADING))
            wd.keys(wd.wait_for(row("Machine_M0001")), DOWN)
            self.assert_cursor_drawn("Machine_M0002")
            # The details follow the cursor, as a file manager's preview does.
            self.wait_until(lambda: wd.script(DETAILS_HEADING) == "Machine_M0002", 10,
                            lambda: wd.script(DETAILS_HEADING))
            self.assertEqual(wd.script("return document.querySelector('[role=treeitem][aria-selected=true]')?.dataset.label"),
                             "Machine_M0002")
            self.assertEqual(wd.script("return [...document.querySelectorAll('#tree [tabindex=\"0\"]')].map((li) => li.dataset.label)"),
                             ["Machine_M0002"], "one tab stop, on the cursor")
            self.shot(f"tree-cursor-{'dark' if dark else 'light'}.png")
        # Enter opens the row the user sees.
        wd.keys(wd.wait_for(row("Machine_M0002")), ENTER)
        self.wait_until(lambda: wd.script("return document.querySelector(arguments[0]).getAttribute('aria-expanded')",
                                          row("Machine_M0002")) == "true", 10, "M0002 expanded")
        self.assertEqual(wd.script("return document.querySelector(arguments[0]).getAttribute('aria-expanded')",
                                   row("Machine_M0001")), "false")
        # Into the submodels with ↓: still drawn, still followed.
        wd.keys(wd.wait_for(row("Machine_M0002")), DOWN)
        self.assert_cursor_drawn("Nameplate")
        self.wait_until(lambda: wd.script(DETAILS_HEADING) == "Nameplate", 10, lambda: wd.script(DETAILS_HEADING))
        self.theme(False)


class SmallWindow(_Window):
    LONG_NAME = "Werk Süd – Presswerk Halle 7 – Instandhaltung und Qualitätssicherung (Testsystem)"
    LONG_PLANT = "DE-STUTTGART-ZUFFENHAUSEN-PRESSWERK-HALLE-7-LINIE-3-NORD"

    def assert_reachable(self, what):
        wd = self.wd
        width, height = wd.script("return [innerWidth, innerHeight]")
        outside = [c for c in wd.script(CONTROLS)
                   if c["left"] < 0 or c["top"] < 0 or c["right"] > width or c["bottom"] > height]
        self.assertEqual(outside, [], f"{what}: every toolbar control is in the window")
        placed = [c for c in wd.script(CONTROLS) if not c["job"]]
        overlapping = [(a["id"], b["id"]) for i, a in enumerate(placed) for b in placed[i + 1:]
                       if min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1
                       and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1]
        self.assertEqual(overlapping, [], f"{what}: no control lies over another")
        self.assertLessEqual(wd.script("return document.documentElement.scrollHeight"), height, f"{what}: no page scrollbar")
        self.assertLessEqual(wd.script("return document.documentElement.scrollWidth"), width, f"{what}: no page scrollbar")
        header = wd.script("return document.querySelector('.typebar').getBoundingClientRect().bottom")
        self.assertLessEqual(header, 120, f"{what}: the header leaves the room to the panes")
        # The status bar's counts stay whole and in the window.
        counts = wd.script("const el = document.getElementById('status-requests'); const r = el.getBoundingClientRect();"
                           "return {left: r.left, right: r.right, bottom: r.bottom, cut: el.scrollWidth > el.clientWidth}")
        self.assertTrue(0 <= counts["left"] and counts["right"] <= width and counts["bottom"] <= height
                        and not counts["cut"], f"{what}: the request counts are shown: {counts}")

    def test_everything_in_reach_at_1024_by_700(self):
        wd = self.wd
        self.chip_count("machine", "3")
        self.assert_reachable("the demo at 1280×800")
        self.set_window(1024, 700)
        self.assert_reachable("the demo at 1024×700")
        self.shot("small-light.png")
        self.theme(True)
        self.shot("small-dark.png")
        self.theme(False)

        # The Quality tab's shell list can be reached.
        self.take_snapshot()
        wd.click(wd.wait_for("#tab-quality"))
        self.wait_until(lambda: "audited" in (wd.text_content("#quality-status") or ""), 60,
                        lambda: wd.text_content("#quality-status"))
        wd.wait_for("#quality-gaps tr")
        self.assert_reachable("the Quality tab at 1024×700")
        first = wd.script("const tr = document.querySelector('#quality-gaps tr'); tr.scrollIntoView({block: 'nearest'});"
                          "const r = tr.getBoundingClientRect(); const hit = document.elementFromPoint(r.left + 20, r.top + r.height / 2);"
                          "return {top: r.top, bottom: r.bottom, hit: tr.contains(hit)}")
        self.assertTrue(first["hit"], f"the first shell of the finding can be clicked: {first}")
        self.shot("small-quality.png")
        wd.click(wd.wait_for("#tab-details"))

        # A long profile name and plant code are cut, with the whole text in their tooltip.
        port = free_port()
        line = self.start_demo_service(port, os.path.join(self.data_home, "demo-service-state.json"))
        try:
            self.set_window(1280, 800)
            self.fill_profile_form(self.LONG_NAME, line, plants=f"DEMO-01, {self.LONG_PLANT}")
            self.save_profile_and_connect(self.LONG_NAME)
            self.chip_count("machine", "3")
            wd.script("const s = document.getElementById('plant'); s.value = arguments[0];"
                      "s.dispatchEvent(new Event('change'));", self.LONG_PLANT)
            for size in ((1280, 800), (1024, 700)):
                self.set_window(*size)
                self.assert_reachable(f"a long profile name and plant code at {size}")
                self.shot(f"long-names-{size[0]}.png")
            self.assertEqual(wd.script("return document.getElementById('profile').title"), self.LONG_NAME)
            self.assertEqual(wd.script("return document.getElementById('plant').title"), self.LONG_PLANT)
            self.assertIn(self.LONG_NAME, wd.script("return document.getElementById('status-profile').title"))
        finally:
            self.stop_demo_service()
            self.set_window(1280, 800)


class StillLayout(_Window):
    def places(self):
        controls = [c for c in self.wd.script(CONTROLS) if not c["job"]]
        return {"controls": controls, "tree": self.wd.script(TREE_TOP)}

    def test_controls_keep_their_place(self):
        wd = self.wd
        self.chip_count("machine", "3")
        before = self.places()
        self.take_snapshot()
        self.assertEqual(self.places(), before, "after Take snapshot")
        self.shot("still-taken.png")

        # An export of the snapshot as AAS V3.0: its conversion line and Show in folder appear.
        wd.script("document.getElementById('export-format').value = 'v3-env'")
        wd.click(wd.wait_for("#export"))
        self.wait_until(lambda: (wd.text_content("#load-text") or "").startswith("Exported"), 60,
                        lambda: wd.text_content("#load-text"))
        self.assertFalse(wd.script("return document.getElementById('reveal-export').hidden"))
        self.assertFalse(wd.script("return document.getElementById('export-note').hidden"))
        self.assertEqual(self.places(), before, "after an export")
        self.shot("still-exported.png")

        # A tick changes Export's words, not where the other controls are.
        wd.click(wd.wait_for(row("Machine_M0001") + " .check"))
        self.assertEqual(wd.text(wd.wait_for("#export")), "Export 1 shell…")
        after = self.places()
        self.assertEqual([c for c in after["controls"] if c["id"] != "export"],
                         [c for c in before["controls"] if c["id"] != "export"], "after a tick")
        wd.click(wd.wait_for(row("Machine_M0001") + " .check"))

        # The Columns dialog stays where it opened while the list narrows.
        wd.click(wd.wait_for("#tab-table"))
        self.wait_until(lambda: wd.find_all("#table-body tr:not(.spacer)"), 30, lambda: wd.text_content("#table-status"))
        wd.click(wd.wait_for("#table-columns"))
        wd.wait_for("#table-picker-list li")
        dialog = "return [document.getElementById('table-picker'), document.getElementById('table-picker-search')]" \
                 ".map((el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.width]; })"
        opened = wd.script(dialog)
        wd.keys(wd.wait_for("#table-picker-search"), "SerialNumber")
        self.wait_until(lambda: len(wd.find_all("#table-picker-list li")) <= 3, 10, "the list narrowed")
        self.assertEqual(wd.script(dialog), opened, "the Columns dialog keeps its place")
        self.shot("still-columns.png")
        wd.click(wd.wait_for("#table-picker-cancel"))
        wd.click(wd.wait_for("#tab-details"))


class StalePanes(_Window):
    def test_panes_show_what_is_on_screen(self):
        wd = self.wd
        self.chip_count("machine", "3")
        self.take_snapshot()
        wd.click(wd.wait_for("#snapshots-open"))
        wd.click(wd.wait_for(".snapshot-row button", text="Browse"))
        self.wait_until(lambda: not wd.script("return document.getElementById('snapshot-banner').hidden"), 10, "browsing")
        # The tree draws its rows into recycled elements: a repaint between finding the row
        # and clicking it (the snapshot's tree still arriving) lands the click on another
        # shell, so the click is repeated until the shell is the one shown.
        def shows_m0001():
            if wd.script(DETAILS_HEADING) != "Machine_M0001":
                wd.click(wd.wait_for(row("Machine_M0001") + " .label"))
                time.sleep(0.5)
            return wd.script(DETAILS_HEADING) == "Machine_M0001"
        self.wait_until(shows_m0001, 15, lambda: wd.script(DETAILS_HEADING))

        # Back to live, another asset type: nothing is selected, so the details say so.
        wd.click(wd.wait_for("#snapshot-live"))
        self.wait_until(lambda: wd.script("return document.getElementById('snapshot-banner').hidden"), 10, "live")
        wd.click(wd.wait_for('.chip[data-type="tool"]'))
        wd.wait_for(row("Tool_T0001"))
        self.assertIsNone(wd.script("return document.querySelector('[role=treeitem][aria-selected=true]')"))
        self.wait_until(lambda: wd.script(DETAILS_HEADING) is None, 5, lambda: f"details show {wd.script(DETAILS_HEADING)}")
        self.assertEqual(wd.text_content("#details"), "Select an element in the tree to see its details.")
        self.assertEqual(wd.text_content("#raw-json"), "")
        self.assertEqual(wd.text_content("#curl"), "")
        self.shot("stale-details.png")

        # The Quality tab audits the demo's snapshot; another profile has none of its own.
        wd.click(wd.wait_for("#tab-quality"))
        self.wait_until(lambda: "audited" in (wd.text_content("#quality-status") or ""), 60,
                        lambda: wd.text_content("#quality-status"))
        port = free_port()
        line = self.start_demo_service(port, os.path.join(self.data_home, "demo-service-state.json"))
        try:
            self.fill_profile_form("Plant Nord", line)
            self.save_profile_and_connect("Plant Nord")
            self.chip_count("machine", "3")
            self.wait_until(lambda: "take" in (wd.text_content("#quality-status") or "").lower(), 20,
                            lambda: wd.text_content("#quality-status"))
            self.assertEqual(wd.script("return document.querySelectorAll('#quality-groups tr, #quality-verdict li, #quality-gaps tr').length"), 0)
            self.assertEqual(wd.text_content("#quality-gaps-title"), "Shells with the finding")
            self.shot("stale-quality.png")
        finally:
            self.stop_demo_service()
            wd.click(wd.wait_for("#tab-details"))


class ProfilesList(_Window):
    def listed(self):
        return self.wd.script("return [...document.getElementById('pf-list').options].map((o) => o.value)")

    def open_dialog(self):
        self.wd.click(self.wd.wait_for("#profiles-edit"))
        self.wait_until(lambda: self.wd.script("return document.getElementById('profile-dialog').open"), 5, "the dialog")

    def value(self, field_id):
        return self.wd.script("return document.getElementById(arguments[0]).value", field_id)

    def settings(self):
        with open(self.settings_path()) as f:
            return f.read()

    def test_profiles_listed_new_and_deleted_after_asking(self):
        wd = self.wd
        self.set_window(1024, 700)
        port = free_port()
        line = self.start_demo_service(port, os.path.join(self.data_home, "demo-service-state.json"))
        try:
            self.fill_profile_form("Nord", line)
            self.save_profile_and_connect("Nord")
            self.chip_count("machine", "3")

            # New: an empty form, saved as a second profile.
            self.open_dialog()
            self.assertEqual(self.listed(), ["Nord"])
            wd.click(wd.wait_for("#pf-new"))
            self.assertEqual([self.value(f) for f in ("pf-name", "pf-registry", "pf-plants")], ["", "", ""])
            self.assertEqual(self.value("pf-list"), "", "nothing picked while a new profile is typed")
            wd.click(wd.wait_for("#pf-close"))
            self.fill_profile_form("Süd", line)
            self.save_profile_and_connect("Süd")

            # The list: the active profile picked; another one picked fills the form.
            self.open_dialog()
            self.assertEqual(self.listed(), ["Nord", "Süd"])
            self.assertEqual(self.value("pf-list"), "Süd")
            wd.click(wd.wait_for('#pf-list option[value="Nord"]'))
            self.wait_until(lambda: self.value("pf-name") == "Nord", 5, lambda: self.value("pf-name"))
            self.assertEqual(self.value("pf-registry"), line["registry_url"])
            self.shot("profiles-list.png")

            # Delete asks first; Keep keeps.
            wd.click(wd.wait_for("#pf-delete"))
            self.assertFalse(wd.script("return document.getElementById('pf-delete-confirm').hidden"))
            self.assertIn("Nord", wd.text_content("#pf-delete-confirm"))
            self.assertEqual(self.listed(), ["Nord", "Süd"])
            self.assertIn('"name": "Nord"', self.settings())
            self.shot("profiles-delete-asks.png")
            # (The theme button is behind the modal dialog: the theme is set as it would set it.)
            wd.script("document.documentElement.dataset.theme = 'dark'")
            self.shot("profiles-delete-asks-dark.png")
            wd.script("document.documentElement.dataset.theme = 'light'")
            wd.click(wd.wait_for("#pf-delete-keep"))
            self.assertTrue(wd.script("return document.getElementById('pf-delete-confirm').hidden"))
            self.assertIn('"name": "Nord"', self.settings())
            # Confirmed: gone; the active profile (Süd) stays in use.
            wd.click(wd.wait_for("#pf-delete"))
            wd.click(wd.wait_for("#pf-delete-yes"))
            self.wait_until(lambda: '"name": "Nord"' not in self.settings(), 10, lambda: wd.text_content("#pf-status"))
            options = "return [...document.getElementById('profile').options].map((o) => o.value)"
            self.wait_until(lambda: wd.script(options) == ["Demo platform (built in)", "Süd"], 10,
                            lambda: wd.script(options))
            self.assertEqual(wd.script("return document.getElementById('profile').value"), "Süd")
        finally:
            self.stop_demo_service()


class Tooltips(_Window):
    """The page draws the tooltips (shell/tooltips.js): none covers the tree's filter box,
    none stays over a dialog a click opened, and a dialog's own controls have theirs."""

    # The page's tooltip, if shown: its text, where it is, whether it covers the filter
    # box and whether it is what the window shows there (on top of everything, a
    # dialog's top layer too; the pointer passes through it, so it is asked to stop it).
    TIP = """const tip = document.getElementById('tooltip');
    if (!tip || tip.hidden) return null;
    const r = tip.getBoundingClientRect(); const f = document.querySelector('.tree-pane .filter').getBoundingClientRect();
    tip.style.pointerEvents = 'auto';
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    tip.style.pointerEvents = '';
    return {text: tip.textContent, top: r.top, bottom: r.bottom, seen: tip.contains(hit),
            covers: r.top < f.bottom && r.bottom > f.top && r.left < f.right && r.right > f.left};"""
    TITLE = "return document.querySelector(arguments[0]).getAttribute('title')"

    def hovered_tip(self, css):
        """Hovers `css`; its tooltip, once shown."""
        self.wd.hover(self.wd.wait_for(css))
        return self.wait_until(lambda: self.wd.script(self.TIP), 5, f"the tooltip of {css}")

    def test_no_tooltip_covers_the_filter_box_or_stays_over_a_dialog(self):
        wd = self.wd
        self.chip_count("machine", "3")
        # The type bar's buttons, just above the filter box, and the toolbar's.
        for css in ("#take-snapshot", "#snapshots-open", "#export", "#refresh"):
            title = wd.script(self.TITLE, css)
            tip = self.hovered_tip(css)
            self.assertEqual(tip["text"], title)
            self.assertFalse(tip["covers"], f"{css}: {tip}")
            self.assertTrue(tip["seen"], tip)
            self.assertIsNone(wd.script(self.TITLE, css), "the webview has no title to show a tooltip of its own")
            if css == "#snapshots-open":
                self.shot("tooltip-above-the-filter-box.png")
        wd.hover(wd.wait_for("#filter"))
        self.assertIsNone(wd.script(self.TIP), "gone with the pointer")
        self.assertEqual(wd.script(self.TITLE, "#refresh"), title, "the title given back")

        # Clicked, the Profiles… button opens its dialog: no tooltip over it.
        self.hovered_tip("#profiles-edit")
        wd.click(wd.wait_for("#profiles-edit"))
        wd.wait_for("#profile-dialog[open]")
        time.sleep(1)  # longer than a tooltip waits to show
        self.assertIsNone(wd.script(self.TIP), "no tooltip over the dialog")
        self.shot("tooltip-none-over-a-dialog.png")
        # The dialog's own controls have their tooltips, drawn in it.
        tip = self.hovered_tip("#pf-test")
        self.assertTrue(tip["seen"], f"the dialog's tooltip is seen over it: {tip}")
        wd.click(wd.wait_for("#pf-close"))


def tearDownModule():
    shutil.rmtree(SAVE_DIR, ignore_errors=True)


del _Window  # a base, not a test class of its own

if __name__ == "__main__":
    unittest.main(verbosity=2)
