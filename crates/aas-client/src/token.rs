use std::time::{Duration, Instant};

use serde::Deserialize;
use tokio::sync::Mutex;

use crate::{Connection, Error, Result, Secret};

/// Gets access tokens by the client-credentials grant and caches them. The cache lock
/// is held while a token is fetched, so however many requests wait, one fetch runs.
#[derive(Debug)]
pub struct TokenSource {
    http: reqwest::Client,
    url: String,
    client_id: String,
    client_secret: Secret,
    cached: Mutex<Option<Cached>>,
}

#[derive(Debug)]
struct Cached {
    token: Secret,
    refresh_at: Instant,
}

#[derive(Deserialize)]
struct TokenResponse {
    access_token: Secret,
    expires_in: Option<u64>,
}

/// When a response does not say how long its token lives.
const ASSUMED_LIFETIME: Duration = Duration::from_secs(60);

impl TokenSource {
    pub fn new(http: reqwest::Client, conn: &Connection) -> Self {
        TokenSource {
            http,
            url: conn.token_url(),
            client_id: conn.client_id.clone(),
            client_secret: conn.client_secret.clone(),
            cached: Mutex::new(None),
        }
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

    /// Forgets `stale` (the server refused it), unless another caller already replaced it.
    pub async fn invalidate(&self, stale: &Secret) {
        let mut cached = self.cached.lock().await;
        if cached.as_ref().is_some_and(|c| &c.token == stale) {
            *cached = None;
        }
    }

    async fn fetch(&self) -> Result<Cached> {
        let started = Instant::now();
        let form = [
            ("grant_type", "client_credentials"),
            ("client_id", self.client_id.as_str()),
            ("client_secret", self.client_secret.expose()),
        ];
        let response = self
            .http
            .post(&self.url)
            .form(&form)
            .send()
            .await
            .map_err(|e| crate::client::offline(&self.url, e))?;
        let status = response.status();
        let body = response
            .text()
            .await
            .map_err(|e| crate::client::offline(&self.url, e))?;
        if !status.is_success() {
            return Err(Error::from_response(status.as_u16(), &body, None));
        }
        let parsed: TokenResponse = aas_model::parse(&body)?;
        let lifetime = parsed
            .expires_in
            .map_or(ASSUMED_LIFETIME, Duration::from_secs);
        tracing::debug!(lifetime_s = lifetime.as_secs(), "access token obtained");
        Ok(Cached {
            token: parsed.access_token,
            // Refresh at 80% of the lifetime, counted from when we asked.
            refresh_at: started + lifetime.mul_f64(0.8),
        })
    }
}
