//! The team store in the app, against a real PostgreSQL server made for the test (as in
//! aas-snapshot's tests) and a real Secret Service for its password:
//! `scripts/with-keyring.sh cargo test -p aas-app --test team_store -- --include-ignored`
//! (`make test` does this). A scheduler's take is in the team store; the desktop, set
//! to it with the read-only role, lists it beside its own snapshots, browses, searches
//! and tabulates it; the password is in the keychain, never in the preferences.

#[path = "../../aas-snapshot/tests/support/cluster.rs"]
mod cluster;

use aas_source::ErrorKind;
use std::path::PathBuf;

use aas_app::{
    App, Keychain, PreferenceChange, SnapshotRef, SnapshotStore, SourceRef, StoreKind, TableAsk,
    TableRequest,
};
use aas_client::{CrawlPlan, Secret};
use aas_model::AssetType;
use aas_source::NodePath;
use cluster::Cluster;
use tokio_util::sync::CancellationToken;

const PLANT: &str = "DEMO-01";

/// `url` without its password, and the password.
fn split_password(url: &str) -> (String, String) {
    let (head, rest) = url.split_once("://").expect("a URL");
    let (user, host) = rest.split_once('@').expect("a role");
    let (role, password) = user.split_once(':').expect("a password");
    (format!("{head}://{role}@{host}"), password.to_owned())
}

fn team(url: Option<&str>, password: Option<&str>) -> PreferenceChange {
    PreferenceChange::TeamStore {
        url: url.map(str::to_owned),
        password: password.map(Secret::new),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_store_is_removed_even_where_there_is_no_keychain() {
    // Outside scripts/with-keyring.sh no Secret Service answers: removing the team store
    // must not need one (no password of it can be in a keychain that is not there).
    let dir = tempfile::tempdir().expect("temp dir");
    let app = App::start_with_demo()
        .await
        .expect("demo service")
        .with_store(SnapshotStore::at(dir.path().join("snapshots.sqlite3")));
    let url = "postgresql://aas@team-store.invalid/plants";
    app.set_preference(team(Some(url), None)).expect("named");
    assert_eq!(app.preferences().team_store.as_deref(), Some(url));
    app.set_preference(team(None, None)).expect("removed");
    assert_eq!(app.preferences().team_store, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Secret Service: run through scripts/with-keyring.sh (make test does)"]
async fn a_team_store_with_its_password_in_the_keychain_is_browsed_beside_this_computers_snapshots()
{
    let cluster = Cluster::start();
    let (writer, reader) = cluster.writer_and_reader("plants");
    aas_snapshot::Store::init_team(&writer, true, &["desktop".into()]).expect("init");
    let dir = tempfile::tempdir().expect("temp dir");
    let app = App::start_with_demo()
        .await
        .expect("demo service")
        .with_store(SnapshotStore::at(dir.path().join("snapshots.sqlite3")));

    // The scheduler's take, then one of this computer.
    let scheduler = SnapshotStore::at(PathBuf::from(&writer));
    let plan = CrawlPlan::new(PLANT, AssetType::PLATFORM.to_vec());
    let scheduled = scheduler
        .take(
            &app.session().client,
            "scheduler",
            &plan,
            10,
            &CancellationToken::new(),
            |_| {},
        )
        .await
        .expect("the scheduled take")
        .info;
    let types = vec!["machine".to_owned()];
    let here = app
        .take_snapshot(PLANT.into(), &types, |_| {})
        .await
        .expect("taken here")
        .snapshot;

    // The reader's URL is kept, its password goes to the keychain.
    let (url, password) = split_password(&reader);
    let refused = app
        .set_preference(team(Some(&reader), None))
        .expect_err("a password in the URL");
    assert!(!refused.to_string().contains(&password), "{refused}");
    app.set_preference(team(Some(&url), Some(&password)))
        .expect("team store set");
    assert_eq!(app.preferences().team_store.as_deref(), Some(url.as_str()));
    let kept = serde_json::to_string(&app.preferences()).expect("json");
    assert!(!kept.contains(&password), "{kept}");
    assert_eq!(
        Keychain
            .team_password(&url)
            .expect("keychain")
            .map(|s| s.expose().to_owned()),
        Some(password.clone())
    );

    // Both listed, newest first, each with where it lives.
    let list = app.snapshots(PLANT).expect("list");
    let listed: Vec<_> = list
        .snapshots
        .iter()
        .map(|s| (s.store, s.info.id))
        .collect();
    assert_eq!(
        listed,
        [(StoreKind::Here, here.id), (StoreKind::Team, scheduled.id)]
    );
    let team_view = list.team.expect("the team store named");
    assert_eq!(
        (team_view.url.as_str(), team_view.problem),
        (url.as_str(), None)
    );

    // The team's snapshot browses as the service answers.
    let at = SnapshotRef {
        store: StoreKind::Team,
        id: scheduled.id,
    };
    let machines = NodePath::AasList {
        asset_type: AssetType::MACHINE,
    };
    let live = SourceRef::Live {
        plant: PLANT.into(),
    };
    let ids = |nodes: Vec<aas_model::OutlineNode>| -> Vec<Option<String>> {
        nodes.into_iter().map(|n| n.id).collect()
    };
    let stored = app
        .children(&SourceRef::Snapshot(at), &machines)
        .await
        .expect("team");
    assert_eq!(
        ids(stored),
        ids(app.children(&live, &machines).await.expect("live"))
    );

    // Search, the table and changes name the team's snapshot.
    let found = app
        .search(PLANT, "SN-M-0001", Some(at), 10)
        .expect("search");
    assert_eq!(found.snapshot.id, scheduled.id);
    assert!(!found.hits.is_empty());
    let request = TableRequest {
        plant: PLANT.into(),
        snapshot: Some(at),
        asset_type: Some(AssetType::MACHINE),
        columns: vec![],
        languages: vec![],
    };
    let shape = match app.table(TableAsk::Open(request)).await.expect("table") {
        aas_app::TableReply::Shape(shape) => shape,
        other => panic!("not a shape: {other:?}"),
    };
    assert_eq!(
        (shape.snapshot.store, shape.snapshot.info.id),
        (StoreKind::Team, scheduled.id)
    );
    assert!(shape.total > 0);
    let mixed = SnapshotRef {
        store: StoreKind::Here,
        id: here.id,
    };
    let e = app
        .changes(PLANT, Some(mixed), Some(at))
        .expect_err("two stores");
    assert_eq!(e.kind(), ErrorKind::BadRequest, "{e}");

    // The reader may not remove the team's snapshot, and is told why.
    let e = app.delete_snapshot(at).expect_err("read-only role");
    assert!(e.to_string().contains("only read"), "{e}");

    // A wrong password: this computer's snapshots are listed, the team store says why.
    app.set_preference(team(Some(&url), Some("not-the-password")))
        .expect("set");
    let list = app.snapshots(PLANT).expect("list");
    assert_eq!(list.snapshots.len(), 1);
    let problem = list
        .team
        .and_then(|t| t.problem)
        .expect("the failure named");
    assert!(problem.contains("password"), "{problem}");
    assert!(!problem.contains(&password), "{problem}");

    // No team store: its password is forgotten.
    app.set_preference(team(None, None)).expect("none");
    assert_eq!(Keychain.team_password(&url).expect("keychain"), None);
    assert!(app.snapshots(PLANT).expect("list").team.is_none());
}
