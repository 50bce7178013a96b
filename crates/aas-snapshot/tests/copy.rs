//! Snapshots copied between a desktop's file (SQLite) and a team store (a real
//! PostgreSQL server made for the test), both ways: each keeps its source, plant, time,
//! complete flag, counts, failed nodes and unreadable parts; its exports are the
//! original's byte for byte, its search finds the same hits; an unchanged second
//! snapshot adds no body; a repeat copy leaves out what is there; a copy stopped or
//! failed midway leaves the target as it was.

#[path = "support/cluster.rs"]
mod cluster;
#[path = "support/demo.rs"]
mod demo;

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use aas_client::{Client, Crawl};
use aas_demo::{DemoService, DEMO_PLANT};
use aas_snapshot::{Access, Copied, CopyEvent, Error, Outcome, Pick, SnapshotInfo, Store};
use aas_source::{ErrorKind, Failure, NodePath, Unreadable};
use cluster::Cluster;
use demo::{crawl_demo, demo, same_exports, take_into};

/// `hours` hours before now.
fn ago(hours: u64) -> SystemTime {
    SystemTime::now() - Duration::from_secs(3600 * hours)
}

/// A node the crawl could not fetch, which makes the snapshot partial.
fn failed(crawl: &mut Crawl) {
    crawl.failures.push(Failure {
        path: NodePath::Elements {
            aas_id: "urn:demo:gone".into(),
            submodel: "Nameplate".into(),
        },
        url: "http://gateway/gone".into(),
        kind: ErrorKind::Server,
        message: "HTTP 500 Internal Server Error".into(),
    });
}

/// A part of an answer that could not be read.
fn unreadable(crawl: &mut Crawl) {
    crawl.unreadable.push(Unreadable {
        path: NodePath::Registry,
        url: "http://registry/api/v1/registry".into(),
        at: "$[0].endpoints".into(),
        reason: "a number past f64".into(),
    });
}

/// Copies `pick` of `from` into `to`, every event answered with `Continue`.
fn copy(from: &Store, to: &mut Store, pick: Pick) -> Vec<Copied> {
    let mut ended = 0;
    let copied = to
        .copy_from(from, &pick, &mut |event| {
            ended += usize::from(matches!(event, CopyEvent::Ended(_)));
            ControlFlow::Continue(())
        })
        .expect("copied");
    assert_eq!(ended, copied.len(), "one end said per snapshot");
    copied
}

/// What two stores' lists may differ in: the ids.
fn without_ids(list: Vec<SnapshotInfo>) -> Vec<SnapshotInfo> {
    list.into_iter()
        .map(|s| SnapshotInfo { id: 0, ..s })
        .collect()
}

/// The new bodies of each snapshot copied; `None` for one left out.
fn bodies(copied: &[Copied]) -> Vec<Option<u64>> {
    copied
        .iter()
        .map(|c| match c.outcome {
            Outcome::Copied { bodies, .. } => Some(bodies),
            _ => None,
        })
        .collect()
}

/// Snapshot `copy` of `to` is snapshot `original` of `from`: its exports byte for
/// byte, its unreadable parts, its search hits.
fn same_snapshot(from: &Store, original: i64, to: &Store, copy: i64, out: &Path) {
    same_exports((from, original), (to, copy), out);
    assert_eq!(
        to.unreadable(copy).expect("unreadable"),
        from.unreadable(original).expect("unreadable")
    );
    for typed in ["SN-M-0001", "SN-M-00", "acme", "0173-1#02-AAM556"] {
        let hits = to.search(copy, typed, 50).expect("search");
        assert_eq!(
            hits,
            from.search(original, typed, 50).expect("search"),
            "{typed}"
        );
        assert!(!hits.is_empty(), "{typed}");
    }
}

/// A team store on a server of its own, the demo service, and a desktop's store in a
/// folder of its own, kept while held.
struct Stores {
    cluster: Cluster,
    team_url: String,
    _demo_service: DemoService,
    client: Arc<Client>,
    dir: tempfile::TempDir,
    desktop_path: PathBuf,
    desktop: Store,
}

