//! The store's rules, a table each: what the diff of two snapshots reports (and warns),
//! which snapshots `retire` removes, and which ones `complete_newest_first` chooses for
//! a plant and a source. Snapshots are written through the public API, as a crawl
//! writes them, with answers shaped as the AAS V2.0.1 gateway sends them.

use std::time::{Duration, SystemTime};

use aas_model::AssetType;
use aas_snapshot::{Access, Change, ChangeKind, Error, Store};
use aas_source::{ErrorKind, Failure, Fetched, NodePath};
use serde_json::{json, Value};

const PUMP: &str = "urn:example:aas:machine#pump-1";
const FAN: &str = "urn:example:aas:machine#fan-1";
const VALVE: &str = "urn:example:aas:machine#valve-1";
const DRILL: &str = "urn:example:aas:tool#drill-1";

// ---------------------------------------------------------------------------------
// Answers of the gateway.

/// A shell as the AAS list gives it.
fn shell(id: &str) -> Value {
    json!({
        "idShort": id.rsplit('#').next(),
        "identification": {"idType": "IRI", "id": id},
        "modelType": {"name": "AssetAdministrationShell"},
    })
}

fn shells(ids: &[&str]) -> Value {
    ids.iter().map(|id| shell(id)).collect()
}

/// A shell's submodels list.
fn submodels(id_shorts: &[&str]) -> Value {
    id_shorts
        .iter()
        .map(|s| {
            json!({"idShort": s, "identification": {"idType": "IRI", "id": format!("urn:sm:{s}")},
                        "modelType": {"name": "Submodel"}})
        })
        .collect()
}

fn element(model_type: &str, id_short: &str, value: Value) -> Value {
    json!({"idShort": id_short, "modelType": {"name": model_type}, "value": value})
}

fn prop(id_short: &str, value: &str) -> Value {
    element("Property", id_short, json!(value))
}

fn mlp(id_short: &str, texts: &[(&str, &str)]) -> Value {
    let texts: Value = texts
        .iter()
        .map(|(language, text)| json!({"language": language, "text": text}))
        .collect();
    element("MultiLanguageProperty", id_short, texts)
}

fn collection(id_short: &str, children: Vec<Value>) -> Value {
    element(
        "SubmodelElementCollection",
        id_short,
        Value::Array(children),
    )
}

// The pump's Nameplate as the base plant has it, piece by piece.
fn name() -> Value {
    mlp("Name", &[("de", "Pumpe"), ("en", "Pump")])
}
fn address() -> Value {
    collection(
        "Address",
        vec![prop("City", "Bonn"), prop("Street", "Main")],
    )
}
fn contact() -> Value {
    collection("Contact", vec![prop("Phone", "123")])
}

// ---------------------------------------------------------------------------------
// Places in the tree.

fn list(asset_type: AssetType) -> NodePath {
    NodePath::AasList { asset_type }
}
fn submodels_of(aas_id: &str) -> NodePath {
    NodePath::Submodels {
        aas_id: aas_id.into(),
    }
}
fn elements_of(aas_id: &str, submodel: &str) -> NodePath {
    NodePath::Elements {
        aas_id: aas_id.into(),
        submodel: submodel.into(),
    }
}
/// The pump's Nameplate, the place most cases change.
fn nameplate() -> NodePath {
    elements_of(PUMP, "Nameplate")
}

// ---------------------------------------------------------------------------------
// Snapshots.

/// What one snapshot holds: its answers by place, its failed places, whether complete.
#[derive(Clone)]
struct Snapshot {
    source: &'static str,
    plant: &'static str,
    gateway: &'static str,
    answers: Vec<(NodePath, Value)>,
    failed: Vec<NodePath>,
    complete: bool,
}

impl Snapshot {
    fn new() -> Self {
        Snapshot {
            source: "profile-a",
            plant: "P1",
            gateway: "http://gateway.example",
            answers: Vec::new(),
            failed: Vec::new(),
            complete: true,
        }
    }

    /// With `body` at `path`, in place of what was there.
    fn with(mut self, path: NodePath, body: Value) -> Self {
        self.answers.retain(|(p, _)| *p != path);
        self.answers.push((path, body));
        self
    }

    fn without(mut self, path: NodePath) -> Self {
        self.answers.retain(|(p, _)| *p != path);
        self
    }

