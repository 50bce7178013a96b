//! The snapshot store over a real crawl of the demo service (loopback): what a snapshot
//! keeps, what a second one of an unchanged plant costs, search, removal, one writer at
//! a time, an interrupted snapshot, a damaged file, permissions and schema versions.

#[path = "support/demo.rs"]
mod demo;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use aas_client::{Client, Crawl};
use aas_demo::DEMO_PLANT;
use aas_export::Format;
use aas_snapshot::{Access, Error, SnapshotInfo, Store};
use aas_source::{Body, NodeLevel, NodePath};
use demo::{crawl_demo, demo};

fn store_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aas-snapshot-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("snapshots.sqlite3")
}

/// Crawls the demo plant into a new snapshot of `store`; also returns the crawl.
async fn take(store: &mut Store, client: &Arc<Client>) -> (SnapshotInfo, Crawl) {
    let mut writer = store
        .begin("demo", DEMO_PLANT, SystemTime::now())
        .expect("begin");
    let mut kept = Vec::new();
    let crawl = crawl_demo(client, |answer| {
        writer.answer(answer.clone()).expect("stored");
        kept.push(answer);
    })
    .await;
    let info = writer.finish(!crawl.is_partial()).expect("finish");
    (
        info,
        Crawl {
            fetched: kept,
            ..crawl
        },
    )
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).expect("store file").len()
}

#[tokio::test]
async fn snapshots_keep_every_answer_once_search_and_give_space_back() {
    let (_demo_service, client) = demo().await;
    let path = store_path("whole");
    let mut store = Store::open(&path, Access::Create).expect("store");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "owner only");
    }

    let (first, crawl) = take(&mut store, &client).await;
    assert!(first.complete, "{first:?}");
    assert_eq!(first.nodes, crawl.fetched.len() as u64);
    let shells = crawl
        .fetched
        .iter()
        .filter(|f| matches!(f.path, aas_source::NodePath::Submodels { .. }))
        .count();
    assert_eq!(first.shells, shells as u64);
    assert!(
        first.taken_at.ends_with('Z'),
        "RFC 3339 UTC: {}",
        first.taken_at
    );

    // Search: M-0001's serial number, as the server sent it.
    let machine = "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001";
    let nameplate = crawl
        .fetched
        .iter()
        .find(|f| {
            matches!(&f.path, aas_source::NodePath::Elements { aas_id, submodel }
                if aas_id == machine && submodel == "Nameplate")
        })
        .expect("nameplate elements");
    let elements: serde_json::Value =
        serde_json::from_str(&nameplate.raw.text().expect("text")).expect("json");
    let serial = elements
        .as_array()
        .expect("list")
        .iter()
        .find(|e| e["idShort"] == "SerialNumber")
        .and_then(|e| e["value"].as_str())
        .expect("serial")
        .to_owned();
    let hits = store.search(first.id, &serial, 100).expect("search");
    assert_eq!(hits[0].aas_id, machine, "{hits:?}");
    assert_eq!(hits[0].path, ["SerialNumber"]);
    assert_eq!(hits[0].value.as_deref(), Some(serial.as_str()));
    // The start of the last word is enough; a URN with colons is no column filter.
    let typed = &serial[..serial.len() - 2];
    assert!(store
        .search(first.id, typed, 100)
        .expect("prefix")
        .iter()
        .any(|h| h.value.as_deref() == Some(serial.as_str())));
    store
        .search(first.id, "urn:demo-platform SN-", 5)
        .expect("quoted");

    // An unchanged plant's second snapshot adds rows, no bodies.
    let before = size(&path);
    let (second, _) = take(&mut store, &client).await;
    assert_eq!(second.nodes, first.nodes);
    let grown = size(&path).saturating_sub(before);
    assert!(
        grown * 5 < before,
        "the second snapshot grew the store by {grown} of {before} bytes"
    );
    assert_eq!(store.list(Some(DEMO_PLANT)).expect("list").len(), 2);

    // Removing the first keeps the second whole; removing both gives the space back.
    store.remove(first.id).expect("rm");
    assert_eq!(
        store.search(second.id, &serial, 5).expect("search")[0].aas_id,
        machine
    );
    let full = size(&path);
    store.remove(second.id).expect("rm");
    assert!(
        size(&path) < full / 2,
        "{} of {full} bytes left",
        size(&path)
    );
    assert!(matches!(
        store.remove(second.id),
        Err(Error::NoSuchSnapshot(_))
    ));
    std::fs::remove_dir_all(path.parent().expect("dir")).expect("cleanup");
}

