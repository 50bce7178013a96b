#!/usr/bin/env python3
"""The book's pictures of the window, taken anew: not a test (the e2e run's discovery,
test_*.py, does not pick it up). Run with a display large enough for the largest size:

    make e2e   # or just the build it makes, then:
    E2E_SCREEN=1600x1000 E2E_TESTS=screenshots.py scripts/e2e.sh $CARGO_TARGET_DIR/debug/aas-browser

It writes the demo plant, a shell opened to its Nameplate and an element's details, at
1600×1000 as docs/screenshot.png (the README's, light) and docs/dark.png, and at 1024×700
as docs/window-1024x700-{light,dark}.png; and a published AASX opened (Opening AAS files),
an element's XML beside the tree, as docs/open-file.png, then taken in, its Table, as
docs/file-taken-in.png; and a large file's shells shown while the rest is read, as
docs/open-file-reading.png. Look at each before committing it."""

import os
import unittest
from pathlib import Path

from app_driver import AppTestCase, row, screenshot, write_shells_first

DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "docs")
FAAAST = Path(__file__).resolve().parents[3] / "shared" / "aas-files" / "C-v3.0" / "FAAAST-Service" / "model.aasx"


class Screenshots(AppTestCase):
    def test_take_the_books_pictures(self):
        wd = self.wd
        self.chip_count("machine", "3")
        wd.click(wd.wait_for(row("Machine_M0001") + " .twisty"))
        wd.click(wd.wait_for(row("Nameplate") + " .twisty"))
        wd.click(wd.wait_for(row("ManufacturerName") + " .label"))
        wd.wait_for('#details dd[data-field="idShort"]', text="ManufacturerName")
        for width, height in ((1600, 1000), (1024, 700)):
            self.set_window(width, height)
            for theme in ("light", "dark"):
                wd.script("document.documentElement.dataset.theme = arguments[0]", theme)
                name = {(1600, "light"): "screenshot.png", (1600, "dark"): "dark.png"}.get(
                    (width, theme), f"window-{width}x{height}-{theme}.png")
                screenshot(os.path.join(DOCS, name), (width, height))


class OpenedFileScreenshot(AppTestCase):
    app_env = {"AAS_BROWSER_OPEN_FILE": str(FAAAST)}

    def test_take_the_open_file_picture(self):
        wd = self.wd
        self.chip_count("machine", "3")
        self.set_window(1280, 800)
        wd.click(wd.wait_for("#open-file"))
        wd.click(wd.wait_for(row("Werkzeugmaschine") + " .twisty"))
        wd.click(wd.wait_for(row("Nameplate") + " .twisty"))
        wd.click(wd.wait_for(row("CountryOfOrigin") + " .label"))
        wd.click(wd.wait_for("#tab-raw"))
        screenshot(os.path.join(DOCS, "open-file.png"), (1280, 800))
        # Taken in, its Table.
        wd.click(wd.wait_for("#file-take-in"))
        self.wait_until(lambda: "Taken in" in (wd.text_content("#file-banner-text") or ""), 60, "the file taken in")
        wd.click(wd.wait_for("#tab-table"))
        self.wait_until(lambda: wd.find_all("#table-body tr:not(.spacer) td"), 30, "the table's row")
        screenshot(os.path.join(DOCS, "file-taken-in.png"), (1280, 800))


class ShellsFirstScreenshot(AppTestCase):
    """A large file's shells shown while the rest of it is read."""

    @classmethod
    def before_start(cls, data_home):
        cls.app_env = {"AAS_BROWSER_OPEN_FILE": write_shells_first(data_home)}

    def test_take_the_shells_first_picture(self):
        wd = self.wd
        self.chip_count("machine", "3")
        self.set_window(1280, 800)
        wd.click(wd.wait_for("#open-file"))
        self.wait_until(lambda: wd.script(
            "return Boolean(document.querySelector(arguments[0]))"
            " && document.querySelector('#file-reading-text').checkVisibility()", row("Shell_1")),
            30, "the shells in the tree while the reading goes on")
        screenshot(os.path.join(DOCS, "open-file-reading.png"), (1280, 800))


if __name__ == "__main__":
    unittest.main()
