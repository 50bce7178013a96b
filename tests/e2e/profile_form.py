"""What the profile tests share: an `aasmd demo-service` of their own and the Profiles
form filled as a user fills it."""

import json
import os
import subprocess

from app_driver import AppTestCase


def start_demo_service(*args):
    """`aasmd demo-service ARGS` on a free port, and its start-up line."""
    demo_service = subprocess.Popen([os.environ["AASMD_BIN"], "demo-service", "--addr", "127.0.0.1:0", *args],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return demo_service, json.loads(demo_service.stdout.readline())


def stop_demo_service(demo_service):
    demo_service.terminate()
    demo_service.wait(10)
    demo_service.stdout.close()


class ProfileForm(AppTestCase):
    """A base of the profile tests (no tests of its own)."""

    demo_args = ()  # what else the demo service is started with

    @classmethod
    def setUpClass(cls):
        cls.demo_service, cls.line = start_demo_service(*cls.demo_args)
        try:
            super().setUpClass()
        except Exception:
            stop_demo_service(cls.demo_service)
            raise

    @classmethod
    def tearDownClass(cls):
        try:
            super().tearDownClass()
        finally:
            stop_demo_service(cls.demo_service)

    def fill(self, field_id, text):
        el = self.wd.wait_for(f"#{field_id}")
        self.wd.clear(el)
        self.wd.keys(el, text)

    def open_dialog(self):
        # The button works once the app has connected to its first profile.
        self.wait_until(lambda: (self.wd.text_content("#status-connection") or "").startswith("Connected"),
                        what=lambda: self.wd.text_content("#status-connection"))
        self.wd.click(self.wd.wait_for("#profiles-edit"))
        self.wait_until(lambda: self.wd.script("return document.getElementById('profile-dialog').open"),
                        what="the profile dialog opens")

    def fill_profile(self, name, **overrides):
        """Opens the dialog and types the demo service's connection as profile `name`."""
        self.open_dialog()
        values = dict(self.line, **overrides)
        self.fill("pf-name", name)
        for field_id, key in [("pf-registry", "registry_url"), ("pf-gateway", "gateway_url"),
                              ("pf-auth", "auth_url"), ("pf-realm", "realm"), ("pf-client-id", "client_id"),
                              ("pf-secret", "client_secret"), ("pf-user-token", "user_token")]:
            self.fill(field_id, values[key])
        self.fill("pf-plants", "DEMO-01")

    def active_profile(self):
        return self.wd.script("return document.getElementById('profile').value")

    def wait_for_machines(self):
        self.wait_until(lambda: self.wd.text_content('.chip[data-type="machine"] .count') == "3",
                        what=lambda: self.wd.text_content('.chip[data-type="machine"] .count'))

    def settings(self):
        with open(self.settings_path()) as f:
            return f.read()
