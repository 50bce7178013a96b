//! The authorization matrix, one case per test, each asserting status and error body,
//! against a real demo service over loopback.

mod common;

use std::time::Duration;

use aas_demo::{AppSpec, Config};
use aas_model::AssetType;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use common::{Answer, Fixture, MACHINE, TOOL, USER_ASSET};

fn assert_error(a: &Answer, status: u16, error: &str) {
    assert_eq!(a.status.as_u16(), status, "{a:?}");
    assert_eq!(a.body["error"], error, "{a:?}");
    assert!(a.body["error_description"].is_string(), "{a:?}");
}

fn assert_invalid_token(a: &Answer) {
    assert_error(a, 401, "invalid_token");
    assert_eq!(
        a.challenge.as_deref(),
        Some(r#"Bearer error="invalid_token""#)
    );
}

#[tokio::test]
async fn no_access_token() {
    let f = Fixture::start(Config::default()).await;
    let user = f.demo_service.info().user_token.clone();
    assert_invalid_token(&f.get(&f.aas_url(MACHINE, ""), None, Some(&user)).await);
    let registry = format!("{}/api/v1/registry", f.demo_service.info().registry_url);
    assert_invalid_token(&f.get(&registry, None, None).await);
}

#[tokio::test]
async fn malformed_access_token() {
    let f = Fixture::start(Config::default()).await;
    let user = f.demo_service.info().user_token.clone();
    assert_invalid_token(
        &f.get(&f.aas_url(MACHINE, ""), Some("not-a-jwt"), Some(&user))
            .await,
    );
}

#[tokio::test]
async fn expired_access_token() {
    let f = Fixture::start(Config {
        token_ttl: Duration::from_secs(1),
        ..Config::default()
    })
    .await;
    let token = f.token().await;
    let user = f.demo_service.info().user_token.clone();
    assert_eq!(
        f.get(&f.aas_url(MACHINE, ""), Some(&token), Some(&user))
            .await
            .status,
        200
    );
    // Past the lifetime and the 5 s clock leeway.
    tokio::time::sleep(Duration::from_secs(7)).await;
    let a = f
        .get(&f.aas_url(MACHINE, ""), Some(&token), Some(&user))
        .await;
    assert_invalid_token(&a);
    assert!(
        a.body["error_description"]
            .as_str()
            .unwrap_or_default()
            .contains("expired"),
        "{a:?}"
    );
}

#[tokio::test]
async fn bad_signature() {
    let f = Fixture::start(Config::default()).await;
    let token = f.token().await;
    let (head, sig) = token.rsplit_once('.').expect("jwt");
    let mut bytes = URL_SAFE_NO_PAD.decode(sig).expect("signature");
    bytes[0] ^= 1;
    let forged = format!("{head}.{}", URL_SAFE_NO_PAD.encode(bytes));
    let user = f.demo_service.info().user_token.clone();
    assert_invalid_token(
        &f.get(&f.aas_url(MACHINE, ""), Some(&forged), Some(&user))
            .await,
    );
}

#[tokio::test]
async fn alg_none() {
    let f = Fixture::start(Config::default()).await;
    let token = f.token().await;
    let payload = token.split('.').nth(1).expect("payload");
    let none = format!(
        "{}.{payload}.",
        URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#)
    );
    let user = f.demo_service.info().user_token.clone();
    assert_invalid_token(
        &f.get(&f.aas_url(MACHINE, ""), Some(&none), Some(&user))
            .await,
    );
}

#[tokio::test]
async fn token_of_another_realm() {
    let f = Fixture::start(Config::default()).await;
    let other = Fixture::start(Config::default()).await;
    let foreign = other.token().await;
    let user = f.demo_service.info().user_token.clone();
    assert_invalid_token(
        &f.get(&f.aas_url(MACHINE, ""), Some(&foreign), Some(&user))
            .await,
    );
}

#[tokio::test]
async fn missing_or_bad_user_token() {
    let f = Fixture::start(Config::default()).await;
    let token = f.token().await;
    let url = f.aas_url(MACHINE, "");
    assert_error(
        &f.get(&url, Some(&token), None).await,
        401,
        "invalid_user_token",
    );
    assert_error(
        &f.get(&url, Some(&token), Some("garbage")).await,
        401,
        "invalid_user_token",
    );
    // An access token is not a user token.
    assert_error(
        &f.get(&url, Some(&token), Some(&token)).await,
        401,
        "invalid_user_token",
    );
}

#[tokio::test]
async fn user_token_of_another_customer() {
    let f = Fixture::start(Config::default()).await;
    let token = f.token().await;
    let stranger = f.mint_user("globex", &["DEMO-01"]).await;
    let list = format!(
        "{}/aasList?AssetType=machine&PlantCode=DEMO-01",
        f.demo_service.info().gateway_url
    );
    assert_error(
        &f.get(&list, Some(&token), Some(&stranger)).await,
        403,
        "forbidden",
    );
    assert_error(
        &f.get(&f.aas_url(MACHINE, ""), Some(&token), Some(&stranger))
            .await,
        404,
        "not_found",
    );
}

#[tokio::test]
async fn plant_not_in_the_user_token() {
    let f = Fixture::start(Config::default()).await;
    let token = f.token().await;
    let no_plants = f.mint_user("acme", &[]).await;
    let list = format!(
        "{}/aasList?AssetType=machine&PlantCode=DEMO-01",
        f.demo_service.info().gateway_url
    );
    assert_error(
        &f.get(&list, Some(&token), Some(&no_plants)).await,
        403,
        "forbidden",
    );
    assert_error(
        &f.get(&f.aas_url(MACHINE, ""), Some(&token), Some(&no_plants))
            .await,
        404,
        "not_found",
    );
}

#[tokio::test]
async fn denied_asset_looks_exactly_like_a_missing_one() {
    let f = Fixture::start(Config::default()).await;
    let denied = f.get_as_demo(&f.aas_url(USER_ASSET, "")).await;
    let missing = f
        .get_as_demo(&f.aas_url("urn:demo-platform:acme:DEMO-01:aas:user#U-9999", ""))
        .await;
    assert_error(&denied, 404, "not_found");
    assert_eq!(
        (denied.status, &denied.body),
        (missing.status, &missing.body),
        "no enumeration"
    );
    let list = format!(
        "{}/aasList?AssetType=user&PlantCode=DEMO-01",
        f.demo_service.info().gateway_url
    );
    assert_eq!(f.get_as_demo(&list).await.body, serde_json::json!([]));
    let sm = f
        .get_as_demo(&f.aas_url(
            USER_ASSET,
            "/aas/submodels/Nameplate/submodel/submodelElements",
        ))
        .await;
    assert_error(&sm, 404, "not_found");
}

#[tokio::test]
async fn asset_type_the_application_did_not_request() {
    let narrow = AppSpec {
        client_id: "narrow".into(),
        client_secret: "narrow-secret".into(),
        requested: vec![AssetType::MACHINE],
    };
    let f = Fixture::start(Config {
        applications: vec![AppSpec::demo(), narrow],
        ..Config::default()
    })
    .await;
    let token = f.token_for("narrow", "narrow-secret").await;
    let user = f.demo_service.info().user_token.clone();
    assert_eq!(
        f.get(&f.aas_url(MACHINE, ""), Some(&token), Some(&user))
            .await
            .status,
        200
    );
    assert_error(
        &f.get(&f.aas_url(TOOL, ""), Some(&token), Some(&user)).await,
        404,
        "not_found",
    );
    let registry = format!("{}/api/v1/registry", f.demo_service.info().registry_url);
    let listed = f.get(&registry, Some(&token), None).await.body;
    assert_eq!(
        listed.as_array().map(Vec::len),
        Some(3),
        "only the three machines"
    );
}

#[tokio::test]
async fn revoked_during_the_session_then_allowed_again() {
    let f = Fixture::start(Config::default()).await;
    let url = f.aas_url(TOOL, "/aas/submodels");
    assert_eq!(f.get_as_demo(&url).await.status, 200);
    f.set_grant(TOOL, "denied").await;
    assert_error(&f.get_as_demo(&url).await, 404, "not_found");
    f.set_grant(TOOL, "allowed").await;
    assert_eq!(f.get_as_demo(&url).await.status, 200);
}

#[tokio::test]
async fn allowed_asset_answers_200_on_every_route() {
    let f = Fixture::start(Config::default()).await;
    let list = format!(
        "{}/aasList?AssetType=machine&PlantCode=DEMO-01",
        f.demo_service.info().gateway_url
    );
    let shells = f.get_as_demo(&list).await;
    assert_eq!(shells.status, 200);
    assert_eq!(shells.body[0]["identification"]["id"], MACHINE);
    for rest in [
        "",
        "/aas/submodels",
        "/aas/submodels/Nameplate",
        "/aas/submodels/Nameplate/submodel/submodelElements",
        "/aas/submodels/Nameplate/submodel/submodelElements/ManufacturerName",
        "/aas/submodels/Nameplate/submodel/submodelElements/Address/CityTown",
    ] {
        let a = f.get_as_demo(&f.aas_url(MACHINE, rest)).await;
        assert_eq!(a.status, 200, "{rest}: {a:?}");
    }
}

#[tokio::test]
async fn admin_surface_needs_its_own_token() {
    let f = Fixture::start(Config::default()).await;
    let url = format!(
        "{}/demo-service/admin/grants",
        f.demo_service.info().registry_url
    );
    let token = f.token().await;
    assert_invalid_token(&f.get(&url, Some(&token), None).await);
    let listed = f
        .admin(reqwest::Method::GET, "/grants", serde_json::Value::Null)
        .await;
    assert_eq!(listed.status, 200);
    assert_eq!(listed.body.as_array().map(Vec::len), Some(24));
    assert!(
        f.demo_service.info().admin_token.is_none(),
        "not announced unless asked"
    );
}

/// Both positions a token can be forged in: the access token (Authorization) and the
/// user token (UserToken header), each with the other one genuine.
async fn assert_both_refused(f: &Fixture, forge: impl Fn(&str) -> String) {
    let token = f.token().await;
    let user = f.demo_service.info().user_token.clone();
    let url = f.aas_url(MACHINE, "");
    assert_invalid_token(&f.get(&url, Some(&forge(&token)), Some(&user)).await);
    assert_error(
        &f.get(&url, Some(&token), Some(&forge(&user))).await,
        401,
        "invalid_user_token",
    );
    // The genuine pair still works, so the refusals above are the forgeries'.
    assert_eq!(f.get(&url, Some(&token), Some(&user)).await.status, 200);
}

/// The claims of a token, as they are, to be signed again.
fn claims(token: &str) -> serde_json::Value {
    let payload = token.split('.').nth(1).expect("payload");
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).expect("base64")).expect("claims")
}

