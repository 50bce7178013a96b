#!/usr/bin/env python3
"""End to end on the built-in demo profile, then a profile with secrets in the keychain."""

import json
import os
import subprocess
import time
import unittest

from app_driver import AppTestCase, row, screenshot

NO_MATCH = "None loaded: Ctrl+K searches all"


class PreferencesFile:
    """Mixed into test classes: reads the app's preferences file."""

    def preferences(self):
        with open(self.preferences_path()) as f:
            return json.load(f)

    def wait_for_preference(self, key, value):
        def stored():
            try:
                return self.preferences().get(key) == value
            except (OSError, ValueError):  # not written yet
                return False
        self.wait_until(stored, 10, lambda: f"{key!r} = {value!r} in {self.preferences_path()}")
        return value


class DemoProfile(PreferencesFile, AppTestCase):
    def test_drill_down_to_a_property_and_read_its_details(self):
        wd = self.wd
        # Choose the demo plant.
        option = wd.wait_for('#plant option[value="DEMO-01"]')
        wd.click(wd.wait_for("#plant"))
        wd.click(option)
        self.assertEqual(wd.script("return document.getElementById('plant').value"), "DEMO-01")

        # Pick an asset type: its chip shows how many shells are visible.
        chip = wd.wait_for('.chip[data-type="machine"]')
        wd.click(chip)
        count = wd.wait_for('.chip[data-type="machine"] .count')
        deadline = time.monotonic() + 10
        while wd.text(count) in ("…", "") and time.monotonic() < deadline:
            time.sleep(0.2)
        self.assertEqual(wd.text(count), "3")

        # A shell's details list the endpoints the registry names (here: the gateway's).
        wd.click(wd.wait_for(row("Machine_M0001") + " .label"))
        self.wait_until(lambda: (wd.text_content(".endpoints li") or "").startswith("Shell (http): "),
                        what=lambda: wd.text_content(".endpoints"))
        self.assertRegex(wd.text_content(".endpoints li"), r"^Shell \(http\): http://127\.0\.0\.1:\d+/gateway/aasList/")
        self.assertEqual(wd.script("return document.querySelector('.endpoints li').dataset.elsewhere"), "false")
        # Refresh reads the registry and the lists again; the tree comes back.
        wd.click(wd.wait_for("#refresh"))
        self.wait_until(lambda: not wd.script("return document.getElementById('refresh').disabled"),
                        what="the refresh ends")
        wd.wait_for(row("Machine_M0001"))

        # Expand AAS -> submodel, then select a Property.
        wd.click(wd.wait_for(row("Machine_M0001") + " .twisty"))
        wd.click(wd.wait_for(row("Nameplate") + " .twisty"))
        prop = wd.wait_for(row("ManufacturerName") + " .label")
        tree_value = wd.text_content(row("ManufacturerName") + " .value")
        wd.click(prop)

        id_short = wd.wait_for('#details dd[data-field="idShort"]', text="ManufacturerName")
        screenshot(os.path.join(self.out, "details.png"))
        value = wd.text(wd.wait_for('#details dd[data-field="Value"]'))
        # The demo plant is generated deterministically: M-0001's manufacturer.
        self.assertEqual(value, "Acme Tools Inc.")
        self.assertEqual(tree_value, value)
        self.assertEqual(wd.text(id_short), "ManufacturerName")
        self.assertEqual(wd.text(wd.wait_for('#details dd[data-field="Model type"]')), "Property")

        # The raw tab holds the server's exact JSON for that element.
        wd.click(wd.wait_for("#tab-raw"))
        raw = wd.script("return document.getElementById('raw-json').textContent")
        curl = wd.text_content("#curl")
        self.assertIn("%23M-0001/aas/submodels/Nameplate/submodel/submodelElements/ManufacturerName'", curl)
        self.assertIn("Bearer $ACCESS_TOKEN", curl)
        self.assertIn("Bearer $USER_TOKEN", curl)
        self.assertEqual(json.loads(raw)["idShort"], "ManufacturerName")
        self.assertEqual(json.loads(raw)["value"], value)
        screenshot(os.path.join(self.out, "raw-json.png"))
        wd.click(wd.wait_for("#tab-details"))

        # Keyboard: from the selected row, ArrowDown moves to the next element.
        focused = wd.wait_for(row("ManufacturerName"))
        wd.keys(focused, "\ue015")  # ArrowDown
        active = wd.script("return document.activeElement.dataset.label")
        self.assertEqual(active, "ManufacturerProductDesignation")
        wd.keys(wd.wait_for(row(active)), "\ue007")  # Enter selects
        wd.wait_for('#details dd[data-field="idShort"]', text="ManufacturerProductDesignation")

        # Filter: a value deep in a collapsed collection is found, shown under its
        # ancestors and highlighted.
        wd.keys(wd.wait_for("#filter"), "Stuttgart")
        wd.wait_for(row("CityTown"))
        self.assertEqual(wd.text_content(row("CityTown") + " mark"), "Stuttgart")
        screenshot(os.path.join(self.out, "filter.png"))
        wd.keys(wd.wait_for("#filter"), "\ue00c")  # Escape clears
        wd.wait_for(row("Machine_M0002"))
        # A word in nothing loaded: the filter points to the plant search.
        wd.keys(wd.wait_for("#filter"), "Zzyzx")
        self.wait_until(lambda: wd.text_content("#filter-count") == NO_MATCH, 10,
                        lambda: wd.text_content("#filter-count"))
        wd.keys(wd.wait_for("#filter"), "\ue00c")
        wd.wait_for(row("Machine_M0002"))

        # Take snapshot: progress, then a summary, and export becomes possible.
        wd.click(wd.wait_for("#take-snapshot"))
        deadline = time.monotonic() + 60
        while not (wd.text_content("#load-text") or "").startswith("Snapshot taken"):
            self.assertLess(time.monotonic(), deadline, wd.text_content("#load-text"))
            time.sleep(0.2)
        self.assertRegex(wd.text_content("#load-text"), r"^Snapshot taken: \d+ shells, [\d.]+ [kMG]?B$")
        self.assertFalse(wd.script("return document.getElementById('export').disabled"))
        screenshot(os.path.join(self.out, "loaded.png"))

        # The dark theme, one click away (the OS setting is followed until then). It is
        # kept in the app's preferences file; nothing goes to the webview's storage.
        wd.click(wd.wait_for("#theme"))
        self.assertEqual(wd.script("return document.documentElement.dataset.theme"), "dark")
        self.wait_for_preference("theme", "dark")
        self.assertEqual(wd.script("return window.localStorage.length"), 0)
        screenshot(os.path.join(self.out, "dark.png"))
        wd.click(wd.wait_for("#theme"))
        self.assertEqual(wd.script("return document.documentElement.dataset.theme"), "light")
        self.wait_for_preference("theme", "light")
        # Where the user left off, for the next start.
        view = self.preferences()["views"]["Demo platform (built in)"]
        self.assertEqual(view, {"plant": "DEMO-01", "asset_type": "machine"})
        self.assertEqual(wd.script("return window.localStorage.length"), 0)


