//! A server that takes the connection and never answers (as an address a firewall
//! drops is, for the connect timeout and the retries after it): within seconds the
//! status names which server the app waits for, long before an error could.

use std::time::Duration;

use aas_app::{App, Session, SnapshotStore, SourceRef, SILENCE_WORTH_SAYING};
use aas_client::Connection;
use aas_model::AssetType;
use aas_source::NodePath;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_names_a_silent_token_server_after_two_seconds() {
    // Connections wait in the listener's backlog: accepted by the system, never read.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let origin = format!("http://{}", silent.local_addr().expect("its address"));
    let conn: Connection = serde_json::from_value(serde_json::json!({
        "registry_url": "http://127.0.0.1:9/registry",
        "gateway_url": "http://127.0.0.1:9/gateway",
        "auth_url": origin,
        "token_url": format!("{origin}/realms/plant/protocol/openid-connect/token"),
        "realm": "plant",
        "client_id": "browser",
        "client_secret": "not-told",
        "user_token": "not-told-either",
        "allow_plain_http": true,
    }))
    .expect("a connection");
    let session = Session::new(
        "Silent",
        false,
        conn,
        vec!["P1".into()],
        &AssetType::PLATFORM,
    )
    .expect("a session");
    let dir = tempfile::tempdir().expect("a folder");
    let app = App::new(session, SnapshotStore::at(dir.path().join("s.sqlite3")));
    assert_eq!(app.status().await.waiting, None, "nothing asked yet");

    let source = SourceRef::Live { plant: "P1".into() };
    let shells = NodePath::AasList {
        asset_type: AssetType::MACHINE,
    };
    // Asked while the request still waits.
    let said = async {
        tokio::time::sleep(SILENCE_WORTH_SAYING + Duration::from_millis(500)).await;
        app.status().await.waiting
    };
    let waited = tokio::select! {
        answered = app.children(&source, &shells) => panic!("a silent server answered: {answered:?}"),
        said = said => said.expect("the wait is said"),
    };
    assert_eq!(waited.server, "the token server");
    assert_eq!(waited.origin, origin);
    assert!(waited.seconds >= 2, "{waited:?}");
    // The request given up (the view moved on), nothing is waited on any more.
    assert_eq!(app.status().await.waiting, None);
}