async fn stores(db: &str) -> Stores {
    let cluster = Cluster::start();
    let team_url = cluster.team_store(db);
    let (_demo_service, client) = demo().await;
    let dir = tempfile::tempdir().expect("a folder");
    let desktop_path = dir.path().join("desktop.sqlite3");
    let desktop = Store::open(&desktop_path, Access::Create).expect("sqlite");
    Stores {
        cluster,
        team_url,
        _demo_service,
        client,
        dir,
        desktop_path,
        desktop,
    }
}

#[tokio::test]
async fn snapshots_are_copied_whole_into_the_team_store_and_back() {
    let s = stores("copies").await;
    let (client, dir, mut desktop) = (&s.client, s.dir.path(), s.desktop);
    let mut team = Store::open(s.team_url.as_ref(), Access::Create).expect("postgres");
    // Complete with an unreadable part; complete; partial with a failed node.
    take_into(&mut [&mut desktop], client, ago(3), unreadable).await;
    take_into(&mut [&mut desktop], client, ago(2), |_| {}).await;
    take_into(&mut [&mut desktop], client, ago(1), failed).await;
    let originals = desktop.list(None).expect("list");
    let kinds: Vec<(bool, u64)> = originals
        .iter()
        .map(|s| (s.complete, s.unreadable))
        .collect();
    assert_eq!(kinds, [(true, 1), (true, 0), (false, 0)]);

    // Into the team store: each whole; the unchanged plant's later snapshots add no body.
    let copied = copy(&desktop, &mut team, Pick::All { plant: None });
    let added = bodies(&copied);
    assert!(added[0].is_some_and(|n| n > 100), "{added:?}");
    assert_eq!(added[1..], [Some(0), Some(0)]);
    let in_team = team.list(None).expect("list");
    assert_eq!(without_ids(in_team.clone()), without_ids(originals.clone()));
    let out = dir.join("out");
    std::fs::create_dir_all(&out).expect("dir");
    for (original, copy) in originals.iter().zip(&in_team) {
        same_snapshot(&desktop, original.id, &team, copy.id, &out);
    }
    assert_eq!(
        team.diff(in_team[0].id, in_team[1].id).expect("diff"),
        desktop
            .diff(originals[0].id, originals[1].id)
            .expect("diff")
    );

    // Again: every one is there already, and nothing changes.
    let again = copy(&desktop, &mut team, Pick::All { plant: None });
    let outcomes: Vec<Outcome> = again.into_iter().map(|c| c.outcome).collect();
    let there: Vec<Outcome> = in_team
        .iter()
        .map(|s| Outcome::AlreadyThere(s.id))
        .collect();
    assert_eq!(outcomes, there);
    assert_eq!(team.list(None).expect("list"), in_team);

    // Back into a new file: the middle one first, then the others around it. The list
    // keeps the order they were taken in, and the newest complete one is still the
    // middle one, though it was copied first.
    let mut back = Store::open(&dir.join("back.sqlite3"), Access::Create).expect("sqlite");
    let middle = copy(&team, &mut back, Pick::Ids(vec![in_team[1].id]));
    assert_eq!(bodies(&middle), [added[0]]);
    let plant = Some(DEMO_PLANT.to_owned());
    let rest = copy(&team, &mut back, Pick::All { plant });
    assert_eq!(bodies(&rest), [Some(0), None, Some(0)]);
    let listed = back.list(None).expect("list");
    assert_eq!(without_ids(listed.clone()), without_ids(originals.clone()));
    let newest = back
        .complete_newest_first(DEMO_PLANT, None)
        .expect("chosen");
    let newest: Vec<i64> = newest.iter().map(|s| s.id).collect();
    assert_eq!(newest, [listed[1].id, listed[0].id]);
    for (original, copy) in originals.iter().zip(&listed) {
        same_snapshot(&desktop, original.id, &back, copy.id, &out);
    }
}

