#!/usr/bin/env python3
"""End to end: connection profiles against a separately started `aasmd demo-service`: Test
connection (passing, and failing with the server's words), the user token's expiry,
the status bar, duplicate and delete; then the session-only path without a keychain."""

import base64
import json
import os
import re
import time
import unittest

from app_driver import screenshot
from profile_form import ProfileForm

NAME = "Plant Nord"
DEMO = "Demo platform (built in)"


def jwt(claims):
    """A token shaped like a JWT (unsigned: the app only reads its expiry)."""
    part = lambda data: base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")
    return f"{part({'alg': 'none'})}.{part(claims)}.c2ln"


class ProfilesWithKeychain(ProfileForm):
    # The profiles a test saves are in the settings file and the picker for the next
    # one: each test starts its own app, on the demo alone.
    app_per_test = True

    def steps(self):
        return self.wd.script(
            "return [...document.querySelectorAll('#pf-test-steps li')]"
            ".map((li) => [li.dataset.step, li.dataset.status, li.textContent])")

    def save_profile(self, name):
        """Saves the demo service's connection as profile `name` and waits for its machines."""
        self.fill_profile(name)
        self.wd.click(self.wd.wait_for("#pf-save"))
        self.wait_until(lambda: self.active_profile() == name, what=lambda: self.wd.text_content("#pf-status"))
        self.wait_for_machines()

    def use_profile(self, name):
        """Picks `name` in the profile picker: the app reads the settings file again."""
        self.wd.script("const s = document.getElementById('profile'); s.value = arguments[0];"
                       "s.dispatchEvent(new Event('change'));", name)

    def test_test_connection_shows_each_step_and_the_servers_error(self):
        wd = self.wd
        self.fill_profile(NAME, user_token="not-a-user-token")
        self.assertEqual(wd.text_content("#pf-user-token-note"), "Not a JWT: its expiry cannot be shown.")
        wd.click(wd.wait_for("#pf-test"))
        wd.wait_for('#pf-test-steps li[data-step="gateway"]')
        steps = self.steps()
        self.assertEqual([s[:2] for s in steps],
                         [["token", "passed"], ["registry", "passed"], ["gateway", "failed"]], steps)
        # The server's own error code and description, as it sent them.
        self.assertIn("invalid_user_token", steps[2][2])
        self.assertIn("HTTP 401", steps[2][2])
        screenshot(os.path.join(self.out, "profile-test-failed.png"))

        self.fill("pf-user-token", self.line["user_token"])
        # The demo service's user token is a JWT: its expiry shows as soon as it is pasted.
        self.assertRegex(wd.text_content("#pf-user-token-note"), r"^JWT expires in \d")
        wd.click(wd.wait_for("#pf-test"))
        wd.wait_for('#pf-test-steps li[data-step="gateway"][data-status="passed"]')
        steps = self.steps()
        self.assertEqual([s[1] for s in steps], ["passed"] * 3, steps)
        self.assertIn("21 AAS descriptors", steps[1][2])
        screenshot(os.path.join(self.out, "profile-test-passed.png"))

        # Nothing was saved by testing.
        self.assertFalse(os.path.exists(self.settings_path()) and NAME in self.settings())
        wd.click(wd.wait_for("#pf-save"))
        self.wait_until(lambda: self.active_profile() == NAME, what=lambda: wd.text_content("#pf-status"))
        self.wait_for_machines()

    def test_status_bar_shows_token_lifetime_and_counts_requests(self):
        wd = self.wd
        self.save_profile(NAME)
        self.wait_until(lambda: wd.text_content("#status-profile") == NAME,
                        what=lambda: wd.text_content("#status-profile"))
        token = self.wait_until(lambda: re.fullmatch(r"token (\d+ min( \d+ s)?|\d+ s) left",
                                                     wd.text_content("#status-token")),
                                what=lambda: wd.text_content("#status-token")).group(0)
        # The lifetime counts down by itself, without any request.
        self.wait_until(lambda: wd.text_content("#status-token") != token, timeout=10,
                        what=lambda: wd.text_content("#status-token"))
        self.assertRegex(wd.text_content("#status-user-token"), r"^user token expires in \d")

        def requests():
            match = re.fullmatch(r"(\d+) requests?, (\d+) errors?", wd.text_content("#status-requests"))
            self.assertIsNotNone(match, wd.text_content("#status-requests"))
            return int(match.group(1)), int(match.group(2))

        before, errors = requests()
        self.assertGreaterEqual(before, 8, "one aasList per asset type at least")
        wd.click(wd.wait_for('li[role="treeitem"][data-label="Machine_M0001"] .twisty'))
        wd.wait_for('li[role="treeitem"][data-label="Nameplate"]')
        self.wait_until(lambda: requests()[0] > before, what=lambda: wd.text_content("#status-requests"))
        self.assertEqual(requests()[1], errors)
        screenshot(os.path.join(self.out, "status-bar.png"))

    def test_a_user_token_about_to_lapse_is_warned_about(self):
        wd = self.wd
        self.open_dialog()
        note = "#pf-user-token-note"
        self.fill("pf-user-token", jwt({"sub": "u", "exp": int(time.time()) + 600}))
        self.assertRegex(wd.text_content(note), r"^JWT expires in (9|10) min")
        self.assertEqual(wd.script("return document.querySelector(arguments[0]).dataset.level", note), "warn")
        screenshot(os.path.join(self.out, "profile-token-warning.png"))
        self.fill("pf-user-token", jwt({"exp": int(time.time()) - 7200}))
        self.assertRegex(wd.text_content(note), r"^JWT expired 2 h")
        self.assertEqual(wd.script("return document.querySelector(arguments[0]).dataset.level", note), "expired")

    def choose_format(self, value):
        self.wd.script("const s = document.getElementById('export-format'); s.value = arguments[0];"
                       "s.dispatchEvent(new Event('change'));", value)

    def shown_format(self):
        return self.wd.script("return document.getElementById('export-format').value")

    def test_each_profile_keeps_its_export_format(self):
        self.wait_for_machines()
        self.choose_format("csv")
        self.save_profile(NAME)
        self.assertEqual(self.shown_format(), "csv", "a profile of its own starts with the last choice")
        self.choose_format("v3.1-aasx")
        self.use_profile(DEMO)
        self.wait_until(lambda: self.active_profile() == DEMO)
        self.wait_until(lambda: self.shown_format() == "csv", 10, self.shown_format)
        self.use_profile(NAME)
        self.wait_until(lambda: self.shown_format() == "v3.1-aasx", 10, self.shown_format)
        # Kept in the preferences, per profile, across a restart.
        with open(self.preferences_path(), encoding="utf-8") as f:
            views = json.load(f)["views"]
        self.assertEqual((views[DEMO]["export_format"], views[NAME]["export_format"]), ("csv", "v3.1-aasx"))
        self.restart_app()
        self.wait_until(lambda: self.active_profile() == NAME, 20, self.active_profile)
        self.wait_until(lambda: self.shown_format() == "v3.1-aasx", 10, self.shown_format)

    def test_duplicate_then_delete(self):
        wd = self.wd
        copy = f"{NAME} (copy)"
        self.save_profile(NAME)
        self.open_dialog()
        self.assertEqual(wd.script("return document.getElementById('pf-name').value"), NAME)
        wd.click(wd.wait_for("#pf-duplicate"))
        self.wait_until(lambda: wd.script("return document.getElementById('pf-name').value") == copy,
                        what=lambda: wd.text_content("#pf-status"))
        self.assertIn(copy, wd.text_content("#pf-status"))
        self.assertIn(f'"name": "{copy}"', self.settings())
        # The secrets came along: saving the copy with both fields empty connects.
        wd.click(wd.wait_for("#pf-save"))
        self.wait_until(lambda: self.active_profile() == copy, what=lambda: wd.text_content("#pf-status"))
        self.wait_for_machines()
        text = self.settings()
        self.assertNotIn(self.line["client_secret"], text)
        self.assertNotIn(self.line["user_token"], text)

        self.open_dialog()
        wd.click(wd.wait_for("#pf-delete"))
        wd.click(wd.wait_for("#pf-delete-yes"))  # Delete asks first
        self.wait_until(lambda: self.active_profile() == DEMO, what=lambda: wd.text_content("#pf-status"))
        options = wd.script("return [...document.querySelectorAll('#profile option')].map((o) => o.value)")
        self.assertEqual(options, [DEMO, NAME])
        self.assertNotIn(copy, self.settings())

    def test_saving_from_the_form_keeps_what_only_the_settings_file_sets(self):
        wd = self.wd
        self.save_profile(NAME)
        # Another profile in use, so that picking this one below is a switch.
        self.use_profile(DEMO)
        self.wait_until(lambda: wd.text_content("#status-profile") == DEMO,
                        what=lambda: wd.text_content("#status-profile"))
        ca_file = "/etc/ssl/certs/ca-certificates.crt"  # a real PEM bundle: the client loads it
        with open(self.settings_path()) as f:
            settings = json.load(f)
        (profile,) = [p for p in settings["profiles"] if p["name"] == NAME]
        # The proxy is never used for this machine, where the test's service runs.
        profile.update(allow_plain_http=True, ca_file=ca_file, proxy="http://proxy.corp.example:3128",
                       proxy_user="engineer")
        with open(self.settings_path(), "w") as f:
            json.dump(settings, f)
        self.use_profile(NAME)
        self.wait_for_machines()
        self.open_dialog()
        note = wd.text_content("#pf-transport")
        self.assertIn("plain http to other hosts allowed", note)
        self.assertIn(ca_file, note)
        self.assertIn("through the proxy http://proxy.corp.example:3128 as engineer", note)
        self.assertTrue(wd.script("return !document.getElementById('pf-proxy-password').hidden"))
        self.fill("pf-proxy-password", "proxy-canary-password")
        wd.click(wd.wait_for("#pf-save"))  # other secrets left empty: the stored ones are kept
        self.wait_until(lambda: not wd.script("return document.getElementById('profile-dialog').open"),
                        what=lambda: wd.text_content("#pf-status"))
        (profile,) = [p for p in json.loads(self.settings())["profiles"] if p["name"] == NAME]
        self.assertTrue(profile.get("allow_plain_http"), profile)
        self.assertEqual(profile.get("ca_file"), ca_file)
        self.assertEqual(profile.get("proxy_user"), "engineer")
        self.assertNotIn("proxy-canary-password", self.settings())

    def test_a_refused_user_token_offers_to_open_the_profile(self):
        wd = self.wd
        name = "Lapsed user token"
        self.fill_profile(name, user_token="a-lapsed-user-token")
        wd.click(wd.wait_for("#pf-save"))
        self.wait_until(lambda: self.active_profile() == name, what=lambda: wd.text_content("#pf-status"))
        # The asset lists are refused: the status bar says why and offers the fix.
        self.wait_until(lambda: wd.script("return !document.getElementById('status-fix').hidden"),
                        what=lambda: wd.text_content("#status-errors"))
        self.assertIn("user token was refused or has expired", wd.text_content("#status-errors"))
        screenshot(os.path.join(self.out, "user-token-refused.png"))
        wd.click(wd.wait_for("#status-fix"))
        self.wait_until(lambda: wd.script("return document.getElementById('profile-dialog').open"),
                        what="the profile dialog opens")
        self.assertEqual(wd.script("return document.getElementById('pf-name').value"), name)
        self.assertEqual(wd.script("return document.activeElement.id"), "pf-user-token")
        self.fill("pf-user-token", self.line["user_token"])
        wd.click(wd.wait_for("#pf-save"))
        self.wait_for_machines()
        self.assertTrue(wd.script("return document.getElementById('status-fix').hidden"))


