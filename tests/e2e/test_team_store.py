#!/usr/bin/env python3
"""End to end: the team store in the real window. A real PostgreSQL server (Debian's,
a throwaway cluster) holds a snapshot that a scheduler took with `aasmd`; the desktop
names the store in the Snapshots dialog with a read-only role and its password, which
goes to the keychain (never to the preferences file); the team's snapshot is listed as
"Team" beside this computer's, browsed in the tree, and its table shown. Screenshots of
the dialog in both themes."""

import glob
import json
import os
import secrets
import shutil
import subprocess
import tempfile
import unittest

from app_driver import AppTestCase, free_port, screenshot

AS_POSTGRES = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


class Cluster:
    """A throwaway PostgreSQL cluster on a free loopback port (see ../shared/notes/postgresql.md)."""

    def __init__(self):
        self.bin = sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1]
        self.dir = tempfile.mkdtemp(prefix="aas-e2e-pg-")
        self.port = free_port()
        self.password = secrets.token_hex(8)
        with open(os.path.join(self.dir, "pw"), "w") as f:
            f.write(self.password)
        if AS_POSTGRES:
            subprocess.run(["chown", "-R", "postgres:", self.dir], check=True)
        self.postgres("initdb", "-D", f"{self.dir}/data", "-A", "scram-sha-256", f"--pwfile={self.dir}/pw",
                      "-U", "postgres")
        self.postgres("pg_ctl", "-D", f"{self.dir}/data", "-l", f"{self.dir}/log", "-w", "-o",
                      f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1", "start")

    def postgres(self, program, *args):
        subprocess.run(AS_POSTGRES + [os.path.join(self.bin, program), *args], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def url(self, role, password=None, db="plants"):
        secret = f":{password}" if password else ""
        return f"postgres://{role}{secret}@127.0.0.1:{self.port}/{db}"

    def psql(self, sql):
        subprocess.run(["psql", "-v", "ON_ERROR_STOP=1", "-q", "-d", self.url("postgres", self.password, "postgres"),
                        "-c", sql], check=True)

    def stop(self):
        self.postgres("pg_ctl", "-D", f"{self.dir}/data", "-m", "immediate", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


class TeamStore(AppTestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster = Cluster()
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.cluster.stop()

    def aasmd(self, config, store, *args):
        return subprocess.run([os.environ["AASMD_BIN"], "--config", config, *args], env=dict(os.environ, AASMD_STORE=store),
                              capture_output=True, text=True, check=True)

    def test_the_teams_snapshot_is_listed_browsed_and_tabulated(self):
        wd, cluster = self.wd, self.cluster
        writer_password, reader_password = secrets.token_hex(8), secrets.token_hex(8)
        cluster.psql(f"CREATE ROLE scheduler LOGIN PASSWORD '{writer_password}'")
        cluster.psql(f"CREATE ROLE desktop LOGIN PASSWORD '{reader_password}'")
        cluster.psql("CREATE DATABASE plants OWNER scheduler")

        # The scheduler makes the tables and takes a snapshot of a platform of its own.
        state = tempfile.mkdtemp(prefix="aas-e2e-team-")
        line = self.start_demo_service(free_port(), os.path.join(state, "demo-service.json"))
        config = os.path.join(state, "line.json")
        with open(config, "w") as f:
            json.dump(line, f)
        writer = cluster.url("scheduler", writer_password)
        self.aasmd(config, writer, "store", "init", "--reader", "desktop")
        taken = json.loads(self.aasmd(config, writer, "snapshot", "take", "--plant", "DEMO-01").stdout)
        self.stop_demo_service()
        shutil.rmtree(state, ignore_errors=True)

        # The desktop names the store, the password in its own box.
        self.chip_count("machine", "3")
        wd.click(wd.wait_for("#snapshots-open"))
        wd.click(wd.wait_for("#team-store summary"))
        self.wait_until(lambda: wd.text_content("#team-store-state") == "none", 10,
                        lambda: wd.text_content("#team-store-state"))
        self.fill("team-store-url", cluster.url("desktop"))
        self.fill("team-store-password", reader_password)
        wd.click(wd.wait_for("#team-store-use"))
        self.wait_until(lambda: len(wd.find_all(".snapshot-row")) == 1, 20, lambda: wd.text_content("#snapshots-status"))
        cells = wd.script("return [...document.querySelectorAll('.snapshot-row td')].map((td) => td.textContent)")
        self.assertEqual(cells[1:5], ["Team", str(taken["shells"]), cells[3], "complete"])
        self.assertEqual(wd.text_content("#team-store-state"), f"{cluster.url('desktop')}, 1 snapshot of DEMO-01")
        self.assertEqual(wd.script("return document.getElementById('team-store-password').value"), "")
        # Good news is not written in the error colour.
        status_level = "return document.getElementById('snapshots-status').dataset.level"
        self.assertEqual(wd.text_content("#snapshots-status"), "Team store set.")
        self.assertEqual(wd.script(status_level), "ok")
        with open(self.preferences_path()) as f:
            kept = f.read()
        self.assertIn(cluster.url("desktop"), kept)
        self.assertNotIn(reader_password, kept)
        screenshot(os.path.join(self.out, "team-store-light.png"))
        theme = "document.getElementById('theme').click()"  # under the modal dialog: not clickable by hand
        wd.script(theme)
        screenshot(os.path.join(self.out, "team-store-dark.png"))
        wd.script(theme)

        # Browse: the team's snapshot in the tree, read-only.
        wd.click(wd.wait_for(".snapshot-row button"))
        self.wait_until(lambda: "Browsing the snapshot of" in (wd.text_content("#snapshot-banner-text") or ""), 20)
        self.chip_count("machine", "3")
        # Its table.
        wd.click(wd.wait_for("#tab-table"))
        self.wait_until(lambda: (wd.text_content("#table-status") or "").startswith("3 shells"), 30,
                        lambda: wd.text_content("#table-status"))

        # A wrong password: the store says why, this computer's list stays.
        wd.click(wd.wait_for("#snapshots-open"))
        self.fill("team-store-password", "not-the-password")
        wd.click(wd.wait_for("#team-store-use"))
        self.wait_until(lambda: "does not answer" in (wd.text_content("#team-store-state") or ""), 20,
                        lambda: wd.text_content("#team-store-state"))
        self.assertIn("password authentication failed", wd.text_content("#snapshots-status"))
        self.assertNotIn(reader_password, wd.text_content("#snapshots-status"))
        self.assertEqual(wd.script(status_level), "error")
        wd.click(wd.wait_for("#team-store-none"))
        self.wait_until(lambda: wd.text_content("#team-store-state") == "none", 10)
        wd.click(wd.wait_for("#snapshots-close"))


if __name__ == "__main__":
    unittest.main()