    /// `path` failed: no answer, a failure, a partial snapshot.
    fn failing(mut self, path: NodePath) -> Self {
        self = self.without(path.clone());
        self.failed.push(path);
        self.partial()
    }

    /// Ended partial (cancelled, or the node limit reached) with no failure recorded.
    fn partial(mut self) -> Self {
        self.complete = false;
        self
    }

    fn taken_by(mut self, source: &'static str, plant: &'static str) -> Self {
        (self.source, self.plant) = (source, plant);
        self
    }

    fn at_gateway(mut self, gateway: &'static str) -> Self {
        self.gateway = gateway;
        self
    }

    fn url(&self, path: &NodePath) -> String {
        format!("{}/{}", self.gateway, path.keys().join("/"))
    }
}

/// The plant every diff case starts from: two machines and a tool.
fn plant() -> Snapshot {
    Snapshot::new()
        .with(NodePath::Registry, json!([{"id": "urn:example:registry"}]))
        .with(list(AssetType::MACHINE), shells(&[PUMP, FAN]))
        .with(list(AssetType::TOOL), shells(&[DRILL]))
        .with(
            submodels_of(PUMP),
            submodels(&["Nameplate", "TechnicalData"]),
        )
        .with(
            nameplate(),
            json!([prop("Serial", "SN-1"), name(), address(), contact()]),
        )
        .with(
            elements_of(PUMP, "TechnicalData"),
            json!([prop("Speed", "1450"), prop("Datasheet", "/files/pump.pdf")]),
        )
        .with(submodels_of(FAN), submodels(&["Nameplate"]))
        .with(
            elements_of(FAN, "Nameplate"),
            json!([prop("Serial", "F-1")]),
        )
        .with(submodels_of(DRILL), submodels(&["Nameplate"]))
        .with(
            elements_of(DRILL, "Nameplate"),
            json!([prop("Serial", "D-1")]),
        )
}

/// A time `minutes` after a fixed start.
fn minute(minutes: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000 + 60 * minutes)
}

/// Writes `snapshot` into `store` as a crawl would; its id.
fn take(store: &mut Store, snapshot: &Snapshot, taken_at: SystemTime) -> i64 {
    let mut writer = store
        .begin(snapshot.source, snapshot.plant, taken_at)
        .expect("begin");
    for (path, body) in &snapshot.answers {
        let fetched = Fetched {
            path: path.clone(),
            url: snapshot.url(path),
            raw: body.to_string().into(),
        };
        writer.answer(fetched).expect("answer stored");
    }
    for path in &snapshot.failed {
        let failure = Failure {
            path: path.clone(),
            url: snapshot.url(path),
            kind: ErrorKind::Server,
            message: "HTTP 500".into(),
        };
        writer.failure(&failure).expect("failure stored");
    }
    writer.finish(snapshot.complete).expect("finished").id
}

fn new_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("temporary folder");
    let store = Store::open(&dir.path().join("snapshots.sqlite3"), Access::Create).expect("store");
    (dir, store)
}

// ---------------------------------------------------------------------------------
// 1. The diff.

struct DiffCase {
    name: &'static str,
    old: Snapshot,
    new: Snapshot,
    changes: Vec<Change>,
    warnings: Vec<&'static str>,
}

/// One expected change; `path` is the idShort path joined with `/` (`""`: none).
fn change(
    kind: ChangeKind,
    aas_id: &str,
    submodel: Option<&str>,
    path: &str,
    old: Option<&str>,
    new: Option<&str>,
) -> Change {
    Change {
        change: kind,
        aas_id: aas_id.into(),
        submodel: submodel.map(Into::into),
        path: path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(Into::into)
            .collect(),
        old: old.map(Into::into),
        new: new.map(Into::into),
    }
}

