//! A store file someone else made (issue 43): a body whose zstd frame unpacks to far
//! more than its row records (a bomb) is named damaged wherever it is read, read no
//! further than its recorded size, and never carried into another store by a copy; a
//! database of another program is refused before anything is written to it, and a
//! read never makes tables.

#[path = "support/demo.rs"]
mod demo;

use std::io::Read;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use aas_export::Format;
use aas_snapshot::{Access, Error, Pick, Store};
use aas_source::{NodeLevel, NodePath};
use demo::{demo, take_into};
use rusqlite::{params, Connection};

const M_0001: &str = "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001";

/// A zstd frame (a few kilobytes) that unpacks to `bytes` bytes of `x`.
fn bomb(bytes: u64) -> Vec<u8> {
    let mut frame = Vec::new();
    let mut encoder = zstd::stream::write::Encoder::new(&mut frame, 19).expect("zstd");
    std::io::copy(&mut std::io::repeat(b'x').take(bytes), &mut encoder).expect("packed");
    encoder.finish().expect("finished");
    frame
}

/// Whether `e` is, or carries (an export's error made of it), a damaged answer.
fn damaged(e: &(dyn std::error::Error + 'static)) -> Option<String> {
    match Error::found_in(e) {
        Some(found @ Error::DamagedAnswer { .. }) => Some(found.to_string()),
        _ => None,
    }
}

/// The error of `done`, which must have failed (what it gave is not shown: it may be
/// the bomb, unpacked).
fn refused<T>(done: aas_snapshot::Result<T>, what: &str) -> Error {
    match done {
        Ok(_) => panic!("{what}: done without an error"),
        Err(e) => e,
    }
}

/// The id of the body of M-0001's Nameplate elements in snapshot `id`.
fn nameplate_body(conn: &Connection, id: i64) -> i64 {
    conn.query_row(
        "SELECT a.content FROM answers a JOIN nodes n ON n.id = a.node
         WHERE a.snapshot = ?1 AND n.level = 3 AND n.aas_id = ?2 AND n.submodel = 'Nameplate'",
        params![id, M_0001],
        |r| r.get(0),
    )
    .expect("the Nameplate's body")
}

fn temp(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a folder");
    let path = dir.path().join(name);
    (dir, path)
}

/// Every path that reads a body (browse, search, diff, export and the table's walk, and
/// a copy) meets a bomb as damage: the store's own words, nothing read past the recorded
/// size, and a copy that carries nothing of the snapshot that holds it.
#[tokio::test]
async fn a_body_that_unpacks_past_its_recorded_size_is_damaged_wherever_it_is_read() {
    let (_demo_service, client) = demo().await;
    let (dir, path) = temp("hostile.sqlite3");
    let mut store = Store::open(&path, Access::Create).expect("store");
    let first = take_into(&mut [&mut store], &client, SystemTime::now(), |_| {}).await;
    let second = take_into(&mut [&mut store], &client, SystemTime::now(), |_| {}).await;
    let (one, two) = (first[0].id, second[0].id);
    drop(store);

    // M-0001's Nameplate: its body becomes a frame of 64 MiB with its old recorded size
    // (a few kilobytes); the second snapshot gets a body of its own, as bad.
    let conn = Connection::open(&path).expect("sqlite");
    let body = nameplate_body(&conn, one);
    let recorded: i64 = conn
        .query_row("SELECT size FROM contents WHERE id = ?1", [body], |r| {
            r.get(0)
        })
        .expect("size");
    assert!(recorded < 64 * 1024, "{recorded}");
    conn.execute(
        "UPDATE contents SET zstd = 1, bytes = ?2 WHERE id = ?1",
        params![body, bomb(64 << 20)],
    )
    .expect("the bomb");
    conn.execute(
        "INSERT INTO contents (hash, size, zstd, bytes)
         SELECT randomblob(32), size, zstd, bytes FROM contents WHERE id = ?1",
        [body],
    )
    .expect("a second body");
    let other = conn.last_insert_rowid();
    conn.execute(
        "UPDATE answers SET content = ?2 WHERE snapshot = ?3 AND content = ?1",
        params![body, other, two],
    )
    .expect("the second snapshot's");
    drop(conn);

    let store = Store::open(&path, Access::Read).expect("opens");
    let more = format!("unpacks to more than its recorded {recorded} bytes");
    let said = |e: &Error| {
        let message = damaged(e).unwrap_or_else(|| panic!("not damaged: {e:?}"));
        assert!(
            message.contains(&path.display().to_string())
                && message.contains("is damaged")
                && message.contains(&more),
            "{message}"
        );
    };
    let nameplate = NodePath::Elements {
        aas_id: M_0001.into(),
        submodel: "Nameplate".into(),
    };
    said(&refused(store.answer(one, &nameplate), "browse"));
    said(&refused(store.search(one, "SN-M-0001", 10), "search"));
    said(&refused(store.diff(one, two), "diff"));
    // The raw bundle holds the elements answers as they are (an environment embeds
    // them from the submodel lists, and reads no elements answer).
    let out = dir.path().join("export.json");
    said(&refused(store.export(one, Format::Raw, &out), "export"));
    assert!(!out.exists(), "nothing written");
    // The table's walk: a visit that reads the body fails with the damage, and so does
    // one that passes over what it cannot read.
    for passes_over in [false, true] {
        let walked = store.with_answers(one, |_, answers| {
            answers.each(NodeLevel::Elements, &mut |_, _, body| {
                let mut read = Vec::new();
                match (body.read_to_end(&mut read), passes_over) {
                    (Err(_), true) | (Ok(_), _) => ControlFlow::Continue(()),
                    // The visit's own stop, which says nothing of the store.
                    (Err(_), false) => ControlFlow::Break(()),
                }
            })
        });
        let Err(e) = walked.expect("opened") else {
            panic!("walked without an error");
        };
        let message = damaged(&e).unwrap_or_else(|| panic!("not damaged: {e:?}"));
        assert!(message.contains(&more), "{message}");
    }

    // A copy carries nothing of a snapshot holding it, and says so.
    let (_target_dir, target_path) = temp("target.sqlite3");
    let mut target = Store::open(&target_path, Access::Create).expect("target");
    let copied = target.copy_from(&store, &Pick::All { plant: None }, &mut |_| {
        ControlFlow::Continue(())
    });
    let e = refused(copied, "copy");
    said(&e);
    assert!(
        e.to_string()
            .contains(&format!("in snapshot {one}, which was not copied")),
        "{e}"
    );
    assert!(target.list(None).expect("list").is_empty());
    let bodies: i64 = Connection::open(&target_path)
        .expect("sqlite")
        .query_row("SELECT count(*) FROM contents", [], |r| r.get(0))
        .expect("count");
    assert_eq!(bodies, 0, "no body of it was carried");
    // Other snapshots are copied: the second, once its body is whole again.
    drop(target);

    // A size past the largest answer any store keeps is damage before a byte is read.
    drop(store);
    let conn = Connection::open(&path).expect("sqlite");
    conn.execute(
        "UPDATE contents SET size = 3000000000 WHERE id = ?1",
        [body],
    )
    .expect("size");
    drop(conn);
    let store = Store::open(&path, Access::Read).expect("opens");
    let e = refused(store.answer(one, &nameplate), "browse");
    let message = damaged(&e).unwrap_or_else(|| panic!("not damaged: {e:?}"));
    assert!(
        message.contains("records 3000000000 bytes, more than the largest answer"),
        "{message}"
    );
    drop(store);

    // Recorded as 32 MiB, past the size a body is checked at before it is read: the
    // bomb is refused before any memory is made for it, by a read whole (search) and by
    // a walk (a table's) alike.
    let conn = Connection::open(&path).expect("sqlite");
    conn.execute(
        "UPDATE contents SET size = ?2 WHERE id = ?1",
        [body, 32 << 20],
    )
    .expect("size");
    drop(conn);
    let store = Store::open(&path, Access::Read).expect("opens");
    let more = "unpacks to more than its recorded 33554432 bytes";
    let e = refused(store.search(one, "SN-M-0001", 10), "search");
    let message = damaged(&e).unwrap_or_else(|| panic!("not damaged: {e:?}"));
    assert!(message.contains(more), "{message}");
    let walked = store.with_answers(one, |_, answers| {
        answers.each(
            NodeLevel::Elements,
            &mut |_, _, _| ControlFlow::Continue(()),
        )
    });
    let Err(e) = walked.expect("opened") else {
        panic!("walked without an error");
    };
    let message = damaged(&e).unwrap_or_else(|| panic!("not damaged: {e:?}"));
    assert!(message.contains(more), "{message}");
    drop(store);
    drop(dir);
}

/// The tables a database holds, sorted, and its bytes.
fn state_of(path: &Path) -> (Vec<String>, Vec<u8>) {
    let conn = Connection::open(path).expect("sqlite");
    let mut statement = conn
        .prepare("SELECT name FROM sqlite_master ORDER BY name")
        .expect("prepare");
    let names = statement
        .query_map([], |r| r.get(0))
        .expect("query")
        .collect::<rusqlite::Result<_>>()
        .expect("names");
    (names, std::fs::read(path).expect("bytes"))
}

/// A store is ours or refused: another program's database (tables of its own, or a
/// schema version this app never writes) is named as such by every way of opening it,
/// and not a byte of it changes; an empty file is a store only for a take; a read or a
/// removal never makes tables.
#[test]
fn a_database_of_another_program_is_refused_and_nothing_is_written_to_it() {
    let (dir, _) = temp("x");
    let other_app = |name: &str, sql: &str, version: i64| {
        let path = dir.path().join(name);
        let conn = Connection::open(&path).expect("sqlite");
        conn.execute_batch(sql).expect("its tables");
        conn.pragma_update(None, "user_version", version)
            .expect("version");
        path
    };
    let cases = [
        (
            other_app(
                "other-app.sqlite",
                "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
                 INSERT INTO customers (name) VALUES ('Acme');
                 CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER);",
                0,
            ),
            "tables of its own: customers, orders; user_version 0",
        ),
        (other_app("negative.sqlite", "", -3), "user_version -3"),
        (
            other_app(
                "unknown-version.sqlite",
                "CREATE TABLE notes (text TEXT);",
                7,
            ),
            "tables of its own: notes; user_version 7",
        ),
        (
            other_app("older-number.sqlite", "CREATE TABLE notes (text TEXT);", 3),
            "tables of its own: notes; user_version 3",
        ),
    ];
    for (path, why) in &cases {
        let before = state_of(path);
        for access in [Access::Create, Access::Write, Access::Read] {
            let e = Store::open(path, access).expect_err("not ours");
            let message = e.to_string();
            assert!(matches!(e, Error::NotAStore { .. }), "{access:?}: {e:?}");
            assert!(
                message.contains(&path.display().to_string())
                    && message.contains("not a snapshot store")
                    && message.contains(why)
                    && message.contains("nothing was written to it"),
                "{access:?}: {message}"
            );
            assert!(state_of(path) == before, "{access:?} changed {path:?}");
        }
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".lock") || n.ends_with("-wal"))
            .collect();
        assert!(names.is_empty(), "nothing beside it: {names:?}");
    }

    // An empty file: no store for a read or a removal (nothing made in it); a take's
    // open makes it one.
    let empty = dir.path().join("empty.sqlite3");
    std::fs::write(&empty, b"").expect("empty");
    for access in [Access::Read, Access::Write] {
        let e = Store::open(&empty, access).expect_err("no store yet");
        assert!(matches!(e, Error::NoStore(_)), "{access:?}: {e:?}");
        assert_eq!(std::fs::metadata(&empty).expect("meta").len(), 0);
    }
    let store = Store::open(&empty, Access::Create).expect("becomes ours");
    assert!(store.list(None).expect("list").is_empty());
    drop(store);
    Store::open(&empty, Access::Read).expect("ours now");
}