#[tokio::test]
async fn a_copy_stopped_or_failed_midway_leaves_the_target_as_it_was() {
    let s = stores("stops").await;
    let (client, dir, mut desktop) = (&s.client, s.dir.path(), s.desktop);
    take_into(&mut [&mut desktop], client, ago(1), failed).await;
    // A snapshot still being taken is left out.
    let mut taker = Store::open(&s.desktop_path, Access::Write).expect("a second writer");
    let taking = taker
        .begin("demo", "OTHER-01", SystemTime::now())
        .expect("begin");
    let into_file = dir.join("other.sqlite3");
    let mut into_file = Store::open(&into_file, Access::Create).expect("sqlite");
    let all = Pick::All { plant: None };

    // Stopped (Ctrl-C) with every answer written but not committed: nothing stays.
    let mut last_written = 0;
    let stopped = into_file.copy_from(&desktop, &all, &mut |event| match event {
        CopyEvent::Written { from, done } if done == from.nodes => {
            last_written = done;
            ControlFlow::Break(())
        }
        _ => ControlFlow::Continue(()),
    });
    assert!(
        matches!(stopped, Err(Error::CopyStopped { .. })),
        "{stopped:?}"
    );
    assert!(last_written > 100, "stopped after {last_written} answers");
    assert!(into_file.list(None).expect("list").is_empty());

    // The server lost (restarted) just before the commit: the copy fails, nothing stays.
    let mut team = Store::open(s.team_url.as_ref(), Access::Create).expect("postgres");
    let lost = team.copy_from(&desktop, &all, &mut |event| {
        if matches!(event, CopyEvent::Written { from, done } if done == from.nodes) {
            s.cluster.restart();
        }
        ControlFlow::Continue(())
    });
    let message = lost.expect_err("the connection was lost").to_string();
    assert!(message.contains("team store"), "{message}");
    let mut team = Store::open(s.team_url.as_ref(), Access::Create).expect("reopened");
    assert!(team.list(None).expect("list").is_empty());

    // Copied in full afterwards, each writes every body: none was left behind.
    let whole = copy(&desktop, &mut into_file, all.clone());
    let outcomes: Vec<&Outcome> = whole.iter().map(|c| &c.outcome).collect();
    assert!(
        matches!(outcomes[..], [Outcome::Copied { .. }, Outcome::BeingTaken]),
        "{whole:?}"
    );
    assert_eq!(bodies(&copy(&desktop, &mut team, all)), bodies(&whole));
    let original = without_ids(desktop.list(Some(DEMO_PLANT)).expect("list"));
    assert_eq!(without_ids(team.list(None).expect("list")), original);
    drop(taking);
}

/// A take of another plant that needs the bodies and nodes a copy has added but not yet
/// committed waits for the copy, then finds them (the insert does nothing, a fresh
/// select finds their ids): both snapshots are whole. (Workers of their own serve the
/// demo while this thread copies.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_take_beside_a_copy_waits_for_its_new_bodies_then_finds_them() {
    let mut s = stores("beside").await;
    take_into(&mut [&mut s.desktop], &s.client, ago(1), |_| {}).await;
    let (desktop, client, cluster) = (&s.desktop, &s.client, &s.cluster);
    let db = s.team_url.rsplit('/').next().expect("a database");
    let mut team = Store::open(s.team_url.as_ref(), Access::Create).expect("postgres");
    let mut other = Store::open(s.team_url.as_ref(), Access::Write).expect("postgres");
    let runtime = &tokio::runtime::Handle::current();
    let taken = std::thread::scope(|scope| {
        let (mut take, mut other) = (None, Some(&mut other));
        let all = Pick::All { plant: None };
        team.copy_from(desktop, &all, &mut |event| {
            if matches!(event, CopyEvent::Written { from, done } if done == from.nodes) {
                // The copy's rows are written, not committed: the take meets them.
                let other = other.take().expect("one take");
                take = Some(scope.spawn(move || {
                    let mut writer = other.begin("demo", "OTHER-01", SystemTime::now())?;
                    let crawl = runtime.block_on(crawl_demo(client, |answer| {
                        writer.answer(answer).expect("queued");
                    }));
                    writer.finish_crawl(&crawl)
                }));
                let waiting =
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'";
                let waits = (0..200).any(|_| {
                    std::thread::sleep(Duration::from_millis(50));
                    cluster.query(db, waiting) == "1"
                });
                assert!(waits, "the take never waited for the copy");
            }
            ControlFlow::Continue(())
        })
        .expect("copied");
        take.expect("started").join().expect("no panic")
    })
    .expect("the take ends");
    assert!(taken.complete, "{taken:?}");
    let copied = &team.list(Some(DEMO_PLANT)).expect("list")[0];
    assert_eq!((copied.nodes, copied.bytes), (taken.nodes, taken.bytes));
    let search = |id| team.search(id, "SN-M-0001", 10).expect("search");
    assert!(!search(taken.id).is_empty());
    assert_eq!(search(taken.id), search(copied.id));
}
