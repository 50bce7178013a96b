use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde::Deserialize;
use tokio::sync::Mutex;

use crate::discovery::MAX_TOKEN_BODY;
use crate::waiting::Waiting;
use crate::{ClientAuth, Connection, Error, Result, Secret};

/// Gets access tokens by the client-credentials grant and caches them. The cache lock
/// is held while a token is fetched, so however many requests wait, one fetch runs.
#[derive(Debug)]
pub struct TokenProvider {
    http: reqwest::Client,
    auth_url: String,
    realm: String,
    /// The token endpoint: the connection's `token_url`, or found by discovery.
    endpoint: OnceLock<String>,
    client_id: String,
    client_secret: Secret,
    client_auth: ClientAuth,
    cached: Mutex<Option<Cached>>,
    /// Its requests in flight, shared with the client it serves.
    waiting: Waiting,
}

#[derive(Debug)]
struct Cached {
    token: Secret,
    refresh_at: Instant,
    /// When the server says the token lapses, for the status bar.
    expires_at: Instant,
}

/// The fields we need of a token response; servers send more (Keycloak) or fewer
/// (oidc-provider has no `refresh_expires_in`), and some send `expires_in` as a string.
#[derive(Deserialize)]
struct TokenResponse {
    access_token: Secret,
    #[serde(default)]
    expires_in: Option<serde_json::Value>,
}

/// When neither `expires_in` nor the token's own `exp` says how long it lives.
const ASSUMED_LIFETIME: Duration = Duration::from_secs(60);

/// A longer lifetime is not believed: the token is fetched again within a day (and a
/// huge `expires_in` would overflow the refresh time, found by fuzzing).
const MAX_LIFETIME: Duration = Duration::from_secs(24 * 3600);

/// How long a token lives: `expires_in` if the server sent it, else the JWT's `exp`
/// (read, not verified: only to schedule the refresh), else [`ASSUMED_LIFETIME`]; at
/// most [`MAX_LIFETIME`].
fn lifetime(response: &TokenResponse) -> Duration {
    let from_field = response.expires_in.as_ref().and_then(|v| match v {
        serde_json::Value::Number(n) => n.as_u64(),
        serde_json::Value::String(s) => s.trim().parse().ok(),
        _ => None,
    });
    from_field
        .map(Duration::from_secs)
        .or_else(|| jwt_seconds_left(response.access_token.expose()))
        .unwrap_or(ASSUMED_LIFETIME)
        .min(MAX_LIFETIME)
}

fn jwt_seconds_left(token: &str) -> Option<Duration> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs();
    Some(Duration::from_secs(jwt_expiry(token)?.saturating_sub(now)))
}

/// A JWT's `exp` (Unix seconds), read without checking the signature: only to show or
/// schedule, never to trust. `None` when `token` is not a JWT with an `exp`.
pub(crate) fn jwt_expiry(token: &str) -> Option<u64> {
    use base64::Engine;
    #[derive(Deserialize)]
    struct Claims {
        exp: u64,
    }
    let payload = token.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .ok()?;
    Some(serde_json::from_slice::<Claims>(&bytes).ok()?.exp)
}

impl TokenProvider {
    pub fn new(http: reqwest::Client, conn: &Connection) -> Self {
        TokenProvider {
            http,
            auth_url: conn.auth_url.clone(),
            realm: conn.realm.clone(),
            endpoint: conn
                .token_url
                .clone()
                .map(OnceLock::from)
                .unwrap_or_default(),
            client_id: conn.client_id.clone(),
            client_secret: conn.client_secret.clone(),
            client_auth: conn.client_auth,
            cached: Mutex::new(None),
            waiting: Waiting::default(),
        }
    }

    /// A provider of tokens from the endpoint `token_url` itself (no discovery), as a V3
    /// server's profile names it.
    pub fn at_endpoint(
        http: reqwest::Client,
        token_url: &str,
        client_id: &str,
        client_secret: Secret,
        client_auth: ClientAuth,
    ) -> Self {
        TokenProvider {
            http,
            auth_url: token_url.to_owned(),
            realm: String::new(),
            endpoint: OnceLock::from(token_url.to_owned()),
            client_id: client_id.to_owned(),
            client_secret,
            client_auth,
            cached: Mutex::new(None),
            waiting: Waiting::default(),
        }
    }

    /// The provider noting its requests in `waiting`, the client's.
    pub(crate) fn sharing(mut self, waiting: Waiting) -> Self {
        self.waiting = waiting;
        self
    }

    /// A valid access token, fetched only when the cached one is near its end.
    pub async fn token(&self) -> Result<Secret> {
        let mut cached = self.cached.lock().await;
        if let Some(c) = cached.as_ref().filter(|c| Instant::now() < c.refresh_at) {
            return Ok(c.token.clone());
        }
        let fresh = self.fetch().await?;
        let token = fresh.token.clone();
        *cached = Some(fresh);
        Ok(token)
    }

    /// The token endpoint: given, or found by discovery once (a guess made while the
    /// server could not be asked is not kept).
    async fn endpoint(&self) -> Result<String> {
        if let Some(url) = self.endpoint.get() {
            return Ok(url.clone());
        }
        let found =
            crate::discovery::discover(&self.http, &self.auth_url, &self.realm, &self.waiting)
                .await?;
        if found.certain {
            let _ = self.endpoint.set(found.url.clone());
        }
        Ok(found.url)
    }

