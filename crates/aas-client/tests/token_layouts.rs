//! The token endpoint found however the token server is laid out and however the user
//! gave its address: the demo service serves Keycloak 16's layout (`/auth/realms/…`) and
//! 17's (`/realms/…`), each with its discovery document; a `token_url` given outright
//! wins; a document naming another origin is refused before the secret is sent.

mod support;

use std::sync::{Arc, Mutex};

use aas_client::{Client, Connection, Outcome};
use aas_demo::{Config, DemoService};
use aas_source::ErrorKind;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;

async fn demo_service_with_prefix(prefix: &str) -> DemoService {
    DemoService::start(Config {
        auth_path_prefix: prefix.into(),
        ..Config::default()
    })
    .await
    .expect("demo-service")
}

/// The token step of Test connection for `conn`: passed, and its words.
async fn token_step(conn: Connection) -> String {
    let steps = Client::new(conn).expect("client").check(None).await;
    match &steps[0].outcome {
        Outcome::Passed(text) => text.clone(),
        other => panic!("token step: {other:?}"),
    }
}

#[tokio::test]
async fn every_layout_and_every_way_of_giving_the_address_finds_the_token_endpoint() {
    for (prefix, layout) in [("", "Keycloak 17+"), ("/auth", "Keycloak 16")] {
        let sb = demo_service_with_prefix(prefix).await;
        let conn = support::connection(&sb);
        let base = conn.auth_url.clone();
        let endpoint = format!("{base}{prefix}/realms/demo/protocol/openid-connect/token");
        for auth_url in [
            base.clone(),
            format!("{base}/"),
            format!("{base}/auth"),
            format!("{base}{prefix}/realms/demo"),
        ] {
            let said = token_step(Connection {
                auth_url: auth_url.clone(),
                ..conn.clone()
            })
            .await;
            assert!(
                said.contains(&format!("from {endpoint},")),
                "{layout}, auth_url {auth_url}: {said}"
            );
        }
        // Given outright, the token endpoint is used whatever auth_url says.
        let said = token_step(Connection {
            auth_url: "http://127.0.0.1:9".into(),
            token_url: Some(endpoint.clone()),
            ..conn.clone()
        })
        .await;
        assert!(said.contains(&endpoint), "{layout}, token_url: {said}");
    }
}

#[tokio::test]
async fn a_token_endpoint_announced_on_another_origin_gets_no_secret() {
    let posts = Arc::new(Mutex::new(0));
    let counted = Arc::clone(&posts);
    let app = Router::new()
        .route(
            "/realms/r/.well-known/openid-configuration",
            get(|| async {
                Json(json!({
                    "issuer": "http://keycloak:8080/realms/r",
                    "token_endpoint": "http://keycloak:8080/realms/r/protocol/openid-connect/token"
                }))
            }),
        )
        .fallback(post(move || async move {
            *counted.lock().expect("lock") += 1;
            "{}"
        }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, app).await });

    let sb = support::demo_service().await;
    let conn = Connection {
        auth_url: base.clone(),
        realm: "r".into(),
        ..support::connection(&sb)
    };
    let err = Client::new(conn)
        .expect("client")
        .registry()
        .await
        .expect_err("refused");
    assert_eq!(err.kind(), ErrorKind::Config, "{err}");
    let words = err.to_string();
    assert!(
        words.contains("http://keycloak:8080") && words.contains("token_url"),
        "{words}"
    );
    assert_eq!(*posts.lock().expect("lock"), 0, "no token request anywhere");
}