fn signed(header: jsonwebtoken::Header, token: &str, key: &jsonwebtoken::EncodingKey) -> String {
    jsonwebtoken::encode(&header, &claims(token), key).expect("sign")
}

#[tokio::test]
async fn same_claims_signed_again_with_another_rsa_key() {
    use rsa::pkcs1::EncodeRsaPrivateKey;
    let f = Fixture::start(Config::default()).await;
    let other = rsa::RsaPrivateKey::new(&mut rsa::rand_core::OsRng, 2048).expect("RSA key");
    let der = other.to_pkcs1_der().expect("DER");
    let key = jsonwebtoken::EncodingKey::from_rsa_der(der.as_bytes());
    // Same algorithm and the demo service's own key id: only the key differs.
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::RS256);
    header.kid = Some("demo-service-1".into());
    assert_both_refused(&f, |token| signed(header.clone(), token, &key)).await;
}

#[tokio::test]
async fn hs256_keyed_with_the_published_public_key() {
    use rsa::pkcs1::EncodeRsaPublicKey;
    use rsa::pkcs8::EncodePublicKey;
    let f = Fixture::start(Config::default()).await;
    let info = f.demo_service.info();
    let certs = format!(
        "{}/auth/realms/{}/protocol/openid-connect/certs",
        info.auth_url, info.realm
    );
    let jwks: serde_json::Value = f
        .http
        .get(certs)
        .send()
        .await
        .expect("GET certs")
        .json()
        .await
        .expect("JWKS");
    let part = |name: &str| {
        let text = jwks["keys"][0][name].as_str().expect("JWK member");
        rsa::BigUint::from_bytes_be(&URL_SAFE_NO_PAD.decode(text).expect("base64"))
    };
    let public = rsa::RsaPublicKey::new(part("n"), part("e")).expect("public key");
    let line = rsa::pkcs8::LineEnding::LF;
    // The forms an attacker would try as the HMAC secret.
    let secrets = [
        public
            .to_public_key_pem(line)
            .expect("SPKI PEM")
            .into_bytes(),
        public.to_pkcs1_pem(line).expect("PKCS#1 PEM").into_bytes(),
        public.to_public_key_der().expect("DER").as_bytes().to_vec(),
        jwks["keys"][0]["n"]
            .as_str()
            .expect("n")
            .as_bytes()
            .to_vec(),
    ];
    for secret in secrets {
        let key = jsonwebtoken::EncodingKey::from_secret(&secret);
        let header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
        assert_both_refused(&f, |token| signed(header.clone(), token, &key)).await;
    }
}

