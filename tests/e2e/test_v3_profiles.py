#!/usr/bin/env python3
"""End to end: a profile of kind "AAS V3 server" against a V3 server that wants OAuth 2
client credentials (`aasmd demo-service --v3-sign-in`: a real token endpoint and tokens
it verifies). The Profiles form shows the fields of that kind and authentication only,
Test connection says each step, Save and connect reads the server whole (its banner
counts what the server lists, read here with a token of our own), the picker names the
profile, the secret is in the keychain and not in the settings file; after a restart the
profile is read again; Close server gives the platform back."""

import json
import os
import unittest
import urllib.parse
import urllib.request

from app_driver import screenshot
from profile_form import ProfileForm

NAME = "Line 3 server"
DEMO = "Demo platform (built in)"


def listed(line, route):
    """What the V3 server lists at `route`, asked with a token of its token endpoint."""
    form = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": line["client_id"],
                                   "client_secret": line["client_secret"]}).encode()
    with urllib.request.urlopen(line["v3_token_url"], data=form) as answer:
        token = json.load(answer)["access_token"]
    request = urllib.request.Request(f"{line['v3_url']}/{route}?limit=1000", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)["result"]


class V3ServerProfile(ProfileForm):
    demo_args = ("--v3-sign-in",)

    def choose(self, select_id, value):
        self.wd.script("const s = document.getElementById(arguments[0]); s.value = arguments[1];"
                       "s.dispatchEvent(new Event('change'));", select_id, value)

    def shown(self, element_id):
        return self.wd.script("return !document.getElementById(arguments[0]).hidden", element_id)

    def banner(self):
        return self.wd.text_content("#file-banner-text") or ""

    def test_a_v3_servers_profile_is_tested_saved_read_and_read_again_after_a_restart(self):
        wd = self.wd
        line = self.line
        self.wait_until(lambda: (wd.text_content("#status-connection") or "").startswith("Connected"),
                        what=lambda: wd.text_content("#status-connection"))
        wd.click(wd.wait_for("#profiles-edit"))
        wd.click(wd.wait_for("#pf-new"))
        self.fill("pf-name", NAME)
        self.choose("pf-kind", "v3_server")
        # The platform's fields leave the form; those of the authentication chosen come.
        self.assertFalse(self.shown("pf-registry"))
        self.assertFalse(self.shown("pf-plants"))
        self.assertTrue(self.shown("pf-v3-address"))
        self.assertFalse(self.shown("pf-client-id"), "no client without OAuth")
        self.choose("pf-v3-auth", "oauth")
        for field in ["pf-v3-token-url", "pf-client-id", "pf-secret"]:
            self.assertTrue(self.shown(field), field)
        self.assertFalse(self.shown("pf-v3-key"))
        self.fill("pf-v3-address", line["v3_url"])
        self.fill("pf-v3-token-url", line["v3_token_url"])
        self.fill("pf-client-id", line["client_id"])
        self.fill("pf-secret", "not-the-secret")
        wd.click(wd.wait_for("#pf-test"))
        wd.wait_for('#pf-test-steps li[data-step="token"][data-status="failed"]')
        self.assertIn("refused the client id or secret", wd.text_content('#pf-test-steps li[data-step="token"]'))

        self.fill("pf-secret", line["client_secret"])
        wd.click(wd.wait_for("#pf-test"))
        wd.wait_for('#pf-test-steps li[data-step="shells"][data-status="passed"]')
        steps = wd.script("return [...document.querySelectorAll('#pf-test-steps li')].map((li) => li.textContent)")
        shells = listed(line, "shells")
        submodels = listed(line, "submodels")
        self.assertEqual(len(steps), 3, steps)
        self.assertTrue(steps[1].startswith("✓ Server description: API 3.0: AssetAdministrationShellRepository"), steps)
        self.assertEqual(steps[2], f"✓ Shells: {len(shells)} shells (with an OAuth 2 access token)")
        screenshot(os.path.join(self.out, "v3-profile-test.png"))

        wd.click(wd.wait_for("#pf-save"))
        banner = f"V3 server {line['v3_url']}: {len(shells)} shells, {len(submodels)} submodels, as read now. Read-only."
        self.wait_until(lambda: self.banner() == banner, 60,
                        lambda: f"{self.banner()!r}; {wd.text_content('#server-status')!r}; {wd.text_content('#status-errors')!r}")
        self.wait_until(lambda: wd.script("return document.getElementById('profile').value") == NAME, 10,
                        lambda: wd.script("return document.getElementById('profile').value"))
        self.assertFalse(wd.script("return document.getElementById('profile-dialog').open"))
        with open(self.settings_path(), encoding="utf-8") as f:
            settings = f.read()
        self.assertIn('"kind": "v3_server"', json.dumps(json.loads(settings)))
        self.assertNotIn(line["client_secret"], settings)
        screenshot(os.path.join(self.out, "v3-profile-read.png"))

        # Used last: read again at the next start, with the secret from the keychain.
        self.restart_app()
        wd = self.wd
        self.wait_until(lambda: self.banner() == banner, 60,
                        lambda: f"{self.banner()!r}; {wd.text_content('#status-errors')!r}")
        self.wait_until(lambda: wd.script("return document.getElementById('profile').value") == NAME, 10,
                        lambda: wd.script("return document.getElementById('profile').value"))
        wd.click(wd.wait_for("#file-close"))
        self.wait_until(lambda: wd.script("return document.getElementById('profile').value") == DEMO)
        self.wait_until(lambda: wd.text_content('.chip[data-type="machine"] .count') == "3",
                        what=lambda: wd.text_content('.chip[data-type="machine"] .count'))


if __name__ == "__main__":
    unittest.main()
