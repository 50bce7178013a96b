//! The Quality view's questions, against the app's own demo service over loopback: the
//! audit of a snapshot of the demo plant (with its seeded gaps), its summary agreeing
//! with the findings, and every gap of every group opened in the tree as the page
//! would open it: the shell in its asset type's list, the submodel, the elements down
//! to the gap, and a missing element absent there.

use aas_app::{App, AuditRequest, Gap, SnapshotStore, SourceRef};
use aas_audit::Kind;
use aas_model::OutlineNode;
use aas_source::NodePath;

const PLANT: &str = "DEMO-01";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_plants_audit_and_each_gap_opened_in_the_tree() {
    let home = std::env::temp_dir().join(format!("aas-quality-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    // No templates of the user running the tests.
    std::env::set_var("XDG_DATA_HOME", home.join("data"));
    let app = App::start_with_demo()
        .await
        .expect("demo service")
        .with_store(SnapshotStore::at(home.join("snapshots.sqlite3")));
    let no_audit = app.audit_group(0, 0, 10).expect_err("nothing audited yet");
    assert!(no_audit.to_string().contains("Quality view"), "{no_audit}");
    let types: Vec<String> = aas_model::AssetType::PLATFORM
        .iter()
        .map(|t| t.code().to_owned())
        .collect();
    let taken = app
        .take_snapshot(PLANT.into(), &types, |_| {})
        .await
        .expect("taken");

    let progress = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = progress.clone();
    let request = AuditRequest {
        plant: PLANT.into(),
        ..AuditRequest::default()
    };
    let summary = app
        .audit(request, move |p| {
            seen.lock().expect("lock").push(p.shells_done)
        })
        .await
        .expect("audited");
    assert_eq!(
        summary.snapshot.info.id, taken.snapshot.id,
        "the newest complete one"
    );
    assert_eq!(summary.shells, 21);
    assert_eq!(
        *progress.lock().expect("lock"),
        (1..=21).collect::<Vec<_>>()
    );
    let line = |title: &str| {
        let t = (summary.templates.iter())
            .find(|t| t.title == title)
            .expect("judged by");
        (t.complete, t.shells)
    };
    assert_eq!(line("Digital Nameplate 3.0"), (6, 7));
    assert_eq!(line("Technical Data 1.2"), (16, 21));
    assert_eq!(line("Contact Information 1.0"), (0, 0));
    let findings: usize = summary.groups.iter().map(|g| g.findings).sum();
    assert_eq!(findings, summary.errors + summary.warnings);
    assert!(summary
        .groups
        .windows(2)
        .all(|w| w[0].findings >= w[1].findings));
    assert!(summary.groups.iter().all(|g| !g.rule.is_empty()));

    let source = SourceRef::Snapshot(aas_app::SnapshotRef {
        store: aas_app::StoreKind::Here,
        id: summary.snapshot.info.id,
    });
    let mut kinds = std::collections::BTreeSet::new();
    for group in &summary.groups {
        let page = app.audit_group(group.group, 0, 1000).expect("group");
        assert_eq!(page.group, *group);
        assert_eq!(page.gaps.len(), group.findings);
        let first_two = app.audit_group(group.group, 1, 2).expect("window");
        assert_eq!(first_two.gaps[..], page.gaps[1..page.gaps.len().min(3)]);
        for gap in &page.gaps {
            assert_eq!((gap.kind, gap.severity), (group.kind, group.severity));
            opened_in_the_tree(&app, &source, gap).await;
            kinds.insert(gap.kind);
        }
    }
    // The demo's gaps are of these kinds (crates/aas-audit/tests/plant.rs names them).
    for kind in [
        Kind::Missing,
        Kind::EmptyValue,
        Kind::ValueNotOfType,
        Kind::WrongModelType,
    ] {
        assert!(kinds.contains(&kind), "{kind:?} in {kinds:?}");
    }
    let past = app.audit_group(summary.groups.len(), 0, 1);
    assert!(past.is_err(), "no such group");
}

/// Opens `gap` as the tree would: its shell in its asset type's list, its submodel,
/// then each element of `open`; a missing element is not among the last one's children.
async fn opened_in_the_tree(app: &App, source: &SourceRef, gap: &Gap) {
    let children = |node: NodePath| async move { app.children(source, &node).await.expect("node") };
    let asset_type = gap.asset_type.clone().expect("listed");
    let shells = children(NodePath::AasList { asset_type }).await;
    assert!(
        shells.iter().any(|s| s.id.as_deref() == Some(&gap.aas_id)),
        "{gap:?}"
    );
    let submodels = children(NodePath::Submodels {
        aas_id: gap.aas_id.clone(),
    })
    .await;
    assert!(
        (submodels.iter()).any(|s| s.id_short.as_deref() == Some(&gap.submodel)),
        "{gap:?}"
    );
    let mut level: Vec<OutlineNode> = children(NodePath::Elements {
        aas_id: gap.aas_id.clone(),
        submodel: gap.submodel.clone(),
    })
    .await;
    for id_short in &gap.open {
        let node = (level.iter())
            .find(|n| n.id_short.as_deref() == Some(id_short))
            .unwrap_or_else(|| panic!("{id_short} is there: {gap:?}"));
        level = node.children.clone();
    }
    match (&gap.named, gap.kind) {
        (Some(named), Kind::Missing) => assert!(
            !level.iter().any(|n| n.id_short.as_deref() == Some(named)),
            "{named} is missing: {gap:?}"
        ),
        (None, Kind::Missing) => panic!("a missing element is named: {gap:?}"),
        _ => assert!(gap
            .path
            .ends_with(gap.open.last().map_or("", String::as_str))),
    }
}
