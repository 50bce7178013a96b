#!/usr/bin/env python3
"""End to end: Open file… on real published AAS files (../shared/aas-files): the FAAAST
example (AAS V3.0, an AASX with an XML spec part), Festo's (AAS V2.0, the same, with a
thumbnail, shown in the banner) and the BaSyx Web UI's cable (AAS V3.1, with a
thumbnail). The tree shows each file's shells under the asset types (or kinds) the file gives, their
submodels and elements as `aasmd inspect --elements` reads them, the details and the
element's XML as the file has it; the banner names the file; Close file shows the demo
plant again. The native open dialog cannot be driven through WebDriver: the build for
these tests (feature e2e-hooks) takes the file to open from the environment. A file
dropped on the window comes through the real X drag and drop, from a GTK drag source."""

import json
import os
import shutil
import subprocess
import tempfile
import unittest
import zipfile
from pathlib import Path

from app_driver import AppTestCase, row, screenshot, write_environment, write_shells_first

WORK = Path(__file__).resolve().parents[3]  # the folder holding this repository and ../shared
FILES = WORK / "shared" / "aas-files"
FAAAST = FILES / "C-v3.0" / "FAAAST-Service" / "model.aasx"
FESTO = FILES / "A-v2.0-aasx-xml" / "AASPortal" / "24_Festo.aasx"
V31 = FILES / "D-v3.1" / "basyx-aas-web-ui" / "cable1.aasx"
B_XML = FILES / "B-v2-aasx-json-and-xml-env" / "basyx-python-sdk" / "test_demo_full_example.xml"
SAVE_DIR = tempfile.mkdtemp(prefix="aas-e2e-open-")
# The system's viewer, for these tests: a script that notes the path it was given.
VIEWER = os.path.join(SAVE_DIR, "viewer.sh")
VIEWED = os.path.join(SAVE_DIR, "viewed.txt")
with open(VIEWER, "w", encoding="utf-8") as script:
    script.write(f'#!/bin/sh\nprintf "%s\\n" "$1" > "{VIEWED}"\n')
os.chmod(VIEWER, 0o755)


