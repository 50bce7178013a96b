#!/usr/bin/env python3
"""End to end: a full disk in the window. The app's data folder is a small tmpfs mounted
in a user and mount namespace of the WebDriver server's own (`unshare`, util-linux: no
root, no real disk filled). A first Take snapshot fits; the disk is filled; the second
says the disk is full in plain words and that nothing was lost; with space freed, the
first snapshot is listed complete and browsed."""

import errno
import os
import unittest

from app_driver import AppTestCase, row, screenshot

DISK_MB = 16  # the demo plant's snapshot, the settings and the logs fit with room to spare


class FullDisk(AppTestCase):
    @classmethod
    def driver_command(cls, command):
        mount = f'mount -t tmpfs -o size={DISK_MB}m tmpfs "$0" && exec "$@"'
        return ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", mount, cls.data_home, *command]

    def disk_path(self, name):
        """`name` on the tmpfs, as seen from outside the namespace (the server's root)."""
        return f"/proc/{self.driver.pid}/root{self.data_home}/{name}"

    def fill_disk(self):
        """Writes a filler file until the disk has no room left. Unbuffered: a buffered
        file would hold the last part chunk and fail again when closed."""
        chunk = b"\0" * (64 * 1024)
        with open(self.disk_path("filler"), "wb", buffering=0) as f:
            try:
                while True:
                    f.write(chunk)
            except OSError as e:
                if e.errno != errno.ENOSPC:
                    raise

    def take(self):
        """Take snapshot; the words it ends with."""
        wd = self.wd
        wd.script("document.getElementById('load-text').textContent = ''")
        wd.click(wd.wait_for("#take-snapshot"))
        return self.wait_until(
            lambda: (text := wd.text_content("#load-text") or "").startswith(("Snapshot taken", "No snapshot taken"))
            and text, 120, lambda: wd.text_content("#load-text"))

    def test_a_full_disk_gets_clear_words_and_loses_no_earlier_snapshot(self):
        wd = self.wd
        wd.wait_for(row("Machine_M0001"), timeout=60)
        first = self.take()
        self.assertRegex(first, r"^Snapshot taken: \d+ shells")

        self.fill_disk()
        try:
            words = self.take()
            self.assertEqual(words, "No snapshot taken: The disk is full: nothing more was written, and no earlier "
                                    "snapshot was lost. Free some space (or delete old snapshots) and try again.")
            self.assertEqual(wd.text_content("#status-errors"), words, "the status bar says it too")
            self.assertTrue(wd.script("return document.getElementById('load-bar').hidden"),
                            "no bar stopped halfway, as if the take were still going on")
            self.assertTrue(wd.script("return document.getElementById('export').getBoundingClientRect().right"
                                      " <= window.innerWidth"), "the long words do not push Export off screen")
            screenshot(os.path.join(self.out, "snapshot-disk-full.png"))
        finally:
            os.remove(self.disk_path("filler"))

        # With space again, the first snapshot is there, complete, and is browsed.
        wd.click(wd.wait_for("#snapshots-open"))
        wd.wait_for(".snapshot-row")
        rows = wd.find_all(".snapshot-row")
        self.assertEqual(len(rows), 1, "the failed take left no snapshot behind")
        cells = wd.script("return [...document.querySelectorAll('.snapshot-row td')].map((td) => td.textContent)")
        self.assertEqual(cells[1:5:3], ["This computer", "complete"])
        wd.click(wd.wait_for(".snapshot-row button"))  # Browse
        wd.wait_for("#tree li[role=treeitem]:not([aria-checked])", timeout=20)
        self.assertIn("snapshot", wd.text_content("#snapshot-banner-text").lower())


if __name__ == "__main__":
    unittest.main(verbosity=2)
