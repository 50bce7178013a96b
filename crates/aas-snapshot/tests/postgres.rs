//! The team store (PostgreSQL, a real server made for the test) against the one-desktop
//! store (SQLite) over the same crawl of the demo service: the same snapshots listed,
//! the same export byte for byte, the same search hits in the same order, the same
//! answers of some shells, the same diff; one take per plant at a time; a snapshot being taken is not removed; a server
//! that goes down mid-take ends the take with clear words and keeps what came before;
//! the tables made and migrated by the writer role only, a reader role refused writes;
//! TLS used and checked as `sslmode` and `sslrootcert` say.

#[path = "../../aas-client/tests/support/certificates.rs"]
mod certificates;
#[path = "support/cluster.rs"]
mod cluster;
#[path = "support/demo.rs"]
mod demo;

use std::collections::HashSet;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

use aas_client::Client;
use aas_source::{NodeLevel, NodePath};

use aas_demo::{DemoService, DEMO_PLANT};
use aas_snapshot::{Access, Error, SnapshotInfo, Store};
use cluster::Cluster;
use demo::{demo, same_exports, take_into};

fn sqlite_store(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aas-snapshot-pg-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("snapshots.sqlite3")
}

/// What two stores may differ in: the id.
fn without_id(list: Vec<SnapshotInfo>) -> Vec<SnapshotInfo> {
    list.into_iter()
        .map(|s| SnapshotInfo { id: 0, ..s })
        .collect()
}

#[tokio::test]
async fn the_team_store_answers_as_the_desktop_store_does() {
    let cluster = Cluster::start();
    let url = cluster.team_store("team");
    let (_demo_service, client) = demo().await;
    let path = sqlite_store("same");
    let mut desktop = Store::open(&path, Access::Create).expect("sqlite");
    let mut team = Store::open(url.as_ref(), Access::Create).expect("postgres");
    let at = SystemTime::now();
    let first = take_into(&mut [&mut desktop, &mut team], &client, at, |_| {}).await;
    let second = take_into(&mut [&mut desktop, &mut team], &client, at, |_| {}).await;
    assert!(first.iter().all(|s| s.complete), "{first:?}");

    assert_eq!(
        without_id(team.list(None).expect("list")),
        without_id(desktop.list(None).expect("list"))
    );
    let (d1, t1) = (first[0].id, first[1].id);
    let (d2, t2) = (second[0].id, second[1].id);

    // The same file, byte for byte.
    let out = path.with_file_name("out");
    std::fs::create_dir_all(&out).expect("dir");
    same_exports((&desktop, d1), (&team, t1), &out);

    // The same hits, in the same order, for what users type.
    for typed in [
        "SN-M-0001",
        "SN-M-00",
        "urn:demo-platform SN-",
        "acme",
        "Nameplate serial",
        "0173-1#02-AAM556",
        "nothing-like-this",
    ] {
        assert_eq!(
            team.search(t2, typed, 50).expect("search"),
            desktop.search(d2, typed, 50).expect("search"),
            "{typed}"
        );
    }
    assert!(!team.search(t2, "SN-M-00", 50).expect("search").is_empty());

    // The same (empty) diff of an unchanged plant, and the same answer for a node.
    assert_eq!(
        team.diff(t1, t2).expect("diff"),
        desktop.diff(d1, d2).expect("diff")
    );

    // The answers of some shells alone: the same in both, and as the whole walk has them.
    let shells = HashSet::from([
        "urn:demo-platform:acme:DEMO-01:aas:machine#M-0002",
        "urn:demo-platform:acme:DEMO-01:aas:company#C-0001",
        "urn:demo-platform:acme:DEMO-01:aas:no-such#X",
    ]);
    let some = submodels_of(&desktop, d2, Some(&shells));
    assert_eq!(some, submodels_of(&team, t2, Some(&shells)));
    let all = submodels_of(&desktop, d2, None);
    let wanted: Vec<_> = (all.iter())
        .filter(|(aas_id, _)| shells.contains(aas_id.as_str()))
        .cloned()
        .collect();
    assert_eq!(some, wanted);
    assert_eq!(some.len(), 2, "{all:?}");

    // Removing the first keeps the second whole.
    team.remove(t1).expect("rm");
    assert!(matches!(team.remove(t1), Err(Error::NoSuchSnapshot(_))));
    assert_eq!(
        team.search(t2, "SN-M-0001", 5).expect("search"),
        desktop.search(d2, "SN-M-0001", 5).expect("search")
    );
    std::fs::remove_dir_all(path.parent().expect("dir")).expect("cleanup");
}

