//! Arbitrary requests to the sandbox's router, in-process. The input is a request as
//! text, so seeds are readable and mutations stay near real requests:
//!
//! ```text
//! GET /gateway/aasList?plant=DEMO-01
//! Authorization: Bearer $ACCESS_TOKEN
//! UserToken: Bearer $USER_TOKEN
//!
//! optional body
//! ```
//!
//! `$ACCESS_TOKEN`, `$USER_TOKEN`, `$ADMIN_TOKEN`, `$CLIENT_ID`, `$CLIENT_SECRET` and
//! `$BASIC` (client id and secret for `Authorization: Basic`) stand for this run's
//! credentials, so the fuzzer gets past the token checks. Inputs the `http` crate
//! refuses to build (no server would pass them on) are skipped. Every answer must come
//! without a panic, below 500, and a JSON answer must parse, errors with an `error`.
#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use aas_sandbox::{Config, Service};
use axum::body::Body;
use axum::http::{header, Request, Response};
use axum::Router;
use base64::Engine;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tokio::runtime::Runtime;
use tower::ServiceExt;

struct Fixture {
    runtime: Runtime,
    router: Router,
    /// Placeholder and what it stands for.
    credentials: Vec<(&'static str, String)>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("tokio runtime");
        let config = Config {
            // Longer than any fuzzing run, so `$ACCESS_TOKEN` stays valid throughout.
            token_ttl: Duration::from_secs(30 * 24 * 3600),
            ..Config::default()
        };
        let service = Service::new(config, "http://127.0.0.1:8080").expect("sandbox");
        let info = &service.info;
        let token_request = format!(
            "POST /auth/realms/{}/protocol/openid-connect/token\n\
             Content-Type: application/x-www-form-urlencoded\n\n\
             grant_type=client_credentials&client_id={}&client_secret={}",
            info.realm, info.client_id, info.client_secret
        );
        let (_, body) = runtime.block_on(send(
            &service.router,
            request(&token_request).expect("token request"),
        ));
        let answer: Value = serde_json::from_slice(&body).expect("token answer");
        let access = answer["access_token"].as_str().expect("access token");
        let basic = base64::engine::general_purpose::STANDARD
            .encode(format!("{}:{}", info.client_id, info.client_secret));
        let credentials = vec![
            ("$ACCESS_TOKEN", access.to_owned()),
            ("$USER_TOKEN", info.user_token.clone()),
            ("$ADMIN_TOKEN", service.admin_token.clone()),
            ("$CLIENT_ID", info.client_id.clone()),
            ("$CLIENT_SECRET", info.client_secret.clone()),
            ("$BASIC", basic),
        ];
        Fixture {
            runtime,
            router: service.router,
            credentials,
        }
    })
}

/// The request written in `text` (see the top of this file), if `http` accepts it.
fn request(text: &str) -> Option<Request<Body>> {
    let (head, body) = text.split_once("\n\n").unwrap_or((text, ""));
    let mut lines = head.lines();
    let (method, target) = lines.next()?.split_once(' ')?;
    let mut builder = Request::builder().method(method).uri(target);
    for line in lines {
        let (name, value) = line.split_once(':')?;
        builder = builder.header(name.trim(), value.trim());
    }
    builder.body(Body::from(body.to_owned())).ok()
}

async fn send(router: &Router, request: Request<Body>) -> (Response<()>, axum::body::Bytes) {
    let response = router
        .clone()
        .oneshot(request)
        .await
        .expect("a router never fails");
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX)
        .await
        .expect("an answer's body is readable");
    (Response::from_parts(parts, ()), body)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let f = fixture();
    let text = f
        .credentials
        .iter()
        .fold(text.to_owned(), |t, (name, value)| t.replace(name, value));
    let Some(request) = request(&text) else {
        return;
    };
    let (response, body) = f.runtime.block_on(send(&f.router, request));
    let status = response.status();
    assert!(!status.is_server_error(), "{status} for a client's request");
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if json {
        let value: Value = serde_json::from_slice(&body).expect("a JSON answer parses");
        if !status.is_success() {
            assert!(
                value["error"].is_string(),
                "{status} without an error: {value}"
            );
        }
    }
});
