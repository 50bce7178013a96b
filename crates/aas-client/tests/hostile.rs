//! Broken and hostile answers, from a small real HTTP server built to send them (the
//! demo service is too well-behaved): each gives a clear bad_data error on its node, nothing
//! panics, and the next request still works.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use aas_client::{Client, Secret};
use aas_source::ErrorKind;
use axum::extract::Path;
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
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

/// A client secret and a user token long enough to be looked for, with characters
/// that every encoding changes.
const SECRET: &str = "Canary/+= ä&secret";
const USER_TOKEN: &str = "eyJ.user-token.canary";

/// A header as the server received it.
fn header(headers: &HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

async fn hostile_server() -> String {
    hostile_server_counting().await.0
}

/// [`hostile_server`], and how many requests it has received.
async fn hostile_server_counting() -> (String, Arc<AtomicUsize>) {
    let app = Router::new()
        // A token endpoint that refuses and echoes the request body (the form with the
        // client secret) in its description, and one whose lifetime is not JSON.
        .route(
            "/auth/realms/echo/protocol/openid-connect/token",
            post(|body: String| async move {
                let refusal = json!({"error": "invalid_client", "error_description": format!("bad request: {body}")});
                (StatusCode::UNAUTHORIZED, Json(refusal))
            }),
        )
        .route(
            "/auth/realms/infinite/protocol/openid-connect/token",
            post(|| async {
                (
                    [(CONTENT_TYPE, "application/json")],
                    r#"{"access_token":"t","expires_in":Infinity,"token_type":"Bearer"}"#,
                )
            }),
        )
        // A gateway error that echoes the request's headers.
        .route(
            "/gateway/aasList/echo",
            get(|headers: HeaderMap| async move {
                let echo = format!(
                    "500 while serving Authorization: {} UserToken: {}",
                    header(&headers, "authorization"),
                    header(&headers, "usertoken")
                );
                (StatusCode::INTERNAL_SERVER_ERROR, echo)
            }),
        )
        .route(
            "/gateway/aasList/loop",
            get(|| async { Redirect::temporary("/gateway/aasList/loop") }),
        )
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
    support::serve_counting(app).await
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
async fn deep_nesting_fails_the_node_as_bad_data_without_a_retry_or_a_walk() {
    let base = hostile_server().await;
    let c = client(&base);
    let err = c.submodels("deep").await.expect_err("too deep");
    assert_eq!(err.kind(), ErrorKind::BadData, "{err}");
    assert!(
        err.to_string()
            .contains("nested deeper than 100 levels (at byte 100)"),
        "{err}"
    );
    assert_eq!(
        c.activity().requests,
        1,
        "asked once: asking again brings the same"
    );
    let ok = c.aas("good").await.expect("a good node after a bad one");
    assert_eq!(ok.view().expect("typed").id_short, "ok");
}

#[tokio::test]
async fn a_null_where_an_object_belongs_keeps_its_text_and_says_why() {
    let base = hostile_server().await;
    let node = client(&base).aas("null").await.expect("the answer is JSON");
    assert_eq!(node.raw(), "null");
    let why = node.view().expect_err("not an AAS").to_string();
    assert!(why.contains("null"), "{why}");
}

#[tokio::test]
async fn secrets_a_server_echoes_never_reach_an_error() {
    let base = hostile_server().await;
    let mut conn = support::connection_to(&base, "echo");
    conn.client_secret = Secret::new(SECRET);
    conn.user_token = Secret::new(USER_TOKEN);
    let refused = Client::new(conn.clone())
        .expect("client")
        .registry()
        .await
        .expect_err("refused");
    assert_eq!(refused.kind(), ErrorKind::Auth, "{refused}");
    conn.realm = "r".into();
    let gateway = Client::new(conn).expect("client");
    let failed = gateway.aas("echo").await.expect_err("500");
    for err in [&refused, &failed] {
        let shown = format!("{err} {}", err.detail().unwrap_or_default());
        assert!(shown.contains("[redacted]"), "{shown}");
        for canary in ["Canary", "canary", "Q2FuYXJ5"] {
            assert!(!shown.contains(canary), "{canary} in {shown}");
        }
    }
    // The access token this request carried ("t") is too short to be looked for; the
    // description still says what the server said.
    assert!(refused.to_string().contains("bad request"), "{refused}");
}

#[tokio::test]
async fn a_redirect_loop_is_named_and_not_retried() {
    let base = hostile_server().await;
    let err = client(&base).aas("loop").await.expect_err("a loop");
    assert_eq!(err.kind(), ErrorKind::Config, "{err}");
    assert!(err.to_string().contains("redirect loop"), "{err}");
}

#[tokio::test]
async fn a_token_answer_that_is_not_json_names_the_token_endpoint() {
    let base = hostile_server().await;
    let err = support::quick_client(&base, "infinite")
        .aas("good")
        .await
        .expect_err("no token");
    assert_eq!(err.kind(), ErrorKind::BadData, "{err}");
    let said = err.to_string();
    assert!(
        said.contains("the token endpoint") && said.contains("/realms/infinite/"),
        "{said}"
    );
}

#[tokio::test]
async fn dot_identifiers_are_not_asked_for_at_another_address() {
    let (base, received) = hostile_server_counting().await;
    let c = client(&base);
    for (aas, submodel) in [
        ("..", None),
        (".", None),
        ("good", Some(".")),
        ("good", Some("..")),
    ] {
        let err = match submodel {
            None => c.submodels(aas).await.map(drop),
            Some(sm) => c.elements(aas, sm).await.map(drop),
        }
        .expect_err("refused");
        assert_eq!(err.kind(), ErrorKind::BadData, "{err}");
        assert!(err.to_string().contains("`.` or `..`"), "{err}");
        assert!(err.to_string().contains("%2E"), "encoded as %2E: {err}");
    }
    // Nothing was asked: `..` would have reached `/gateway/aasList/aas/submodels`.
    assert_eq!(received.load(Ordering::SeqCst), 0);
    let ok = c.aas("good").await.expect("the next request works");
    assert_eq!(ok.view().expect("typed").id_short, "ok");
}