/// The submodels answers (shell id, body) of snapshot `id`: all, or those of `shells`.
fn submodels_of(store: &Store, id: i64, shells: Option<&HashSet<&str>>) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut keep = |path: &NodePath, _: &str, body: &mut dyn Read| {
        let mut text = String::new();
        body.read_to_string(&mut text).expect("a body");
        found.push((path.keys()[1].to_owned(), text));
        ControlFlow::Continue(())
    };
    let walked = store
        .with_answers(id, |_, answers| match shells {
            Some(shells) => answers.each_of_shells(NodeLevel::Submodels, shells, &mut keep),
            None => answers.each(NodeLevel::Submodels, &mut keep),
        })
        .expect("read")
        .expect("walked");
    assert!(walked.is_continue());
    found
}

/// A team store `db` on a server of its own, the demo service and a client of it (the
/// server and the service kept while held), and the store opened to take into.
async fn team_with_demo(db: &str) -> (Cluster, DemoService, Arc<Client>, String, Store) {
    let cluster = Cluster::start();
    let url = cluster.team_store(db);
    let (demo_service, client) = demo().await;
    let store = Store::open(url.as_ref(), Access::Create).expect("postgres");
    (cluster, demo_service, client, url, store)
}

#[tokio::test]
async fn one_take_per_plant_at_a_time_and_a_server_lost_mid_take_keeps_what_came_before() {
    let (cluster, _demo_service, client, url, mut store) = team_with_demo("takes").await;
    let mut other = Store::open(url.as_ref(), Access::Write).expect("a second desktop");
    let whole = take_into(&mut [&mut store], &client, SystemTime::now(), |_| {}).await;

    {
        let mut writer = store
            .begin("demo", DEMO_PLANT, SystemTime::now())
            .expect("begin");
        let busy = other.begin("demo", DEMO_PLANT, SystemTime::now());
        let message = format!("{}", busy.as_ref().expect_err("busy"));
        assert!(matches!(busy, Err(Error::BusyTeam { .. })), "{message}");
        assert!(
            !message.contains(cluster.password()),
            "no password: {message}"
        );
        drop(busy);
        // Another plant's take runs beside it.
        other
            .begin("demo", "OTHER-PLANT", SystemTime::now())
            .expect("another plant")
            .finish(true)
            .expect("finish");
        let taking = other.list(Some(DEMO_PLANT)).expect("list")[1].id;
        assert!(matches!(other.remove(taking), Err(Error::BeingTaken(id)) if id == taking));

        // The server goes down (as a crash would) while answers are written.
        writer
            .answer(aas_source::Fetched {
                path: aas_source::NodePath::Registry,
                url: "http://x/api/v1/registry".into(),
                raw: "[]".to_owned().into(),
            })
            .expect("queued");
        cluster.restart();
        let lost = writer.finish(true);
        let message = format!("{}", lost.expect_err("the take fails"));
        assert!(message.contains("team store"), "{message}");
    }

    // The next take marks the lost one partial; the one before stays whole.
    let mut store = Store::open(url.as_ref(), Access::Write).expect("reopened");
    let next = take_into(&mut [&mut store], &client, SystemTime::now(), |_| {}).await;
    let list = store.list(Some(DEMO_PLANT)).expect("list");
    assert_eq!(list.len(), 3, "{list:?}");
    assert_eq!(list[0], whole[0]);
    assert!(!list[1].complete, "the lost take: {:?}", list[1]);
    assert!(list[2].complete && list[2].id == next[0].id);
    assert_eq!(list[2].nodes, whole[0].nodes);
}

