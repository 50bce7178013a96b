//! `aasmd store init|migrate` and the snapshot commands on a team store (a real
//! PostgreSQL server made for the test, as in aas-snapshot's tests): the writer role
//! makes the tables and takes; a reader role lists, searches, exports and audits, and
//! is told why it cannot take or remove, with exit code 4. No message shows a password.

#[path = "../../aas-snapshot/tests/support/cluster.rs"]
mod cluster;
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cluster::Cluster;
use serde_json::Value;
use support::{aasmd_with_store, temp_dir, DemoService};

/// stderr, checked to hold no password of the cluster's roles.
fn said(out: &Output, cluster: &Cluster) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains(cluster.password()), "{stderr}");
    stderr
}

fn json(out: &Output, cluster: &Cluster) -> Value {
    let stderr = said(out, cluster);
    assert!(out.status.success(), "{}: {stderr}", out.status);
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// A server with a database owned by a writer role and a reader role, and the demo
/// service (both kept while held); the writer's and the reader's URLs, and a folder
/// holding the service's connection file.
fn team(name: &str) -> (Cluster, DemoService, String, String, PathBuf, PathBuf) {
    let cluster = Cluster::start();
    let (writer, reader) = cluster.writer_and_reader("plants");
    let demo_service = DemoService::start(&["--addr", "127.0.0.1:0"]);
    let dir = temp_dir(name);
    let config = dir.join("line.json");
    demo_service.write_config(&config);
    (cluster, demo_service, writer, reader, dir, config)
}

#[test]
fn the_writer_role_makes_the_store_and_takes_and_a_reader_role_reads_it() {
    let (cluster, _demo_service, writer, reader, dir, config) = team("team-store");

    let out = aasmd_with_store(&config, &writer, &["store", "migrate"]);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out, &cluster));
    assert!(said(&out, &cluster).contains("aasmd store init"));
    let out = aasmd_with_store(&config, &writer, &["store", "init", "--reader", "desktop"]);
    let stderr = said(&out, &cluster);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("tables are made") && stderr.contains("desktop may read it"),
        "{stderr}"
    );

    let take = ["snapshot", "take", "--plant", "DEMO-01"];
    let taken = json(&aasmd_with_store(&config, &writer, &take), &cluster);
    assert_eq!(taken["complete"], true, "{taken}");

    let list = json(
        &aasmd_with_store(&config, &reader, &["snapshot", "list", "--json"]),
        &cluster,
    );
    assert_eq!(list, Value::Array(vec![taken.clone()]));
    let hits = json(
        &aasmd_with_store(&config, &reader, &["search", "SN-M-0001", "--json"]),
        &cluster,
    );
    assert!(!hits.as_array().expect("hits").is_empty(), "{hits}");
    let out_file = dir.join("plant.json");
    let id = taken["id"].to_string();
    let out_path = out_file.to_str().expect("a UTF-8 temp path");
    let export = [
        "export",
        "--snapshot",
        &id,
        "--format",
        "env",
        "--out",
        out_path,
    ];
    let out = aasmd_with_store(&config, &reader, &export);
    assert!(out.status.success(), "{}", said(&out, &cluster));
    assert!(std::fs::metadata(&out_file).expect("exported").len() > 1000);
    // The reader audits the team store's snapshot as a file's: the demo's gaps, exit 1.
    let audit = ["audit", "--plant", "DEMO-01", "--json"];
    let out = aasmd_with_store(&config, &reader, &audit);
    assert_eq!(out.status.code(), Some(1), "{}", said(&out, &cluster));
    let audited: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(audited["verdict"]["shells"], 21, "{}", audited["verdict"]);
    assert_eq!(
        audited["about"]["source"]
            .as_str()
            .map(|s| s.starts_with(&format!("snapshot {id} "))),
        Some(true)
    );

    for refused in [&take[..], &["snapshot", "rm", &id]] {
        let out = aasmd_with_store(&config, &reader, refused);
        let stderr = said(&out, &cluster);
        assert_eq!(out.status.code(), Some(4), "{refused:?}: {stderr}");
        assert!(
            stderr.contains("lets desktop only read") && stderr.contains("writer role"),
            "{stderr}"
        );
    }
    let list = json(
        &aasmd_with_store(&config, &reader, &["snapshot", "list", "--json"]),
        &cluster,
    );
    assert_eq!(list, Value::Array(vec![taken]));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// `snapshot list --json` without the ids, which differ between stores.
