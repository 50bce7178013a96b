//! Snapshot and export jobs against the app's own demo service, over loopback: one at a
//! time (a second gets `busy`), Cancel keeps a partial snapshot, and a write that fails
//! names the file and the OS error.

use std::path::PathBuf;

use aas_app::{App, Error, ExportRequest};
use aas_source::ErrorKind;
use aas_source::Pick;
use tokio::sync::Notify;

fn types() -> Vec<String> {
    vec!["machine".into(), "tool".into()]
}

/// The demo app over a store of its own in a fresh folder, removed when the folder is
/// dropped.
async fn app_with_store() -> (App, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a folder");
    let app = App::start_with_demo()
        .await
        .expect("demo service")
        .with_store(aas_app::SnapshotStore::at(
            dir.path().join("snapshots.sqlite3"),
        ));
    (app, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_job_while_one_runs_is_busy_and_cancel_ends_the_first() {
    let (app, _dir) = app_with_store().await;
    let wanted = types();
    // An export holds the one job slot while its save dialog is open (`join!` polls it
    // first, so it has the slot before the others ask).
    let dialog_closed = Notify::new();
    let request = ExportRequest {
        plant: "DEMO-01".into(),
        asset_types: wanted.clone(),
        picks: vec![Pick {
            aas_id: "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001".into(),
            submodels: None,
        }],
        format: "env".into(),
    };
    let export = app.export_selection(
        request,
        |_| async {
            dialog_closed.notified().await;
            Ok(None)
        },
        |_| {},
    );
    let others = async {
        let load = app.take_snapshot("DEMO-01".into(), &wanted, |_| {}).await;
        let again = app
            .export_snapshot("DEMO-01", None, "raw", |_| async {
                Ok(Some(PathBuf::from("/never")))
            })
            .await;
        dialog_closed.notify_one();
        (load, again)
    };
    let (export, (load, again)) = tokio::join!(export, others);
    for refused in [load.map(drop), again.map(drop)] {
        let e = refused.expect_err("busy");
        assert_eq!(e.kind(), ErrorKind::Busy, "{e}");
        assert!(matches!(e, Error::Busy("An export")), "{e}");
    }
    assert!(
        export.expect("the export").path.is_none(),
        "the dialog was cancelled"
    );

    // Cancel reaches the snapshot being taken: here from its first progress report.
    // What was fetched is kept, marked partial.
    let cancelled = app
        .take_snapshot("DEMO-01".into(), &wanted, |_| app.cancel_job())
        .await
        .expect("the slot is free again");
    assert!(cancelled.loaded.cancelled, "{cancelled:?}");
    assert!(!cancelled.snapshot.complete, "{cancelled:?}");
    let whole = app
        .take_snapshot("DEMO-01".into(), &wanted, |_| {})
        .await
        .expect("and free again");
    assert!(
        !whole.loaded.cancelled && whole.loaded.failures.is_empty() && whole.snapshot.complete,
        "{whole:?}"
    );
    let listed = app.snapshots("DEMO-01").expect("list").snapshots;
    let ids: Vec<i64> = listed.iter().map(|s| s.info.id).collect();
    assert_eq!(
        ids,
        [whole.snapshot.id, cancelled.snapshot.id],
        "newest first"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_that_cannot_be_written_names_the_file_and_the_os_error() {
    let (app, _dir) = app_with_store().await;
    app.take_snapshot("DEMO-01".into(), &types(), |_| {})
        .await
        .expect("taken");
    let target = PathBuf::from("/nonexistent-folder-of-this-test/plant.json");
    let chosen = target.clone();
    let e = app
        .export_snapshot("DEMO-01", None, "env", |_| async move { Ok(Some(chosen)) })
        .await
        .expect_err("no such folder");
    assert_eq!(e.kind(), ErrorKind::Io, "{e}");
    let message = e.to_string();
    assert!(message.contains(&target.display().to_string()), "{message}");
    let detail = e.detail().expect("the OS error as the cause");
    assert!(detail.contains("No such file or directory"), "{detail}");
}

#[tokio::test]
async fn debug_output_of_the_app_holds_no_secret() {
    let app = App::start_with_demo().await.expect("demo service");
    let client = app.session().client;
    let conn = client.connection();
    let shown = format!("{app:?} {:?}", app.session());
    for secret in [conn.client_secret.expose(), conn.user_token.expose()] {
        assert!(!shown.contains(secret), "a secret in {shown}");
    }
}
