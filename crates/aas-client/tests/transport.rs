//! Where the tokens may go: redirects only within one origin (checked with two real
//! servers, one redirecting to the other), plain http only when a profile allows it,
//! and https only to certificates the client trusts (a CA made at test time, a
//! demo service serving https with it).

mod support;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use aas_client::{Client, Connection, CrawlPlan, Secret, Transport};
use aas_demo::{Config, DemoService, TlsFiles, DEMO_PLANT};
use aas_model::AssetType;
use aas_source::ErrorKind;
use axum::http::HeaderMap;
use axum::response::Redirect;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;
use tokio_util::sync::CancellationToken;

const ACCESS: &str = "access-token-for-the-test";
const USER: &str = "user-token-for-the-test";
const AAS: &str = r#"{"modelType":{"name":"AssetAdministrationShell"},"idShort":"ok","identification":{"id":"ok","idType":"Custom"},"asset":{"keys":[]}}"#;

async fn serve(app: Router) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// Headers of every request a server got.
type Seen = Arc<Mutex<Vec<HeaderMap>>>;

/// A server that answers every path with an AAS and records the headers it got.
async fn recording_server(seen: Seen) -> std::net::SocketAddr {
    serve(Router::new().fallback(move |headers: HeaderMap| {
        seen.lock().expect("lock").push(headers);
        async { ([("content-type", "application/json")], AAS) }
    }))
    .await
}

/// The service: a token endpoint, one AAS that redirects within this origin and one
/// that redirects to `elsewhere`.
async fn redirecting_service(seen: Seen, elsewhere: String) -> String {
    let app = Router::new()
        .route(
            "/auth/realms/r/protocol/openid-connect/token",
            post(|| async { Json(json!({"access_token": ACCESS, "expires_in": 300})) }),
        )
        .route(
            "/gateway/aasList/moved",
            get(|| async { Redirect::temporary("/gateway/aasList/here") }),
        )
        .route(
            "/gateway/aasList/away",
            get({
                let elsewhere = elsewhere.clone();
                move || async move { Redirect::temporary(&format!("{elsewhere}/steal")) }
            }),
        )
        // Only the scheme changes: the same host and port, https.
        .route(
            "/gateway/aasList/to-https",
            get(|headers: HeaderMap| async move {
                let host = header(&headers, "host").unwrap_or_default();
                Redirect::temporary(&format!("https://{host}/gateway/aasList/here"))
            }),
        )
        // The token POST (its body holds the client secret) sent on elsewhere with a 307,
        // which keeps the method and the body.
        .route(
            "/auth/realms/moved/protocol/openid-connect/token",
            post(move || async move { Redirect::temporary(&format!("{elsewhere}/token")) }),
        )
        .route(
            "/gateway/aasList/here",
            get(move |headers: HeaderMap| {
                seen.lock().expect("lock").push(headers);
                async { ([("content-type", "application/json")], AAS) }
            }),
        );
    format!("http://{}", serve(app).await)
}

fn connection(base: &str, transport: Transport) -> Connection {
    Connection {
        registry_url: base.into(),
        gateway_url: format!("{base}/gateway"),
        auth_url: base.into(),
        realm: "r".into(),
        client_id: "c".into(),
        client_secret: Secret::new("s"),
        user_token: Secret::new(USER),
        client_auth: Default::default(),
        token_url: None,
        transport,
    }
}

fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

#[tokio::test]
async fn a_redirect_to_another_host_is_not_followed_and_gets_no_token() {
    let (here, away) = (Seen::default(), Seen::default());
    // Another host (`localhost`, not 127.0.0.1) and another port.
    let other = recording_server(away.clone()).await;
    let base =
        redirecting_service(here.clone(), format!("http://localhost:{}", other.port())).await;
    let client = Client::new(connection(&base, Transport::default())).expect("client");

    let err = client.aas("away").await.expect_err("not followed");
    assert_eq!(err.kind(), ErrorKind::Config, "{err}");
    assert!(
        err.to_string().contains("redirected to another origin")
            && err.to_string().contains("localhost"),
        "{err}"
    );
    assert!(
        away.lock().expect("lock").is_empty(),
        "the other host got a request"
    );

    // Within the origin, the redirect is followed with both tokens.
    client.aas("moved").await.expect("same-origin redirect");
    let seen = here.lock().expect("lock");
    assert_eq!(seen.len(), 1);
    assert_eq!(
        header(&seen[0], "authorization").as_deref(),
        Some(format!("Bearer {ACCESS}").as_str())
    );
    assert_eq!(
        header(&seen[0], "usertoken").as_deref(),
        Some(format!("Bearer {USER}").as_str())
    );
}

#[tokio::test]
async fn a_redirect_to_another_scheme_or_port_or_of_the_token_post_is_not_followed() {
    let (here, away) = (Seen::default(), Seen::default());
    // The same host, another port.
    let other = recording_server(away.clone()).await;
    let base =
        redirecting_service(here.clone(), format!("http://127.0.0.1:{}", other.port())).await;
    let client = Client::new(connection(&base, Transport::default())).expect("client");
    for (id, origin) in [
        ("away", format!("127.0.0.1:{}", other.port())),
        ("to-https", "https://".into()),
    ] {
        let err = client.aas(id).await.expect_err("not followed");
        assert_eq!(err.kind(), ErrorKind::Config, "{err}");
        assert!(err.to_string().contains(&origin), "{id}: {err}");
    }
    let moved = Connection {
        realm: "moved".into(),
        ..connection(&base, Transport::default())
    };
    let err = Client::new(moved)
        .expect("client")
        .registry()
        .await
        .expect_err("the token POST is not sent on");
    assert_eq!(err.kind(), ErrorKind::Config, "{err}");
    assert!(
        away.lock().expect("lock").is_empty(),
        "the other port got a request (a token POST would carry the secret)"
    );
    assert!(
        here.lock().expect("lock").is_empty(),
        "nothing was followed"
    );
}

