//! The token endpoint, identifier encoding, faults, stats and persistence, against a
//! real demo service over loopback.

mod common;

use std::time::Duration;

use aas_demo::{Config, FaultSpec, Plant};
use common::{answer, Fixture, MACHINE, TOOL};
use serde_json::{json, Value};

async fn post_token(f: &Fixture, form: &[(&str, &str)]) -> common::Answer {
    answer(
        f.http
            .post(f.token_url())
            .form(form)
            .send()
            .await
            .expect("POST"),
    )
    .await
}

#[tokio::test]
async fn token_endpoint_answers_like_keycloak() {
    let f = Fixture::start(Config::default()).await;
    let info = f.demo_service.info().clone();
    let ok = post_token(
        &f,
        &[
            ("grant_type", "client_credentials"),
            ("client_id", &info.client_id),
            ("client_secret", &info.client_secret),
        ],
    )
    .await;
    assert_eq!(ok.status, 200);
    for (field, value) in [
        ("expires_in", json!(300)),
        ("refresh_expires_in", json!(0)),
        ("token_type", json!("Bearer")),
        ("not-before-policy", json!(0)),
        ("scope", json!("profile email")),
    ] {
        assert_eq!(ok.body[field], value, "{field}");
    }
    let jwt = ok.body["access_token"].as_str().expect("token");
    assert_eq!(jwt.split('.').count(), 3, "a JWT");

    let wrong = post_token(
        &f,
        &[
            ("grant_type", "client_credentials"),
            ("client_id", &info.client_id),
            ("client_secret", "nope"),
        ],
    )
    .await;
    assert_eq!(
        (wrong.status.as_u16(), wrong.body["error"].as_str()),
        (401, Some("unauthorized_client"))
    );
    let missing = post_token(
        &f,
        &[
            ("grant_type", "client_credentials"),
            ("client_id", &info.client_id),
        ],
    )
    .await;
    assert_eq!(
        (missing.status.as_u16(), missing.body["error"].as_str()),
        (400, Some("invalid_request"))
    );
    let grant = post_token(&f, &[("grant_type", "password")]).await;
    assert_eq!(
        (grant.status.as_u16(), grant.body["error"].as_str()),
        (400, Some("unsupported_grant_type"))
    );

    let not_form = answer(
        f.http
            .post(f.token_url())
            .json(&json!({"grant_type": "client_credentials"}))
            .send()
            .await
            .expect("POST"),
    )
    .await;
    assert_eq!(
        (not_form.status.as_u16(), not_form.body["error"].as_str()),
        (400, Some("invalid_request"))
    );
    let realm = f.token_url().replace("/realms/demo/", "/realms/other/");
    let unknown = answer(
        f.http
            .post(realm)
            .form(&[("grant_type", "client_credentials")])
            .send()
            .await
            .expect("POST"),
    )
    .await;
    assert_eq!(unknown.status, 404);
    assert!(unknown.body["error"].is_string());
}

#[tokio::test]
async fn http_basic_client_authentication_and_the_key_set() {
    let f = Fixture::start(Config::default()).await;
    let info = f.demo_service.info().clone();
    let basic = f
        .http
        .post(f.token_url())
        .basic_auth(&info.client_id, Some(&info.client_secret))
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .expect("POST");
    let a = answer(basic).await;
    assert_eq!(a.status, 200, "{a:?}");
    let certs = f.token_url().replace("/token", "/certs");
    let jwks: Value = f
        .http
        .get(certs)
        .send()
        .await
        .expect("GET")
        .json()
        .await
        .expect("json");
    assert_eq!(jwks["keys"][0]["kty"], "RSA");
    assert_eq!(jwks["keys"][0]["alg"], "RS256");
}

/// A plant whose one asset has every awkward character in its ids.
fn awkward_plant() -> (Plant, String) {
    let mut plant = aas_demo::demo_plant("WEIRD", 1, 1);
    let asset = &mut plant.assets[0];
    let id = "urn:x:WEIRD:aas:machine#A/B?c&d=e+f%25g h:ü#2".to_owned();
    asset.aas_id = id.clone();
    asset.shell["identification"]["id"] = json!(id);
    let sm = &mut asset.submodels[0];
    sm["idShort"] = json!("Name plate/1+%&=?#ö");
    sm["submodelElements"][4]["idShort"] = json!("Ad/dress +%");
    sm["submodelElements"][4]["value"][2]["idShort"] = json!("City/Town?#");
    (plant, id)
}

