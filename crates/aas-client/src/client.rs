use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use aas_model::{
    encode_segment, parse, parse_list, AasDescriptor, AssetAdministrationShell, AssetType, Parsed,
    Submodel, SubmodelElement,
};
use reqwest::header::{AUTHORIZATION, RETRY_AFTER};
use reqwest::StatusCode;
use serde_json::value::RawValue;

use crate::transport::{offline, receive, Pace, DEFAULT_IDLE_TIMEOUT};
use crate::waiting::Waiting;
use crate::{Connection, Error, Result, RetryPolicy, Secret, TokenProvider};
use aas_model::FileError;
use aas_source::{check_json, Body, ErrorKind, DEFAULT_MAX_STREAMED, SPOOL_AT};

/// One connection to the service: a pooled HTTP client, the token cache and the
/// addresses. Cheap to share behind an `Arc`; every method may run concurrently.
#[derive(Debug)]
pub struct Client {
    http: reqwest::Client,
    conn: Connection,
    tokens: TokenProvider,
    retry: RetryPolicy,
    max_body: usize,
    /// The largest answer kept in a temporary file ([`DEFAULT_MAX_STREAMED`]).
    max_streamed: usize,
    /// The size past which an answer goes to a temporary file ([`SPOOL_AT`]).
    spool_at: usize,
    /// How fast an answer must come ([`Pace`]).
    pace: Pace,
    activity: Counters,
    /// A shell the service has listed, for [`Client::probe`] to ask about.
    known_shell: OnceLock<String>,
    /// The registry's answer while browsing ([`Client::registry_for_session`]).
    registry: tokio::sync::Mutex<Option<Arc<str>>>,
    /// Its requests (and its token provider's) waiting for an answer's head.
    waiting: Waiting,
}

/// Requests made through a [`Client`] and how many of them failed (after retries),
/// for the status bar.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Activity {
    pub requests: u64,
    pub errors: u64,
}

#[derive(Debug, Default)]
struct Counters {
    requests: AtomicU64,
    errors: AtomicU64,
}

/// The largest answer accepted by default: far above any real AAS list, far below
/// what would exhaust memory if a proxy or a broken server sent without end.
pub const DEFAULT_MAX_BODY: usize = 256 * 1024 * 1024;

/// How long a reachability probe waits for any answer at all.
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// Whether a request goes to the gateway, which also wants the user's token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Service {
    Registry,
    Gateway,
}

impl Client {
    pub fn new(conn: Connection) -> Result<Self> {
        conn.check()?;
        let http = crate::transport::http_client(&conn.transport, DEFAULT_IDLE_TIMEOUT)?;
        let waiting = Waiting::default();
        let tokens = TokenProvider::new(http.clone(), &conn).sharing(waiting.clone());
        Ok(Client {
            http,
            conn,
            tokens,
            retry: RetryPolicy::default(),
            max_body: DEFAULT_MAX_BODY,
            max_streamed: DEFAULT_MAX_STREAMED,
            spool_at: SPOOL_AT,
            pace: Pace::DEFAULT,
            activity: Counters::default(),
            known_shell: OnceLock::new(),
            registry: tokio::sync::Mutex::new(None),
            waiting,
        })
    }

    /// Replaces [`DEFAULT_IDLE_TIMEOUT`]: how long a request may go without a byte
    /// arriving before it counts as lost.
    pub fn with_idle_timeout(mut self, idle: Duration) -> Result<Self> {
        self.http = crate::transport::http_client(&self.conn.transport, idle)?;
        self.pace.period = idle;
        self.tokens =
            TokenProvider::new(self.http.clone(), &self.conn).sharing(self.waiting.clone());
        Ok(self)
    }

    /// Replaces the default [`RetryPolicy`].
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Replaces the largest answer accepted ([`DEFAULT_MAX_BODY`]).
    pub fn with_max_body(mut self, bytes: usize) -> Self {
        self.max_body = bytes;
        self
    }

    /// Replaces the largest answer a crawl keeps in a temporary file
    /// ([`DEFAULT_MAX_STREAMED`]).
    pub fn with_max_streamed(mut self, bytes: usize) -> Self {
        self.max_streamed = bytes;
        self
    }

    /// Replaces the size past which a crawl keeps an answer in a temporary file
    /// ([`SPOOL_AT`]).
    pub fn with_spool_at(mut self, bytes: usize) -> Self {
        self.spool_at = bytes;
        self
    }

    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Registry and gateway requests so far, each counted once however often retried.
    pub fn activity(&self) -> Activity {
        Activity {
            requests: self.activity.requests.load(Ordering::Relaxed),
            errors: self.activity.errors.load(Ordering::Relaxed),
        }
    }