#[tokio::test]
async fn the_writer_role_makes_the_tables_and_a_reader_role_reads_but_cannot_write() {
    let cluster = Cluster::start();
    let (writer, reader) = cluster.writer_and_reader("plants");
    let said = |e: Error| {
        let message = e.to_string();
        assert!(!message.contains(cluster.password()), "{message}");
        (e, message)
    };

    // Nothing opens a database without the tables, and `migrate` does not make them.
    let (e, message) = said(Store::open(writer.as_ref(), Access::Create).expect_err("no tables"));
    assert!(
        matches!(e, Error::NotMigrated { found: 0, .. }),
        "{message}"
    );
    assert!(message.contains("aasmd store init"), "{message}");
    let (_, message) = said(Store::init_team(&writer, false, &[]).expect_err("migrate"));
    assert!(message.contains("aasmd store init"), "{message}");
    // A role that may not make them is told by the server.
    let (_, message) = said(Store::init_team(&reader, true, &[]).expect_err("reader"));
    assert!(message.contains("permission denied"), "{message}");

    assert_eq!(
        Store::init_team(&writer, true, &["desktop".to_owned()]).expect("init"),
        0
    );
    let schema = Store::team_schema();
    assert_eq!(Store::init_team(&writer, true, &[]).expect("again"), schema);
    assert_eq!(
        Store::init_team(&writer, false, &[]).expect("migrate"),
        schema
    );

    let (_demo_service, client) = demo().await;
    let mut scheduler = Store::open(writer.as_ref(), Access::Create).expect("writer");
    let taken = take_into(&mut [&mut scheduler], &client, SystemTime::now(), |_| {}).await;

    // The desktop reads everything the writer wrote…
    let desktop = Store::open(reader.as_ref(), Access::Read).expect("reader");
    assert_eq!(desktop.list(None).expect("list"), taken);
    assert!(!desktop
        .search(taken[0].id, "SN-M-0001", 5)
        .expect("search")
        .is_empty());
    // …and is told why it cannot take or remove, before any row is touched.
    for access in [Access::Create, Access::Write] {
        let (e, message) = said(Store::open(reader.as_ref(), access).expect_err("read-only"));
        assert!(matches!(e, Error::ReadOnlyTeam { .. }), "{message}");
        assert!(
            message.contains("desktop") && message.contains("writer role"),
            "{message}"
        );
    }
    assert_eq!(desktop.list(None).expect("list"), taken);
}

#[test]
fn tls_is_used_and_checked_as_sslmode_and_sslrootcert_say() {
    let dir = tempfile::tempdir().expect("a folder");
    let made =
        |name: &str| certificates::make_certificates(&dir.path().join(name), &["localhost"], false);
    let ((ca, cert, key), (other_ca, _, _)) = (made("tls"), made("other"));
    let cluster = Cluster::start_tls(&cert, &key);
    cluster.psql("postgres", "CREATE DATABASE tls");
    let by_ip = cluster.url("tls");
    let by_name = by_ip.replace("127.0.0.1", "localhost");
    let (ca, other_ca) = (ca.display(), other_ca.display());
    let connect = |url: String| {
        Store::init_team(&url, true, &[]).map_err(|e| {
            let message = e.to_string();
            assert!(!message.contains(cluster.password()), "{message}");
            message
        })
    };

    for fine in [
        format!("{by_name}?sslmode=verify-full&sslrootcert={ca}"),
        format!("{by_ip}?sslmode=verify-ca&sslrootcert={ca}"),
        format!("{by_ip}?sslmode=require"),
        by_ip.clone(),
    ] {
        connect(fine.clone()).unwrap_or_else(|e| panic!("{fine}: {e}"));
    }
    for (refused, words) in [
        // The server takes TLS only: plain is refused by it.
        (format!("{by_ip}?sslmode=disable"), "no encryption"),
        // The certificate names localhost, not the address.
        (
            format!("{by_ip}?sslmode=verify-full&sslrootcert={ca}"),
            "certificate",
        ),
        (
            format!("{by_name}?sslmode=verify-full&sslrootcert={other_ca}"),
            "signed by the CA of sslrootcert",
        ),
        (
            format!("{by_name}?sslmode=verify-full&sslrootcert=/no/such/ca.pem"),
            "cannot be read",
        ),
        (format!("{by_name}?sslmode=verify"), "not one of disable"),
    ] {
        let message = connect(refused.clone()).expect_err(&refused);
        assert!(message.contains(words), "{refused}: {message}");
    }
}

#[tokio::test]
async fn a_store_of_schema_1_is_migrated_by_the_writer_keeping_its_snapshots() {
    let (cluster, _demo_service, client, url, mut store) = team_with_demo("older").await;
    let taken = take_into(&mut [&mut store], &client, SystemTime::now(), |_| {}).await;
    drop(store);
    // As schema 1 left it: bodies indexed by (content, snapshot), no take rows.
    cluster.psql(
        "older",
        "DROP INDEX answers_by_content;
         CREATE INDEX answers_by_content ON answers(content, snapshot);
         DROP TABLE takes;
         UPDATE store_schema SET version = 1",
    );
    let refused = Store::open(url.as_ref(), Access::Read).expect_err("not migrated");
    assert!(
        matches!(refused, Error::NotMigrated { found: 1, .. }),
        "{refused}"
    );

    assert_eq!(Store::init_team(&url, false, &[]).expect("migrated"), 1);
    let index = "SELECT indexdef FROM pg_indexes WHERE indexname = 'answers_by_content'";
    let made = cluster.query("older", index);
    assert!(made.ends_with("(content)"), "{made}");
    let store = Store::open(url.as_ref(), Access::Read).expect("up to date");
    assert_eq!(store.list(None).expect("list"), taken);
    let found = store.search(taken[0].id, "SN-M-0001", 5).expect("search");
    assert!(!found.is_empty());
    // Takes go on after the migration, under the lock it made.
    let mut store = Store::open(url.as_ref(), Access::Write).expect("writer");
    let next = take_into(&mut [&mut store], &client, SystemTime::now(), |_| {}).await;
    assert!(next[0].complete);
}