def inspected(path):
    """What `aasmd inspect --elements` reads from `path`: its lines, as dicts."""
    done = subprocess.run([os.environ["AASMD_BIN"], "inspect", str(path), "--elements"],
                          capture_output=True, text=True, timeout=120, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


class OpenFile(AppTestCase):
    # The native dialogs cannot be driven through WebDriver: the app opens this file and saves here.
    app_env = {"AAS_BROWSER_OPEN_FILE": str(FAAAST), "AAS_BROWSER_SAVE_DIR": SAVE_DIR, "AAS_BROWSER_VIEWER": VIEWER}
    path = FAAAST
    banner = "File model.aasx (AAS V3.0 XML): 1 shell, 5 submodels. Read-only."
    thumbnail = False  # whether the package has one to draw

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(SAVE_DIR, ignore_errors=True)

    def chips(self):
        return self.wd.script("return [...document.querySelectorAll('#asset-types .chip')]"
                              ".map((c) => [c.dataset.type, c.querySelector('.count').textContent])")

    def open_file(self, keyboard=False):
        wd = self.wd
        self.chip_count("machine", "3")  # the demo plant first
        if keyboard:
            wd.keys(wd.wait_for(row("Machine_M0001")), "\ue009o\ue009")  # Ctrl+O on a tree row, Ctrl released
        else:
            wd.click(wd.wait_for("#open-file"))
        self.wait_until(lambda: wd.text_content("#file-banner-text") == self.banner, 30,
                        lambda: f"banner {wd.text_content('#file-banner-text')!r}; status {wd.text_content('#status-connection')!r}")

    def test_a_file_is_browsed_read_only_and_closed(self):
        wd = self.wd
        lines = inspected(self.path)
        shells = [line for line in lines if line["kind"] == "shell"]
        submodels = {line["idShort"]: line for line in lines if line["kind"] == "submodel"}
        self.open_file(keyboard=self.path == FAAAST)
        # The file's own asset types (or kinds), each with its shells' count, replace the plant's.
        chips = self.chips()
        self.assertTrue(chips and all(name for name, _ in chips), chips)
        # The package's thumbnail beside its name, drawn where it names one.
        drawn = "const img = document.getElementById('file-thumbnail'); return !img.hidden && img.naturalWidth > 0"
        if self.thumbnail:
            self.wait_until(lambda: wd.script(drawn), 10, "the thumbnail drawn")
        else:
            self.assertFalse(wd.script(drawn))
        self.assertEqual(sum(int(n) for _, n in chips), len(shells), chips)
        # What reads the plant waits while a file is shown.
        for hidden in ("#take-snapshot", "#tab-table", "#tab-quality", "#tab-changes", "#export"):
            self.assertFalse(wd.script("return document.querySelector(arguments[0]).checkVisibility()", hidden), hidden)
        # The first shell, its submodels and one submodel's elements, as the file holds them.
        first_shell = wd.script("return document.querySelector('#tree li[role=treeitem]').dataset.label")
        self.assertIn(first_shell, [s["idShort"] for s in shells])
        wd.click(wd.wait_for(row(first_shell) + " .twisty"))
        self.wait_until(lambda: wd.script("return document.querySelectorAll('#tree li[aria-level=\"2\"]').length"), 10,
                        "the shell's submodels are shown")
        shown = wd.script("return [...document.querySelectorAll('#tree li[aria-level=\"2\"]')].map((li) => li.dataset.label)")
        self.assertTrue(set(shown) <= set(submodels), f"{shown} of {list(submodels)}")

        def top_elements(id_short):
            return [line for line in lines if line["kind"] == "element"
                    and line["submodel"] == submodels[id_short]["id"] and "/" not in line["path"]]

        opened = next(name for name in shown if top_elements(name))
        wd.click(wd.wait_for(row(opened) + " .twisty"))
        top = top_elements(opened)
        for element in top:
            wd.wait_for(row(element["path"]))
        # An element's details, and its XML exactly as the file has it.
        element = next((e for e in top if isinstance(e["value"], str) and e["value"]), top[0])
        wd.click(wd.wait_for(row(element["path"]) + " .label"))
        if isinstance(element["value"], str) and element["value"]:
            self.wait_until(lambda: element["value"] in (wd.text_content("#details") or ""), 10,
                            lambda: wd.text_content("#details"))
        wd.click(wd.wait_for("#tab-raw"))
        self.assertEqual(wd.text_content("#tab-raw"), "Raw XML")
        raw = wd.text_content("#raw-json") or ""
        self.assertTrue(raw.startswith("<"), raw[:200])
        self.assertIn(f"idShort>{element['path']}</", raw)
        screenshot(os.path.join(self.out, f"open-file-{self.path.stem}.png"))
        wd.click(wd.wait_for("#tab-details"))
        if self.path == FAAAST:
            # A File's part of the package is saved from the details, named as the package names it.
            wd.click(wd.wait_for(row("CompanyLogo") + " .label"))
            wd.click(wd.wait_for("#details dd[data-field='Path'] button", text="Save to disk…"))
            saved = os.path.join(SAVE_DIR, "example.png")
            self.wait_until(lambda: f"Saved to {saved}" in (wd.text_content("#details") or ""), 20,
                            lambda: wd.text_content("#details"))
            with open(saved, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            # Open: the same content, handed to the system's viewer (here: a script noting it).
            wd.click(wd.wait_for("#details dd[data-field='Path'] button", text="Open"))
            self.wait_until(lambda: os.path.exists(VIEWED), 20, lambda: wd.text_content("#details"))
            with open(VIEWED, encoding="utf-8") as f:
                viewed = f.read().strip()
            self.assertTrue(viewed.endswith("-example.png"), viewed)
            with zipfile.ZipFile(FAAAST) as package, open(viewed, "rb") as f:
                self.assertEqual(f.read(), package.read("aasx/suppl/example.png"))
            # What a viewer would run, or an SVG that may carry script, is not opened.
            wd.click(wd.wait_for(row("Markings") + " .twisty"))
            wd.click(wd.wait_for(row("Marking00") + " .twisty"))
            wd.click(wd.wait_for(row("MarkingFile") + " .label"))
            wd.click(wd.wait_for("#details dd[data-field='Path'] button", text="Open"))
            self.wait_until(lambda: "no document or picture a viewer shows (.svg)" in (wd.text_content("#details") or ""),
                            10, lambda: wd.text_content("#details"))
        # Close file: the demo plant again, its own asset types.
        wd.click(wd.wait_for("#file-close"))
        self.chip_count("machine", "3")
        self.assertTrue(wd.script("return document.getElementById('file-banner').hidden"))
        self.assertTrue(wd.script("return document.getElementById('take-snapshot').checkVisibility()"))


class StartedWithAFile(AppTestCase):
    """A double-click on an .aasx starts the app with its path: the file is shown at once,
    over the demo plant, which Close file shows again."""
    app_args = [str(FAAAST)]

    def test_the_file_is_shown_at_start(self):
        wd = self.wd
        self.wait_until(lambda: wd.text_content("#file-banner-text") == OpenFile.banner, 30,
                        lambda: wd.text_content("#file-banner-text"))
        self.wait_until(lambda: wd.script("return document.querySelector('#tree li[role=treeitem]')?.dataset.label"), 10,
                        "the file's shells are in the tree")
        wd.click(wd.wait_for("#file-close"))
        self.chip_count("machine", "3")


class TakeFileIn(AppTestCase):
    """Take in: the file shown is kept in the store as a snapshot of its own, and the views
    that read snapshots read it while it is shown: the plant search finds its values, the
    Table has a row per shell, Quality audits it, and Changes compares two deliveries, and
    a delivery with the plant's own snapshot."""
    saved = tempfile.mkdtemp(prefix="aas-e2e-take-in-")
    app_env = {"AAS_BROWSER_OPEN_FILE": str(FAAAST), "AAS_BROWSER_SAVE_DIR": saved}

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.saved, ignore_errors=True)

    def test_a_file_taken_in_is_searched_tabled_audited_and_compared(self):
        wd = self.wd
        self.chip_count("machine", "3")
        self.take_snapshot()  # the plant's own, to compare a delivery with
        wd.click(wd.wait_for("#open-file"))
        self.wait_until(lambda: wd.text_content("#file-banner-text") == OpenFile.banner, 30,
                        lambda: wd.text_content("#file-banner-text"))
        visible = "return document.querySelector(arguments[0]).checkVisibility()"
        self.assertFalse(wd.script(visible, "#tab-table"))
        for taking in (1, 2):  # a second delivery of the same file: its next snapshot
            wd.click(wd.wait_for("#file-take-in"))
            self.wait_until(lambda: "Taken in as snapshot" in (wd.text_content("#file-banner-text") or ""), 60,
                            lambda: f"{wd.text_content('#file-banner-text')!r}; {wd.text_content('#status-errors')!r}")
            self.assertFalse(wd.script(visible, "#file-take-in"))
            if taking == 1:
                wd.click(wd.wait_for("#file-close"))
                self.chip_count("machine", "3")
                wd.click(wd.wait_for("#open-file"))
                self.wait_until(lambda: wd.text_content("#file-banner-text") == OpenFile.banner, 30,
                                lambda: wd.text_content("#file-banner-text"))
        # What reads a plant's snapshot reads the file's; what reads the plant still waits.
        for shown in ("#tab-table", "#tab-quality", "#tab-changes", "#plant-search", "#export"):
            self.assertTrue(wd.script(visible, shown), shown)
        for hidden in ("#take-snapshot", "#snapshots-open"):
            self.assertFalse(wd.script(visible, hidden), hidden)

        # Export… writes the file's own snapshot: here as AAS V3.1 in an AASX with XML.
        wd.script("const s = document.getElementById('export-format'); s.value = 'v3.1-aasx-xml';"
                  " s.dispatchEvent(new Event('change'))")
        wd.click(wd.wait_for("#export"))
        packages = lambda: [name for name in os.listdir(self.saved) if name.endswith(".aasx")]
        self.wait_until(packages, 60, lambda: f"{wd.text_content('#load-text')!r}; {wd.text_content('#status-errors')!r}")
        with zipfile.ZipFile(os.path.join(self.saved, packages()[0])) as package:
            xml = package.read("aasx/data.xml").decode()
        self.assertIn('xmlns="https://admin-shell.io/aas/3/1"', xml)
        shell = next(line for line in inspected(FAAAST) if line["kind"] == "shell")
        self.assertIn(f"<id>{shell['id']}</id>", xml)

        box = wd.wait_for("#plant-search")
        wd.keys(box, "example")
        self.wait_until(lambda: wd.find_all("#plant-search-results [role='option']"), 20,
                        lambda: wd.text_content("#plant-search-status"))
        wd.keys(box, "\ue00c")  # Escape closes the list

        wd.click(wd.wait_for("#tab-table"))
        rows = "return document.querySelectorAll('#table-body tr:not(.spacer)').length"
        self.wait_until(lambda: wd.script(rows) == 1, 30, lambda: wd.text_content("#table-status"))
        screenshot(os.path.join(self.out, "file-taken-in-table.png"))

        wd.click(wd.wait_for("#tab-quality"))
        self.wait_until(lambda: "audited" in (wd.text_content("#quality-status") or ""), 60,
                        lambda: wd.text_content("#quality-status"))
        self.assertTrue((wd.text_content("#quality-status") or "").startswith("1 "),
                        wd.text_content("#quality-status"))
        # A group's first gap opens in the file's tree, the file still shown (it closed the file once).
        groups = "return document.querySelectorAll('#quality-groups td').length"
        self.wait_until(lambda: wd.script(groups), 10, "the audit's groups of findings")
        wd.click(wd.find_all("#quality-groups td")[0])
        viewport = wd.wait_for("#quality-groups-viewport")
        wd.keys(viewport, "\ue007")
        wd.keys(wd.wait_for("#quality-gaps-viewport"), "\ue007")
        self.wait_until(lambda: wd.text_content("#details .gap-note"), 20,
                        lambda: wd.text_content("#status-errors"))
        self.assertEqual(wd.text_content("#file-banner-text")[:len(OpenFile.banner)], OpenFile.banner)

        # The two deliveries compared: the same file, nothing changed.
        wd.click(wd.wait_for("#tab-changes"))
        wd.click(wd.wait_for("#changes-compare"))
        self.wait_until(lambda: "no change" in (wd.text_content("#changes-status") or "").lower(), 30,
                        lambda: wd.text_content("#changes-status"))
        # What the vendor delivered against what the platform holds: the plant's snapshot
        # is offered beside the file's, each named by its source.
        options = wd.script("return [...document.getElementById('changes-old').options].map((o) => o.text)")
        self.assertEqual(sum(o.startswith("DEMO-01 · ") for o in options), 1, options)
        self.assertEqual(sum(o.startswith("model.aasx · ") for o in options), 2, options)
        wd.script("const s = document.getElementById('changes-old');"
                  "s.value = [...s.options].find((o) => o.text.startsWith('DEMO-01 · ')).value;")
        wd.click(wd.wait_for("#changes-compare"))
        self.wait_until(lambda: " changes from DEMO-01, the snapshot of " in (wd.text_content("#changes-status") or ""), 30,
                        lambda: wd.text_content("#changes-status"))
        self.assertIn(", to model.aasx, the snapshot of ", wd.text_content("#changes-status"))
        screenshot(os.path.join(self.out, "file-against-plant-changes.png"))

        # Closed, the plant's own views read the plant again.
        wd.click(wd.wait_for("#file-close"))
        self.chip_count("machine", "3")
        self.assertTrue(wd.script(visible, "#take-snapshot"))


RECENT_DIR = tempfile.mkdtemp(prefix="aas-e2e-recent-")
RECENT = os.path.join(RECENT_DIR, "vendor-model.aasx")


class RecentFiles(AppTestCase):
    """Recent files: a file opened is listed (its name, its path on hover), kept across a
    restart, opened again from the keyboard; one deleted since says so and leaves the list."""
    app_env = {"AAS_BROWSER_OPEN_FILE": RECENT}

    @classmethod
    def setUpClass(cls):
        shutil.copyfile(FAAAST, RECENT)
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(RECENT_DIR, ignore_errors=True)

    def listed(self):
        wd = self.wd
        wd.click(wd.wait_for("#recent-open"))
        wd.wait_for("#recent-menu li")
        return wd.script("return [...document.querySelectorAll('#recent-menu li')]"
                         ".map((li) => [li.textContent, li.querySelector('button')?.title ?? null])")

    def test_a_file_opened_is_listed_kept_and_opened_again(self):
        wd = self.wd
        banner = "File vendor-model.aasx (AAS V3.0 XML): 1 shell, 5 submodels. Read-only."
        self.chip_count("machine", "3")
        self.assertEqual(self.listed(), [["No file opened yet: Open file… (Ctrl+O)", None]])
        wd.keys(wd.active(), "\ue00c")  # Escape closes the menu
        self.assertTrue(wd.script("return document.getElementById('recent-menu').hidden"))
        wd.click(wd.wait_for("#open-file"))
        self.wait_until(lambda: wd.text_content("#file-banner-text") == banner, 30,
                        lambda: wd.text_content("#file-banner-text"))
        wd.click(wd.wait_for("#file-close"))
        self.chip_count("machine", "3")

        # Kept across a restart; Enter on the item (focused as the menu opens) opens it.
        self.restart_app()
        wd = self.wd
        self.chip_count("machine", "3")
        self.assertEqual(self.listed(), [["vendor-model.aasx", RECENT]])
        self.assertEqual(wd.script("return document.activeElement.textContent"), "vendor-model.aasx")
        wd.keys(wd.active(), "\ue007")
        self.wait_until(lambda: wd.text_content("#file-banner-text") == banner, 30,
                        lambda: f"{wd.text_content('#file-banner-text')!r} {wd.text_content('#status-errors')!r}")
        wd.click(wd.wait_for("#file-close"))

        # Deleted since: said, and gone from the list.
        os.remove(RECENT)
        self.listed()
        wd.click(wd.wait_for("#recent-menu button"))
        self.wait_until(lambda: "is no longer there" in (wd.text_content("#status-errors") or ""), 20,
                        lambda: wd.text_content("#status-errors"))
        self.assertEqual(self.listed()[0][1], None, "the list is empty again")


class OpenV2File(OpenFile):
    app_env = {"AAS_BROWSER_OPEN_FILE": str(FESTO)}
    path = FESTO
    banner = "File 24_Festo.aasx (AAS V2.0 XML): 1 shell, 7 submodels. Read-only."
    thumbnail = True


class OpenV31File(OpenFile):
    """The fourth kind: AAS V3.1 (the BaSyx Web UI's example package)."""
    app_env = {"AAS_BROWSER_OPEN_FILE": str(V31)}
    path = V31
    banner = "File cable1.aasx (AAS V3.1 XML): 1 shell, 4 submodels. Read-only."
    thumbnail = True


def park_pointer():
    """The X pointer to the display's corner, where it hovers over nothing of a later test's window."""
    subprocess.run(["xdotool", "mousemove", "--sync", "1279", "799"], check=True, timeout=30)


class LongReadingCancelled(AppTestCase):
    """A file that takes seconds to read (300,000 shells, 45 MB of XML): the banner says
    how far the reading has come, with a bar and Cancel; Cancel stops it and leaves what
    was shown (the demo plant) as it was."""

    @classmethod
    def before_start(cls, data_home):
        large = os.path.join(data_home, "large.xml")
        shell = ("<assetAdministrationShell><id>urn:shell:{}</id><assetInformation>"
                 "<assetKind>Instance</assetKind></assetInformation></assetAdministrationShell>")
        write_environment(large, (shell.format(i) for i in range(300_000)))
        cls.app_env = {"AAS_BROWSER_OPEN_FILE": large}

    def test_the_reading_is_shown_and_cancelled(self):
        wd = self.wd
        self.chip_count("machine", "3")
        wd.click(wd.wait_for("#open-file"))
        reading = lambda: (wd.script("return document.querySelector('#file-reading-text').checkVisibility()")
                           and wd.text_content("#file-reading-text"))
        said = self.wait_until(reading, 30, "the reading's progress shown")
        self.assertRegex(said, r"^Opening large\.xml: \d\d?% read$")
        bar = wd.script("const b = document.querySelector('#file-reading-bar');"
                        "return [b.checkVisibility(), b.max, b.value]")
        self.assertTrue(bar[0] and 0 < bar[2] <= bar[1], bar)
        screenshot(os.path.join(self.out, "open-file-reading.png"))
        wd.click(wd.wait_for("#file-reading-cancel"))
        self.wait_until(lambda: wd.text_content("#status-errors") == "Opening cancelled: the file was not opened.",
                        20, lambda: wd.text_content("#status-errors"))
        self.wait_until(lambda: wd.script("return document.querySelector('#file-banner').hidden"), 10,
                        "the banner hidden again")
        self.chip_count("machine", "3")


class ShellsShownFirst(AppTestCase):
    """A file of three shells and a million submodels after them (69 MB of XML): the tree
    shows the shells while the rest is read, the banner saying how far; the row the
    user chose meanwhile stays chosen when the rest has come."""

    @classmethod
    def before_start(cls, data_home):
        cls.app_env = {"AAS_BROWSER_OPEN_FILE": write_shells_first(data_home)}

    app_per_test = True

    def open_until_the_shells_are_shown(self):
        wd = self.wd
        self.chip_count("machine", "3")
        wd.click(wd.wait_for("#open-file"))
        both = lambda: wd.script(
            "return Boolean(document.querySelector(arguments[0]))"
            " && document.querySelector('#file-reading-text').checkVisibility()", row("Shell_1"))
        self.wait_until(both, 30, "the shells in the tree while the reading goes on")

    def test_cancelled_once_the_shells_are_shown_the_plant_comes_back(self):
        wd = self.wd
        self.open_until_the_shells_are_shown()
        wd.click(wd.wait_for("#file-reading-cancel"))
        self.wait_until(lambda: wd.text_content("#status-errors") == "Opening cancelled: the file was not opened.",
                        20, lambda: wd.text_content("#status-errors"))
        self.chip_count("machine", "3")
        self.wait_until(lambda: wd.script("return document.querySelector('#file-banner').hidden"), 10,
                        "the banner hidden again")

    def test_the_shells_are_shown_while_the_rest_is_read(self):
        wd = self.wd
        self.open_until_the_shells_are_shown()
        screenshot(os.path.join(self.out, "open-file-shells-first.png"))
        wd.click(wd.wait_for(row("Shell_1") + " .label"))
        self.wait_until(lambda: wd.text_content("#file-banner-text")
                        == "File shells-first.xml (AAS V3.0 XML): 3 shells, 1000000 submodels. Read-only.", 60,
                        lambda: wd.text_content("#file-banner-text"))
        self.assertEqual(wd.script("return document.querySelector(arguments[0]).getAttribute('aria-selected')",
                                   row("Shell_1")), "true", "the row chosen stays chosen")


class OpenedThroughTheDialog(AppTestCase):
    """Open file… asks the system's own file dialog (GTK's, no path preset): the X
    server's keyboard types the file's path into it (xdotool), as a user types one."""

    def test_the_dialog_opens_the_file_typed(self):
        wd = self.wd
        self.chip_count("machine", "3")
        wd.click(wd.wait_for("#open-file"))
        found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "^Open AAS files"],
                               capture_output=True, text=True, timeout=30, check=True)
        dialog = found.stdout.split()[0]
        # Ctrl+L opens GTK's location box (a key typed while it opens would be lost); the
        # path typed there and Return open the file.
        subprocess.run(["xdotool", "windowfocus", "--sync", dialog, "key", "ctrl+l", "sleep", "0.5",
                        "type", "--delay", "20", str(V31)], check=True, timeout=60)
        subprocess.run(["xdotool", "sleep", "0.5", "key", "Return"], check=True, timeout=30)
        park_pointer()
        self.wait_until(lambda: wd.text_content("#file-banner-text") == OpenV31File.banner, 30,
                        lambda: f"banner {wd.text_content('#file-banner-text')!r}; "
                                f"errors {wd.text_content('#status-errors')!r}")


