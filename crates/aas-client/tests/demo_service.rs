//! The client against a real demo service over loopback: no HTTP mocks.

use aas_client::{Client, RetryPolicy, Secret};
use aas_demo::{Config, DemoService, DEMO_PLANT};
use aas_model::{AssetType, OutlineNode};
use aas_source::ErrorKind;

mod support;

use support::{connection, demo_service};

fn client(demo_service: &DemoService) -> Client {
    Client::new(connection(demo_service)).expect("client")
}

/// A token response fetched by hand, for the tests that build requests themselves.
async fn token_response(info: &aas_demo::StartupInfo) -> serde_json::Value {
    reqwest::Client::new()
        .post(format!(
            "{}/auth/realms/{}/protocol/openid-connect/token",
            info.auth_url, info.realm
        ))
        .form(&[
            ("grant_type", "client_credentials"),
            ("client_id", &info.client_id),
            ("client_secret", &info.client_secret),
        ])
        .send()
        .await
        .expect("token request")
        .json()
        .await
        .expect("token json")
}

#[tokio::test]
async fn drills_down_every_route_from_registry_to_one_nested_element() {
    let sb = demo_service().await;
    let c = client(&sb);

    let registry = c.registry().await.expect("registry");
    // 24 demo assets; the demo customer does not share its 3 `user` assets.
    assert_eq!(registry.len(), 21);
    let first = registry[0].view().expect("descriptor");
    assert_eq!(first.submodel_descriptors.len(), 6);

    let machines = c
        .aas_list(&AssetType::MACHINE, DEMO_PLANT)
        .await
        .expect("aasList");
    assert_eq!(machines.len(), 3);
    let shell = machines[0].view().expect("shell");
    let id = shell.id().to_owned();
    assert!(id.ends_with(":aas:machine#M-0001"), "{id}");

    let again = c.aas(&id).await.expect("aas by id");
    assert_eq!(again.raw(), machines[0].raw());

    let submodels = c.submodels(&id).await.expect("submodels");
    let names: Vec<_> = submodels
        .iter()
        .map(|s| s.view().expect("submodel").id_short.clone())
        .collect();
    assert_eq!(
        names,
        [
            "Nameplate",
            "TechnicalData",
            "Documentation",
            "OperationalData",
            "BillOfMaterial",
            "Capabilities"
        ]
    );

    let nameplate = c.submodel(&id, "Nameplate").await.expect("submodel");
    assert_eq!(nameplate.view().expect("view").elements().len(), 5);

    let elements = c.elements(&id, "Nameplate").await.expect("elements");
    let outline: Vec<OutlineNode> = elements.iter().map(OutlineNode::element).collect();
    let manufacturer = &outline[0];
    assert_eq!(manufacturer.id_short.as_deref(), Some("ManufacturerName"));
    assert!(manufacturer.value.is_some());
    let address = outline
        .iter()
        .find(|n| n.id_short.as_deref() == Some("Address"));
    assert_eq!(address.expect("Address").children.len(), 4);

    let one = c
        .element(&id, "Nameplate", &["SerialNumber"])
        .await
        .expect("element");
    assert_eq!(one.view().expect("view").id_short, "SerialNumber");
    let nested = c
        .element(&id, "Nameplate", &["Address", "CityTown"])
        .await
        .expect("nested element");
    assert_eq!(
        nested.view().expect("view").display_value(),
        Ok(Some("Stuttgart".into()))
    );
}

#[tokio::test]
async fn ids_are_encoded_exactly_once() {
    let sb = demo_service().await;
    let info = sb.info();
    let c = client(&sb);
    let id = "urn:demo-platform:acme:DEMO-01:aas:tool#T-0001";
    assert!(c.aas(id).await.is_ok());

    // The same request by hand: once encoded it is found; twice encoded it is not,
    // which shows the server decodes once and so the client must encode once.
    let token = token_response(info).await["access_token"]
        .as_str()
        .expect("access_token")
        .to_owned();
    let get = |encoded: String| {
        reqwest::Client::new()
            .get(format!("{}/aasList/{encoded}", info.gateway_url))
            .bearer_auth(&token)
            .header("UserToken", format!("Bearer {}", info.user_token))
            .send()
    };
    let once = aas_model::encode_segment(id);
    assert!(once.contains("%23") && !once.contains('#'));
    assert_eq!(get(once.clone()).await.expect("get").status(), 200);
    let twice = aas_model::encode_segment(&once);
    assert_eq!(get(twice).await.expect("get").status(), 404);
}

#[tokio::test]
async fn a_wrong_secret_is_an_auth_error_that_does_not_echo_the_secret() {
    let sb = demo_service().await;
    let mut conn = connection(&sb);
    conn.client_secret = Secret::new("wrong-secret-canary");
    let err = Client::new(conn)
        .expect("client")
        .registry()
        .await
        .expect_err("refused");
    assert_eq!(err.kind(), ErrorKind::Auth);
    let text = format!("{err} {err:?}");
    assert!(text.contains("unauthorized_client"), "{text}");
    assert!(!text.contains("wrong-secret-canary"), "{text}");
}

