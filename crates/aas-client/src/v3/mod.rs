//! A server of the AAS Part 2 HTTP API, V3.0 or V3.1 (Eclipse BaSyx, FA³ST, AASX Server,
//! the platform's next version): its AAS repository and submodel repository, read shell
//! by shell ([`V3Server::read_each_shell`]) or whole ([`V3Server::read_repository`]). The address is the one the user knows, base path
//! included (`https://host/api/v3.0`, or none): no base path is assumed.
//!
//! Servers are not trusted: every answer is read within the client's size, depth and
//! pace bounds, paging ends however the cursors go (pages.rs), and redirects stay within
//! the origin, as for the platform.

mod auth;
mod check;
mod gathering;
mod ids;
mod items;
mod pages;
mod registry;
mod repository;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use reqwest::header::RETRY_AFTER;
use reqwest::StatusCode;

use crate::transport::{http_client, receive, Pace, DEFAULT_IDLE_TIMEOUT};
use crate::waiting::Waiting;
use crate::{check_url, Error, Result, RetryPolicy, Secret, Transport, DEFAULT_MAX_BODY};
use aas_model::FileError;

use auth::Credentials;
pub use auth::V3Auth;
use ids::encode_id;

pub use gathering::{EachStep, GatheredShell, ReadStep, ShellsRead};
pub use items::Item;
use pages::PageEnd;
pub use pages::DEFAULT_PAGE_SIZE;
pub use repository::{Reading, Repository, RepositoryPlan, RepositoryProgress, DEFAULT_MAX_ITEMS};

/// `address` checked as a V3 address must be, and its origin (`https://host:port`).
fn checked_origin(what: &str, address: &str, transport: &Transport) -> Result<String> {
    check_url(what, address, transport.allow_plain_http)?;
    let url = reqwest::Url::parse(address).map_err(|e| Error::Refused {
        setting: what.into(),
        source: e.into(),
    })?;
    Ok(url.origin().ascii_serialization())
}

/// One V3 server, by its address. Cheap to share behind an `Arc`.
#[derive(Debug)]
pub struct V3Server {
    http: reqwest::Client,
    /// The address as given, without a trailing `/`.
    address: String,
    credentials: Credentials,
    retry: RetryPolicy,
    pace: Pace,
    waiting: Waiting,
    requests: AtomicU64,
    /// The address is a registry's (`/shell-descriptors`): its descriptors' endpoints
    /// are read, only at `origins`.
    through_registry: bool,
    /// The origins requests may go to: the address's, and those [`V3Server::allowing`]
    /// adds (`https://host:port`).
    origins: Vec<String>,
}

impl V3Server {
    /// The server at `address` (`https://host/api/v3.0`): https, or plain http to this
    /// machine unless `transport` allows it elsewhere.
    pub fn new(address: &str, auth: V3Auth, transport: &Transport) -> Result<Self> {
        Self::open(address, auth, transport, false)
    }

    /// The registry at `address` (the part before `/shell-descriptors`): a reading
    /// follows its descriptors' endpoints, at its own origin and those
    /// [`V3Server::allowing`] adds.
    pub fn registry(address: &str, auth: V3Auth, transport: &Transport) -> Result<Self> {
        Self::open(address, auth, transport, true)
    }

    /// Lets the endpoints a registry names be at `address`'s origin too (the repository
    /// the user named beside the registry); the credentials go there as well.
    pub fn allowing(mut self, address: &str, transport: &Transport) -> Result<Self> {
        let what = "the V3 repository's address";
        let origin = checked_origin(what, address, transport)?;
        if !self.origins.contains(&origin) {
            self.origins.push(origin);
        }
        Ok(self)
    }

    fn open(
        address: &str,
        auth: V3Auth,
        transport: &Transport,
        through_registry: bool,
    ) -> Result<Self> {
        let what = match through_registry {
            true => "the V3 registry's address",
            false => "the V3 server's address",
        };
        let origin = checked_origin(what, address, transport)?;
        if address.contains(['?', '#']) {
            return Err(Error::Settings(format!(
                "{what} {address:?}: give it without a query or fragment, as the part before /shells or /shell-descriptors"
            )));
        }
        Ok(V3Server {
            http: http_client(transport, DEFAULT_IDLE_TIMEOUT)?,
            address: address.trim_end_matches('/').to_owned(),
            credentials: Credentials::new(auth, transport)?,
            retry: RetryPolicy::default(),
            pace: Pace::DEFAULT,
            waiting: Waiting::default(),
            requests: AtomicU64::new(0),
            through_registry,
            origins: vec![origin],
        })
    }

    /// Replaces the default [`RetryPolicy`].
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Replaces how long a request may go without a byte ([`DEFAULT_IDLE_TIMEOUT`]).
    pub fn with_idle_timeout(mut self, idle: Duration, transport: &Transport) -> Result<Self> {
        self.http = http_client(transport, idle)?;
        self.pace.period = idle;
        Ok(self)
    }

    /// The address as given (without a trailing `/`).
    pub fn address(&self) -> &str {
        &self.address
    }