#[tokio::test]
async fn alg_none_in_either_position() {
    let f = Fixture::start(Config::default()).await;
    assert_both_refused(&f, |token| {
        let payload = token.split('.').nth(1).expect("payload");
        format!(
            "{}.{payload}.",
            URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#)
        )
    })
    .await;
}

#[tokio::test]
async fn expired_user_token() {
    let f = Fixture::start(Config::default()).await;
    let minted = f
        .admin(
            reqwest::Method::POST,
            "/user-tokens",
            serde_json::json!({"tenant": "acme", "user": "u", "plants": ["DEMO-01"], "ttl_secs": 0}),
        )
        .await;
    let user = minted.body["user_token"].as_str().expect("user_token");
    // Past its exp and the 5 s clock leeway.
    tokio::time::sleep(Duration::from_secs(7)).await;
    let token = f.token().await;
    let a = f
        .get(&f.aas_url(MACHINE, ""), Some(&token), Some(user))
        .await;
    assert_error(&a, 401, "invalid_user_token");
    assert!(
        a.body["error_description"]
            .as_str()
            .unwrap_or_default()
            .contains("xpired"),
        "{a:?}"
    );
}

#[tokio::test]
async fn other_customers_and_denied_assets_answer_exactly_like_missing_ones() {
    let globex = aas_demo::demo_plant("GLOBEX-01", 8, 2);
    let foreign = globex.assets[0].aas_id.clone();
    let f = Fixture::start(Config {
        plants: vec![aas_demo::demo_plant("DEMO-01", 24, 1), globex],
        customers: vec![aas_demo::Customer {
            tenant: "globex".into(),
            plants: vec!["GLOBEX-01".into()],
        }],
        ..Config::default()
    })
    .await;
    let missing = "urn:demo-platform:acme:DEMO-01:aas:machine#M-9999";
    for rest in [
        "",
        "/aas/submodels",
        "/aas/submodels/Nameplate",
        "/aas/submodels/Nameplate/submodel/submodelElements",
        "/aas/submodels/Nameplate/submodel/submodelElements/ManufacturerName",
    ] {
        let absent = f.get_as_demo(&f.aas_url(missing, rest)).await;
        assert_error(&absent, 404, "not_found");
        for id in [foreign.as_str(), USER_ASSET] {
            let hidden = f.get_as_demo(&f.aas_url(id, rest)).await;
            assert_eq!(
                (hidden.status, &hidden.body),
                (absent.status, &absent.body),
                "{id}{rest}: no enumeration"
            );
        }
    }
    // Another customer's plant and a plant that does not exist: the same refusal.
    let list = |plant: &str| {
        format!(
            "{}/aasList?AssetType=machine&PlantCode={plant}",
            f.demo_service.info().gateway_url
        )
    };
    let theirs = f.get_as_demo(&list("GLOBEX-01")).await;
    let nowhere = f.get_as_demo(&list("NOWHERE-01")).await;
    assert_error(&theirs, 403, "forbidden");
    assert_eq!(
        theirs.body.to_string().replace("GLOBEX-01", "NOWHERE-01"),
        nowhere.body.to_string()
    );
}