fn diff_cases() -> Vec<DiffCase> {
    use ChangeKind::{Added, Changed, Removed};
    let np = Some("Nameplate");
    let case = |name, old, new, changes, warnings| DiffCase {
        name,
        old,
        new,
        changes,
        warnings,
    };
    vec![
        case("nothing changed", plant(), plant(), vec![], vec![]),
        case(
            "a property's value changed",
            plant(),
            plant().with(
                nameplate(),
                json!([prop("Serial", "SN-2"), name(), address(), contact()]),
            ),
            vec![change(Changed, PUMP, np, "Serial", Some("SN-1"), Some("SN-2"))],
            vec![],
        ),
        case(
            "an element added, with its value",
            plant(),
            plant().with(
                nameplate(),
                json!([prop("Serial", "SN-1"), name(), address(), contact(),
                       prop("Weight", "12 kg")]),
            ),
            vec![change(Added, PUMP, np, "Weight", None, Some("12 kg"))],
            vec![],
        ),
        case(
            "an element removed, with its old value",
            plant(),
            plant().with(nameplate(), json!([name(), address(), contact()])),
            vec![change(Removed, PUMP, np, "Serial", Some("SN-1"), None)],
            vec![],
        ),
        case(
            "an element added inside a collection: its idShort path",
            plant(),
            plant().with(
                nameplate(),
                json!([prop("Serial", "SN-1"), name(),
                       collection("Address", vec![prop("City", "Bonn"), prop("Street", "Main"),
                                                  prop("Zip", "53111")]),
                       contact()]),
            ),
            vec![change(Added, PUMP, np, "Address/Zip", None, Some("53111"))],
            vec![],
        ),
        case(
            "a collection removed: one entry at its top, no value",
            plant(),
            plant().with(nameplate(), json!([prop("Serial", "SN-1"), name(), contact()])),
            vec![change(Removed, PUMP, np, "Address", None, None)],
            vec![],
        ),
        case(
            "a collection added: one entry at its top, no value",
            plant(),
            plant().with(
                nameplate(),
                json!([prop("Serial", "SN-1"), name(), address(), contact(),
                       collection("Billing", vec![prop("City", "Köln")])]),
            ),
            vec![change(Added, PUMP, np, "Billing", None, None)],
            vec![],
        ),
        case(
            "a MultiLanguageProperty's text changed: its texts a line per language",
            plant(),
            plant().with(
                nameplate(),
                json!([prop("Serial", "SN-1"), mlp("Name", &[("de", "Pumpe"), ("en", "Pump unit")]),
                       address(), contact()]),
            ),
            vec![change(
                Changed,
                PUMP,
                np,
                "Name",
                Some("de: Pumpe\nen: Pump"),
                Some("de: Pumpe\nen: Pump unit"),
            )],
            vec![],
        ),
        case(
            "a MultiLanguageProperty's language added",
            plant(),
            plant().with(
                nameplate(),
                json!([prop("Serial", "SN-1"),
                       mlp("Name", &[("de", "Pumpe"), ("en", "Pump"), ("fr", "Pompe")]),
                       address(), contact()]),
            ),
            vec![change(
                Changed,
                PUMP,
                np,
                "Name",
                Some("de: Pumpe\nen: Pump"),
                Some("de: Pumpe\nen: Pump\nfr: Pompe"),
            )],
            vec![],
        ),
        case(
            "elements reordered within a collection: nothing (paired by idShort path)",
            plant(),
            plant().with(
                nameplate(),
                json!([prop("Serial", "SN-1"), name(),
                       collection("Address", vec![prop("Street", "Main"), prop("City", "Bonn")]),
                       contact()]),
            ),
            vec![],
            vec![],
        ),
        case(
            "an element moved to another collection: removed there, added here",
            plant(),
            plant().with(
                nameplate(),
                json!([prop("Serial", "SN-1"), name(),
                       collection("Address", vec![prop("Street", "Main")]),
                       collection("Contact", vec![prop("Phone", "123"), prop("City", "Bonn")])]),
            ),
            vec![
                change(Removed, PUMP, np, "Address/City", Some("Bonn"), None),
                change(Added, PUMP, np, "Contact/City", None, Some("Bonn")),
            ],
            vec![],
        ),
        case(
            "an element's model type changed, its value not",
            plant(),
            plant().with(
                elements_of(PUMP, "TechnicalData"),
                json!([prop("Speed", "1450"),
                       element("File", "Datasheet", json!("/files/pump.pdf"))]),
            ),
            vec![change(
                Changed,
                PUMP,
                Some("TechnicalData"),
                "Datasheet",
                Some("/files/pump.pdf"),
                Some("/files/pump.pdf"),
            )],
            vec![],
        ),
        case(
            "a shell added: one entry, nothing below it",
            plant(),
            plant()
                .with(list(AssetType::MACHINE), shells(&[PUMP, FAN, VALVE]))
                .with(submodels_of(VALVE), submodels(&["Nameplate"]))
                .with(elements_of(VALVE, "Nameplate"), json!([prop("Serial", "V-1")])),
            vec![change(Added, VALVE, None, "", None, None)],
            vec![],
        ),
        case(
            "a shell removed: one entry, nothing below it",
            plant(),
            plant()
                .with(list(AssetType::MACHINE), shells(&[PUMP]))
                .without(submodels_of(FAN))
                .without(elements_of(FAN, "Nameplate")),
            vec![change(Removed, FAN, None, "", None, None)],
            vec![],
        ),
        case(
            "a submodel added: one entry, its elements not listed",
            plant(),
            plant()
                .with(submodels_of(PUMP), submodels(&["Nameplate", "TechnicalData", "Documentation"]))
                .with(elements_of(PUMP, "Documentation"), json!([prop("Manual", "m.pdf")])),
            vec![change(Added, PUMP, Some("Documentation"), "", None, None)],
            vec![],
        ),
        case(
            "a submodel removed: one entry, its elements not listed",
            plant(),
            plant()
                .with(submodels_of(PUMP), submodels(&["Nameplate"]))
                .without(elements_of(PUMP, "TechnicalData")),
            vec![change(Removed, PUMP, Some("TechnicalData"), "", None, None)],
            vec![],
        ),
        case(
            "changes in several shells, sorted by shell, submodel and path",
            plant(),
            plant()
                .with(elements_of(FAN, "Nameplate"), json!([prop("Serial", "F-2")]))
                .with(nameplate(), json!([prop("Serial", "SN-2"), name(), address(), contact()]))
                .with(submodels_of(PUMP), submodels(&["Nameplate"]))
                .without(elements_of(PUMP, "TechnicalData")),
            vec![
                change(Changed, FAN, np, "Serial", Some("F-1"), Some("F-2")),
                change(Changed, PUMP, np, "Serial", Some("SN-1"), Some("SN-2")),
                change(Removed, PUMP, Some("TechnicalData"), "", None, None),
            ],
            vec![],
        ),
        case(
            "the registry changed: no entry",
            plant(),
            plant().with(NodePath::Registry, json!([{"id": "urn:example:registry-2"}])),
            vec![],
            vec![],
        ),
        case(
            "the same answers from another gateway URL: nothing (paired by place)",
            plant(),
            plant().at_gateway("https://gateway-2.example"),
            vec![],
            vec![],
        ),
        // Reported as the tool list saw it; the fan's own change is not reported.
        case(
            "a shell moved from the machine list to the tool list",
            plant(),
            plant()
                .with(list(AssetType::MACHINE), shells(&[PUMP]))
                .with(list(AssetType::TOOL), shells(&[DRILL, FAN]))
                .with(elements_of(FAN, "Nameplate"), json!([prop("Serial", "F-2")])),
            vec![
                change(Added, FAN, None, "", None, None),
                change(Removed, FAN, None, "", None, None),
            ],
            vec![],
        ),
        // Warnings: a node that failed on either side is named, never reported removed.
        case(
            "a list failed in the new snapshot: its shells are not called removed",
            plant(),
            plant().failing(list(AssetType::TOOL)),
            vec![],
            vec!["the tool list failed in one of the snapshots: not compared"],
        ),
        case(
            "a list failed in the old snapshot: its shells are not called added",
            plant().failing(list(AssetType::TOOL)),
            plant(),
            vec![],
            vec!["the tool list failed in one of the snapshots: not compared"],
        ),
        case(
            "a shell's submodels failed: named, its elements (not fetched) not reported",
            plant(),
            plant()
                .failing(submodels_of(PUMP))
                .without(nameplate())
                .without(elements_of(PUMP, "TechnicalData")),
            vec![],
            vec!["the submodels of urn:example:aas:machine#pump-1 failed in one of the snapshots: not compared"],
        ),
        case(
            "elements failed in the old snapshot: named, the new ones not called added",
            plant().failing(nameplate()),
            plant(),
            vec![],
            vec!["the elements of urn:example:aas:machine#pump-1 Nameplate failed in one of the snapshots: not compared"],
        ),
        case(
            "a failure beside real changes: both said",
            plant(),
            plant()
                .failing(list(AssetType::TOOL))
                .with(elements_of(FAN, "Nameplate"), json!([prop("Serial", "F-2")])),
            vec![change(Changed, FAN, np, "Serial", Some("F-1"), Some("F-2"))],
            vec!["the tool list failed in one of the snapshots: not compared"],
        ),
        case(
            "a node that failed in both snapshots: no answer differs, no warning",
            plant().failing(elements_of(FAN, "Nameplate")),
            plant().failing(elements_of(FAN, "Nameplate")),
            vec![],
            vec![],
        ),
        // A partial snapshot with no failure recorded (a cancelled crawl, the node limit):
        // what it lacks is not compared, and the warning counts it.
        case(
            "a partial snapshot lacking a list (cancelled): its shells not called removed",
            plant(),
            plant()
                .partial()
                .without(list(AssetType::TOOL))
                .without(submodels_of(DRILL))
                .without(elements_of(DRILL, "Nameplate")),
            vec![],
            vec!["the newer snapshot is partial (its crawl was cancelled or cut short): 3 answers the other holds are not in it and not compared; compare complete snapshots to see them"],
        ),
        case(
            "a partial old snapshot lacking an elements answer: counted, the new one not called added",
            plant().partial().without(elements_of(PUMP, "TechnicalData")),
            plant(),
            vec![],
            vec!["the older snapshot is partial (its crawl was cancelled or cut short): 1 answer the other holds is not in it and not compared; compare complete snapshots to see them"],
        ),
        case(
            "a partial snapshot holding all the other holds: changes only, no warning",
            plant(),
            plant()
                .partial()
                .with(elements_of(FAN, "Nameplate"), json!([prop("Serial", "F-2")])),
            vec![change(Changed, FAN, np, "Serial", Some("F-1"), Some("F-2"))],
            vec![],
        ),
        case(
            "a complete snapshot lacking a list: its shells are removed",
            plant(),
            plant()
                .without(list(AssetType::TOOL))
                .without(submodels_of(DRILL))
                .without(elements_of(DRILL, "Nameplate")),
            vec![change(Removed, DRILL, None, "", None, None)],
            vec![],
        ),
        case(
            "two sources and two plants: compared all the same, no warning",
            plant(),
            plant()
                .taken_by("profile-b", "P2")
                .with(elements_of(FAN, "Nameplate"), json!([prop("Serial", "F-2")])),
            vec![change(Changed, FAN, np, "Serial", Some("F-1"), Some("F-2"))],
            vec![],
        ),
    ]
}

