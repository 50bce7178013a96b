//! Load and export jobs against the app's own demo service, over loopback: one at a
//! time (a second gets `busy`), and a write that fails names the file and the OS error.

use std::path::PathBuf;

use aas_app::{App, Error};
use aas_client::ErrorKind;
use tokio::sync::Notify;

fn types() -> Vec<String> {
    vec!["machine".into(), "tool".into()]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_job_while_one_runs_is_busy_and_cancel_ends_the_first() {
    let app = App::start_with_demo().await.expect("demo service");
    let (started, wanted) = (Notify::new(), types());
    let first = app.load_everything("DEMO-01".into(), &wanted, |_| started.notify_one());
    let second = async {
        started.notified().await;
        let again = app.load_everything("DEMO-01".into(), &wanted, |_| {}).await;
        let export = app
            .export_loaded("raw", |_| async { Ok(Some(PathBuf::from("/never"))) })
            .await;
        app.cancel_job();
        (again, export)
    };
    let (first, (again, export)) = tokio::join!(first, second);
    for refused in [again.map(drop), export.map(drop)] {
        let e = refused.expect_err("busy");
        assert_eq!(e.kind(), ErrorKind::Busy, "{e}");
        assert!(matches!(e, Error::Busy("Load everything")), "{e}");
    }
    assert!(
        first.expect("the first load").cancelled,
        "Cancel reached the first job"
    );

    let whole = app
        .load_everything("DEMO-01".into(), &types(), |_| {})
        .await
        .expect("the slot is free again");
    assert!(!whole.cancelled && whole.failures.is_empty(), "{whole:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_that_cannot_be_written_names_the_file_and_the_os_error() {
    let app = App::start_with_demo().await.expect("demo service");
    app.load_everything("DEMO-01".into(), &types(), |_| {})
        .await
        .expect("loaded");
    let target = PathBuf::from("/nonexistent-folder-of-this-test/plant.json");
    let chosen = target.clone();
    let e = app
        .export_loaded("env", |_| async move { Ok(Some(chosen)) })
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