    /// The token endpoint used, once known; else the spec's, for a reachability probe.
    pub fn endpoint_known(&self) -> String {
        self.endpoint
            .get()
            .cloned()
            .unwrap_or_else(|| crate::discovery::spec_token_url(&self.auth_url, &self.realm))
    }

    /// How long the cached access token has left, or `None` before the first one and
    /// while one is being fetched (the status bar asks every second and must not wait
    /// out a silent token server).
    pub async fn expires_in(&self) -> Option<Duration> {
        let cached = self.cached.try_lock().ok()?;
        cached
            .as_ref()
            .map(|c| c.expires_at.saturating_duration_since(Instant::now()))
    }

    /// Forgets `stale` (the server refused it), unless another caller already replaced it.
    pub async fn invalidate(&self, stale: &Secret) {
        let mut cached = self.cached.lock().await;
        if cached.as_ref().is_some_and(|c| &c.token == stale) {
            *cached = None;
        }
    }

    async fn fetch(&self) -> Result<Cached> {
        let started = Instant::now();
        let url = self.endpoint().await?;
        let request = self.http.post(&url);
        let request = match self.client_auth {
            ClientAuth::Form => request.form(&[
                ("grant_type", "client_credentials"),
                ("client_id", self.client_id.as_str()),
                ("client_secret", self.client_secret.expose()),
            ]),
            // RFC 6749 §2.3.1: both parts form-encoded before base64.
            ClientAuth::Basic => request
                .basic_auth(
                    form_encode(&self.client_id),
                    Some(form_encode(self.client_secret.expose())),
                )
                .form(&[("grant_type", "client_credentials")]),
        };
        let response = crate::transport::Pace::DEFAULT
            .head(&url, request.send(), &self.waiting)
            .await?;
        let status = response.status();
        let body = crate::transport::read_body(&url, response, MAX_TOKEN_BODY).await?;
        if !status.is_success() {
            let page = crate::secret::redact(&body, &self.sent_secrets());
            return Err(Error::from_response(status.as_u16(), &page, None));
        }
        read_token(&body, started).map_err(|e| Error::TokenAnswer {
            url,
            reason: e.to_string(),
        })
    }

    /// The secret as a token request carries it: in the form, or in the Basic header.
    pub(crate) fn sent_secrets(&self) -> [String; 2] {
        use base64::Engine;
        let basic = format!(
            "{}:{}",
            form_encode(&self.client_id),
            form_encode(self.client_secret.expose())
        );
        [
            self.client_secret.expose().to_owned(),
            base64::engine::general_purpose::STANDARD.encode(basic),
        ]
    }
}

/// Reads a token endpoint's successful answer to a request made at `asked_at`: the
/// access token, and when to fetch the next one. Public for the fuzz target.
pub fn read_token_response(body: &str, asked_at: Instant) -> Result<(Secret, Instant)> {
    let cached = read_token(body, asked_at)?;
    Ok((cached.token, cached.refresh_at))
}

fn read_token(body: &str, asked_at: Instant) -> Result<Cached> {
    let parsed: TokenResponse = aas_model::parse(body)?;
    let lifetime = lifetime(&parsed);
    tracing::debug!(lifetime_s = lifetime.as_secs(), "access token obtained");
    Ok(Cached {
        token: parsed.access_token,
        // Refresh at 80% of the lifetime, counted from when we asked.
        refresh_at: asked_at + lifetime.mul_f64(0.8),
        expires_at: asked_at + lifetime,
    })
}

fn form_encode(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    fn response(json: &str) -> TokenResponse {
        serde_json::from_str(json).expect("token response")
    }

    #[test]
    fn lifetime_comes_from_expires_in_then_the_jwt_then_a_default() {
        assert_eq!(
            lifetime(&response(r#"{"access_token":"x","expires_in":300}"#)),
            Duration::from_secs(300)
        );
        assert_eq!(
            lifetime(&response(r#"{"access_token":"x","expires_in":"120"}"#)),
            Duration::from_secs(120)
        );
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("clock")
            .as_secs();
        let payload = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(format!(r#"{{"exp":{}}}"#, now + 90));
        let jwt = format!("e30.{payload}.sig");
        let left = lifetime(&response(&format!(r#"{{"access_token":"{jwt}"}}"#)));
        assert!((88..=90).contains(&left.as_secs()), "{left:?}");
        assert_eq!(
            lifetime(&response(r#"{"access_token":"opaque"}"#)),
            ASSUMED_LIFETIME
        );
    }

    #[test]
    fn a_huge_lifetime_is_capped_instead_of_overflowing_the_refresh_time() {
        let asked_at = Instant::now();
        for body in [
            r#"{"access_token":"x","expires_in":18446744073709551615}"#,
            r#"{"access_token":"x","expires_in":"12000000000000000000"}"#,
        ] {
            let (_, refresh_at) = read_token_response(body, asked_at).expect("readable");
            assert_eq!(refresh_at, asked_at + MAX_LIFETIME.mul_f64(0.8), "{body}");
        }
    }
}
