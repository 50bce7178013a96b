#!/usr/bin/env python3
"""End to end: axe-core (tests/e2e/package.json, installed by `make e2e`) run inside the
real window on every view (details, Raw JSON, Changes, Table, Quality, with the tree
beside them) and dialog (Profiles, Snapshots, Open server, Convert a file, a conversion's
report, Recent files, Columns, the plant search's hits), in both themes: no violation of the WCAG 2.1
A and AA rules it checks."""

import json
import os
import shutil
import tempfile
import unittest

from app_driver import AppTestCase, row

AXE = os.path.join(os.path.dirname(__file__), "node_modules", "axe-core", "axe.min.js")

RUN_AXE = """
const done = arguments[arguments.length - 1];
window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
  .then((r) => done(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ': ' + n.failureSummary.split('\\n').slice(1, 2).join(''))}))))
  .catch((e) => done([{ id: 'axe-failed', help: String(e), nodes: [] }]));
"""


SAVE_DIR = tempfile.mkdtemp(prefix="aas-e2e-a11y-")


class Accessibility(AppTestCase):
    app_env = {"AAS_BROWSER_SAVE_DIR": SAVE_DIR}

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(SAVE_DIR, ignore_errors=True)

    def violations(self):
        # The page's Content Security Policy allows no eval: axe-core comes in as part of
        # the script WebDriver runs, which the policy does not govern; once, as the page
        # is never loaded again.
        source = ""
        if not self.wd.script("return Boolean(window.axe)"):
            with open(AXE) as f:
                source = f.read()
        return self.wd.async_script(source + "\n" + RUN_AXE)

    def collect(self, found, theme, where):
        for v in self.violations():
            found.setdefault(f"{v['id']} ({v['help']})", set()).update(
                f"{theme}/{where}: {n}" for n in v["nodes"])

    def test_every_view_and_dialog_in_both_themes(self):
        wd = self.wd
        self.chip_count("machine", "3")
        wd.click(wd.wait_for(row("Machine_M0001") + " .twisty"))
        wd.click(wd.wait_for(row("Nameplate") + " .label"))
        self.take_snapshot()  # the search, Changes, the Table and Quality read snapshots
        # A V3 export of the snapshot, whose report Show report reads.
        wd.script("document.getElementById('export-format').value = 'v3.1-json'")
        wd.click(wd.wait_for("#export"))
        self.wait_until(lambda: wd.script("return !document.getElementById('report-show').hidden"), 60,
                        lambda: wd.text_content("#load-text"))
        found = {}
        for theme in ("light", "dark"):
            wd.script("document.documentElement.dataset.theme = arguments[0]", theme)
            for tab in ("details", "raw", "changes", "table", "quality"):
                wd.click(wd.wait_for(f"#tab-{tab}"))
                self.collect(found, theme, tab)
            # The dialogs and the search, each opened, checked and closed again.
            for opener, shown in (("#profiles-edit", "#profile-dialog[open]"),
                                  ("#snapshots-open", "#snapshots-dialog[open]"),
                                  ("#open-server", "#server-dialog[open]"),
                                  ("#convert", "#convert-dialog[open]"),
                                  ("#report-show", "#report-dialog[open] details"),
                                  ("#recent-open", "#recent-menu:not([hidden]) li")):
                wd.click(wd.wait_for(opener))
                wd.wait_for(shown)
                self.collect(found, theme, shown)
                wd.click(wd.wait_for(opener)) if opener == "#recent-open" else \
                    wd.script("document.querySelector(arguments[0]).closest('dialog').close()", shown)
            wd.click(wd.wait_for("#tab-table"))
            wd.click(wd.wait_for("#table-columns"))
            wd.wait_for("#table-picker[open]")
            self.collect(found, theme, "columns")
            wd.script("document.getElementById('table-picker').close()")
            wd.keys(wd.wait_for("#plant-search"), "Stuttgart")
            wd.wait_for("#plant-search-results li")
            self.collect(found, theme, "search")
            wd.clear(wd.wait_for("#plant-search"))
        report = json.dumps({k: sorted(v)[:6] for k, v in found.items()}, indent=1)
        self.assertEqual(found, {}, report)


if __name__ == "__main__":
    unittest.main()
