//! The Table tab's questions, against the app's own demo service over loopback: tables
//! of a snapshot of the demo plant built one after the other as the page asks for them,
//! each with the rows of its own asset type and snapshot, although the app keeps the
//! rows (and their column census) it read last.

use aas_app::{
    App, ColumnChoice, SnapshotRef, SnapshotStore, TableAnswer, TableAsk, TableRequest, TableShape,
};
use aas_model::AssetType;

const PLANT: &str = "DEMO-01";

async fn open(
    app: &App,
    snapshot: SnapshotRef,
    asset_type: Option<AssetType>,
    columns: &[&str],
) -> TableShape {
    let request = TableRequest {
        plant: PLANT.into(),
        snapshot: Some(snapshot),
        asset_type,
        columns: columns
            .iter()
            .map(|c| c.parse().expect("a column"))
            .collect(),
        languages: vec!["en".into()],
    };
    match app.table(TableAsk::Open(request)).await.expect("table") {
        TableAnswer::Shape(shape) => shape,
        other => panic!("not a shape: {other:?}"),
    }
}

async fn columns(app: &App, snapshot: SnapshotRef, asset_type: Option<AssetType>) -> ColumnChoice {
    let ask = TableAsk::Columns {
        plant: PLANT.into(),
        snapshot: Some(snapshot),
        asset_type,
    };
    match app.table(ask).await.expect("columns") {
        TableAnswer::Columns(choice) => choice,
        other => panic!("not the columns: {other:?}"),
    }
}

/// The shells' idShorts in the open table, in order.
async fn rows(app: &App, count: usize) -> Vec<String> {
    let ask = TableAsk::Rows { start: 0, count };
    match app.table(ask).await.expect("rows") {
        TableAnswer::Rows(rows) => rows.into_iter().map(|r| r.id_short).collect(),
        other => panic!("not rows: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_table_has_the_rows_of_its_own_asset_type_and_snapshot() {
    let home = std::env::temp_dir().join(format!("aas-plant-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let app = App::start_with_demo()
        .await
        .expect("demo service")
        .with_store(SnapshotStore::at(home.join("snapshots.sqlite3")));
    let types: Vec<String> = (AssetType::ALL.iter())
        .map(|t| t.code().to_owned())
        .collect();
    let here = |taken: &aas_app::SnapshotTaken| SnapshotRef {
        store: aas_app::Place::Here,
        id: taken.snapshot.id,
    };
    let all_types = here(
        &app.take_snapshot(PLANT.into(), &types, |_| {})
            .await
            .expect("taken"),
    );
    let machines_only = here(
        &(app
            .take_snapshot(PLANT.into(), &["machine".to_owned()], |_| {})
            .await)
            .expect("taken"),
    );

    // The default columns: the census of the machines, which the picker then lists.
    let machines = open(&app, all_types, Some(AssetType::Machine), &[]).await;
    let machine_rows = rows(&app, 1000).await;
    assert_eq!(machines.total, machine_rows.len());
    assert!(
        machine_rows.iter().all(|r| r.starts_with("Machine")),
        "{machine_rows:?}"
    );
    let offered = columns(&app, all_types, Some(AssetType::Machine)).await;
    assert_eq!(offered.census.shells, machines.total);

    // Every type of the same snapshot: more rows than the machines kept from before.
    let every = open(&app, all_types, None, &["shell:idShort", "shell:assetType"]).await;
    assert!(
        every.total > machines.total,
        "{} of {}",
        every.total,
        machines.total
    );
    let every_census = columns(&app, all_types, None).await;
    assert_eq!(every_census.census.shells, every.total);
    assert!(every_census.census.columns.len() > offered.census.columns.len());

    // The machines again, other columns: the same rows, in the same order.
    let again = open(
        &app,
        all_types,
        Some(AssetType::Machine),
        &["Nameplate/SerialNumber"],
    )
    .await;
    assert_eq!(again.total, machines.total);
    assert_eq!(rows(&app, 1000).await, machine_rows);

    // The tools, then the tools of another snapshot, which holds the machines alone.
    let tools = open(&app, all_types, Some(AssetType::Tool), &["shell:idShort"]).await;
    assert!(tools.total > 0);
    let no_tools = open(
        &app,
        machines_only,
        Some(AssetType::Tool),
        &["shell:idShort"],
    )
    .await;
    assert_eq!(no_tools.snapshot.info.id, machines_only.id);
    assert_eq!(no_tools.total, 0);
}