#[test]
fn diff_reports_each_change_once_at_the_finest_level() {
    let (_dir, mut store) = new_store();
    for case in diff_cases() {
        let old = take(&mut store, &case.old, minute(0));
        let new = take(&mut store, &case.new, minute(1));
        let diff = store
            .diff(old, new)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(diff.changes, case.changes, "{}: changes", case.name);
        assert_eq!(diff.warnings, case.warnings, "{}: warnings", case.name);
    }
}

#[test]
fn diff_of_a_snapshot_not_there_is_refused() {
    let (_dir, mut store) = new_store();
    let id = take(&mut store, &plant(), minute(0));
    for (name, old, new) in [("old", id + 1, id), ("new", id, id + 1)] {
        let refused = store.diff(old, new);
        assert!(
            matches!(refused, Err(Error::NoSuchSnapshot(n)) if n == id + 1),
            "{name} not there: {refused:?}"
        );
    }
}

// ---------------------------------------------------------------------------------
// Sequences of snapshots for retire and the source rules: empty ones, taken a minute
// apart in the order given unless a case says when.

#[derive(Clone, Copy)]
struct Taken {
    source: &'static str,
    plant: &'static str,
    complete: bool,
    /// The minute it was taken at; `None`: its place in the sequence.
    at: Option<u64>,
}