/// The key of the advisory lock that schemas 1 and 2 held for a take of `plant` from
/// `source`: the first 8 bytes of the SHA-256 of both, which anyone could compute.
fn advisory_key(source: &str, plant: &str) -> i64 {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(format!("{source}\0{plant}").as_bytes());
    i64::from_be_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// A reader role cannot hold a take's lock (issue 43): whatever lock it takes, in
/// whichever way a role that may only read can, the writer's take of the plant goes on
/// at once; two takes of the writer still exclude each other, and a take whose session
/// ends lets the next one in.
#[test]
fn a_reader_role_cannot_hold_the_lock_of_the_writers_takes() {
    let cluster = Cluster::start();
    let (writer, reader) = cluster.writer_and_reader("plants");
    Store::init_team(&writer, true, &["desktop".to_owned()]).expect("init");
    let connect = |url: &str| postgres::Client::connect(url, postgres::NoTls).expect("connect");

    // What any role could always do: the advisory lock the takes used, held.
    let mut held = connect(&reader);
    let key = advisory_key("demo", DEMO_PLANT);
    held.execute("SELECT pg_advisory_lock($1)", &[&key])
        .expect("any role takes any advisory lock");
    let take = || {
        let mut store = Store::open(writer.as_ref(), Access::Write).expect("writer");
        let started = std::time::Instant::now();
        let writer = store.begin("demo", DEMO_PLANT, SystemTime::now());
        let taken = writer.and_then(|w| w.finish(true));
        assert!(started.elapsed().as_secs() < 10, "the take waited");
        taken
    };
    let taken = take().expect("the take goes on beside the reader's advisory lock");
    assert!(taken.complete);

    // Every lock a role that may only read can ask for on the take rows: those that
    // would exclude the writer are refused, the one it may hold excludes nothing.
    let mut holding = connect(&reader);
    holding
        .batch_execute("BEGIN; LOCK TABLE takes IN ACCESS SHARE MODE; SELECT * FROM takes")
        .expect("reading is allowed");
    for refused in [
        "SELECT * FROM takes FOR UPDATE",
        "SELECT * FROM takes FOR NO KEY UPDATE",
        "SELECT * FROM takes FOR SHARE",
        "SELECT * FROM takes FOR KEY SHARE",
        "LOCK TABLE takes IN ROW SHARE MODE",
        "LOCK TABLE takes IN SHARE MODE",
        "LOCK TABLE takes IN ACCESS EXCLUSIVE MODE",
        "INSERT INTO takes (source, plant) VALUES ('demo', 'X')",
        "UPDATE takes SET plant = plant",
    ] {
        let mut other = connect(&reader);
        let e = other
            .batch_execute(&format!("BEGIN; {refused}"))
            .expect_err(refused);
        let said = e.as_db_error().map(|db| db.message().to_owned());
        assert!(
            said.as_deref()
                .is_some_and(|m| m.contains("permission denied")),
            "{refused}: {e}"
        );
    }
    let taken = take().expect("the take goes on beside the reader's transaction");
    assert!(taken.complete);
    drop((held, holding));

    // The writer's own takes still exclude each other…
    let mut first = Store::open(writer.as_ref(), Access::Write).expect("writer");
    let mut second = Store::open(writer.as_ref(), Access::Write).expect("writer");
    let running = first
        .begin("demo", DEMO_PLANT, SystemTime::now())
        .expect("begin");
    let busy = second.begin("demo", DEMO_PLANT, SystemTime::now());
    assert!(matches!(busy, Err(Error::BusyTeam { .. })), "{busy:?}");
    drop(busy);
    // …and a take whose session ends (its connections lost, as when it dies) frees it,
    // as soon as the server has ended the session.
    cluster.psql(
        "plants",
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = 'aas-browser' AND usename = 'scheduler'",
    );
    let next = (0..100)
        .find_map(|_| match take() {
            Err(Error::BusyTeam { .. }) => {
                std::thread::sleep(std::time::Duration::from_millis(100));
                None
            }
            taken => Some(taken),
        })
        .expect("freed within 10 s")
        .expect("the next take, once the first one's session ended");
    assert!(next.complete);
    drop(running);
    drop((first, second));
    let store = Store::open(writer.as_ref(), Access::Read).expect("reader");
    let list = store.list(Some(DEMO_PLANT)).expect("list");
    assert_eq!(list.len(), 4, "{list:?}");
    assert!(
        !list[2].complete,
        "the one that died is partial: {:?}",
        list[2]
    );
}

/// Both stores bound what a search looks for alike (issue 43): past the limits each
/// refuses in the same words, quoting only its start; at the limits each answers, and
/// the same.
#[tokio::test]
async fn both_stores_bound_a_search_alike_and_quote_only_its_start() {
    let cluster = Cluster::start();
    let url = cluster.team_store("bounds");
    let (_demo_service, client) = demo().await;
    let path = sqlite_store("bounds");
    let mut desktop = Store::open(&path, Access::Create).expect("sqlite");
    let mut team = Store::open(url.as_ref(), Access::Create).expect("postgres");
    let at = SystemTime::now();
    let taken = take_into(&mut [&mut desktop, &mut team], &client, at, |_| {}).await;
    let (d, t) = (taken[0].id, taken[1].id);
    let both = |typed: &str| {
        let on = |store: &Store, id| store.search(id, typed, 50).map_err(|e| e.to_string());
        let (here, there) = (on(&desktop, d), on(&team, t));
        assert_eq!(here, there, "{}…", &typed[..typed.len().min(60)]);
        here
    };

    let words = aas_snapshot::MAX_SEARCH_WORDS;
    let chars = aas_snapshot::MAX_SEARCH_WORD_CHARS;
    // At the limits, each word as many index words as it can hold.
    let word = "x-".repeat(chars / 2);
    assert_eq!(word.chars().count(), chars);
    let widest = vec![word.as_str(); words].join(" ");
    assert_eq!(both(&widest), Ok(Vec::new()));
    let found = both(&format!(
        "{} SN-M-0001",
        vec!["SerialNumber"; words - 1].join(" ")
    ));
    assert!(found.is_ok_and(|hits| !hits.is_empty()));

    for (typed, said) in [
        ("word ".repeat(20_000), "the search has 20000 words"),
        (
            vec!["SN"; words + 1].join(" "),
            "a search looks for at most",
        ),
        ("x".repeat(131_000), "is 131000 characters long"),
        (
            format!("SN-M-0001 {}", "x".repeat(chars + 1)),
            "characters long",
        ),
    ] {
        let message = both(&typed).expect_err("refused");
        assert!(message.contains(said), "{message}");
        assert!(message.len() < 200, "a short prefix only: {message}");
    }
    std::fs::remove_dir_all(path.parent().expect("dir")).expect("cleanup");
}

/// `store init` makes nothing in a database that holds another program's tables (issue
/// 43): it says so, naming them, and the database keeps only its own; reads and takes
/// never make tables anywhere.
#[test]
fn init_makes_nothing_in_a_database_with_tables_of_another_program() {
    let cluster = Cluster::start();
    cluster.psql("postgres", "CREATE DATABASE erp");
    cluster.psql(
        "erp",
        "CREATE TABLE customers (id INT); CREATE TABLE orders (id INT);
         CREATE VIEW big_orders AS SELECT * FROM orders",
    );
    let url = cluster.url("erp");
    let tables = "SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'";
    let before = cluster.query("erp", tables);
    for create in [true, false] {
        let e = Store::init_team(&url, create, &[]).expect_err("not a team store");
        let message = e.to_string();
        assert!(matches!(e, Error::NotATeamStore { .. }), "{e:?}");
        assert!(
            message.contains("big_orders, customers, orders")
                && message.contains("nothing was made in it")
                && !message.contains(cluster.password()),
            "{message}"
        );
    }
    for access in [Access::Read, Access::Write, Access::Create] {
        let e = Store::open(url.as_ref(), access).expect_err("no store tables");
        assert!(matches!(e, Error::NotMigrated { found: 0, .. }), "{e:?}");
    }
    assert_eq!(cluster.query("erp", tables), before, "nothing made");
}