#[test]
fn plain_http_to_another_machine_only_when_the_profile_allows_it() {
    let refused = Client::new(connection("http://gw.example.com", Transport::default()))
        .expect_err("plain http refused");
    assert_eq!(refused.kind(), ErrorKind::Config);
    assert!(refused.to_string().contains("plain http"), "{refused}");
    let allowed = Transport {
        allow_plain_http: true,
        ..Transport::default()
    };
    Client::new(connection("http://gw.example.com", allowed)).expect("explicitly allowed");
}

/// How the server certificate of [`make_certificates`] is wrong, if at all.
#[derive(Clone, Copy)]
enum ServerCertificate {
    Good,
    /// Made out to `other.example` only.
    OtherHost,
    /// Valid in 2020 only.
    Expired,
}

/// A CA and a server certificate signed by it (for `127.0.0.1` and `localhost` unless
/// `wrong` says otherwise), as PEM files in `dir`: (ca, server cert, server key).
fn make_certificates(dir: &Path, wrong: ServerCertificate) -> (PathBuf, PathBuf, PathBuf) {
    let names: &[&str] = match wrong {
        ServerCertificate::OtherHost => &["other.example"],
        _ => &["127.0.0.1", "localhost"],
    };
    let expired = matches!(wrong, ServerCertificate::Expired);
    support::certificates::make_certificates(dir, names, expired)
}

/// An https demo service with a certificate made by [`make_certificates`] and its connection
/// line; the demo service stops when dropped.
async fn https_demo_service(
    dir: &Path,
    wrong: ServerCertificate,
) -> (DemoService, Connection, PathBuf) {
    let (ca, cert, key) = make_certificates(dir, wrong);
    let demo_service = DemoService::start(Config {
        tls: Some(TlsFiles { cert, key }),
        ..Config::default()
    })
    .await
    .expect("https demo service");
    let line = serde_json::to_string(demo_service.info()).expect("json");
    assert!(
        line.contains("\"registry_url\":\"https://127.0.0.1:"),
        "{line}"
    );
    let conn: Connection = serde_json::from_str(&line).expect("connection");
    (demo_service, conn, ca)
}

/// `conn` trusting the CA in `ca`.
fn trusting(conn: Connection, ca: PathBuf) -> Client {
    Client::new(Connection {
        transport: Transport {
            ca_file: Some(ca),
            ..Transport::default()
        },
        ..conn
    })
    .expect("client with the CA")
}

#[tokio::test]
async fn a_certificate_for_another_host_or_out_of_date_is_refused_in_its_own_words() {
    let dir = std::env::temp_dir().join(format!("aas-tls-wrong-{}", std::process::id()));
    for (wrong, words) in [
        (
            ServerCertificate::OtherHost,
            "made out to another host name",
        ),
        (ServerCertificate::Expired, "outside its validity period"),
    ] {
        let (_demo_service, conn, ca) = https_demo_service(&dir, wrong).await;
        let err = trusting(conn, ca).registry().await.expect_err("refused");
        assert_eq!(err.kind(), ErrorKind::Offline, "{err}");
        let text = err.to_string();
        assert!(text.contains(words), "{text}");
        assert!(
            !text.contains("ca_file"),
            "the CA is not the problem: {text}"
        );
    }
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn https_works_with_the_company_ca_and_fails_clearly_without_it() {
    let dir = std::env::temp_dir().join(format!("aas-tls-{}", std::process::id()));
    let (_demo_service, conn, ca) = https_demo_service(&dir, ServerCertificate::Good).await;

    let untrusting = Client::new(conn.clone()).expect("client");
    let err = untrusting.registry().await.expect_err("unknown CA");
    assert_eq!(err.kind(), ErrorKind::Offline, "{err}");
    let text = err.to_string();
    assert!(
        text.contains("certificate is not trusted") && text.contains("ca_file"),
        "{text}"
    );

    let trusting = Arc::new(trusting(conn, ca));
    let plan = CrawlPlan {
        concurrency: 4,
        ..CrawlPlan::new(DEMO_PLANT, vec![AssetType::MACHINE])
    };
    let crawl = trusting
        .crawl(&plan, &CancellationToken::new(), |_| {})
        .await;
    assert!(crawl.failures.is_empty(), "{:?}", crawl.failures);
    // registry + 1 list + 3 machines + 6 submodels each
    assert_eq!(crawl.fetched.len(), 1 + 1 + 3 + 3 * 6);
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_ca_file_that_holds_no_certificate_is_a_settings_error() {
    let path = std::env::temp_dir().join(format!("aas-not-a-ca-{}.pem", std::process::id()));
    std::fs::write(&path, "not a certificate").expect("write");
    let conn = connection(
        "https://gw.example.com",
        Transport {
            ca_file: Some(path.clone()),
            ..Transport::default()
        },
    );
    let err = Client::new(conn).expect_err("refused");
    assert_eq!(err.kind(), ErrorKind::Config);
    assert!(err.to_string().contains("CA file"), "{err}");
    std::fs::remove_file(path).expect("cleanup");
}