    /// The server (`scheme://host:port`) a request has waited on longest for an
    /// answer, and for how long; `None` while none waits.
    pub fn waiting_on(&self) -> Option<(String, Duration)> {
        self.waiting.longest()
    }

    /// How long the current access token has left; `None` before the first request.
    pub async fn token_expires_in(&self) -> Option<Duration> {
        self.tokens.expires_in().await
    }

    /// The user token's expiry (Unix seconds) when it is a JWT; read, not verified.
    pub fn user_token_expiry(&self) -> Option<u64> {
        crate::token::jwt_expiry(self.conn.user_token.expose())
    }

    pub(crate) fn tokens(&self) -> &TokenProvider {
        &self.tokens
    }

    /// Remembers a shell the service listed, for [`Client::probe`].
    pub(crate) fn note_shell(&self, aas_id: &str) {
        if self.known_shell.get().is_none() {
            let _ = self.known_shell.set(aas_id.to_owned());
        }
    }

    /// Whether the service answers at all: `GET {gateway}/aasList/{a known aasId}`, or
    /// the token endpoint before any shell is known, where any HTTP status counts. It
    /// carries no token: the question is only whether something answers. The one
    /// probe of the crawl's offline handling and the app's offline banner.
    pub async fn probe(&self) -> Result<()> {
        let url = match self.known_shell.get() {
            Some(aas_id) => self.aas_url(aas_id),
            None => self.tokens.endpoint_known(),
        };
        let answered = self.http.get(&url).timeout(PROBE_TIMEOUT).send().await;
        tracing::debug!(reachable = answered.is_ok(), "probe");
        answered.map(drop).map_err(|e| offline(&url, e))
    }

    /// `GET {registry}/api/v1/registry`
    pub async fn registry(&self) -> Result<Vec<Parsed<AasDescriptor>>> {
        Ok(parse_list(&self.registry_text().await?)?)
    }

    /// The registry's answer, read once and then kept while browsing: the descriptors
    /// change rarely, and every export of a selection and every shell's endpoints need
    /// them. [`Client::forget_registry`] makes the next call read it again; a crawl of
    /// the whole plant always reads it fresh.
    pub async fn registry_for_session(&self) -> Result<Arc<str>> {
        let mut kept = self.registry.lock().await;
        if let Some(raw) = kept.as_ref() {
            return Ok(Arc::clone(raw));
        }
        let raw: Arc<str> = self.registry_text().await?.into();
        *kept = Some(Arc::clone(&raw));
        Ok(raw)
    }

    /// Drops the kept registry answer (refresh on demand).
    pub async fn forget_registry(&self) {
        self.registry.lock().await.take();
    }

    /// The registry's answer as it came.
    pub(crate) async fn registry_text(&self) -> Result<String> {
        self.get(&self.conn.registry_list_url(), Service::Registry)
            .await
    }

    /// `GET {gateway}/aasList?AssetType=..&PlantCode=..`
    pub async fn aas_list(
        &self,
        asset_type: &AssetType,
        plant: &str,
    ) -> Result<Vec<Parsed<AssetAdministrationShell>>> {
        let url = self.aas_list_url(asset_type, plant)?;
        let shells: Vec<Parsed<AssetAdministrationShell>> =
            parse_list(&self.get(&url, Service::Gateway).await?)?;
        if let Some(Ok(shell)) = shells.first().map(Parsed::view) {
            self.note_shell(shell.id());
        }
        Ok(shells)
    }

    /// How many shells the AAS list of `asset_type` in `plant` holds, read past rather
    /// than kept: an asset type's count of a big plant, where the list itself would
    /// hold each of its 10,000 shells a second time while counted.
    pub async fn aas_list_len(&self, asset_type: &AssetType, plant: &str) -> Result<usize> {
        let url = self.aas_list_url(asset_type, plant)?;
        Ok(aas_model::count_list(
            &self.get(&url, Service::Gateway).await?,
        )?)
    }

    pub(crate) fn aas_list_url(&self, asset_type: &AssetType, plant: &str) -> Result<String> {
        let mut url = reqwest::Url::parse(&self.conn.gateway(&[])).map_err(|e| Error::Refused {
            setting: "the gateway URL".into(),
            source: e.into(),
        })?;
        url.query_pairs_mut()
            .append_pair("AssetType", asset_type.code())
            .append_pair("PlantCode", plant);
        Ok(url.into())
    }

    pub async fn aas(&self, aas_id: &str) -> Result<Parsed<AssetAdministrationShell>> {
        self.one(&self.aas_url(aas_id)).await
    }

    pub(crate) fn aas_url(&self, aas_id: &str) -> String {
        self.conn.gateway(&[&encode_segment(aas_id)])
    }

