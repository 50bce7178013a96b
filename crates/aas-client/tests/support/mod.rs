#![allow(dead_code)] // each test binary uses part of it
//! What the client's tests share: a demo sandbox and the connection to it.

use aas_client::Connection;
use aas_sandbox::{Config, Sandbox};

/// The demo sandbox on a random loopback port.
pub async fn sandbox() -> Sandbox {
    Sandbox::start(Config::default())
        .await
        .expect("sandbox starts")
}

/// The connection exactly as `aasmd sandbox` prints it: the start-up line's JSON.
pub fn connection(sandbox: &Sandbox) -> Connection {
    let line = serde_json::to_string(sandbox.info()).expect("json");
    serde_json::from_str(&line).expect("the start-up line is a connection")
}
