//! Shared by several test binaries; each uses only part of it.
#![allow(dead_code)]

//! A demo service on loopback and a plain HTTP client that builds every request by hand.

use aas_demo::{Config, DemoService};
use reqwest::StatusCode;
use serde_json::{json, Value};

pub const MACHINE: &str = "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001";
pub const TOOL: &str = "urn:demo-platform:acme:DEMO-01:aas:tool#T-0001";
pub const USER_ASSET: &str = "urn:demo-platform:acme:DEMO-01:aas:user#U-0001";

pub struct Fixture {
    pub demo_service: DemoService,
    pub http: reqwest::Client,
}

/// What came back: status, the WWW-Authenticate header, and the body as JSON (or null).
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub challenge: Option<String>,
    pub body: Value,
}

impl Fixture {
    pub async fn start(config: Config) -> Self {
        Fixture {
            demo_service: DemoService::start(config)
                .await
                .expect("demo service starts"),
            http: reqwest::Client::new(),
        }
    }

    pub fn token_url(&self) -> String {
        let info = self.demo_service.info();
        format!(
            "{}/auth/realms/{}/protocol/openid-connect/token",
            info.auth_url, info.realm
        )
    }

    pub async fn token_for(&self, client_id: &str, secret: &str) -> String {
        let answer = self
            .http
            .post(self.token_url())
            .form(&[
                ("grant_type", "client_credentials"),
                ("client_id", client_id),
                ("client_secret", secret),
            ])
            .send()
            .await
            .expect("token request");
        assert_eq!(answer.status(), 200);
        let body: Value = answer.json().await.expect("json");
        body["access_token"]
            .as_str()
            .expect("access_token")
            .to_owned()
    }

    pub async fn token(&self) -> String {
        let info = self.demo_service.info();
        self.token_for(&info.client_id, &info.client_secret).await
    }

    /// `{gateway_url}/aasList/{encoded aasId}` followed by `rest`.
    pub fn aas_url(&self, aas_id: &str, rest: &str) -> String {
        format!(
            "{}/aasList/{}{rest}",
            self.demo_service.info().gateway_url,
            aas_model::encode_segment(aas_id)
        )
    }

    pub async fn get(&self, url: &str, access: Option<&str>, user: Option<&str>) -> Answer {
        let mut request = self.http.get(url);
        if let Some(a) = access {
            request = request.header("Authorization", format!("Bearer {a}"));
        }
        if let Some(u) = user {
            request = request.header("UserToken", format!("Bearer {u}"));
        }
        answer(request.send().await.expect("GET")).await
    }

    /// GET with the demo application's token and the demo user's token.
    pub async fn get_as_demo(&self, url: &str) -> Answer {
        let token = self.token().await;
        self.get(
            url,
            Some(&token),
            Some(&self.demo_service.info().user_token),
        )
        .await
    }

    /// A GET with `token` as the access token and the demo user's token.
    pub fn demo_request(&self, url: &str, token: &str) -> reqwest::RequestBuilder {
        let user = &self.demo_service.info().user_token;
        self.http
            .get(url)
            .bearer_auth(token)
            .header("UserToken", format!("Bearer {user}"))
    }

    /// The demo service's counters (`GET /demo-service/stats`).
    pub async fn stats(&self) -> Value {
        let url = format!(
            "{}/demo-service/stats",
            self.demo_service.info().registry_url
        );
        let response = self.http.get(url).send().await.expect("GET stats");
        response.json().await.expect("stats JSON")
    }

    pub async fn admin(&self, method: reqwest::Method, path: &str, body: Value) -> Answer {
        let url = format!(
            "{}/demo-service/admin{path}",
            self.demo_service.info().registry_url
        );
        let request = self
            .http
            .request(method, url)
            .bearer_auth(self.demo_service.admin_token());
        let request = if body.is_null() {
            request
        } else {
            request.json(&body)
        };
        answer(request.send().await.expect("admin request")).await
    }

    pub async fn mint_user(&self, tenant: &str, plants: &[&str]) -> String {
        let a = self
            .admin(
                reqwest::Method::POST,
                "/user-tokens",
                json!({"tenant": tenant, "user": "u", "plants": plants}),
            )
            .await;
        assert_eq!(a.status, 200, "{a:?}");
        a.body["user_token"]
            .as_str()
            .expect("user_token")
            .to_owned()
    }

    pub async fn set_grant(&self, aas_id: &str, grant: &str) {
        let client_id = self.demo_service.info().client_id.clone();
        let a = self
            .admin(
                reqwest::Method::PUT,
                "/grants",
                json!({"client_id": client_id, "aas_id": aas_id, "grant": grant}),
            )
            .await;
        assert_eq!(a.status, 200, "{a:?}");
    }
}

pub async fn answer(response: reqwest::Response) -> Answer {
    let status = response.status();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let bytes = response.bytes().await.unwrap_or_default();
    Answer {
        status,
        challenge,
        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    }
}