    pub async fn submodels(&self, aas_id: &str) -> Result<Vec<Parsed<Submodel>>> {
        let body = self
            .get(&self.submodels_url(aas_id), Service::Gateway)
            .await?;
        Ok(parse_list(&body)?)
    }

    pub(crate) fn submodels_url(&self, aas_id: &str) -> String {
        self.conn
            .gateway(&[&encode_segment(aas_id), "aas", "submodels"])
    }

    pub async fn submodel(&self, aas_id: &str, submodel: &str) -> Result<Parsed<Submodel>> {
        self.one(&self.submodel_url(aas_id, submodel)).await
    }

    pub(crate) fn submodel_url(&self, aas_id: &str, submodel: &str) -> String {
        let (aas, sm) = (encode_segment(aas_id), encode_segment(submodel));
        self.conn.gateway(&[&aas, "aas", "submodels", &sm])
    }

    pub async fn elements(
        &self,
        aas_id: &str,
        submodel: &str,
    ) -> Result<Vec<Parsed<SubmodelElement>>> {
        let body = self
            .get(&self.elements_url(aas_id, submodel, &[]), Service::Gateway)
            .await?;
        Ok(parse_list(&body)?)
    }

    /// `.../submodels/{submodel}/submodel/submodelElements[/{nested}...]`, every
    /// identifier encoded once.
    pub(crate) fn elements_url(&self, aas_id: &str, submodel: &str, nested: &[&str]) -> String {
        let (aas, sm) = (encode_segment(aas_id), encode_segment(submodel));
        let nested: Vec<String> = nested.iter().map(|p| encode_segment(p)).collect();
        let mut segments = vec![
            &*aas,
            "aas",
            "submodels",
            &sm,
            "submodel",
            "submodelElements",
        ];
        segments.extend(nested.iter().map(String::as_str));
        self.conn.gateway(&segments)
    }

    /// One element; `path` is its idShort, or the idShorts from the outermost
    /// collection down for a nested one.
    pub async fn element(
        &self,
        aas_id: &str,
        submodel: &str,
        path: &[&str],
    ) -> Result<Parsed<SubmodelElement>> {
        self.one(&self.elements_url(aas_id, submodel, path)).await
    }

    async fn one<T: serde::de::DeserializeOwned>(&self, url: &str) -> Result<Parsed<T>> {
        let body = self.get(url, Service::Gateway).await?;
        let raw: Box<RawValue> = parse(&body)?;
        Ok(Parsed::new(raw))
    }

    /// GETs `url`, retrying transient failures as the [`RetryPolicy`] says.
    pub(crate) async fn get(&self, url: &str, service: Service) -> Result<String> {
        let (got, _) = self.get_reading(url, service, false, check_json).await;
        got?.0.into_text().map_err(|source| {
            Error::File(FileError {
                action: "read the answer of",
                path: url.into(),
                source,
            })
        })
    }

    /// [`Client::get`] that reads the body with `read` (which must reject text that is
    /// not JSON), and says how many retries it took, so a crawl can check an answer and
    /// take what it needs from it in one pass, and report the retries. A cut or garbled
    /// answer is retried like a lost one; JSON of the wrong shape is bad data. An
    /// answer that `may_spool` goes to a temporary file when large (see [`Body`]).
    pub(crate) async fn get_reading<T>(
        &self,
        url: &str,
        service: Service,
        may_spool: bool,
        read: impl Fn(&Body) -> serde_json::Result<T>,
    ) -> (Result<(Body, T)>, u32) {
        self.activity.requests.fetch_add(1, Ordering::Relaxed);
        // Refused before a token is asked for: nothing goes out for such a URL.
        if has_dot_segment(url) {
            self.activity.errors.fetch_add(1, Ordering::Relaxed);
            let refused = Error::DotSegment {
                url: url.to_owned(),
            };
            return (Err(refused), 0);
        }
        let (got, retries) = (self.retry)
            .run(url, || async {
                let body = self.get_authorized(url, service, may_spool).await?;
                // A large answer in a file is read here in one go, as it was in memory:
                // once a crawl, for the registry.
                let read = read(&body).map_err(|e| unreadable(url, &body, e))?;
                Ok((body, read))
            })
            .await;
        if got.is_err() {
            self.activity.errors.fetch_add(1, Ordering::Relaxed);
        }
        (got, retries)
    }

    /// GETs `url` with the tokens; a 401 is retried once with a fresh access token,
    /// since the cached one may have been revoked or outlived on the server's clock,
    /// unless it is the user token that was refused.
    async fn get_authorized(&self, url: &str, service: Service, may_spool: bool) -> Result<Body> {
        let token = self.tokens.token().await?;
        match self.get_once(url, service, &token, may_spool).await {
            // The user token was refused: a fresh access token would not help.
            Err(e) if e.kind() == ErrorKind::UserToken => Err(e),
            Err(Error::Api { status: 401, .. }) => {
                self.tokens.invalidate(&token).await;
                let fresh = self.tokens.token().await?;
                self.get_once(url, service, &fresh, may_spool).await
            }
            other => other,
        }
    }