class KeychainProfile(PreferencesFile, AppTestCase):
    """An app of its own: the profile made here (its demo service stopped at the end) would be
    the one in use for any test after it."""

    def test_profile_with_secrets_in_the_keychain(self):
        wd = self.wd
        aasmd = os.environ["AASMD_BIN"]
        demo_service = subprocess.Popen([aasmd, "demo-service", "--addr", "127.0.0.1:0"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            line = json.loads(demo_service.stdout.readline())
            name = "Plant via keychain"

            # A plain-http URL to another machine is refused with a reason.
            self.fill_profile_form(name, line)
            self.fill("pf-registry", "http://registry.example.com")
            wd.click(wd.wait_for("#pf-save"))
            self.wait_until(lambda: "plain http" in (wd.text_content("#pf-status") or ""), 10,
                            lambda: wd.text_content("#pf-status"))

            self.fill("pf-registry", line["registry_url"])
            self.save_profile_and_connect(name)
            self.assertIn(line["gateway_url"], wd.text_content("#status-connection"))
            self.chip_count("machine", "3")
            wd.wait_for(row("Machine_M0001"))
            screenshot(os.path.join(self.out, "profile.png"))

            # The settings file has the profile, and neither secret; the preferences
            # name it as the last profile, so the next start reconnects to it.
            with open(self.settings_path()) as f:
                text = f.read()
            self.assertIn(name, text)
            self.assertNotIn("last_profile", json.loads(text))
            self.assertEqual(self.wait_for_preference("last_profile", name), name)
            with open(self.preferences_path()) as f:
                text += f.read()
            self.assertNotIn(line["client_secret"], text)
            self.assertNotIn(line["user_token"], text)
        finally:
            demo_service.terminate()
            demo_service.wait(10)
            demo_service.stdout.close()


class DamagedPreferences(PreferencesFile, AppTestCase):
    """A preferences file cut short (a crash while writing, a full disk) costs only the
    preferences: the app starts on the demo profile, and the next choice repairs it."""

    @classmethod
    def before_start(cls, data_home):
        path = cls.app_data_path("preferences.json", data_home)
        os.makedirs(os.path.dirname(path))
        with open(path, "w") as f:
            f.write('{"theme": ')

    def test_a_damaged_preferences_file_still_starts_on_the_demo_profile(self):
        wd = self.wd
        self.wait_until(lambda: (wd.text_content("#status-connection") or "").startswith("Connected"), 20,
                        lambda: wd.text_content("#status-connection"))
        self.assertEqual(wd.script("return document.getElementById('profile').value"), "Demo platform (built in)")
        self.chip_count("machine", "3")
        wd.wait_for(row("Machine_M0001"))
        # The page was let paint (it stays hidden until the theme is applied).
        self.assertEqual(wd.script("return getComputedStyle(document.body).visibility"), "visible")
        self.assertTrue(wd.script("return document.documentElement.hasAttribute('data-ready')"))
        self.assertIsNone(wd.script("return document.documentElement.dataset.theme ?? null"),
                          "no stored theme: the OS decides")
        screenshot(os.path.join(self.out, "damaged-preferences.png"))

        # Choosing a theme writes a whole, valid file again; the button still toggles.
        wd.click(wd.wait_for("#theme"))
        self.assertEqual(wd.script("return document.documentElement.dataset.theme"), "dark")
        self.wait_for_preference("theme", "dark")
        with open(self.preferences_path()) as f:
            self.assertIn('"theme": "dark"', f.read())
        wd.click(wd.wait_for("#theme"))
        self.assertEqual(wd.script("return document.documentElement.dataset.theme"), "light")
        self.wait_for_preference("theme", "light")
        wd.click(wd.wait_for("#theme"))
        self.wait_for_preference("theme", "dark")

        # The export format chosen is kept too.
        wd.script("const s = document.getElementById('export-format'); s.value = 'csv';"
                  "s.dispatchEvent(new Event('change'));")
        self.wait_for_preference("export_format", "csv")
        self.assertEqual(self.preferences()["web_storage_cleared"], True, "the webview's storage was emptied once")
        self.assertEqual(wd.script("return window.localStorage.length"), 0, "nothing of the app in localStorage")

        # Help → Copy diagnostics: the report reaches the clipboard, and says so.
        wd.click(wd.wait_for("#diagnostics"))
        self.wait_until(lambda: "Diagnostics copied" in (wd.text_content("#status-errors") or ""), 10,
                        lambda: wd.text_content("#status-errors"))
        pasted = subprocess.run(["xclip", "-o", "-selection", "clipboard"], capture_output=True,
                                text=True, timeout=10).stdout
        self.assertIn("AAS Master Data Browser", pasted)
        self.assertIn("active profile: Demo platform (built in)", pasted)


if __name__ == "__main__":
    unittest.main(verbosity=2)
