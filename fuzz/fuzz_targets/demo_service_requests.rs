//! Arbitrary sequences of requests to a fresh demo service router per input, in-process, so
//! that what one request changes (a grant, a user token) is what the next ones meet and
//! a failure reproduces from its input alone. The input is requests as text, separated
//! by a line `===`, so seeds are readable and mutations stay near real requests:
//!
//! ```text
//! PUT /demo-service/admin/grants
//! Authorization: Bearer $ADMIN_TOKEN
//!
//! {"client_id":"$CLIENT_ID","aas_id":"…","grant":"denied"}
//! ===
//! GET /gateway/aasList/…
//! Authorization: Bearer $ACCESS_TOKEN
//! UserToken: Bearer $USER_TOKEN
//! ```
//!
//! `$ACCESS_TOKEN`, `$USER_TOKEN`, `$ADMIN_TOKEN`, `$CLIENT_ID`, `$CLIENT_SECRET` and
//! `$BASIC` (client id and secret for `Authorization: Basic`) stand for the fresh
//! service's credentials, so the fuzzer gets past the token checks. Requests the `http`
//! crate refuses to build (no server would pass them on) are skipped. Every answer must
//! come without a panic, below 500, and a JSON answer must parse, errors with an
//! `error`. After the sequence, a service started from its `--state` file must list the
//! same grants as the one that served it.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use aas_demo::{demo_plant, Config, Service, DEMO_PLANT};
use aas_model::AssetType;
use axum::body::Body;
use axum::http::{header, Request, Response};
use axum::Router;
use base64::Engine;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tokio::runtime::Runtime;
use tower::ServiceExt;

/// At most this many requests of an input are sent: a bound on each run's time.
const MOST_REQUESTS: usize = 8;

fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("tokio runtime")
    })
}

/// This process's state file, emptied before each input; in memory where Linux offers
/// it, as the service syncs the file on every change.
fn state_file() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let shm = Path::new("/dev/shm");
        let dir = if shm.is_dir() {
            shm.to_owned()
        } else {
            std::env::temp_dir()
        };
        dir.join(format!("aas-fuzz-demo-service-{}.json", std::process::id()))
    })
}

/// A service with the state kept in [`state_file`]: the demo plant with one asset of
/// each type (`…#M-0001` and so on). The configuration is built once and the key pair is
/// the process's, so a fresh service costs little more than serialising its answers.
fn service() -> Service {
    static CONFIG: OnceLock<Config> = OnceLock::new();
    let config = CONFIG.get_or_init(|| Config {
        plants: vec![demo_plant(DEMO_PLANT, AssetType::PLATFORM.len(), 1)],
        state_file: Some(state_file().to_owned()),
        ..Config::default()
    });
    Service::new(config.clone(), "http://127.0.0.1:8080").expect("demo-service")
}

/// Placeholders and what they stand for in `service`.
fn credentials(service: &Service) -> Vec<(&'static str, String)> {
    let info = &service.info;
    let token_request = format!(
        "POST /auth/realms/{}/protocol/openid-connect/token\n\
         Content-Type: application/x-www-form-urlencoded\n\n\
         grant_type=client_credentials&client_id={}&client_secret={}",
        info.realm, info.client_id, info.client_secret
    );
    let (_, body) = runtime().block_on(send(
        &service.router,
        request(&token_request).expect("token request"),
    ));
    let answer: Value = serde_json::from_slice(&body).expect("token answer");
    let access = answer["access_token"].as_str().expect("access token");
    let basic = base64::engine::general_purpose::STANDARD
        .encode(format!("{}:{}", info.client_id, info.client_secret));
    vec![
        ("$ACCESS_TOKEN", access.to_owned()),
        ("$USER_TOKEN", info.user_token.clone()),
        ("$ADMIN_TOKEN", service.admin_token.clone()),
        ("$CLIENT_ID", info.client_id.clone()),
        ("$CLIENT_SECRET", info.client_secret.clone()),
        ("$BASIC", basic),
    ]
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

/// What `service` answers to `GET /demo-service/admin/grants`.
fn grants(service: &Service) -> Value {
    let text = format!(
        "GET /demo-service/admin/grants\nAuthorization: Bearer {}",
        service.admin_token
    );
    let (response, body) =
        runtime().block_on(send(&service.router, request(&text).expect("request")));
    assert!(
        response.status().is_success(),
        "grants: {}",
        response.status()
    );
    serde_json::from_slice(&body).expect("grants parse")
}

/// The checks every answer passes.
fn check(response: &Response<()>, body: &[u8]) {
    let status = response.status();
    assert!(!status.is_server_error(), "{status} for a client's request");
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if json {
        let value: Value = serde_json::from_slice(body).expect("a JSON answer parses");
        if !status.is_success() {
            assert!(
                value["error"].is_string(),
                "{status} without an error: {value}"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = std::fs::remove_file(state_file());
    let served = service();
    let credentials = credentials(&served);
    let text = credentials
        .iter()
        .fold(text.to_owned(), |t, (name, value)| t.replace(name, value));
    for part in text.split("\n===\n").take(MOST_REQUESTS) {
        let Some(request) = request(part) else {
            continue;
        };
        let (response, body) = runtime().block_on(send(&served.router, request));
        check(&response, &body);
    }
    let restarted = service();
    assert_eq!(
        grants(&restarted),
        grants(&served),
        "the state file keeps what was served"
    );
});