    async fn get_once(
        &self,
        url: &str,
        service: Service,
        token: &Secret,
        may_spool: bool,
    ) -> Result<Body> {
        let mut request = self
            .http
            .get(url)
            .header(AUTHORIZATION, format!("Bearer {}", token.expose()));
        if service == Service::Gateway {
            request = request.header(
                "UserToken",
                format!("Bearer {}", self.conn.user_token.expose()),
            );
        }
        let response = self.pace.head(url, request.send(), &self.waiting).await?;
        let status = response.status();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| retry_after(v, std::time::SystemTime::now()));
        // A refusal's page is read into memory, to quote it.
        let (limit, spool_at) = match may_spool && status == StatusCode::OK {
            true => (self.max_streamed, Some(self.spool_at)),
            false => (self.max_body, None),
        };
        let body = receive(url, response, limit, spool_at, self.pace).await?;
        tracing::debug!(%url, status = status.as_u16(), bytes = body.size(), "GET");
        match body {
            Body::Text(page) if status != StatusCode::OK => {
                let sent = [
                    token.expose(),
                    self.conn.user_token.expose(),
                    self.conn.client_secret.expose(),
                    self.conn
                        .transport
                        .proxy_password
                        .as_ref()
                        .map_or("", Secret::expose),
                ];
                let page = crate::secret::redact(&page, &sent);
                Err(Error::from_response(status.as_u16(), &page, retry_after))
            }
            body => Ok(body),
        }
    }
}

/// Whether the path of `url` has a segment that URL parsers read as `.` or `..` (the
/// WHATWG URL standard counts `%2e` as a dot too, so encoding does not help).
fn has_dot_segment(url: &str) -> bool {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = after_scheme.find('/').map_or("", |at| &after_scheme[at..]);
    let path = path.split(['?', '#']).next().unwrap_or_default();
    // Checked on every request: no allocation, a segment is a dot or two dots.
    let dot = |s: &str| s == "." || s.eq_ignore_ascii_case("%2e");
    path.split('/').any(|segment| {
        dot(segment)
            || [1, 3].iter().any(|&at| {
                segment.is_char_boundary(at) && dot(&segment[..at]) && dot(&segment[at..])
            })
    })
}

/// `Retry-After` in either of its forms (RFC 9110 §10.2.3): seconds, or an HTTP date
/// (a date already past means now).
pub(crate) fn retry_after(value: &str, now: std::time::SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or_default())
}

/// A body `read` refused: cut or garbled text is incomplete (and retried), JSON of
/// another shape is bad data. A reader may meet the wrong shape before the broken
/// syntax (`{` where a list belongs), so a shape error is checked against the syntax.
fn unreadable(url: &str, body: &Body, e: serde_json::Error) -> Error {
    let garbled = e.is_syntax() || e.is_eof() || e.is_io() || check_json(body).is_err();
    if garbled {
        incomplete(url, e)
    } else {
        aas_model::Error::Decode {
            path: ".".into(),
            message: e.to_string(),
        }
        .into()
    }
}

fn incomplete(url: &str, reason: impl std::fmt::Display) -> Error {
    Error::Incomplete {
        url: url.to_owned(),
        reason: reason.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments_are_found_plain_or_encoded_in_the_path_only() {
        for url in [
            "http://h/gateway/aas/%2E%2E/aas/submodels",
            "http://h/gateway/aas/./aas",
            "http://h/gateway/aas/x/aas/submodels/%2e/submodel",
            "http://h/gateway/aas/.%2E",
            "http://h/gateway/aas/%2E",
        ] {
            assert!(has_dot_segment(url), "{url}");
        }
        for url in [
            "http://h/gateway/aas/%2E%2E%2E",
            "http://h/gateway/aas/a.b/aas",
            "http://h/gateway/aasList?AssetType=machine&PlantCode=..",
            "http://h.example/gateway",
        ] {
            assert!(!has_dot_segment(url), "{url}");
        }
    }

    #[test]
    fn retry_after_is_read_as_seconds_or_as_an_http_date() {
        let now = httpdate::parse_http_date("Sun, 22 Nov 2026 10:00:00 GMT").expect("date");
        assert_eq!(retry_after(" 7 ", now), Some(Duration::from_secs(7)));
        assert_eq!(
            retry_after("Sun, 22 Nov 2026 10:00:30 GMT", now),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            retry_after("Sun, 22 Nov 2026 09:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(retry_after("soon", now), None);
    }
}