#[tokio::test]
async fn awkward_identifiers_work_on_every_route_when_encoded_once() {
    let (plant, id) = awkward_plant();
    let f = Fixture::start(Config {
        plants: vec![plant],
        ..Config::default()
    })
    .await;
    let sm = aas_model::encode_segment("Name plate/1+%&=?#ö");
    let collection = aas_model::encode_segment("Ad/dress +%");
    let child = aas_model::encode_segment("City/Town?#");
    let routes = [
        String::new(),
        "/aas/submodels".into(),
        format!("/aas/submodels/{sm}"),
        format!("/aas/submodels/{sm}/submodel/submodelElements"),
        format!("/aas/submodels/{sm}/submodel/submodelElements/{collection}"),
        format!("/aas/submodels/{sm}/submodel/submodelElements/{collection}/{child}"),
    ];
    for rest in &routes {
        let a = f.get_as_demo(&f.aas_url(&id, rest)).await;
        assert_eq!(a.status, 200, "{rest}: {a:?}");
    }
    let leaf = f.get_as_demo(&f.aas_url(&id, &routes[5])).await;
    assert_eq!(leaf.body["value"], "Stuttgart");
    // `+` is a literal plus in a path: a space in its place is another id.
    let plus_as_space = f.aas_url(&id.replace('+', " "), "");
    assert_eq!(f.get_as_demo(&plus_as_space).await.status, 404);
}

