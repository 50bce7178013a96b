//! A V3 server's credentials and Test connection: OAuth 2 client credentials against the
//! demo service's V3 server with sign-in (a real token endpoint, tokens it verifies), an
//! API key in the header a server of our own names, and what each refusal says, without
//! the secret.

use aas_client::{
    CheckStep, ClientAuth, Outcome, RepositoryPlan, Secret, Transport, V3Auth, V3Server,
};
use aas_demo::{Config, DemoService, StartupInfo};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

mod support;

async fn signed_in_demo() -> DemoService {
    DemoService::start(Config {
        v3_sign_in: true,
        ..Config::default()
    })
    .await
    .expect("demo service starts")
}

fn oauth(info: &StartupInfo, secret: &str) -> V3Auth {
    V3Auth::ClientCredentials {
        token_url: info.v3_token_url.clone().expect("signed in"),
        client_id: info.client_id.clone(),
        client_secret: Secret::new(secret),
        client_auth: ClientAuth::Form,
    }
}

fn v3_url(info: &StartupInfo) -> &str {
    info.v3_url.as_deref().expect("the demo serves V3")
}

fn outcome<'a>(steps: &'a [CheckStep], step: &str) -> &'a Outcome {
    &steps.iter().find(|s| s.step == step).expect(step).outcome
}

#[tokio::test]
async fn oauth_client_credentials_reach_a_signed_in_server_and_are_tested_step_by_step() {
    let demo = signed_in_demo().await;
    let info = demo.info();
    let server = V3Server::new(
        v3_url(info),
        oauth(info, &info.client_secret),
        &Transport::default(),
    )
    .expect("server");
    let steps = server.check().await;
    assert!(
        matches!(outcome(&steps, "token"), Outcome::Passed(t) if t.contains("valid for")),
        "{steps:?}"
    );
    assert!(
        matches!(outcome(&steps, "description"), Outcome::Passed(t)
            if t.starts_with("API 3.0: AssetAdministrationShellRepositoryServiceSpecification/SSP-002")),
        "{steps:?}"
    );
    let Outcome::Passed(shells) = outcome(&steps, "shells") else {
        panic!("{steps:?}")
    };
    assert!(
        shells.ends_with(" shells (with an OAuth 2 access token)"),
        "{shells}"
    );

    let read = Arc::new(server)
        .read_repository(
            RepositoryPlan::default(),
            &CancellationToken::new(),
            &|_| {},
            &mut |_| {},
        )
        .await
        .expect("read");
    assert!(
        read.reading.complete() && !read.shells.is_empty(),
        "{:?}",
        read.reading.failures
    );
}

#[tokio::test]
async fn a_signed_in_server_refuses_no_credentials_and_a_wrong_secret_in_words() {
    let demo = signed_in_demo().await;
    let info = demo.info();
    let server = V3Server::new(v3_url(info), V3Auth::None, &Transport::default()).expect("server");
    let steps = server.check().await;
    assert_eq!(steps.len(), 2, "no token step without OAuth: {steps:?}");
    assert!(
        matches!(outcome(&steps, "shells"), Outcome::Failed(t) if t.contains("did not accept our credentials")),
        "{steps:?}"
    );

    let wrong = "not-the-secret-at-all";
    let server =
        V3Server::new(v3_url(info), oauth(info, wrong), &Transport::default()).expect("server");
    let steps = server.check().await;
    assert!(
        matches!(outcome(&steps, "token"), Outcome::Failed(t) if t.contains("refused the client id or secret")),
        "{steps:?}"
    );
    assert!(
        matches!(outcome(&steps, "shells"), Outcome::Skipped(_)),
        "{steps:?}"
    );
    assert!(
        !format!("{steps:?}").contains(wrong),
        "the secret is not repeated"
    );
}

/// A server of our own that wants `X-Api-Key: the key`, echoes what it was sent in its
/// refusal, and offers no /description.
async fn keyed_server() -> String {
    const KEY: &str = "the-api-key-of-this-server";
    let shells = |headers: HeaderMap| async move {
        let sent = headers
            .get("x-api-key")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        if sent == KEY {
            let shell = json!({"modelType": "AssetAdministrationShell", "id": "urn:a", "idShort": "a",
                "assetInformation": {"assetKind": "Instance", "globalAssetId": "urn:a"}});
            Ok(Json(json!({"paging_metadata": {}, "result": [shell]})))
        } else {
            let text = format!("wrong key {sent:?}");
            Err((
                StatusCode::UNAUTHORIZED,
                Json(json!({"messages": [{"code": "401", "messageType": "Error", "text": text}]})),
            ))
        }
    };
    let app = Router::new().route("/shells", get(shells)).route(
        "/description",
        get(|| async { StatusCode::NOT_IMPLEMENTED }),
    );
    support::serve_counting(app).await.0
}

fn api_key(key: &str) -> V3Auth {
    V3Auth::ApiKey {
        header: "X-API-Key".into(),
        key: Secret::new(key),
    }
}

#[tokio::test]
async fn an_api_key_goes_in_the_header_the_server_names() {
    let address = keyed_server().await;
    let server = V3Server::new(
        &address,
        api_key("the-api-key-of-this-server"),
        &Transport::default(),
    )
    .expect("server");
    let steps = server.check().await;
    assert_eq!(
        outcome(&steps, "description"),
        &Outcome::Skipped("the server offers no /description (it is optional)".into())
    );
    assert_eq!(
        outcome(&steps, "shells"),
        &Outcome::Passed("1 shell (with the API key in x-api-key)".into())
    );

    let wrong = "a-wrong-key-that-is-long-enough";
    let server = V3Server::new(&address, api_key(wrong), &Transport::default()).expect("server");
    let Outcome::Failed(why) = outcome(&server.check().await, "shells").clone() else {
        panic!("refused")
    };
    assert!(why.contains("did not accept our credentials"), "{why}");
    assert!(
        !why.contains(wrong),
        "the key the server echoed is not repeated: {why}"
    );
}

#[test]
fn a_header_name_or_key_that_http_cannot_carry_is_refused_before_any_request() {
    let bad_name = V3Auth::ApiKey {
        header: "X API Key".into(),
        key: Secret::new("k"),
    };
    let why = V3Server::new("http://127.0.0.1:9", bad_name, &Transport::default())
        .expect_err("refused")
        .to_string();
    assert!(why.contains("is not a header name"), "{why}");
    let why = V3Server::new(
        "http://127.0.0.1:9",
        api_key("secret\nvalue"),
        &Transport::default(),
    )
    .expect_err("refused")
    .to_string();
    assert!(why.contains("no HTTP header can carry"), "{why}");
    assert!(!why.contains("secret"), "the key is not repeated: {why}");
}
