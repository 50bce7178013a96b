//! The token source against a real third-party OAuth 2 server: oidc-provider (npm),
//! configured for the client-credentials grant at Keycloak's token path, or mounted
//! under `/realms/{realm}` with its discovery document as today's Keycloak serves it.
//! Its answers carry fewer fields than Keycloak's, and it wants HTTP Basic for one of
//! its clients. `make test` installs it (npm ci in tests/oidc).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use aas_client::{ClientAuth, Connection, Secret, TokenProvider};
use aas_source::ErrorKind;
use serde_json::Value;

struct Server {
    child: Child,
    line: Value,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Server {
    start_with(&[])
}

/// `tests/oidc/server.mjs ARGS` (`--realms`: today's Keycloak layout).
fn start_with(args: &[&str]) -> Server {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/oidc/server.mjs");
    let mut child = Command::new("node")
        .arg(script)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("node runs (and `npm ci --prefix tests/oidc` was run)");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("start-up line");
    let line =
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("bad start-up line {line:?}: {e}"));
    Server { child, line }
}

fn connection(server: &Server, client: usize, auth: ClientAuth) -> Connection {
    let c = &server.line["clients"][client];
    let text = |v: &Value| v.as_str().expect("string").to_owned();
    Connection {
        registry_url: "http://127.0.0.1:9".into(),
        gateway_url: "http://127.0.0.1:9".into(),
        auth_url: text(&server.line["auth_url"]),
        realm: text(&server.line["realm"]),
        client_id: text(&c["client_id"]),
        client_secret: Secret::new(text(&c["client_secret"])),
        user_token: Secret::new("unused"),
        client_auth: auth,
        token_url: None,
        transport: Default::default(),
    }
}

#[tokio::test]
async fn tokens_from_a_third_party_server_by_form_and_by_basic() {
    let server = start();
    for (client, auth) in [(0, ClientAuth::Form), (1, ClientAuth::Basic)] {
        let source = TokenProvider::new(reqwest::Client::new(), &connection(&server, client, auth));
        let first = source
            .token()
            .await
            .unwrap_or_else(|e| panic!("{auth:?}: {e}"));
        assert!(!first.expose().is_empty());
        let again = source.token().await.expect("cached");
        assert_eq!(first, again, "cached, not fetched again");
    }
}

#[tokio::test]
async fn a_refusal_from_a_third_party_server_is_an_auth_error_without_the_secret() {
    let server = start();
    let mut conn = connection(&server, 0, ClientAuth::Form);
    conn.client_secret = Secret::new("wrong-canary-secret");
    let err = TokenProvider::new(reqwest::Client::new(), &conn)
        .token()
        .await
        .expect_err("refused");
    assert_eq!(err.kind(), ErrorKind::Auth, "{err}");
    assert!(err.to_string().contains("invalid_client"), "{err}");
    assert!(!format!("{err} {err:?}").contains("wrong-canary-secret"));
}

#[tokio::test]
async fn todays_keycloak_layout_is_found_by_discovery_from_the_bare_server_address() {
    let server = start_with(&["--realms"]);
    let origin = server.line["auth_url"]
        .as_str()
        .expect("auth_url")
        .to_owned();
    for (client, auth) in [(0, ClientAuth::Form), (1, ClientAuth::Basic)] {
        let conn = connection(&server, client, auth);
        assert_eq!(conn.auth_url, origin, "no /auth, no realm path given");
        let source = TokenProvider::new(reqwest::Client::new(), &conn);
        let token = source
            .token()
            .await
            .unwrap_or_else(|e| panic!("{auth:?}: {e}"));
        assert!(!token.expose().is_empty());
        assert_eq!(
            source.endpoint_known(),
            format!("{origin}/realms/third-party/protocol/openid-connect/token"),
            "the endpoint its discovery document names"
        );
    }
}