/// Sends a raw request and returns the status line, or "" when the server just closed.
async fn raw_status(addr: std::net::SocketAddr, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    // The server may answer and close before it has read everything we send.
    let _ = stream.write_all(request.as_bytes()).await;
    let mut head = vec![0u8; 64];
    let n = stream.read(&mut head).await.unwrap_or(0);
    String::from_utf8_lossy(&head[..n])
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn oversized_requests_get_a_4xx() {
    let f = Fixture::start(Config::default()).await;
    let addr = f.demo_service.addr();
    let long_url = format!(
        "GET /gateway/aasList/{} HTTP/1.1\r\nHost: x\r\n\r\n",
        "x".repeat(1 << 20)
    );
    let many_headers = format!(
        "GET /api/v1/registry HTTP/1.1\r\nHost: x\r\n{}\r\n",
        "X-Filler: yyyyyyyyyy\r\n".repeat(50_000)
    );
    for request in [long_url, many_headers] {
        let status = raw_status(addr, &request).await;
        assert!(
            status.is_empty() || status.starts_with("HTTP/1.1 4"),
            "{status}"
        );
    }
    // Still serving.
    assert_eq!(f.get_as_demo(&f.aas_url(MACHINE, "")).await.status, 200);
}

#[tokio::test]
async fn stats_count_token_requests_routes_and_statuses() {
    let f = Fixture::start(Config::default()).await;
    f.get_as_demo(&f.aas_url(MACHINE, "")).await;
    f.get_as_demo(&f.aas_url("urn:nope", "")).await;
    let stats = f.stats().await;
    assert_eq!(stats["token_requests"], 2);
    let route = &stats["requests"]["GET /gateway/aasList/{aas_id}"];
    assert_eq!(
        (route["200"].as_u64(), route["404"].as_u64()),
        (Some(1), Some(1)),
        "{stats}"
    );
}

#[tokio::test]
async fn faults_are_injected_as_configured_and_counted() {
    let spec: FaultSpec = "error=0.25,throttle=0.25,retry-after=7,garbage=0.25,seed=3"
        .parse()
        .expect("spec");
    let f = Fixture::start(Config {
        faults: Some(spec),
        ..Config::default()
    })
    .await;
    let token = f.token().await;
    let mut seen = std::collections::BTreeMap::new();
    for _ in 0..200 {
        let r = f
            .demo_request(&f.aas_url(TOOL, ""), &token)
            .send()
            .await
            .expect("GET");
        let status = r.status().as_u16();
        if status == 429 {
            assert_eq!(r.headers()["retry-after"], "7");
        }
        let body = r.bytes().await.expect("body");
        let kind = match (status, serde_json::from_slice::<Value>(&body).is_ok()) {
            (200, true) => "ok",
            (200, false) => "garbage",
            (429, _) => "throttle",
            (500 | 502 | 503, _) => "error",
            other => panic!("unexpected {other:?}"),
        };
        *seen.entry(kind).or_insert(0) += 1;
    }
    for kind in ["ok", "garbage", "throttle", "error"] {
        assert!(
            seen.get(kind).copied().unwrap_or(0) > 20,
            "{kind}: {seen:?}"
        );
    }
    let stats = f.stats().await;
    assert_eq!(stats["faults"]["garbage"], seen["garbage"]);
}

#[tokio::test]
async fn dropped_and_truncated_answers_fail_on_the_client_side() {
    for spec in ["drop=1", "truncate=1"] {
        let f = Fixture::start(Config {
            faults: Some(spec.parse().expect("spec")),
            ..Config::default()
        })
        .await;
        let token = f.token().await;
        let sent = f
            .demo_request(&f.aas_url(MACHINE, "/aas/submodels"), &token)
            .send()
            .await;
        let failed = match sent {
            Err(_) => true,
            Ok(r) => r.bytes().await.is_err(),
        };
        assert!(failed, "{spec}: the body must not arrive whole");
    }
}

#[tokio::test]
async fn grants_persist_across_restarts() {
    let dir = std::env::temp_dir().join(format!("aas-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let state = dir.join("grants.json");
    let _ = std::fs::remove_file(&state);
    let config = || Config {
        state_file: Some(state.clone()),
        ..Config::default()
    };
    let f = Fixture::start(config()).await;
    f.set_grant(TOOL, "denied").await;
    drop(f);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let f = Fixture::start(config()).await;
    let listed = f
        .admin(reqwest::Method::GET, "/grants", Value::Null)
        .await
        .body;
    let tool = listed
        .as_array()
        .and_then(|all| {
            all.iter()
                .find(|g| g["aas_id"] == TOOL && g["client_id"] == "aas-browser-demo")
        })
        .expect("tool grant");
    assert_eq!(tool["grant"], "denied");
    assert_eq!(tool["tenant"], "acme");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn debug_output_of_the_demo_service_and_its_service_holds_no_secret() {
    let f = Fixture::start(Config::default()).await;
    let info = f.demo_service.info();
    let service = aas_demo::Service::new(Config::default(), "http://127.0.0.1:9").expect("service");
    let shown = format!("{:?} {:?} {:?}", f.demo_service, service, info);
    for secret in [
        f.demo_service.admin_token(),
        &info.client_secret,
        &info.user_token,
        &service.admin_token,
        &service.info.client_secret,
        &service.info.user_token,
    ] {
        assert!(!shown.contains(secret), "a secret in {shown}");
    }
}

#[tokio::test]
async fn every_endpoint_a_registry_descriptor_names_answers() {
    let f = Fixture::start(Config::default()).await;
    let token = f.token().await;
    let registry = f
        .get_as_demo(&format!(
            "{}/api/v1/registry",
            f.demo_service.info().registry_url
        ))
        .await;
    let mut addresses = Vec::new();
    for shell in registry.body.as_array().expect("descriptors") {
        let submodels = shell["submodelDescriptors"]
            .as_array()
            .into_iter()
            .flatten();
        for descriptor in std::iter::once(shell).chain(submodels) {
            for endpoint in descriptor["endpoints"].as_array().into_iter().flatten() {
                addresses.push(endpoint["address"].as_str().expect("address").to_owned());
            }
        }
    }
    assert!(addresses.len() > 100, "{} endpoints", addresses.len());
    for address in &addresses {
        let got = answer(f.demo_request(address, &token).send().await.expect("GET")).await;
        assert_eq!(got.status, 200, "{address}: {:?}", got.body);
        assert!(got.body["idShort"].is_string(), "{address}: {:?}", got.body);
    }
}
