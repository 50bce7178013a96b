#![allow(dead_code)] // each test binary uses part of it
//! What the client's tests share: a demo demo service and the connection to it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use aas_client::{Client, ClientAuth, Connection, RetryPolicy, Secret};
use aas_demo::{Config, DemoService};

pub mod certificates;

/// The demo demo service on a random loopback port.
pub async fn demo_service() -> DemoService {
    DemoService::start(Config::default())
        .await
        .expect("demo service starts")
}

/// The connection exactly as `aasmd demo-service` prints it: the start-up line's JSON.
pub fn connection(demo_service: &DemoService) -> Connection {
    let line = serde_json::to_string(demo_service.info()).expect("json");
    serde_json::from_str(&line).expect("the start-up line is a connection")
}

/// A connection to a test server at `base` (plain http), realm `realm`, with dummy
/// credentials: for servers built to misbehave.
pub fn connection_to(base: &str, realm: &str) -> Connection {
    Connection {
        registry_url: base.into(),
        gateway_url: format!("{base}/gateway"),
        auth_url: base.into(),
        realm: realm.into(),
        client_id: "c".into(),
        client_secret: Secret::new("s"),
        user_token: Secret::new("u"),
        client_auth: ClientAuth::Form,
        token_url: None,
        transport: Default::default(),
    }
}

/// A client of [`connection_to`] that retries once, at once: a test of bad answers
/// need not wait for backoff.
pub fn quick_client(base: &str, realm: &str) -> Client {
    Client::new(connection_to(base, realm))
        .expect("client")
        .with_retry(RetryPolicy {
            attempts: 2,
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(5),
        })
}

/// Serves `app` on a random loopback port: its `http://HOST:PORT`, and how many requests
/// it has received.
pub async fn serve_counting(app: axum::Router) -> (String, Arc<AtomicUsize>) {
    let received = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&received);
    let count = axum::middleware::from_fn(move |request, next: axum::middleware::Next| {
        counter.fetch_add(1, Ordering::SeqCst);
        next.run(request)
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, app.layer(count)).await });
    (base, received)
}
