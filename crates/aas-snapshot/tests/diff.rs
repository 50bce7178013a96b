//! The diff of two snapshots written as a crawl would write them: shells added and
//! removed (one entry each), submodels by idShort, elements by idShort path (of an added
//! or removed collection only its top), changed values old → new, nothing for the
//! registry, and a failed node never reported removed.

use std::time::SystemTime;

use aas_model::AssetType;
use aas_snapshot::{Access, Change, ChangeKind, Store};
use aas_source::{ErrorKind, Failure, Fetched, NodePath};
use serde_json::json;

const PUMP: &str = "urn:x:pump#1";

fn answer(path: NodePath, json: serde_json::Value) -> Fetched {
    Fetched {
        path,
        url: "http://gateway.example/…".into(),
        raw: json.to_string().into(),
    }
}

fn shells(ids: &[&str]) -> serde_json::Value {
    json!(ids
        .iter()
        .map(|id| json!({"idShort": "S", "identification": {"id": id}}))
        .collect::<Vec<_>>())
}

fn property(id_short: &str, value: &str) -> serde_json::Value {
    json!({"idShort": id_short, "modelType": {"name": "Property"}, "value": value})
}

/// A snapshot of: the registry (`registry`), machines `machines` (pump's submodels
/// `submodels`, its Nameplate `nameplate`), and tools, whose list `tools_fail`s.
fn take(
    store: &mut Store,
    registry: &str,
    machines: &[&str],
    submodels: &[&str],
    nameplate: serde_json::Value,
    tools_fail: bool,
) -> i64 {
    let mut writer = store.begin("test", "P", SystemTime::now()).expect("begin");
    let sm_list = json!(submodels
        .iter()
        .map(|s| json!({"idShort": s}))
        .collect::<Vec<_>>());
    let aas = |id: &str| id.to_owned();
    for fetched in [
        answer(NodePath::Registry, json!([{"registry": registry}])),
        answer(
            NodePath::AasList {
                asset_type: AssetType::MACHINE,
            },
            shells(machines),
        ),
        answer(NodePath::Submodels { aas_id: aas(PUMP) }, sm_list),
        answer(
            NodePath::Elements {
                aas_id: aas(PUMP),
                submodel: "Nameplate".into(),
            },
            nameplate,
        ),
    ] {
        writer.answer(fetched).expect("stored");
    }
    let tools = NodePath::AasList {
        asset_type: AssetType::TOOL,
    };
    if tools_fail {
        writer
            .failure(&Failure {
                path: tools,
                url: "http://gateway.example/aasList?AssetType=tool".into(),
                kind: ErrorKind::Offline,
                message: "cannot reach the server".into(),
            })
            .expect("stored");
    } else {
        writer
            .answer(answer(tools, shells(&["urn:x:drill#1"])))
            .expect("stored");
    }
    writer.finish(!tools_fail).expect("finished").id
}

fn change(
    kind: ChangeKind,
    aas_id: &str,
    submodel: Option<&str>,
    path: &[&str],
    old: Option<&str>,
    new: Option<&str>,
) -> Change {
    Change {
        change: kind,
        aas_id: aas_id.into(),
        submodel: submodel.map(Into::into),
        path: path.iter().map(|p| (*p).to_owned()).collect(),
        old: old.map(Into::into),
        new: new.map(Into::into),
    }
}

#[test]
fn each_change_is_one_entry_at_the_finest_level() {
    let path = std::env::temp_dir()
        .join(format!("aas-diff-{}", std::process::id()))
        .join("store.sqlite3");
    let _ = std::fs::remove_dir_all(path.parent().expect("dir"));
    let mut store = Store::open(&path, Access::Create).expect("store");
    let old = take(
        &mut store,
        "registry at port 1",
        &[PUMP, "urn:x:fan#1"],
        &["Nameplate", "Documentation"],
        json!([
            property("Serial", "SN-1"),
            property("Gone", "x"),
            {"idShort": "OldAddress", "modelType": {"name": "SubmodelElementCollection"},
             "value": [property("City", "Bonn")]},
        ]),
        false,
    );
    let new = take(
        &mut store,
        "registry at port 2",
        &[PUMP, "urn:x:valve#1"],
        &["Nameplate", "TechnicalData"],
        json!([
            property("Serial", "SN-2"),
            {"idShort": "Address", "modelType": {"name": "SubmodelElementCollection"},
             "value": [property("City", "Stuttgart"), property("Street", "Main")]},
        ]),
        true,
    );
    let diff = store.diff(old, new).expect("diff");
    use ChangeKind::{Added, Changed, Removed};
    let nameplate = Some("Nameplate");
    assert_eq!(
        diff.changes,
        [
            change(Removed, "urn:x:fan#1", None, &[], None, None),
            change(Removed, PUMP, Some("Documentation"), &[], None, None),
            change(Added, PUMP, nameplate, &["Address"], None, None),
            change(Removed, PUMP, nameplate, &["Gone"], Some("x"), None),
            change(Removed, PUMP, nameplate, &["OldAddress"], None, None),
            change(
                Changed,
                PUMP,
                nameplate,
                &["Serial"],
                Some("SN-1"),
                Some("SN-2")
            ),
            change(Added, PUMP, Some("TechnicalData"), &[], None, None),
            change(Added, "urn:x:valve#1", None, &[], None, None),
        ]
    );
    // The tools' list failed in the new snapshot: its drill is not called removed.
    assert_eq!(diff.warnings.len(), 1, "{:?}", diff.warnings);
    assert!(diff.warnings[0].contains("tool"), "{:?}", diff.warnings);

    assert!(store.diff(new, new).expect("same").changes.is_empty());
    std::fs::remove_dir_all(path.parent().expect("dir")).expect("cleanup");
}