class DroppedOnTheWindow(AppTestCase):
    """A file dragged from a file manager and dropped on the window is opened: here the
    drag source is a small GTK window (drag_source.py, as a file manager is one), and the
    X server's pointer carries each kind of file from it to the tree (xdotool)."""

    def drop(self, path):
        """Drags `path` from a drag source beside the window and drops it on the tree."""
        source = subprocess.Popen(["/usr/bin/python3", str(Path(__file__).with_name("drag_source.py")),
                                   str(path), "1100", "60"], stdout=subprocess.PIPE, text=True)
        try:
            self.assertEqual(source.stdout.readline().strip(), "ready")
            xdotool = ["xdotool", "mousemove", "--sync", "1180", "110", "mousedown", "1"]
            # In steps, as a hand moves it: GTK starts a drag past a few pixels of motion.
            for x in range(1170, 480, -30):
                xdotool += ["mousemove", "--sync", str(x), str(110 + (1170 - x) // 3), "sleep", "0.02"]
            xdotool += ["sleep", "0.3", "mouseup", "1"]
            subprocess.run(xdotool, check=True, timeout=60)
        finally:
            source.terminate()
            source.wait(10)
            source.stdout.close()
            park_pointer()

    def test_each_kind_of_file_dropped_is_opened(self):
        wd = self.wd
        self.chip_count("machine", "3")
        self.set_window(1024, 700)
        for path, version in [(FESTO, "V2.0 XML"), (B_XML, "V2.0 XML"), (FAAAST, "V3.0 XML"), (V31, "V3.1 XML")]:
            shells = sum(1 for line in inspected(path) if line["kind"] == "shell")
            self.drop(path)
            said = f"File {path.name} (AAS {version}): {shells} shell"
            self.wait_until(lambda: said in (wd.text_content("#file-banner-text") or ""), 30,
                            lambda: f"{said!r}: banner {wd.text_content('#file-banner-text')!r}; "
                                    f"errors {wd.text_content('#status-errors')!r}")
            self.wait_until(lambda: wd.script("return document.querySelector('#tree li[role=treeitem]')"), 10,
                            "the file's shells are in the tree")


if __name__ == "__main__":
    unittest.main()