/// A complete snapshot of `plant` from `source`.
fn c(source: &'static str, plant: &'static str) -> Taken {
    Taken {
        source,
        plant,
        complete: true,
        at: None,
    }
}

/// A partial one.
fn p(source: &'static str, plant: &'static str) -> Taken {
    Taken {
        complete: false,
        ..c(source, plant)
    }
}

impl Taken {
    fn at(self, minute: u64) -> Self {
        Taken {
            at: Some(minute),
            ..self
        }
    }
}

/// A new store holding `sequence`, and the ids of its snapshots in that order.
fn store_of(sequence: &[Taken]) -> (tempfile::TempDir, Store, Vec<i64>) {
    let (dir, mut store) = new_store();
    let ids = sequence
        .iter()
        .zip(0..)
        .map(|(t, n)| {
            let snapshot = Snapshot {
                complete: t.complete,
                ..Snapshot::new().taken_by(t.source, t.plant)
            };
            take(&mut store, &snapshot, minute(t.at.unwrap_or(n)))
        })
        .collect();
    (dir, store, ids)
}

/// The ids at `positions` of the sequence.
fn ids_at(ids: &[i64], positions: &[usize]) -> Vec<i64> {
    positions.iter().map(|&n| ids[n]).collect()
}

// ---------------------------------------------------------------------------------
// 2. Keep the newest N.