fn listed_without_ids(config: &Path, store: &str, cluster: &Cluster) -> Value {
    let mut list = json(
        &aasmd_with_store(config, store, &["snapshot", "list", "--json"]),
        cluster,
    );
    for snapshot in list.as_array_mut().expect("a list") {
        snapshot["id"] = Value::Null;
    }
    list
}

#[test]
fn snapshots_are_copied_from_a_file_into_the_team_store_and_back() {
    let (cluster, _demo_service, writer, reader, dir, config) = team("team-copy");
    let init = aasmd_with_store(&config, &writer, &["store", "init", "--reader", "desktop"]);
    assert!(init.status.success(), "{}", said(&init, &cluster));
    let file = dir.join("desktop.sqlite3");
    let file = file.to_str().expect("a UTF-8 temp path");
    for _ in 0..2 {
        let take = ["snapshot", "take", "--plant", "DEMO-01"];
        json(&aasmd_with_store(&config, file, &take), &cluster);
    }
    let copy = |from: &str, to: &str, more: &[&str]| {
        let args = [&["snapshot", "copy", "--from", from, "--to", to][..], more].concat();
        let out = aasmd_with_store(&config, "", &args);
        (out.status.code(), said(&out, &cluster))
    };

    let (code, stderr) = copy(file, &writer, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stderr.matches("copied into postgres://scheduler@").count(),
        2,
        "{stderr}"
    );
    assert!(
        stderr.ends_with("aasmd: 2 copied, 0 left out\n"),
        "{stderr}"
    );
    let team = listed_without_ids(&config, &writer, &cluster);
    assert_eq!(team, listed_without_ids(&config, file, &cluster));
    let search = ["search", "SN-M-0001", "--json"];
    assert_eq!(
        json(&aasmd_with_store(&config, &reader, &search), &cluster),
        json(&aasmd_with_store(&config, file, &search), &cluster)
    );

    // Again: both are there.
    let (code, stderr) = copy(file, &writer, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stderr.matches(", left out").count(), 2, "{stderr}");
    assert!(
        stderr.ends_with("aasmd: 0 copied, 2 left out\n"),
        "{stderr}"
    );
    assert_eq!(listed_without_ids(&config, &writer, &cluster), team);

    // Back, as the reader role, one by its id; the reader cannot copy into the team store.
    let list = json(
        &aasmd_with_store(&config, &reader, &["snapshot", "list", "--json"]),
        &cluster,
    );
    let second = list[1]["id"].to_string();
    let back = dir.join("back.sqlite3");
    let back = back.to_str().expect("a UTF-8 temp path");
    let (code, stderr) = copy(&reader, back, &["--id", &second]);
    assert_eq!(code, Some(0), "{stderr}");
    let copied = listed_without_ids(&config, back, &cluster);
    assert_eq!(copied, Value::Array(vec![team[1].clone()]));
    let (code, stderr) = copy(file, &reader, &[]);
    assert_eq!(code, Some(4), "{stderr}");
    assert!(stderr.contains("lets desktop only read"), "{stderr}");
    let (code, stderr) = copy(file, back, &["--id", "999"]);
    assert_eq!(code, Some(4), "{stderr}");
    assert!(stderr.contains("no snapshot 999"), "{stderr}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// What a scheduled take's unit gives aasmd (packaging/systemd/aasmd-take@.service):
/// a profile from the settings file (no keychain on a server), the secrets in files
/// (systemd credentials), the store's password in a PGPASSFILE, not in the URL.
#[test]
fn a_scheduled_take_reads_its_profile_and_its_secrets_from_files() {
    let (cluster, demo_service, writer, _, dir, config) = team("scheduled");
    let init = aasmd_with_store(&config, &writer, &["store", "init"]);
    assert!(init.status.success(), "{}", said(&init, &cluster));

    let line = &demo_service.line;
    let settings = dir.join("etc/org.aasbrowser.desktop/settings.json");
    std::fs::create_dir_all(settings.parent().expect("a folder")).expect("folder");
    let profile = serde_json::json!({"profiles": [{
        "name": "Plant Nord",
        "registry_url": line["registry_url"], "gateway_url": line["gateway_url"],
        "auth_url": line["auth_url"], "realm": line["realm"],
        "client_id": line["client_id"], "plants": ["DEMO-01"],
    }]});
    std::fs::write(&settings, profile.to_string()).expect("settings");
    let credentials = dir.join("credentials");
    std::fs::create_dir_all(&credentials).expect("folder");
    for (name, field) in [
        ("client_secret", "client_secret"),
        ("user_token", "user_token"),
    ] {
        let text = format!("{}\n", line[field].as_str().expect("a secret"));
        std::fs::write(credentials.join(name), text).expect("credential");
    }
    // postgres://scheduler:PASSWORD@HOST:PORT/plants → the URL without it, and a line of
    // the password file.
    let (user_password, host_db) = (writer.trim_start_matches("postgres://"))
        .split_once('@')
        .expect("a URL with a user");
    let (user, password) = user_password.split_once(':').expect("a password");
    let (host_port, db) = host_db.split_once('/').expect("a database");
    std::fs::write(
        credentials.join("pgpass"),
        format!("{host_port}:{db}:{user}:{password}\n"),
    )
    .expect("pgpass");
    let store = format!("postgres://{user}@{host_db}");

    // As the unit runs it: nothing from this environment but PATH.
    let take = |client_secret: &str| {
        Command::new(support::AASMD)
            .args(["--profile", "Plant Nord", "snapshot", "take"])
            .args(["--plant", "DEMO-01", "--keep", "30"])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &dir)
            .env("XDG_DATA_HOME", dir.join("etc"))
            .env("AASMD_STORE", &store)
            .env("AASMD_CLIENT_SECRET_FILE", credentials.join(client_secret))
            .env("AASMD_USER_TOKEN_FILE", credentials.join("user_token"))
            .env("PGPASSFILE", credentials.join("pgpass"))
            .output()
            .expect("aasmd runs")
    };
    let out = take("client_secret");
    let taken = json(&out, &cluster);
    assert_eq!(taken["source"], "Plant Nord", "{taken}");
    assert_eq!(taken["complete"], true, "{taken}");
    let stderr = said(&out, &cluster);
    assert!(!stderr.contains(password), "{stderr}");

    // A credential that cannot be read is named.
    let out = take("missing");
    assert_eq!(out.status.code(), Some(2));
    assert!(said(&out, &cluster).contains("AASMD_CLIENT_SECRET_FILE"));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// Waits until `sql` (run as the superuser in the team store's database) says `true`.
fn until(cluster: &Cluster, sql: &str, what: &str) {
    let start = std::time::Instant::now();
    while cluster.query("plants", sql) != "t" {
        assert!(start.elapsed().as_secs() < 60, "{what} did not happen");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A team store whose server stops while a command reads it (issue 43) is said to be
/// unreachable, with the exit code of a server that cannot be reached (5), in words
/// that say the team store's connection was lost and what to check; never as a disk
/// problem (7), nor as a server's refusal (1). Each read is made to wait, mid-read, on a
/// lock another session holds: on the snapshots table for `snapshot list` and `search`
/// (which lists them to choose one); for `table` and `export`, which read the answers
/// on a connection of their own, on the index of the table that holds the large
/// answers' bytes out of line (TOAST: a 1,000-asset plant's registry and AAS lists),
/// which only reading those bytes needs, so that the command has chosen its snapshot
/// and is reading its answers when it waits.
/// The server is then stopped, as an administrator does (`fast`: the server ends each
/// session with "terminating connection due to administrator command") or as a crash
/// does (`immediate`).
#[test]
fn a_team_store_lost_mid_read_is_said_to_be_unreachable() {
    let cluster = Cluster::start();
    let (writer, reader) = cluster.writer_and_reader("plants");
    let demo_service = DemoService::start(&["--addr", "127.0.0.1:0", "--demo", "1000"]);
    let dir = temp_dir("team-lost");
    let config = dir.join("line.json");
    demo_service.write_config(&config);
    let init = aasmd_with_store(&config, &writer, &["store", "init", "--reader", "desktop"]);
    assert!(init.status.success(), "{}", said(&init, &cluster));
    let take = ["snapshot", "take", "--plant", "DEMO-01"];
    let taken = json(&aasmd_with_store(&config, &writer, &take), &cluster);
    let id = taken["id"].to_string();
    let toast_index = cluster.query(
        "plants",
        "SELECT i.indexrelid::regclass::text FROM pg_index i
         JOIN pg_class c ON c.reltoastrelid = i.indrelid WHERE c.relname = 'contents'",
    );
    let toast = cluster.query(
        "plants",
        "SELECT reltoastrelid::regclass::text FROM pg_class WHERE relname = 'contents'",
    );
    // The registry and the eight AAS lists, at least, are out of line.
    let out_of_line = cluster.query(
        "plants",
        &format!("SELECT count(DISTINCT chunk_id) >= 9 FROM {toast}"),
    );
    assert_eq!(out_of_line, "t", "the large answers out of line");
    let out_file = dir.join("plant.zip");
    let out_path = out_file.to_str().expect("a UTF-8 temp path");
    let export = [
        "export",
        "--snapshot",
        &id,
        "--format",
        "raw",
        "--out",
        out_path,
    ];
    let snapshots = (
        "snapshots",
        "LOCK TABLE snapshots IN ACCESS EXCLUSIVE MODE".to_owned(),
    );
    let answers = (
        toast_index.rsplit('.').next().unwrap_or_default(),
        format!("REINDEX INDEX {toast_index}"),
    );
    let cases: [(&[&str], &(&str, String), &str); 7] = [
        (&["snapshot", "list"], &snapshots, "fast"),
        (&["snapshot", "list"], &snapshots, "immediate"),
        (&["search", "SN-M-0001"], &snapshots, "fast"),
        (&["search", "SN-M-0001"], &snapshots, "immediate"),
        (&["table"], &answers, "fast"),
        (&["table"], &answers, "immediate"),
        (&export, &answers, "fast"),
    ];
    for (args, (relation, lock), mode) in cases {
        let locked = format!(
            "SELECT EXISTS (SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
             WHERE c.relname = '{relation}' AND l.mode = 'AccessExclusiveLock' AND l.granted)"
        );
        let mut locker = Command::new("psql")
            .args(["-X", "-q", "-d", &cluster.url("plants"), "-c"])
            .arg(format!("BEGIN; {lock}; SELECT pg_sleep(600)"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("psql");
        until(&cluster, &locked, "the lock");
        let reading = Command::new(support::AASMD)
            .arg("--config")
            .arg(&config)
            .args(args)
            .env("AASMD_STORE", &reader)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("aasmd runs");
        until(
            &cluster,
            "SELECT EXISTS (SELECT 1 FROM pg_stat_activity
             WHERE application_name = 'aas-browser' AND wait_event_type = 'Lock')",
            "the read waiting on the lock",
        );
        cluster.stop(mode);
        let out = reading.wait_with_output().expect("aasmd ends");
        let _ = locker.kill();
        let _ = locker.wait();
        cluster.start_again();

        let stderr = said(&out, &cluster);
        eprintln!(
            "{args:?}, stopped {mode}: exit {:?}\n{stderr}",
            out.status.code()
        );
        assert_eq!(out.status.code(), Some(5), "{args:?} ({mode}): {stderr}");
        assert!(
            stderr.contains("the team store postgres://desktop@")
                && stderr.contains("the connection to it was lost")
                && stderr.contains("check that its PostgreSQL server is running"),
            "{args:?} ({mode}): {stderr}"
        );
        assert!(!stderr.contains("folder"), "{args:?} ({mode}): {stderr}");
        assert!(!out_file.exists(), "no export left");
    }
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
