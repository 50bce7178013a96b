//! The demo service on a loopback port and a client of it, as the store's tests crawl it.

use std::sync::Arc;

use aas_client::{Client, Connection};
use aas_sandbox::{Config, Sandbox};

/// The sandbox (kept running while held) and a client built from its start-up line.
pub async fn demo() -> (Sandbox, Arc<Client>) {
    let sandbox = Sandbox::start(Config::default()).await.expect("sandbox");
    let line = serde_json::to_string(sandbox.info()).expect("json");
    let conn: Connection = serde_json::from_str(&line).expect("connection");
    (sandbox, Arc::new(Client::new(conn).expect("client")))
}