struct RetireCase {
    name: &'static str,
    sequence: Vec<Taken>,
    /// source, plant, keep
    retire: (&'static str, &'static str, usize),
    /// Positions in the sequence, oldest first.
    retired: Vec<usize>,
}

fn retire_cases() -> Vec<RetireCase> {
    let case = |name, sequence, retire, retired| RetireCase {
        name,
        sequence,
        retire,
        retired,
    };
    let (a, b) = ("profile-a", "profile-b");
    vec![
        case(
            "keep 2 of 4 complete",
            vec![c(a, "P"); 4],
            (a, "P", 2),
            vec![0, 1],
        ),
        case(
            "keep 1 of 3 complete",
            vec![c(a, "P"); 3],
            (a, "P", 1),
            vec![0, 1],
        ),
        case(
            "keep as many as there are",
            vec![c(a, "P"); 3],
            (a, "P", 3),
            vec![],
        ),
        case(
            "keep more than there are",
            vec![c(a, "P"); 2],
            (a, "P", 5),
            vec![],
        ),
        case(
            "keep 0 is keep 1",
            vec![c(a, "P"); 3],
            (a, "P", 0),
            vec![0, 1],
        ),
        case("no snapshot at all", vec![], (a, "P", 1), vec![]),
        case(
            "partial ones older than the oldest kept go with it",
            vec![p(a, "P"), c(a, "P"), p(a, "P"), c(a, "P"), c(a, "P")],
            (a, "P", 2),
            vec![0, 1, 2],
        ),
        case(
            "a partial one newer than the oldest kept stays",
            vec![c(a, "P"), c(a, "P"), p(a, "P"), c(a, "P")],
            (a, "P", 2),
            vec![0],
        ),
        case(
            "partial ones newer than the newest complete stay",
            vec![c(a, "P"), c(a, "P"), p(a, "P"), p(a, "P")],
            (a, "P", 1),
            vec![0],
        ),
        case(
            "only partial ones: none retired",
            vec![p(a, "P"); 3],
            (a, "P", 1),
            vec![],
        ),
        // See the report: these partial ones are older than every snapshot kept.
        case(
            "fewer complete than keep: older partial ones stay too",
            vec![p(a, "P"), p(a, "P"), c(a, "P")],
            (a, "P", 2),
            vec![],
        ),
        case(
            "another source's snapshots of the plant stay, partial or not",
            vec![
                c(a, "P"),
                c(b, "P"),
                p(b, "P"),
                c(a, "P"),
                c(b, "P"),
                c(a, "P"),
            ],
            (a, "P", 1),
            vec![0, 3],
        ),
        case(
            "another source's complete ones do not count towards keep",
            vec![c(a, "P"), c(a, "P"), c(b, "P"), c(b, "P")],
            (a, "P", 2),
            vec![],
        ),
        case(
            "another plant's snapshots stay",
            vec![
                c(a, "P"),
                c(a, "Q"),
                c(a, "P"),
                p(a, "Q"),
                c(a, "Q"),
                c(a, "P"),
            ],
            (a, "P", 1),
            vec![0, 2],
        ),
        case(
            "a source that never took the plant: none retired",
            vec![c(a, "P"), c(a, "P")],
            (b, "P", 1),
            vec![],
        ),
        case(
            "newest is the latest taken_at (a copied snapshot keeps its time), not the last stored",
            vec![c(a, "P").at(50), c(a, "P").at(10), c(a, "P").at(20)],
            (a, "P", 2),
            vec![1],
        ),
        case(
            "taken in the same second: the last stored is the newer",
            vec![c(a, "P").at(5), c(a, "P").at(5), c(a, "P").at(5)],
            (a, "P", 2),
            vec![0],
        ),
    ]
}

