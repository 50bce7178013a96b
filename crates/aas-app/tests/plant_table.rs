//! The Table tab's questions, against the app's own demo service over loopback: tables
//! of a snapshot of the demo plant built one after the other as the page asks for them,
//! each with the rows of its own asset type and snapshot, although the app keeps the
//! rows (and their column census) it read last; and where a cell's element is, found
//! through its column or, for a column by semanticId, through the cell.

use aas_app::{
    App, ColumnChoice, ElementPlace, ShownRows, SnapshotRef, SnapshotStore, TableAsk, TableReply,
    TableRequest, TableShape,
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
        TableReply::Shape(shape) => shape,
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
        TableReply::Columns(choice) => choice,
        other => panic!("not the columns: {other:?}"),
    }
}

async fn rows(app: &App, start: usize, count: usize) -> ShownRows {
    match app
        .table(TableAsk::Rows { start, count })
        .await
        .expect("rows")
    {
        TableReply::Rows(rows) => rows,
        other => panic!("not rows: {other:?}"),
    }
}

async fn element(app: &App, row: usize, column: usize) -> ElementPlace {
    match app.table(TableAsk::Element { row, column }).await {
        Ok(TableReply::Element(place)) => place,
        other => panic!("not an element's place: {other:?}"),
    }
}

/// The shells of the open table's rows, in order.
async fn shells(app: &App, shown: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for row in 0..shown {
        ids.push(element(app, row, 0).await.aas_id);
    }
    ids
}

/// The app on its own demo service, with a fresh snapshot store of its own.
async fn demo_app(name: &str) -> App {
    let home = std::env::temp_dir().join(format!("aas-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    App::start_with_demo()
        .await
        .expect("demo service")
        .with_store(SnapshotStore::at(home.join("snapshots.sqlite3")))
}

/// A snapshot of the demo plant's shells of `types`, taken now.
async fn take(app: &App, types: &[String]) -> SnapshotRef {
    let taken = (app.take_snapshot(PLANT.into(), types, |_| {}).await).expect("taken");
    SnapshotRef {
        store: aas_app::StoreKind::Here,
        id: taken.snapshot.id,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_table_has_the_rows_of_its_own_asset_type_and_snapshot() {
    let app = demo_app("plant-table").await;
    let types: Vec<String> = (AssetType::PLATFORM.iter())
        .map(|t| t.code().to_owned())
        .collect();
    let all_types = take(&app, &types).await;
    let machines_only = take(&app, &["machine".to_owned()]).await;

    // The default columns: the census of the machines, which the picker then lists.
    let machines = open(&app, all_types, Some(AssetType::MACHINE), &[]).await;
    let machine_rows = shells(&app, machines.shown).await;
    let id_shorts = rows(&app, 0, machines.shown).await.texts;
    assert_eq!(machines.total, id_shorts.len());
    assert!(
        (id_shorts.iter()).all(|r| r[0].as_deref().is_some_and(|s| s.starts_with("Machine"))),
        "{id_shorts:?}"
    );
    let offered = columns(&app, all_types, Some(AssetType::MACHINE)).await;
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
        Some(AssetType::MACHINE),
        &["Nameplate/SerialNumber"],
    )
    .await;
    assert_eq!(again.total, machines.total);
    assert_eq!(shells(&app, again.shown).await, machine_rows);

    // The tools, then the tools of another snapshot, which holds the machines alone.
    let tools = open(&app, all_types, Some(AssetType::TOOL), &["shell:idShort"]).await;
    assert!(tools.total > 0);
    let no_tools = open(
        &app,
        machines_only,
        Some(AssetType::TOOL),
        &["shell:idShort"],
    )
    .await;
    assert_eq!(no_tools.snapshot.info.id, machines_only.id);
    assert_eq!(no_tools.total, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cell_opens_where_its_element_is_by_path_or_semantic_id() {
    let app = demo_app("table-cells").await;
    let snapshot = take(&app, &["machine".to_owned()]).await;
    let census = columns(&app, snapshot, Some(AssetType::MACHINE))
        .await
        .census;
    let serial = (census.columns.iter())
        .find(|o| o.column.to_string() == "Nameplate/SerialNumber")
        .and_then(|o| o.semantic_id.clone())
        .expect("the serial number's semanticId");
    let by_semantic_id = format!("semanticId:{serial}");
    let columns = [
        "Nameplate/SerialNumber",
        &by_semantic_id,
        "shell:idShort",
        "Nameplate/NoSuchElement",
    ];
    let shape = open(&app, snapshot, Some(AssetType::MACHINE), &columns).await;
    assert!(shape.shown > 1);

    let first = rows(&app, 0, 2).await;
    assert_eq!(first.kinds.len(), 2);
    for (kinds, texts) in first.kinds.iter().zip(&first.texts) {
        assert_eq!(kinds.len(), columns.len(), "{kinds}");
        assert!(kinds.ends_with('-'), "the last column is missing: {kinds}");
        assert_eq!(texts[0], texts[1], "one element, by path and by semanticId");
        assert_eq!(texts[3], None);
    }

    let by_path = element(&app, 1, 0).await;
    assert_eq!(by_path.submodel.as_deref(), Some("Nameplate"));
    assert_eq!(by_path.path, ["SerialNumber"]);
    assert_eq!(element(&app, 1, 1).await, by_path);
    let shell = element(&app, 1, 2).await;
    assert_eq!((shell.submodel, shell.path.len()), (None, 0));
    assert_eq!(shell.aas_id, by_path.aas_id);
    assert_ne!(element(&app, 0, 0).await.aas_id, by_path.aas_id);
    assert!(app
        .table(TableAsk::Element {
            row: shape.shown,
            column: 0
        })
        .await
        .is_err());
    assert!(app
        .table(TableAsk::Element {
            row: 0,
            column: columns.len()
        })
        .await
        .is_err());
}