#[tokio::test]
async fn one_writer_at_a_time_and_an_interrupted_snapshot_is_marked_partial() {
    let (_demo_service, client) = demo().await;
    let path = store_path("writers");
    let mut store = Store::open(&path, Access::Create).expect("store");
    let mut other =
        Store::open(&path, Access::Write).expect("a second handle, as aasmd beside the app");
    let registry_bytes;
    {
        let mut writer = store
            .begin("demo", DEMO_PLANT, SystemTime::now())
            .expect("begin");
        let registry = client.registry_for_session().await.expect("registry");
        registry_bytes = registry.to_string().len() as u64;
        writer
            .answer(aas_source::Fetched {
                path: aas_source::NodePath::Registry,
                url: "http://x/api/v1/registry".into(),
                raw: registry.to_string().into(),
            })
            .expect("stored");
        let busy = other.begin("demo", DEMO_PLANT, SystemTime::now());
        assert!(matches!(busy, Err(Error::Busy { .. })), "{busy:?}");
        drop(busy);
        // Nor can the snapshot being taken be removed from under its writer.
        let taking = other.list(None).expect("list")[0].id;
        let refused = other.remove(taking);
        assert!(
            matches!(refused, Err(Error::BeingTaken(id)) if id == taking),
            "{refused:?}"
        );
        // Dropped without finish: as if the process died (`kill -9`).
    }
    // What the interrupted one holds is counted, by a reader before any recovery and
    // as the next writer marks it partial.
    let reader = Store::open(&path, Access::Read).expect("a reader");
    let held = |info: &SnapshotInfo| (info.nodes, info.bytes);
    assert_eq!(
        held(&reader.list(None).expect("list")[0]),
        (1, registry_bytes)
    );
    let (next, _) = take(&mut other, &client).await;
    let list = other.list(None).expect("list");
    assert_eq!(list.len(), 2);
    assert!(!list[0].complete, "the interrupted one: {:?}", list[0]);
    assert_eq!(held(&list[0]), (1, registry_bytes), "{:?}", list[0]);
    let recovered: (i64, i64) = rusqlite::Connection::open(&path)
        .expect("sqlite")
        .query_row(
            "SELECT nodes, bytes FROM snapshots WHERE id = ?1",
            [list[0].id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("row");
    assert_eq!(recovered, (1, registry_bytes as i64), "kept in its row");
    assert!(list[1].complete && list[1].id == next.id);
    std::fs::remove_dir_all(path.parent().expect("dir")).expect("cleanup");
}

#[tokio::test]
async fn answers_past_the_spool_size_stream_into_the_store_and_export_as_sent() {
    let (_demo_service, client) = demo().await;
    // Past 4 KB, as a 100,000-asset plant's registry passes 16 MiB: the demo registry and
    // the larger elements answers go through temporary files.
    let spooling = |max_streamed| {
        Client::new(client.connection().clone())
            .expect("client")
            .with_spool_at(4096)
            .with_max_streamed(max_streamed)
    };
    let path = store_path("spooled");
    let dir = path.parent().expect("dir").to_owned();
    let mut store = Store::open(&path, Access::Create).expect("store");
    let (info, crawl) = take(&mut store, &Arc::new(spooling(1 << 30))).await;
    assert!(info.complete, "{info:?}");
    let spooled: Vec<NodeLevel> = crawl
        .fetched
        .iter()
        .filter(|f| matches!(f.raw, Body::Spooled(_)))
        .map(|f| f.path.level())
        .collect();
    assert!(spooled.contains(&NodeLevel::Registry), "{spooled:?}");
    for fetched in &crawl.fetched {
        let stored = store.answer(info.id, &fetched.path).expect("read");
        assert_eq!(
            stored.as_deref(),
            Some(&*fetched.raw.text().expect("text")),
            "{:?}",
            fetched.path
        );
    }
    for format in [Format::Env, Format::Csv] {
        let (crawled, snapshot) = (dir.join("crawled"), dir.join("snapshot"));
        aas_export::export(&crawl, format, "demo", &crawled).expect("crawl's export");
        store
            .export(info.id, format, &snapshot)
            .expect("snapshot's export");
        assert!(
            std::fs::read(&crawled).expect("crawled") == std::fs::read(&snapshot).expect("read"),
            "{format:?}: the snapshot's export differs from the crawl's"
        );
    }

    // Past its own cap, the streamed answer's node fails with its reason; the rest is kept.
    let (partial, crawl) = take(&mut store, &Arc::new(spooling(8192))).await;
    assert!(!partial.complete && partial.nodes > 0, "{partial:?}");
    let registry = crawl
        .failures
        .iter()
        .find(|f| f.path == NodePath::Registry)
        .expect("the registry failed");
    assert!(
        registry.message.contains("larger than 8192 bytes"),
        "{}",
        registry.message
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_damaged_or_newer_store_is_refused_with_its_name() {
    let path = store_path("damaged");
    std::fs::create_dir_all(path.parent().expect("dir")).expect("dir");
    std::fs::write(&path, vec![b'x'; 8192]).expect("garbage");
    let e = Store::open(&path, Access::Create).expect_err("damaged");
    assert!(matches!(e, Error::Damaged { .. }), "{e:?}");
    assert!(e.to_string().contains(&path.display().to_string()), "{e}");

    std::fs::remove_file(&path).expect("rm");
    Store::open(&path, Access::Create).expect("new store");
    let conn = rusqlite::Connection::open(&path).expect("sqlite");
    conn.pragma_update(None, "user_version", 99)
        .expect("set version");
    drop(conn);
    let e = Store::open(&path, Access::Create).expect_err("too new");
    assert!(matches!(e, Error::TooNew { found: 99, .. }), "{e:?}");
    std::fs::remove_dir_all(path.parent().expect("dir")).expect("cleanup");
}

/// Reads never create or change a store; each way a store cannot be opened has its own
/// error: none there, a folder, a corrupt page met by a read, a file that cannot be
/// written (which can still be read).
#[test]
fn a_store_is_opened_as_asked_and_each_failure_is_named() {
    let path = store_path("opening");
    let dir = path.parent().expect("dir").to_owned();
    for access in [Access::Read, Access::Write] {
        let e = Store::open(&path, access).expect_err("no store");
        assert!(matches!(e, Error::NoStore(_)), "{access:?}: {e:?}");
        assert!(!path.exists(), "{access:?} made a store");
    }
    std::fs::create_dir_all(&path).expect("a folder where the store would be");
    for access in [Access::Read, Access::Write, Access::Create] {
        let e = Store::open(&path, access).expect_err("a folder");
        assert!(matches!(e, Error::Folder(_)), "{access:?}: {e:?}");
    }
    std::fs::remove_dir(&path).expect("rm folder");

    let mut store = Store::open(&path, Access::Create).expect("created");
    let writer = store
        .begin("demo", DEMO_PLANT, SystemTime::now())
        .expect("begin");
    writer.finish(true).expect("an empty snapshot");
    drop(store);
    let reader = Store::open(&path, Access::Read).expect("read");
    assert_eq!(reader.list(None).expect("list").len(), 1);
    drop(reader);

    // A read-only file: read as before, refused for writing in words.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o400)).expect("chmod");
        // Root writes whatever the mode says: there the check has nothing to see.
        if std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .is_err()
        {
            let e = Store::open(&path, Access::Write).expect_err("read-only");
            assert!(matches!(e, Error::ReadOnly { .. }), "{e:?}");
            assert!(e.to_string().contains("can still be listed"), "{e}");
            let reader = Store::open(&path, Access::Read).expect("still read");
            assert_eq!(reader.list(None).expect("list").len(), 1);
        }
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    }

    // The page holding the snapshots table, overwritten: the header still reads, so the
    // store opens, and the list that meets the page says the store is damaged.
    let (root, page_size): (u64, u64) = {
        let conn = rusqlite::Connection::open(&path).expect("sqlite");
        conn.query_row(
            "SELECT rootpage, (SELECT page_size FROM pragma_page_size) FROM sqlite_master
             WHERE name = 'snapshots'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("root page")
    };
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .expect("open");
        file.seek(SeekFrom::Start((root - 1) * page_size))
            .expect("seek");
        file.write_all(&vec![0xA5; page_size as usize])
            .expect("garbage");
    }
    let e = Store::open(&path, Access::Read)
        .and_then(|store| store.list(None))
        .expect_err("damaged");
    assert!(matches!(e, Error::Damaged { .. }), "{e:?}");
    assert!(e.to_string().contains("damaged"), "{e}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
