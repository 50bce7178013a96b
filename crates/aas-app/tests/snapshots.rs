//! Snapshots through the application layer, against the app's own demo service over
//! loopback: the newest N complete ones are kept, search names each hit's asset type,
//! a snapshot browses as the live service does, and the store's failures have kinds
//! the page acts on.

use aas_app::{App, SnapshotRef, SourceRef, StoreKind};
use aas_model::AssetType;
use aas_source::ErrorKind;
use aas_source::NodePath;

const PLANT: &str = "DEMO-01";

fn types() -> Vec<String> {
    vec!["machine".into(), "tool".into()]
}

async fn app_with_store(test: &str) -> (App, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("aas-snapshots-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = dir.join("snapshots.sqlite3");
    let app = App::start_with_demo()
        .await
        .expect("demo service")
        .with_store(aas_app::SnapshotStore::at(store.clone()));
    (app, store)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_newest_complete_snapshots_are_kept_and_older_ones_are_named() {
    let (app, _) = app_with_store("keep").await;
    app.set_preference(aas_app::PreferenceChange::KeepSnapshots(2))
        .expect("keep 2");
    let mut taken = Vec::new();
    for _ in 0..3 {
        let t = app
            .take_snapshot(PLANT.into(), &types(), |_| {})
            .await
            .expect("taken");
        taken.push(t);
    }
    assert!(taken[0].retired.is_empty() && taken[1].retired.is_empty());
    assert_eq!(taken[2].retired, [taken[0].snapshot.id]);
    let list = app.snapshots(PLANT).expect("list");
    let ids: Vec<i64> = list.snapshots.iter().map(|s| s.info.id).collect();
    assert_eq!(ids, [taken[2].snapshot.id, taken[1].snapshot.id]);
    assert!(list.store.bytes > 0 && list.snapshots.iter().all(|s| s.info.bytes > 0));
    assert!(list.team.is_none() && list.snapshots.iter().all(|s| s.store == StoreKind::Here));

    // Nothing changed between the last two.
    let changes = app.changes(PLANT, None, None).expect("changes");
    assert_eq!(
        (changes.view.old.id, changes.view.new.id),
        (taken[1].snapshot.id, taken[2].snapshot.id)
    );
    assert!(
        changes.view.changes.is_empty(),
        "{:?}",
        changes.view.changes
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_browses_as_the_service_answers_and_search_names_the_asset_type() {
    let (app, _) = app_with_store("browse").await;
    let none = app
        .search(PLANT, "SN-M-0001", None, 10)
        .expect_err("no snapshot yet");
    assert_eq!(none.kind(), ErrorKind::NoSnapshot, "{none}");
    assert!(none.to_string().contains("Take snapshot"), "{none}");

    let id = app
        .take_snapshot(PLANT.into(), &types(), |_| {})
        .await
        .expect("taken")
        .snapshot
        .id;
    let found = app.search(PLANT, "SN-M-0001", None, 10).expect("search");
    assert_eq!(found.snapshot.id, id);
    let hit = found.hits.first().expect("the serial number");
    let serial = hit.hit.value.as_deref().unwrap_or_default();
    assert!(serial.starts_with("SN-M-0001"), "{serial}");
    assert_eq!(hit.asset_type.as_ref().map(|t| t.code()), Some("machine"));
    assert_eq!(
        hit.id_short.as_deref(),
        Some("Machine_M0001"),
        "as the tree names it"
    );
    let submodel = hit.hit.submodel.clone().expect("in a submodel");

    let live_source = SourceRef::Live {
        plant: PLANT.into(),
    };
    let stored_source = SourceRef::Snapshot(SnapshotRef {
        store: StoreKind::Here,
        id,
    });
    let machines = NodePath::AasList {
        asset_type: AssetType::MACHINE,
    };
    let live = app.children(&live_source, &machines).await.expect("live");
    let stored = app
        .children(&stored_source, &machines)
        .await
        .expect("stored");
    let ids = |nodes: &[aas_model::OutlineNode]| -> Vec<Option<String>> {
        nodes.iter().map(|n| n.id.clone()).collect()
    };
    assert_eq!(ids(&stored), ids(&live));
    // An asset type's chip counts its shells without the page holding their list.
    for source in [&live_source, &stored_source] {
        let count = app.shell_count(source, &AssetType::MACHINE).await;
        assert_eq!(count.expect("counted"), live.len(), "{source:?}");
    }
    assert!(!live.is_empty());
    // The list comes without each shell's JSON; it is asked for one shell at a time.
    assert!(live.iter().all(|n| n.raw.is_empty()), "{live:?}");
    for shell in live.iter().filter_map(|n| n.id.as_deref()) {
        let machine = AssetType::MACHINE;
        let of = |source| app.shell_json(source, &machine, shell);
        let (live, stored) = (of(&live_source).await, of(&stored_source).await);
        let live = live.expect("live");
        assert_eq!(stored.expect("stored"), live);
        assert!(live.contains(shell), "{live}");
    }
    let unknown = app
        .shell_json(&stored_source, &AssetType::MACHINE, "urn:x:none")
        .await;
    assert_eq!(
        unknown.expect_err("no such shell").kind(),
        ErrorKind::NotFound
    );
    let elements = NodePath::Elements {
        aas_id: hit.hit.aas_id.clone(),
        submodel,
    };
    let live = app.children(&live_source, &elements).await.expect("live");
    let stored = app
        .children(&stored_source, &elements)
        .await
        .expect("stored");
    assert_eq!(raws(&stored), raws(&live));

    // A type that was not crawled is not in the snapshot; the tree has no registry.
    let products = NodePath::AasList {
        asset_type: AssetType::PRODUCT,
    };
    let missing = app
        .children(&stored_source, &products)
        .await
        .expect_err("not crawled");
    assert_eq!(missing.kind(), ErrorKind::NotFound, "{missing}");
    let registry = app
        .children(&live_source, &NodePath::Registry)
        .await
        .expect_err("no registry level");
    assert_eq!(registry.kind(), ErrorKind::BadRequest, "{registry}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_store_is_named_and_moved_aside_on_request() {
    let (app, store) = app_with_store("damaged").await;
    std::fs::create_dir_all(store.parent().expect("folder")).expect("folder");
    std::fs::write(
        &store,
        b"this is not a database, only text that fills a page".repeat(200),
    )
    .expect("damaged file");
    let e = app.snapshots(PLANT).expect_err("damaged");
    assert_eq!(e.kind(), ErrorKind::StoreDamaged, "{e}");
    assert!(e.to_string().contains(&store.display().to_string()), "{e}");

    let moved = app.move_store_aside().expect("moved");
    assert!(moved.moved_to.exists() && moved.moved_to != store);
    let list = app.snapshots(PLANT).expect("a new store");
    assert!(list.snapshots.is_empty());
    app.take_snapshot(PLANT.into(), &types(), |_| {})
        .await
        .expect("taken into the new store");
}

fn raws(nodes: &[aas_model::OutlineNode]) -> Vec<&str> {
    nodes.iter().map(|n| n.raw.as_str()).collect()
}