class NoSecretService(ProfileForm):
    """The app in a session where no Secret Service can be reached."""

    app_env = {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/aas-e2e-no-bus"}

    def test_secrets_are_kept_for_the_session_only_when_the_user_says_so(self):
        wd = self.wd
        name = "Plant without keychain"
        self.fill_profile(name)
        wd.click(wd.wait_for("#pf-save"))
        self.wait_until(lambda: wd.script("return !document.getElementById('pf-keychain-missing').hidden"),
                        what=lambda: wd.text_content("#pf-status"))
        self.assertIn("keychain is not available", wd.text_content("#pf-status"))
        # Nothing was written while the question is open: no silent fallback to a file.
        self.assertFalse(os.path.exists(self.settings_path()) and name in self.settings())
        screenshot(os.path.join(self.out, "profile-no-keychain.png"))

        wd.click(wd.wait_for("#pf-session-only"))
        self.wait_until(lambda: self.active_profile() == name, what=lambda: wd.text_content("#pf-status"))
        self.wait_for_machines()
        text = self.settings()
        self.assertIn(f'"name": "{name}"', text)
        self.assertNotIn(self.line["client_secret"], text)
        self.assertNotIn(self.line["user_token"], text)
        self.open_dialog()
        self.assertIn("for this session only", wd.text_content("#pf-status"))
        wd.click(wd.wait_for("#pf-close"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
