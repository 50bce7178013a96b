#!/usr/bin/env python3
"""End to end: the offline banner listens to the server only. With a separately started
demo service stopped, what the app answers by itself (selecting a loaded node, the Raw JSON
tab's curl command) leaves the banner up and the failed node alone; the demo service started
again on the same address makes the banner go by itself."""

import os
import socket
import time
import unittest

from app_driver import AppTestCase, free_port, row, screenshot

BANNER_HIDDEN = "return document.getElementById('offline-banner').hidden"

# Counts every time the banner is hidden, however briefly: a local command that hid it
# would have the failed nodes fetched again, fail again and show it again at once.
COUNT_HIDINGS = """
const banner = document.getElementById('offline-banner');
window.bannerHidings = 0;
new MutationObserver((records) => {
  // oldValue null: the hidden attribute was added.
  window.bannerHidings += records.filter((r) => r.oldValue === null).length;
}).observe(banner, { attributes: true, attributeFilter: ['hidden'], attributeOldValue: true });
"""


class OfflineBannerListensToTheServer(AppTestCase):
    def wait_for_curl(self, *parts):
        """The Raw JSON tab's curl command, once it names every one of `parts`."""
        def curl():
            text = self.wd.text_content("#curl") or ""
            return text if text.startswith("curl ") and all(p in text for p in parts) else None
        return self.wait_until(curl, 15, lambda: self.wd.text_content("#curl"))

    def test_a_token_server_that_does_not_answer_is_named_at_once(self):
        wd = self.wd
        state = os.path.join(self.data_home, "demo-service-dead-token.json")
        line = self.start_demo_service(free_port(), state)
        try:
            # Registry and gateway answer; the token server's address leads nowhere.
            dead = f"http://127.0.0.1:{free_port()}"
            self.fill_profile_form("Dead token server", {**line, "auth_url": dead})
            started = time.monotonic()
            self.save_profile_and_connect("Dead token server")
            self.wait_until(lambda: not wd.script(BANNER_HIDDEN), 10, "the offline banner")
            took = time.monotonic() - started
            words = wd.text_content("#offline-banner .offline-words")
            self.assertTrue(words.startswith(f"{dead} does not answer. Check"), words)
            self.assertEqual(wd.text_content("#status-connection"), f"Offline: {dead} does not answer")
            self.assertLess(took, 2.5, "said within about 2 s of connecting")
            screenshot(os.path.join(self.out, "offline-token-server.png"))
        finally:
            self.stop_demo_service()

    def test_a_token_server_that_stays_silent_is_named_within_seconds(self):
        wd = self.wd
        state = os.path.join(self.data_home, "demo-service-silent-token.json")
        line = self.start_demo_service(free_port(), state)
        # Takes connections (the system's backlog) and never answers, as a firewall that
        # drops packets keeps a client waiting until its timeouts run out.
        silent = socket.socket()
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        address = f"http://127.0.0.1:{silent.getsockname()[1]}"
        try:
            self.fill_profile_form("Silent token server", {**line, "auth_url": address})
            started = time.monotonic()
            wd.click(wd.wait_for("#pf-save"))
            waiting = self.wait_until(lambda: wd.text_content("#status-waiting"), 10, "the status bar's waiting line")
            took = time.monotonic() - started
            self.assertRegex(waiting, rf"^Waiting \d+ s for the token server {address}: no answer yet\. "
                                      r"Check the address, the VPN or the proxy\.$")
            self.assertLess(took, 4.5, "said within seconds (2 s of silence, polled each second)")
            # Nothing said of another profile's servers stays up (an earlier test's dead one).
            self.assertTrue(wd.script(BANNER_HIDDEN), wd.text_content("#offline-banner .offline-words"))
            screenshot(os.path.join(self.out, "silent-token-server.png"))
        finally:
            silent.close()
            self.stop_demo_service()

    def test_local_commands_leave_the_banner_up_until_the_server_is_back(self):
        wd = self.wd
        port = free_port()
        # The state file keeps the client secret and signing key across the restart.
        state = os.path.join(self.data_home, "demo-service-state.json")
        line = self.start_demo_service(port, state)
        try:
            self.fill_profile_form("Offline", line)
            self.save_profile_and_connect("Offline")
            self.chip_count("machine", "3")
            wd.click(wd.wait_for(row("Machine_M0001") + " .twisty"))
            wd.wait_for(row("Nameplate"))
            self.assertTrue(wd.script(BANNER_HIDDEN))

            # The server goes away: a request fails as offline, the banner shows.
            self.stop_demo_service()
            wd.click(wd.wait_for(row("Machine_M0002") + " .twisty"))
            self.wait_until(lambda: not wd.script(BANNER_HIDDEN), 30, "the offline banner")
            failed = row("Machine_M0002") + '[data-failure="offline"]'
            wd.wait_for(failed)
            wd.script(COUNT_HIDINGS)

            # What the app answers by itself: details and curl of already loaded nodes.
            wd.click(wd.wait_for(row("Nameplate") + " .label"))
            wd.wait_for('#details dd[data-field="idShort"]', text="Nameplate")
            wd.click(wd.wait_for("#tab-raw"))
            self.assertIn("$ACCESS_TOKEN", self.wait_for_curl("%23M-0001/aas/submodels/Nameplate'"))
            wd.click(wd.wait_for(row("Machine_M0001") + " .label"))
            self.assertNotIn("/aas/submodels", self.wait_for_curl("%23M-0001'"))
            wd.click(wd.wait_for("#tab-details"))
            wd.wait_for('#details dd[data-field="idShort"]', text="Machine_M0001")
            screenshot(os.path.join(self.out, "offline-local-clicks.png"))

            self.assertFalse(wd.script(BANNER_HIDDEN), "the banner stays while the server is away")
            origin = f"http://127.0.0.1:{port}"
            self.assertEqual(wd.text_content("#status-connection"),
                             f"Offline: {origin} does not answer", "the status bar agrees with the banner")
            self.assertTrue(wd.text_content("#offline-banner .offline-words").startswith(
                f"{origin} does not answer. Check the server's address in the profile"))
            self.assertEqual(wd.script("return window.bannerHidings"), 0,
                             "no local command hid the banner, not even for a moment")
            self.assertIsNotNone(wd.text_content(failed), "M0002 is still marked offline, not being fetched again")

            # The server comes back on the same address: the banner goes by itself and
            # the failed node is fetched again.
            self.start_demo_service(port, state)
            self.wait_until(lambda: wd.script(BANNER_HIDDEN), 75, "the banner to go")
            self.wait_until(lambda: wd.script(
                "return document.querySelector(arguments[0])?.getAttribute('aria-expanded')",
                row("Machine_M0002")) == "true", 30, "M0002 expanded after the retry")
            self.assertEqual(wd.script("return window.bannerHidings"), 1)
            self.assertEqual(wd.text_content("#status-connection"), f"Connected to {line['gateway_url']}")
        finally:
            if self.demo_service.poll() is None:
                self.stop_demo_service()


if __name__ == "__main__":
    unittest.main(verbosity=2)
