#![allow(dead_code)] // each test binary uses part of it
//! What the client's tests share: a demo sandbox and the connection to it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use aas_client::{Client, ClientAuth, Connection, RetryPolicy, Secret};
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

/// A CA and a server certificate for `names` signed by it (valid in 2020 only when
/// `expired`), as PEM files in `dir`: (ca, server cert, server key).
pub fn make_certificates(dir: &Path, names: &[&str], expired: bool) -> (PathBuf, PathBuf, PathBuf) {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
    let ca_key = KeyPair::generate().expect("CA key");
    let mut ca = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "AAS test CA");
    let ca_cert = ca.self_signed(&ca_key).expect("CA certificate");
    let issuer = Issuer::new(ca, ca_key);
    let key = KeyPair::generate().expect("server key");
    let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
    let mut params = CertificateParams::new(names).expect("server params");
    if expired {
        params.not_before = rcgen::date_time_ymd(2020, 1, 1);
        params.not_after = rcgen::date_time_ymd(2020, 12, 31);
    }
    let server = params.signed_by(&key, &issuer).expect("server certificate");
    std::fs::create_dir_all(dir).expect("dir");
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        path
    };
    (
        write("ca.pem", ca_cert.pem()),
        write("server.pem", server.pem()),
        write("server.key", key.serialize_pem()),
    )
}