    /// Requests made so far, each counted once however often retried.
    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    /// Whether `url` is at an origin this source may send requests (and credentials) to.
    fn allows(&self, url: &reqwest::Url) -> bool {
        self.origins.contains(&url.origin().ascii_serialization())
    }

    /// `{address}/{route}` with `query`, each value encoded once.
    fn url(&self, route: &str, query: &[(&str, &str)]) -> Result<String> {
        let mut url = reqwest::Url::parse(&format!("{}/{route}", self.address)).map_err(|e| {
            Error::Refused {
                setting: "the V3 server's address".into(),
                source: e.into(),
            }
        })?;
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query);
        }
        Ok(url.into())
    }

    /// The content of the File element at `id_shorts` in submodel `submodel` (its
    /// `/attachment`), at most [`DEFAULT_MAX_BODY`] bytes; `at` is where the submodel was
    /// read when not at this server's `/submodels` ([`Reading::submodel_urls`]).
    pub async fn attachment(
        &self,
        submodel: &str,
        at: Option<&str>,
        id_shorts: &[String],
    ) -> Result<Vec<u8>> {
        let base = match at {
            Some(at) => at.to_owned(),
            None => self.url(&format!("submodels/{}", encode_id(submodel)), &[])?,
        };
        // The idShort path (`a.b[0].c`) is one segment, encoded once.
        let path = aas_model::encode_segment(&id_shorts.join("."));
        let url = format!("{base}/submodel-elements/{path}/attachment");
        let parsed = reqwest::Url::parse(&url).map_err(|e| Error::Refused {
            setting: "the submodel's address".into(),
            source: e.into(),
        })?;
        // Where a registry pointed, only within the origins the user named.
        if !self.allows(&parsed) {
            return Err(Error::Settings(format!(
                "{url} is at an origin not named as a source"
            )));
        }
        self.requests.fetch_add(1, Ordering::Relaxed);
        self.retry.run(&url, || self.attachment_once(&url)).await.0
    }

    async fn attachment_once(&self, url: &str) -> Result<Vec<u8>> {
        let (response, sent) = self.send(self.http.get(url), url).await?;
        let (status, retry_after) = (response.status(), retry_after(&response));
        if status == StatusCode::OK {
            return crate::transport::receive_bytes(url, response, DEFAULT_MAX_BODY, self.pace)
                .await;
        }
        // A refusal's page is read within a small bound; its words are what count.
        let body = receive(url, response, 1 << 20, None, self.pace).await;
        let text = (body.ok())
            .and_then(|b| b.into_text().ok())
            .unwrap_or_default();
        Err(self.refusal(status, &text, sent, retry_after).await)
    }

    /// `request` to `url` sent with the credentials: the answer's head, and the secret
    /// it carried.
    async fn send(
        &self,
        request: reqwest::RequestBuilder,
        url: &str,
    ) -> Result<(reqwest::Response, Option<Secret>)> {
        let (request, sent) = self.credentials.apply(request).await?;
        let response = self.pace.head(url, request.send(), &self.waiting).await?;
        Ok((response, sent))
    }

    /// The server's refusal (`status`, its page `text`) as our error, without the secret
    /// `sent`; a token the server refused is fetched anew next time.
    async fn refusal(
        &self,
        status: StatusCode,
        text: &str,
        sent: Option<Secret>,
        retry_after: Option<Duration>,
    ) -> Error {
        if let (StatusCode::UNAUTHORIZED, Some(sent)) = (status, &sent) {
            self.credentials.refused(sent).await;
        }
        let sent = sent.as_ref().map_or("", Secret::expose);
        let page = crate::secret::redact(text, &[sent]);
        Error::from_v3_response(status.as_u16(), &page, retry_after)
    }

    /// GETs `url` as text, retrying transient failures as the [`RetryPolicy`] says.
    async fn get(&self, url: &str) -> Result<String> {
        self.requests.fetch_add(1, Ordering::Relaxed);
        self.retry.run(url, || self.get_once(url)).await.0
    }

    async fn get_once(&self, url: &str) -> Result<String> {
        let request = self.http.get(url).header("Accept", "application/json");
        let (response, sent) = self.send(request, url).await?;
        let (status, retry_after) = (response.status(), retry_after(&response));
        let body = receive(url, response, DEFAULT_MAX_BODY, None, self.pace).await?;
        tracing::debug!(%url, status = status.as_u16(), bytes = body.size(), "GET");
        let text = body.into_text().map_err(|source| {
            Error::File(FileError {
                action: "read the answer of",
                path: url.into(),
                source,
            })
        })?;
        if status != StatusCode::OK {
            return Err(self.refusal(status, &text, sent, retry_after).await);
        }
        Ok(text)
    }
}

/// The wait a server's `Retry-After` asks for, if it sent one.
fn retry_after(response: &reqwest::Response) -> Option<Duration> {
    (response.headers().get(RETRY_AFTER))
        .and_then(|v| v.to_str().ok())
        .and_then(|v| crate::client::retry_after(v, std::time::SystemTime::now()))
}