#[test]
fn retire_keeps_the_newest_complete_snapshots_of_one_source_and_plant() {
    for case in retire_cases() {
        let (_dir, mut store, ids) = store_of(&case.sequence);
        let (source, plant, keep) = case.retire;
        let retired = store
            .retire(source, plant, keep)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(
            retired,
            ids_at(&ids, &case.retired),
            "{}: retired",
            case.name
        );
        let mut left: Vec<i64> = store
            .list(None)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name))
            .iter()
            .map(|s| s.id)
            .collect();
        // Listed in the order taken; the sequence's ids in the order stored.
        left.sort();
        let expected: Vec<i64> = ids.into_iter().filter(|id| !retired.contains(id)).collect();
        assert_eq!(left, expected, "{}: left", case.name);
    }
}

// ---------------------------------------------------------------------------------
// 3. Which snapshots are chosen by default.

struct SourceCase {
    name: &'static str,
    sequence: Vec<Taken>,
    plant: &'static str,
    source: Option<&'static str>,
    /// Positions in the sequence, newest first; or the sources `SeveralSources` names.
    chosen: Result<Vec<usize>, Vec<&'static str>>,
}

fn source_cases() -> Vec<SourceCase> {
    let case = |name, sequence, plant, source, chosen| SourceCase {
        name,
        sequence,
        plant,
        source,
        chosen,
    };
    let (a, b) = ("profile-a", "profile-b");
    vec![
        case(
            "one source, none named: its complete ones, newest first",
            vec![c(a, "P"); 3],
            "P",
            None,
            Ok(vec![2, 1, 0]),
        ),
        case(
            "one source, named",
            vec![c(a, "P"); 3],
            "P",
            Some(a),
            Ok(vec![2, 1, 0]),
        ),
        case(
            "partial ones are left out",
            vec![c(a, "P"), p(a, "P"), c(a, "P"), p(a, "P")],
            "P",
            None,
            Ok(vec![2, 0]),
        ),
        case(
            "only partial ones: none",
            vec![p(a, "P"), p(a, "P")],
            "P",
            None,
            Ok(vec![]),
        ),
        case(
            "another plant's are left out",
            vec![c(a, "P"), c(a, "Q"), c(a, "P")],
            "P",
            None,
            Ok(vec![2, 0]),
        ),
        case(
            "another plant's other source does not count",
            vec![c(a, "P"), c(b, "Q")],
            "P",
            None,
            Ok(vec![0]),
        ),
        case(
            "two sources, none named: both named back, sorted",
            vec![c(b, "P"), c(a, "P")],
            "P",
            None,
            Err(vec![a, b]),
        ),
        case(
            "two sources, one named: only its ones",
            vec![c(a, "P"), c(b, "P"), c(a, "P"), c(b, "P")],
            "P",
            Some(b),
            Ok(vec![3, 1]),
        ),
        case(
            "a second source with only partial ones: the one that can be chosen from",
            vec![c(a, "P"), p(b, "P")],
            "P",
            None,
            Ok(vec![0]),
        ),
        case(
            "a source named that never took the plant: none",
            vec![c(a, "P")],
            "P",
            Some(b),
            Ok(vec![]),
        ),
        case(
            "a plant never taken: none",
            vec![c(a, "P")],
            "Q",
            None,
            Ok(vec![]),
        ),
        case(
            "newest is the latest taken_at (a copied snapshot keeps its time), not the last stored",
            vec![c(a, "P").at(50), c(a, "P").at(10), c(a, "P").at(20)],
            "P",
            None,
            Ok(vec![0, 2, 1]),
        ),
    ]
}

#[test]
fn the_complete_snapshots_of_one_source_are_chosen_newest_first() {
    for case in source_cases() {
        let (_dir, store, ids) = store_of(&case.sequence);
        let chosen = store.complete_newest_first(case.plant, case.source);
        match (chosen, &case.chosen) {
            (Ok(chosen), Ok(positions)) => {
                let chosen: Vec<i64> = chosen.iter().map(|s| s.id).collect();
                assert_eq!(chosen, ids_at(&ids, positions), "{}", case.name);
            }
            (Err(Error::SeveralSources { plant, sources }), Err(named)) => {
                assert_eq!(plant, case.plant, "{}: plant", case.name);
                assert_eq!(sources, *named, "{}: sources", case.name);
            }
            (chosen, expected) => {
                panic!("{}: got {chosen:?}, expected {expected:?}", case.name)
            }
        }
    }
}
