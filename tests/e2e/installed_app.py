#!/usr/bin/env python3
"""The app installed from its .deb, started the way a desktop starts it.

Run by scripts/test-deb.sh through scripts/e2e.sh (which give it a private display and
D-Bus session). Environment: DESKTOP_ENTRY (the installed .desktop file) and
AAS_BROWSER_BIN (the program its Exec line names, resolved on PATH).
"""

import configparser
import os
import re
import signal
import subprocess
import time
import uuid
import unittest

from app_driver import AppTestCase, screenshot

TITLE = "AAS Master Data Browser"
DEMO_PROFILE = "Demo platform (built in)"


def launched_app(marker):
    """The pid of the app process whose environment carries `marker`, if any. (`gio
    launch` exits at once and the app is reparented, so its pid is found this way.)"""
    binary = os.path.realpath(os.environ["AAS_BROWSER_BIN"])
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if marker.encode() not in f.read().split(b"\0"):
                    continue
            if os.readlink(f"/proc/{pid}/exe") == binary:
                return int(pid)
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return None


def desktop_entry(path):
    """The [Desktop Entry] group of a .desktop file, keys as written."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read(path)
    return parser["Desktop Entry"]


def window_of(pid):
    """xprop's WM_CLASS line of a mapped top-level window titled TITLE that belongs to `pid`."""
    tree = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, text=True, check=True).stdout
    for wid in re.findall(rf'^\s+(0x[0-9a-f]+) "{re.escape(TITLE)}"', tree, re.M):
        props = subprocess.run(["xprop", "-id", wid, "_NET_WM_PID", "WM_CLASS"],
                               capture_output=True, text=True).stdout
        attrs = subprocess.run(["xwininfo", "-id", wid], capture_output=True, text=True).stdout
        if f"_NET_WM_PID(CARDINAL) = {pid}\n" in props and "IsViewable" in attrs:
            return next(line for line in props.splitlines() if line.startswith("WM_CLASS"))
    return None


class DesktopLaunch(unittest.TestCase):
    wait_until = AppTestCase.wait_until

    def test_gio_launch_of_the_desktop_entry_opens_the_app_window(self):
        run = str(uuid.uuid4())
        marker = f"AAS_DEB_TEST_RUN={run}"
        env = dict(os.environ, AAS_DEB_TEST_RUN=run)
        entry = os.environ["DESKTOP_ENTRY"]
        subprocess.run(["gio", "launch", entry], env=env, check=True, timeout=30)
        pid = self.wait_until(lambda: launched_app(marker), what="the launched app process")
        try:
            wm_class = self.wait_until(lambda: window_of(pid), timeout=30, what=f"a window {TITLE!r} of pid {pid}")
            # Docks and task bars match the window to its entry by this.
            self.assertIn(f'"{desktop_entry(entry)["StartupWMClass"]}"', wm_class)
            # For a person to look at: nothing here says when the page has painted.
            time.sleep(3)
            screenshot(os.path.join(os.environ.get("E2E_OUT", "tests/e2e/out"), "desktop-launch.png"))
        finally:
            os.kill(pid, signal.SIGTERM)
            self.wait_until(lambda: launched_app(marker) is None, what=f"pid {pid} to exit")


class ExecLineOpensTheDemoProfile(AppTestCase):
    """WebDriver starts the program of the Exec line, as the desktop does, and reads the page."""

    def test_opens_on_the_demo_plant(self):
        wd = self.wd
        self.wait_until(lambda: wd.script("return document.getElementById('profile').value") == DEMO_PROFILE,
                        what="the demo profile selected")
        option = wd.wait_for('#plant option[value="DEMO-01"]')
        wd.click(wd.wait_for("#plant"))
        wd.click(option)
        wd.click(wd.wait_for('.chip[data-type="machine"]'))
        count = '.chip[data-type="machine"] .count'
        self.wait_until(lambda: wd.text_content(count) == "3", what=lambda: wd.text_content(count))
        screenshot(os.path.join(self.out, "installed-demo.png"))


if __name__ == "__main__":
    unittest.main()