#[tokio::test]
async fn a_wrong_user_token_is_refused_by_the_gateway() {
    let sb = demo_service().await;
    let mut conn = connection(&sb);
    conn.user_token = Secret::new("not-the-user-token");
    let c = Client::new(conn).expect("client");
    assert!(
        c.registry().await.is_ok(),
        "the registry needs no user token"
    );
    let err = c
        .aas_list(&AssetType::TOOL, DEMO_PLANT)
        .await
        .expect_err("refused");
    assert_eq!(err.kind(), ErrorKind::UserToken);
    assert!(err.to_string().contains("paste a new one"), "{err}");
    // The access token was fine: it is not thrown away and fetched again.
    let stats: serde_json::Value =
        reqwest::get(format!("{}/demo-service/stats", sb.info().registry_url))
            .await
            .expect("stats")
            .json()
            .await
            .expect("json");
    assert_eq!(stats["token_requests"], 1, "{stats}");
}

#[tokio::test]
async fn unknown_ids_plants_and_a_stopped_server_give_distinct_kinds() {
    let sb = demo_service().await;
    let c = client(&sb);
    let err = c.aas("urn:nope#1").await.expect_err("unknown aas");
    assert_eq!(err.kind(), ErrorKind::NotFound);
    let err = c
        .submodel("urn:demo-platform:acme:DEMO-01:aas:tool#T-0001", "Nope")
        .await
        .expect_err("unknown submodel");
    assert_eq!(err.kind(), ErrorKind::NotFound);
    let err = c
        .aas_list(&AssetType::SITE, "NOT-A-PLANT")
        .await
        .expect_err("plant not granted");
    assert_eq!(err.kind(), ErrorKind::NotAllowed);

    drop(sb);
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let fresh = Client::new(c.connection().clone()).expect("client");
    let err = fresh.registry().await.expect_err("server gone");
    assert_eq!(err.kind(), ErrorKind::Offline, "{err}");
}

#[tokio::test]
async fn aas_list_names_a_missing_query_parameter() {
    let sb = demo_service().await;
    let info = sb.info();
    let token = token_response(info).await;
    assert_eq!(token["expires_in"], 300);
    assert_eq!(token["token_type"], "Bearer");
    let response = reqwest::Client::new()
        .get(format!("{}/aasList?AssetType=machine", info.gateway_url))
        .bearer_auth(token["access_token"].as_str().expect("token"))
        .header("UserToken", format!("Bearer {}", info.user_token))
        .send()
        .await
        .expect("get");
    assert_eq!(response.status(), 400);
    let body: serde_json::Value = response.json().await.expect("json");
    assert_eq!(body["error"], "invalid_request");
    assert!(body["error_description"]
        .as_str()
        .unwrap_or_default()
        .contains("PlantCode"));
}

/// Everything a drill-down of the machines and tools reads, as the server's raw texts.
async fn drill_down(c: &Client) -> aas_client::Result<Vec<String>> {
    let mut texts = Vec::new();
    for t in [AssetType::MACHINE, AssetType::TOOL] {
        for shell in c.aas_list(&t, DEMO_PLANT).await? {
            texts.push(shell.raw().to_owned());
            let id = shell.view().expect("shell").id().to_owned();
            for sm in c.submodels(&id).await? {
                let name = sm.view().expect("submodel").id_short.clone();
                texts.extend(
                    c.elements(&id, &name)
                        .await?
                        .iter()
                        .map(|e| e.raw().to_owned()),
                );
            }
        }
    }
    Ok(texts)
}

#[tokio::test]
async fn transient_faults_are_retried_and_nothing_is_lost() {
    let clean = demo_service().await;
    let faulty = DemoService::start(Config {
        faults: Some(
            "error=0.15,throttle=0.1,retry-after=0,drop=0.05,truncate=0.05,garbage=0.05,seed=11"
                .parse()
                .expect("faults"),
        ),
        ..Config::default()
    })
    .await
    .expect("demo-service");
    let patient = RetryPolicy {
        attempts: 12,
        base_delay: std::time::Duration::from_millis(1),
        max_delay: std::time::Duration::from_millis(20),
    };
    let expected = drill_down(&client(&clean)).await.expect("fault-free");
    let got = drill_down(&client(&faulty).with_retry(patient))
        .await
        .expect("completes despite faults");
    assert_eq!(got, expected, "same content as without faults");

    let stats: serde_json::Value =
        reqwest::get(format!("{}/demo-service/stats", faulty.info().registry_url))
            .await
            .expect("stats")
            .json()
            .await
            .expect("json");
    let injected: u64 = stats["faults"]
        .as_object()
        .expect("faults")
        .values()
        .filter_map(serde_json::Value::as_u64)
        .sum();
    assert!(injected > 10, "faults were injected: {stats}");
}

#[tokio::test]
async fn without_retries_the_same_faults_surface_as_errors() {
    let faulty = DemoService::start(Config {
        faults: Some("error=0.5,seed=2".parse().expect("faults")),
        ..Config::default()
    })
    .await
    .expect("demo-service");
    let once = RetryPolicy {
        attempts: 1,
        ..RetryPolicy::default()
    };
    let err = drill_down(&client(&faulty).with_retry(once))
        .await
        .expect_err("a 5xx gets through");
    assert_eq!(err.kind(), ErrorKind::Server, "{err}");
}
