#!/usr/bin/env python3
"""End to end: the Quality view on the built-in demo plant. Without a snapshot it says
how to get one; after Take snapshot it audits the plant's shells against the built-in
IDTA templates: the verdict per template, the groups of findings most frequent first,
the shells of the chosen group. Enter on a missing element's gap opens its parent in
the tree with the missing element named in the details pane. Export CSV writes every
finding, read back with Python's csv module and counted against the status line.
Screenshots of the view in both themes."""

import csv
import os
import re
import shutil
import tempfile
import unittest

from app_driver import AppTestCase, screenshot

SAVE_DIR = tempfile.mkdtemp(prefix="aas-e2e-quality-")
GROUPS = "return [...document.querySelectorAll('#quality-groups tr')].map(r => [...r.cells].map(c => c.textContent))"
GAPS = "return [...document.querySelectorAll('#quality-gaps tr')].map(r => [...r.cells].map(c => c.textContent))"
VERDICT = "return [...document.querySelectorAll('#quality-verdict li')].map(li => li.textContent)"


class QualityView(AppTestCase):
    app_env = {"AAS_BROWSER_SAVE_DIR": SAVE_DIR}

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(SAVE_DIR, ignore_errors=True)

    def status(self):
        return self.wd.text_content("#quality-status") or ""

    def test_the_demo_plants_audit_and_a_gap_opened_in_the_tree(self):
        wd = self.wd
        self.chip_count("machine", "3")
        wd.click(wd.wait_for("#tab-quality"))
        self.wait_until(lambda: "take" in self.status().lower(), 20, self.status)
        self.assertEqual(wd.script(GROUPS), [])

        wd.click(wd.wait_for("#take-snapshot"))
        self.wait_until(lambda: (wd.text_content("#load-text") or "").startswith("Snapshot taken"), 120,
                        lambda: wd.text_content("#load-text"))
        wd.click(wd.wait_for("#tab-details"))
        wd.click(wd.wait_for("#tab-quality"))
        self.wait_until(lambda: "audited" in self.status(), 60, self.status)
        summary = re.match(r"(\d+) shells audited: (\d+) errors in (\d+) shells, (\d+) warnings?", self.status())
        self.assertIsNotNone(summary, self.status())
        shells, errors, _, warnings = (int(n) for n in summary.groups())
        self.assertGreater(shells, 0)
        self.assertGreater(errors, 0, "the demo plant carries seeded gaps")

        # The verdict: the nameplate of either age, each with how many shells are complete.
        verdict = wd.script(VERDICT)
        nameplates = [v for v in verdict if re.match(r"Digital Nameplate (1\.0|3\.0): \d+ of \d+ shells complete", v)]
        self.assertEqual(len(nameplates), 2, verdict)
        # The groups, most frequent first, their findings adding up to the status line's.
        groups = self.wait_until(lambda: wd.script(GROUPS) or None, 10)
        counts = [int(g[1].replace(",", "")) for g in groups]
        self.assertEqual(counts, sorted(counts, reverse=True))
        self.assertEqual(sum(counts), errors + warnings)
        screenshot(os.path.join(self.out, "quality-light.png"))
        wd.click(wd.wait_for("#theme"))
        screenshot(os.path.join(self.out, "quality-dark.png"))
        wd.click(wd.wait_for("#theme"))

        # A group of missing elements, chosen with the keyboard: its shells listed.
        missing = next(i for i, g in enumerate(groups) if g[3].startswith("missing ("))
        viewport = wd.wait_for("#quality-groups-viewport")
        wd.click(wd.find_all("#quality-groups td")[0])
        for _ in range(missing):
            wd.keys(viewport, "\ue015")  # ArrowDown
        self.wait_until(lambda: "missing" in (wd.text_content("#quality-gaps-title") or ""), 10,
                        lambda: wd.text_content("#quality-gaps-title"))
        gaps = self.wait_until(lambda: wd.script(GAPS) or None, 10)
        self.assertEqual(len(gaps), min(int(groups[missing][1]), 100))
        shell, _, place, _ = gaps[0]
        *parents, named = place.split(" › ")

        # Enter (into the shells, then on the first) opens the missing element's parent.
        wd.keys(viewport, "\ue007")
        wd.keys(wd.wait_for("#quality-gaps-viewport"), "\ue007")
        self.wait_until(lambda: not wd.script("return document.getElementById('details').hidden"), 10)
        note = self.wait_until(lambda: wd.text_content("#details .gap-note"), 20)
        self.assertTrue(note.startswith(f"Missing here: {named}."), note)
        selected = wd.script("return document.querySelector('li[role=\"treeitem\"][aria-selected=\"true\"]')?.dataset.label")
        self.assertEqual(selected, parents[-1])
        self.assertEqual(self.tree_path(), " › ".join([shell, *parents]))
        # The gap is of the snapshot audited: the tree browses it.
        self.assertFalse(wd.script("return document.getElementById('snapshot-banner').hidden"))
        screenshot(os.path.join(self.out, "quality-gap-opened.png"))

        # Back on the Quality tab the audit is still there (not made again), and exports.
        wd.click(wd.wait_for("#tab-quality"))
        self.assertTrue(self.status().startswith(f"{shells} shells audited"), self.status())
        wd.click(wd.wait_for("#quality-export-csv"))
        self.wait_until(lambda: self.status().startswith("Saved"), 20, self.status)
        path = self.status().removeprefix("Saved ")
        with open(path, newline="", encoding="utf-8") as f:
            findings = list(csv.DictReader(f))
        self.assertEqual(len(findings), errors + warnings)

    def tree_path(self):
        """The labels from the selected node up to its shell."""
        return self.wd.script(
            "let li = document.querySelector('li[role=\"treeitem\"][aria-selected=\"true\"]'); const labels = [];"
            "while (li) { labels.unshift(li.dataset.label);"
            " const level = Number(li.getAttribute('aria-level')); if (level <= 1) break;"
            " li = li.previousElementSibling; while (li && Number(li.getAttribute('aria-level')) >= level) li = li.previousElementSibling; }"
            "return labels.join(' › ')")


if __name__ == "__main__":
    unittest.main()
