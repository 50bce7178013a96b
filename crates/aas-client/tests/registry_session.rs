//! The registry while browsing: read once per session (exports of a selection and the
//! endpoints of a shell reuse it; a refresh or a crawl of the whole plant reads it
//! again), and the endpoints it names are shown, marked when on another host, and
//! never contacted. A registry server in front of the demo's own answer, with the first
//! shell's endpoint moved to a recording server, counts what is asked of each.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use aas_client::{Client, Connection, CrawlPlan};
use aas_demo::DEMO_PLANT;
use aas_model::AssetType;
use aas_source::{Pick, Selection};
use axum::routing::get;
use axum::Router;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
    format!("http://{addr}")
}

/// A server that counts every request it gets, whatever the path.
async fn counting_server(count: Arc<AtomicUsize>) -> String {
    serve(Router::new().fallback(move || {
        count.fetch_add(1, Ordering::SeqCst);
        async { "{}" }
    }))
    .await
}

#[tokio::test]
async fn the_registry_is_read_once_per_session_and_other_hosts_are_only_shown() {
    let sb = support::demo_service().await;
    let demo = support::connection(&sb);
    let elsewhere_hits = Arc::new(AtomicUsize::new(0));
    let elsewhere = counting_server(elsewhere_hits.clone()).await;

    // The demo's registry answer, with the first shell's own endpoint on another host.
    let raw = Client::new(demo.clone())
        .expect("client")
        .registry_for_session()
        .await
        .expect("registry");
    let mut descriptors: Vec<Value> = serde_json::from_str(&raw).expect("json");
    let first = &mut descriptors[0];
    let aas_id = first["identification"]["id"]
        .as_str()
        .expect("id")
        .to_owned();
    first["endpoints"][0]["address"] = format!("{elsewhere}/aas/internal").into();
    let answer = serde_json::to_string(&descriptors).expect("json");
    let registry_hits = Arc::new(AtomicUsize::new(0));
    let hits = registry_hits.clone();
    let registry = serve(Router::new().route(
        "/api/v1/registry",
        get(move || {
            hits.fetch_add(1, Ordering::SeqCst);
            let answer = answer.clone();
            async move { answer }
        }),
    ))
    .await;

    let client = Arc::new(
        Client::new(Connection {
            registry_url: registry,
            ..demo
        })
        .expect("client"),
    );
    let endpoints = client.endpoints(&aas_id).await.expect("endpoints");
    let shell = endpoints
        .iter()
        .find(|e| e.submodel.is_none())
        .expect("shell endpoint");
    assert!(shell.elsewhere, "{shell:?}");
    assert_eq!(shell.address, format!("{elsewhere}/aas/internal"));
    let submodels: Vec<_> = endpoints.iter().filter(|e| e.submodel.is_some()).collect();
    assert!(!submodels.is_empty());
    assert!(
        submodels.iter().all(|e| !e.elsewhere),
        "on the gateway: {submodels:?}"
    );

    // Two exports of a ticked shell: the session's registry answer, not two more reads.
    let plan = CrawlPlan::new(DEMO_PLANT, AssetType::PLATFORM.to_vec());
    let ticked = Selection::from(Some(vec![Pick {
        aas_id: aas_id.clone(),
        submodels: None,
    }]));
    for _ in 0..2 {
        let crawl = client
            .crawl_selection(&plan, &ticked, &CancellationToken::new(), |_| {})
            .await;
        assert!(crawl.failures.is_empty(), "{:?}", crawl.failures);
        assert!(crawl
            .fetched
            .iter()
            .any(|f| f.raw.text().expect("text").contains("aas/internal")));
    }
    assert_eq!(registry_hits.load(Ordering::SeqCst), 1, "read once");

    // The whole plant reads it fresh; a refresh makes the next use read it again.
    let everything = client.crawl(&plan, &CancellationToken::new(), |_| {}).await;
    assert!(everything.failures.is_empty(), "{:?}", everything.failures);
    assert_eq!(registry_hits.load(Ordering::SeqCst), 2);
    client.forget_registry().await;
    client.endpoints(&aas_id).await.expect("endpoints");
    assert_eq!(registry_hits.load(Ordering::SeqCst), 3);

    assert_eq!(
        elsewhere_hits.load(Ordering::SeqCst),
        0,
        "the other host was never contacted"
    );
}
