#![allow(dead_code)] // each test binary that includes it uses part of it
//! A throwaway PostgreSQL server for tests: Debian's binaries, a cluster made in a
//! temporary folder (as the `postgres` user when the tests run as root, since initdb
//! refuses root), listening on a free loopback port with a random password, stopped
//! (immediately, as a crash would) when dropped.

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    password: String,
}

impl Cluster {
    /// Starts a cluster; panics with what is missing when PostgreSQL is not installed
    /// (the README's test command installs it).
    pub fn start() -> Cluster {
        Self::start_with(None)
    }

    /// Starts a cluster that takes TLS connections only (`hostssl`), presenting the
    /// PEM certificate `cert` with its key `key`.
    pub fn start_tls(cert: &Path, key: &Path) -> Cluster {
        Self::start_with(Some((cert, key)))
    }

    fn start_with(tls: Option<(&Path, &Path)>) -> Cluster {
        let bin = binaries();
        let dir = tempfile::tempdir().expect("a folder for the cluster");
        let password = format!("pw-{:x}", rand_u64());
        std::fs::write(dir.path().join("pw"), &password).expect("password file");
        hand_to_postgres(dir.path());
        let data = dir.path().join("data");
        run_as_postgres(
            &bin.join("initdb"),
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-A".as_ref(),
                "scram-sha-256".as_ref(),
                format!("--pwfile={}", dir.path().join("pw").display()).as_ref(),
                "-U".as_ref(),
                "postgres".as_ref(),
            ],
        );
        if let Some((cert, key)) = tls {
            serve_tls_only(dir.path(), cert, key);
        }
        let cluster = Cluster {
            port: free_port(),
            bin,
            password,
            dir,
        };
        cluster.pg_ctl_start();
        cluster
    }

    /// A URL of database `db` as user `postgres`, with the password.
    pub fn url(&self, db: &str) -> String {
        format!(
            "postgres://postgres:{}@127.0.0.1:{}/{db}",
            self.password, self.port
        )
    }

    /// A new database `db` with a team store's tables, made as `aasmd store init`
    /// makes them: its URL.
    pub fn team_store(&self, db: &str) -> String {
        self.psql("postgres", &format!("CREATE DATABASE {db}"));
        let url = self.url(db);
        let found = aas_snapshot::Store::init_team(&url, true, &[]).expect("init");
        assert_eq!(found, 0, "a new database");
        url
    }

    /// A URL of database `db` as `user` (a role `role` made), with its password.
    pub fn url_as(&self, user: &str, db: &str) -> String {
        format!(
            "postgres://{user}:{}@127.0.0.1:{}/{db}",
            self.role_password(user),
            self.port
        )
    }

    /// A database `db` owned by a new role `scheduler` (a team store's writer), and a
    /// new role `desktop` that owns nothing: their URLs.
    pub fn writer_and_reader(&self, db: &str) -> (String, String) {
        for role in ["scheduler", "desktop"] {
            self.role(role);
        }
        self.psql("postgres", &format!("CREATE DATABASE {db} OWNER scheduler"));
        (self.url_as("scheduler", db), self.url_as("desktop", db))
    }

    /// Makes a login role `name` (its password from [`Cluster::url_as`]).
    fn role(&self, name: &str) {
        let password = self.role_password(name);
        self.psql(
            "postgres",
            &format!("CREATE ROLE {name} LOGIN PASSWORD '{password}'"),
        );
    }

    fn role_password(&self, role: &str) -> String {
        format!("{role}-{}", self.password)
    }

    /// The superuser's password, which no message may show.
    pub fn password(&self) -> &str {
        &self.password
    }

    /// Runs SQL as the superuser in database `db`.
    pub fn psql(&self, db: &str, sql: &str) {
        self.query(db, sql);
    }

    /// Runs SQL as the superuser in database `db`; what it prints, unaligned.
    pub fn query(&self, db: &str, sql: &str) -> String {
        let out = Command::new("psql")
            .args([
                "-v",
                "ON_ERROR_STOP=1",
                "-q",
                "-At",
                "-d",
                &self.url(db),
                "-c",
                sql,
            ])
            .output()
            .expect("psql");
        assert!(out.status.success(), "psql: {sql}");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// Stops the server at once (as a crash would) and starts it again.
    pub fn restart(&self) {
        self.pg_ctl_stop();
        self.pg_ctl_start();
    }

    /// Stops the server in `mode` (`fast`: every session is told "terminating connection
    /// due to administrator command"; `immediate`: as a crash would). [`Cluster::start`]
    /// it again before the cluster is dropped.
    pub fn stop(&self, mode: &str) {
        self.pg_ctl(&["-m", mode, "stop"]);
    }

    /// Starts the server again after [`Cluster::stop`].
    pub fn start_again(&self) {
        self.pg_ctl_start();
    }

    fn pg_ctl_start(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1",
            self.port,
            self.dir.path().display()
        );
        run_as_postgres(
            &self.bin.join("pg_ctl"),
            &[
                "-D".as_ref(),
                self.dir.path().join("data").as_os_str(),
                "-l".as_ref(),
                self.dir.path().join("log").as_os_str(),
                "-w".as_ref(),
                "-o".as_ref(),
                options.as_ref(),
                "start".as_ref(),
            ],
        );
    }

    fn pg_ctl_stop(&self) {
        self.pg_ctl(&["-m", "immediate", "stop"]);
    }

    /// Runs `pg_ctl -D DATA ARGS`.
    fn pg_ctl(&self, args: &[&str]) {
        let data = self.dir.path().join("data");
        let mut all: Vec<&std::ffi::OsStr> = vec!["-D".as_ref(), data.as_os_str()];
        all.extend(args.iter().map(std::ffi::OsStr::new));
        run_as_postgres(&self.bin.join("pg_ctl"), &all);
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.pg_ctl_stop();
    }
}

