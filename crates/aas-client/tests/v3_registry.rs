//! A V3 source read through its registry: against the demo service's registry (its
//! descriptors' endpoints are its own routes), what is read equals what the repository
//! reading gives; against registries of our own, an endpoint at an origin the user did
//! not name is a failure of its own with no request sent there (until it is named), and
//! a shell whose descriptor names no submodel endpoints has its submodels read beside it.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use aas_client::{Repository, RepositoryPlan, Transport, V3Auth, V3Server};
use axum::routing::get;
use axum::{Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

mod support;

/// Reads `server` whole; every shell read is told first, before the submodels.
async fn read(server: V3Server) -> Repository {
    let mut told = None;
    let read = Arc::new(server)
        .read_repository(
            RepositoryPlan::default(),
            &CancellationToken::new(),
            &|_| {},
            &mut |shells| told = Some(shells),
        )
        .await
        .expect("read");
    let told = told.expect("the shells told once all were read");
    assert_eq!(ids(&told), ids(&read.shells), "every shell told");
    read
}

/// The ids of `items` (each as the server sent it), sorted.
fn ids(items: &[aas_client::Item]) -> Vec<String> {
    let id = |i: &aas_client::Item| {
        serde_json::from_str::<Value>(i.get()).ok()?["id"]
            .as_str()
            .map(str::to_owned)
    };
    let mut ids: Vec<String> = items.iter().filter_map(id).collect();
    ids.sort();
    ids
}

#[tokio::test]
async fn the_demos_registry_leads_to_what_its_repository_holds() {
    let demo = support::demo_service().await;
    let url = demo.info().v3_url.clone().expect("v3");
    let through =
        read(V3Server::registry(&url, V3Auth::None, &Transport::default()).expect("registry"))
            .await;
    let direct =
        read(V3Server::new(&url, V3Auth::None, &Transport::default()).expect("server")).await;
    assert!(through.reading.complete(), "{:?}", through.reading.failures);
    assert!(!direct.shells.is_empty());
    assert_eq!(ids(&through.shells), ids(&direct.shells));
    assert_eq!(ids(&through.submodels), ids(&direct.submodels));
    let steps = V3Server::registry(&url, V3Auth::None, &Transport::default())
        .expect("registry")
        .check()
        .await;
    let counted = format!(
        "{} shell descriptors (no credentials sent)",
        direct.shells.len()
    );
    assert_eq!(
        steps[1].outcome,
        aas_client::Outcome::Passed(counted),
        "{steps:?}"
    );
}

fn b64(id: &str) -> String {
    URL_SAFE_NO_PAD.encode(id)
}

fn shell(id: &str, submodels: &[&str]) -> Value {
    let refs: Vec<Value> = (submodels.iter())
        .map(|sm| json!({"type": "ModelReference", "keys": [{"type": "Submodel", "value": sm}]}))
        .collect();
    json!({"modelType": "AssetAdministrationShell", "id": id, "idShort": "s",
           "assetInformation": {"assetKind": "Instance"}, "submodels": refs})
}

fn descriptor(id: &str, href: &str) -> Value {
    json!({"id": id, "endpoints": [{"interface": "AAS-3.0", "protocolInformation": {"href": href}}]})
}

#[tokio::test]
async fn endpoints_are_followed_only_to_the_origins_named() {
    // Another origin: a repository the registry names, which counts what it is asked.
    let elsewhere = Router::new().route(
        &format!("/shells/{}", b64("urn:far")),
        get(|| async { Json(shell("urn:far", &[])) }),
    );
    let (far, far_requests) = support::serve_counting(elsewhere).await;
    let far_shell = format!("{far}/shells/{}", b64("urn:far"));
    // The registry, with a repository beside it under /repo.
    let registry = Router::new()
        .route(
            "/shell-descriptors",
            get({
                let far_shell = far_shell.clone();
                move |headers: axum::http::HeaderMap| async move {
                    let host = headers["host"].to_str().expect("a host").to_owned();
                    let near = format!("http://{host}/repo/shells/{}", b64("urn:near"));
                    Json(json!({"paging_metadata": {}, "result": [
                descriptor("urn:near", &near), descriptor("urn:far", &far_shell)]}))
                }
            }),
        )
        .route(
            &format!("/repo/shells/{}", b64("urn:near")),
            get(|| async { Json(shell("urn:near", &["urn:sm"])) }),
        )
        .route(
            &format!("/repo/submodels/{}", b64("urn:sm")),
            get(|| async {
                Json(json!({"modelType": "Submodel", "id": "urn:sm", "idShort": "Nameplate"}))
            }),
        );
    let (address, _) = support::serve_counting(registry).await;

    let read_here =
        read(V3Server::registry(&address, V3Auth::None, &Transport::default()).expect("registry"))
            .await;
    assert_eq!(ids(&read_here.shells), ["urn:near"]);
    assert_eq!(
        ids(&read_here.submodels),
        ["urn:sm"],
        "read beside the shell, no descriptor naming it"
    );
    assert_eq!(
        read_here.reading.failures.len(),
        1,
        "{:?}",
        read_here.reading.failures
    );
    let failure = &read_here.reading.failures[0];
    assert_eq!(failure.url, far_shell);
    assert!(
        failure.message.contains("which was not named as a source"),
        "{}",
        failure.message
    );
    assert_eq!(
        far_requests.load(Ordering::SeqCst),
        0,
        "nothing was sent there"
    );

    let named = V3Server::registry(&address, V3Auth::None, &Transport::default())
        .and_then(|s| s.allowing(&far, &Transport::default()))
        .expect("registry");
    let both = read(named).await;
    assert!(both.reading.complete(), "{:?}", both.reading.failures);
    assert_eq!(ids(&both.shells), ["urn:far", "urn:near"]);
    assert_eq!(far_requests.load(Ordering::SeqCst), 1);
}
