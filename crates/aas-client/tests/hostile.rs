//! Broken and hostile answers, from a small real HTTP server built to send them (the
//! sandbox is too well-behaved): each gives a clear bad_data error on its node, nothing
//! panics, and the next request still works.

mod support;

use aas_client::{Client, ErrorKind};
use axum::extract::Path;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;

const GOOD: &str = r#"{"modelType":{"name":"AssetAdministrationShell"},"idShort":"ok","identification":{"id":"ok","idType":"Custom"},"asset":{"keys":[]}}"#;

fn body(kind: &str) -> Response {
    let json = [(CONTENT_TYPE, "application/json")];
    match kind {
        "big" => (json, format!("[{}]", vec![GOOD; 20_000].join(","))).into_response(),
        "utf8" => (json, vec![b'"', 0xff, 0xfe, b'"']).into_response(),
        "html" => (
            [(CONTENT_TYPE, "text/html")],
            "<html><body>502 Bad Gateway</body></html>",
        )
            .into_response(),
        "deep" => (
            json,
            format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
        )
            .into_response(),
        "null" => (json, "null").into_response(),
        "string" => (json, r#""just a string""#).into_response(),
        _ => (json, GOOD).into_response(),
    }
}

async fn hostile_server() -> String {
    let app = Router::new()
        .route(
            "/auth/realms/r/protocol/openid-connect/token",
            post(|| async {
                Json(json!({"access_token": "t", "expires_in": 300, "token_type": "Bearer"}))
            }),
        )
        .route(
            "/gateway/aasList/{kind}",
            get(|Path(kind): Path<String>| async move { body(&kind) }),
        )
        .route(
            "/gateway/aasList/{kind}/aas/submodels",
            get(|Path(kind): Path<String>| async move { body(&kind) }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

fn client(base: &str) -> Client {
    support::quick_client(base, "r").with_max_body(1 << 20)
}

#[tokio::test]
async fn every_broken_answer_is_bad_data_on_its_node_and_the_next_request_works() {
    let base = hostile_server().await;
    let c = client(&base);
    for (kind, says) in [
        ("big", "larger than 1048576 bytes"),
        ("utf8", "not UTF-8"),
        ("html", "not JSON"),
        ("null", "expected a sequence"),
        ("string", "expected a sequence"),
    ] {
        let err = c.submodels(kind).await.expect_err(kind);
        assert_eq!(err.kind(), ErrorKind::BadData, "{kind}: {err}");
        assert!(err.to_string().contains(says), "{kind}: {err}");
        // The rest of the tree is untouched.
        let ok = c.aas("good").await.expect("a good node after a bad one");
        assert_eq!(ok.view().expect("typed").id_short, "ok");
    }
}

#[tokio::test]
async fn deep_nesting_fails_the_node_without_exhausting_the_stack() {
    let base = hostile_server().await;
    let list = client(&base)
        .submodels("deep")
        .await
        .map_err(|e| e.to_string());
    let items = list.expect("a well-formed list of one item");
    assert_eq!(items.len(), 1);
    let why = items[0]
        .view()
        .map(|_| ())
        .expect_err("not a submodel")
        .to_string();
    assert!(why.contains("expected a submodel"), "{why}");
}

#[tokio::test]
async fn a_null_where_an_object_belongs_keeps_its_text_and_says_why() {
    let base = hostile_server().await;
    let node = client(&base).aas("null").await.expect("the answer is JSON");
    assert_eq!(node.raw(), "null");
    let why = node.view().expect_err("not an AAS").to_string();
    assert!(why.contains("null"), "{why}");
}