/// The cluster in `dir` takes TLS connections only, with `cert` and `key`.
fn serve_tls_only(dir: &Path, cert: &Path, key: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let data = dir.join("data");
    for (from, to) in [(cert, "server.crt"), (key, "server.key")] {
        std::fs::copy(from, data.join(to)).expect("certificate copied");
    }
    // The server refuses a key others may read.
    std::fs::set_permissions(
        data.join("server.key"),
        std::fs::Permissions::from_mode(0o600),
    )
    .expect("key made private");
    let conf = data.join("postgresql.conf");
    let mut text = std::fs::read_to_string(&conf).expect("postgresql.conf");
    text.push_str("\nssl = on\nssl_cert_file = 'server.crt'\nssl_key_file = 'server.key'\n");
    std::fs::write(&conf, text).expect("postgresql.conf written");
    let hba = data.join("pg_hba.conf");
    let text = std::fs::read_to_string(&hba).expect("pg_hba.conf");
    let tls_only: String = text
        .lines()
        .map(|line| match line.strip_prefix("host ") {
            Some(rest) => format!("hostssl {rest}\n"),
            None => format!("{line}\n"),
        })
        .collect();
    std::fs::write(&hba, tls_only).expect("pg_hba.conf written");
    hand_to_postgres(dir);
}

/// Debian's server binaries, the newest version installed.
fn binaries() -> PathBuf {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL's server (Debian's postgresql package) is installed")
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|bin| bin.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop().expect("an initdb under /usr/lib/postgresql")
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

/// The folder (and what is in it) belongs to the user that runs the server.
fn hand_to_postgres(dir: &Path) {
    if is_root() {
        let status = Command::new("chown")
            .args(["-R", "postgres:"])
            .arg(dir)
            .status()
            .expect("chown");
        assert!(status.success(), "chown to postgres");
    }
}

fn run_as_postgres(program: &Path, args: &[&std::ffi::OsStr]) {
    let mut command = if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    };
    let output = command.args(args).output().expect("a PostgreSQL binary");
    assert!(
        output.status.success(),
        "{} failed: {}{}",
        program.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// Enough randomness for a test password: the clock and the process id, hashed.
fn rand_u64() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one((std::process::id(), std::time::SystemTime::now()))
}
