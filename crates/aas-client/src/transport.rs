//! The HTTP client every request goes through: which servers it trusts, which
//! redirects it follows, and how its failures are described.

use std::error::Error as StdError;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{Error, Result, Secret};
use aas_model::FileError;
use aas_source::{Body, Receiving};

/// How far the transport may be trusted beyond the defaults; a profile keeps these too.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default)]
pub struct Transport {
    /// Plain `http` to hosts other than this machine, which sends the tokens in clear
    /// text: only for a network the user trusts, and only when asked for explicitly.
    pub allow_plain_http: bool,
    /// A PEM file of CA certificates trusted besides the built-in roots (a company CA).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ca_file: Option<PathBuf>,
    /// The proxy every request goes through (`http://proxy.corp:3128`), replacing the
    /// environment's; this machine is still reached directly. No password in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proxy: Option<String>,
    /// The user name the proxy wants, if it wants one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proxy_user: Option<String>,
    /// That user's password: from the keychain or the environment, never from or into a
    /// file.
    #[serde(skip)]
    pub proxy_password: Option<Secret>,
}

/// How long a request may go without a byte arriving (the answer's head or the next
/// piece of its body) before it counts as lost. It limits silence, not the whole
/// request, so a large answer on a slow link still arrives.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// The slowest an answer may come: 4 KiB a second (32 kbit/s, slower than any link
/// a plant is browsed over), averaged over each idle-timeout period. Without it a
/// server that trickles a byte every few seconds never meets the idle timeout, and a
/// 100 KB answer would take days.
pub const DEFAULT_MIN_RATE: u64 = 4 * 1024;

/// How fast a request must move: its head within two periods, its body at
/// `min_rate` bytes a second over each `period`; silence for a whole period fails it
/// sooner (the HTTP client's read timeout).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pace {
    pub period: Duration,
    pub min_rate: u64,
}

impl Pace {
    pub(crate) const DEFAULT: Pace = Pace {
        period: DEFAULT_IDLE_TIMEOUT,
        min_rate: DEFAULT_MIN_RATE,
    };

    /// The response's head, sent by `send`, or why it did not come in time: a head
    /// trickled a byte at a time is cut off like a body. It is waited on in `waiting`.
    pub(crate) async fn head(
        self,
        url: &str,
        send: impl std::future::Future<Output = reqwest::Result<reqwest::Response>>,
        waiting: &crate::waiting::Waiting,
    ) -> Result<reqwest::Response> {
        let _waited_on = waiting.start(url);
        match tokio::time::timeout(self.period * 2, send).await {
            Ok(sent) => sent.map_err(|e| offline(url, e)),
            Err(_) => Err(Error::Incomplete {
                url: url.to_owned(),
                reason: format!(
                    "the answer's head did not arrive within {} s",
                    (self.period * 2).as_secs_f32()
                ),
            }),
        }
    }
}

/// Redirects followed at most, as reqwest's default policy does.
const MAX_REDIRECTS: usize = 10;

/// The pooled client: built-in roots plus the `ca_file`, and redirects followed only
/// within one origin (reqwest drops `Authorization` on a cross-host redirect but would
/// forward the `UserToken` header).
pub(crate) fn http_client(transport: &Transport, idle: Duration) -> Result<reqwest::Client> {
    let mut builder = with_proxies(reqwest::Client::builder(), transport)?
        .connect_timeout(Duration::from_secs(10))
        .read_timeout(idle)
        .redirect(reqwest::redirect::Policy::custom(same_origin_only));
    if let Some(path) = &transport.ca_file {
        let pem = std::fs::read(path).map_err(|source| {
            Error::File(FileError {
                action: "read the CA file",
                path: path.clone(),
                source,
            })
        })?;
        let certificates =
            reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| Error::Refused {
                setting: format!("CA file {}", path.display()),
                source: e.into(),
            })?;
        if certificates.is_empty() {
            let why = format!("CA file {}: holds no PEM certificate", path.display());
            return Err(Error::Settings(why));
        }
        for certificate in certificates {
            builder = builder.add_root_certificate(certificate);
        }
    }
    builder.build().map_err(|e| Error::Refused {
        setting: "the HTTP client".into(),
        source: e.into(),
    })
}

/// This machine, never reached through a proxy: the built-in demo and local services
/// must work for a user who has a proxy exported.
const LOOPBACK: &str = "localhost,127.0.0.0/8,::1";

/// The profile's proxy if it names one, else the environment's (`HTTPS_PROXY`,
/// `HTTP_PROXY`, `ALL_PROXY`, and `NO_PROXY` for hosts to reach directly, upper or lower
/// case); never for this machine.
fn with_proxies(
    builder: reqwest::ClientBuilder,
    transport: &Transport,
) -> Result<reqwest::ClientBuilder> {
    // The automatic proxies off, ours on, always with the loopback rule.
    let builder = builder.no_proxy();
    if let Some(url) = &transport.proxy {
        return Ok(builder.proxy(profile_proxy(url, transport)?));
    }
    let env = |names: [&str; 2]| {
        names
            .iter()
            .find_map(|n| std::env::var(n).ok().filter(|v| !v.trim().is_empty()))
    };
    let direct = match env(["NO_PROXY", "no_proxy"]) {
        Some(list) => format!("{LOOPBACK},{list}"),
        None => LOOPBACK.to_owned(),
    };
    type Make = fn(String) -> reqwest::Result<reqwest::Proxy>;
    let kinds: [([&str; 2], Make); 3] = [
        (["HTTPS_PROXY", "https_proxy"], reqwest::Proxy::https),
        (["HTTP_PROXY", "http_proxy"], reqwest::Proxy::http),
        (["ALL_PROXY", "all_proxy"], reqwest::Proxy::all),
    ];
    let mut builder = builder;
    for (names, make) in kinds {
        let Some(url) = env(names) else { continue };
        // The address may hold the proxy's password: it is not repeated in the error.
        let proxy = make(url).map_err(|_| {
            Error::Settings(format!("the proxy in {} is not a usable URL", names[0]))
        })?;
        builder = builder.proxy(proxy.no_proxy(reqwest::NoProxy::from_string(&direct)));
    }
    Ok(builder)
}

/// The profile's proxy for every scheme, with its user and password when it has them.
fn profile_proxy(url: &str, transport: &Transport) -> Result<reqwest::Proxy> {
    let bad = |why: &str| Error::Settings(format!("the profile's proxy: {why}"));
    // Only the scheme, host and port are repeated: the rest may be a typed-in secret.
    let parsed = reqwest::Url::parse(url).map_err(|_| bad("not a URL"))?;
    if parsed.password().is_some() {
        return Err(bad(
            "its URL holds a password; give the password in the profile form (it is kept in the keychain) or as AASMD_PROXY_PASSWORD",
        ));
    }
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(bad("use an http:// or https:// proxy URL"));
    }
    let mut proxy = reqwest::Proxy::all(parsed.as_str()).map_err(|_| bad("not usable"))?;
    if let Some(user) = transport.proxy_user.as_deref().filter(|u| !u.is_empty()) {
        let password = transport.proxy_password.as_ref().map_or("", Secret::expose);
        proxy = proxy.basic_auth(user, password);
    }
    Ok(proxy.no_proxy(reqwest::NoProxy::from_string(LOOPBACK)))
}

fn same_origin_only(attempt: reqwest::redirect::Attempt<'_>) -> reqwest::redirect::Action {
    let Some(first) = attempt.previous().first() else {
        return attempt.follow();
    };
    if attempt.url().origin() != first.origin() {
        let error = CrossOriginRedirect(attempt.url().origin().ascii_serialization());
        return attempt.error(error);
    }
    if attempt.previous().len() > MAX_REDIRECTS {
        return attempt.error(RedirectLoop);
    }
    attempt.follow()
}

/// A redirect to another scheme, host or port; it names only the origin, since the
/// rest of the address may carry anything.
#[derive(Debug)]
struct CrossOriginRedirect(String);

impl std::fmt::Display for CrossOriginRedirect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the server redirected to another origin ({}); not followed, so the tokens are not sent there: set the URL to where the service really is",
            self.0
        )
    }
}

impl StdError for CrossOriginRedirect {}

/// More redirects than [`MAX_REDIRECTS`]: a loop, which asking again repeats.
#[derive(Debug)]
struct RedirectLoop;

impl std::fmt::Display for RedirectLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the server redirected more than {MAX_REDIRECTS} times in a row (a redirect loop) and was not followed further; check the URL, or ask the server's administrators"
        )
    }
}

impl StdError for RedirectLoop {}

/// A transport failure, described without the request's headers. A redirect that is
/// refused is the settings' fault (or the server's), not a passing one: not retried.
pub(crate) fn offline(url: &str, e: reqwest::Error) -> Error {
    if let Some(redirect) = find_cause::<CrossOriginRedirect>(&e) {
        return Error::Settings(format!("{url}: {redirect}"));
    }
    if let Some(redirects) = find_cause::<RedirectLoop>(&e) {
        return Error::Settings(format!("{url}: {redirects}"));
    }
    match tunnel_refusal(&e) {
        Some(TunnelRefusal::Credentials) => return proxy_refused(),
        Some(TunnelRefusal::Other) => {
            return Error::Offline {
                url: url.to_owned(),
                reason: "the proxy refused to open a tunnel to the server; check the profile's proxy, its user and password".into(),
                source: Some(e.without_url()),
            }
        }
        None => {}
    }
    let reason = if let Some(tls) = find_cause::<rustls::Error>(&e) {
        certificate_refused(tls)
    } else if e.is_connect() {
        "connection refused or unreachable".to_owned()
    } else {
        idle_or(&e)
    };
    // The URL is in the message already; the cause chain is for the details.
    Error::Offline {
        url: url.to_owned(),
        reason,
        source: Some(e.without_url()),
    }
}

/// The proxy wants other credentials (407), as the server's refusals are told.
fn proxy_refused() -> Error {
    Error::from_response(407, "", None)
}

/// Why a proxy would not open a CONNECT tunnel.
enum TunnelRefusal {
    /// 407: it wants other credentials.
    Credentials,
    /// Any other answer than 200 (tinyproxy 1.11 answers a wrong password with 401).
    Other,
}

/// Whether, and why, a CONNECT was refused: hyper-util's tunnel error is not public, so
/// it is known by its words.
fn tunnel_refusal(e: &(dyn StdError + 'static)) -> Option<TunnelRefusal> {
    causes(e).find_map(|cause| match cause.to_string().as_str() {
        "tunnel error: proxy authorization required" => Some(TunnelRefusal::Credentials),
        "tunnel error: unsuccessful" => Some(TunnelRefusal::Other),
        _ => None,
    })
}

/// Why a TLS handshake failed, in words that say what to do about it.
fn certificate_refused(tls: &rustls::Error) -> String {
    use rustls::CertificateError as Refused;
    match tls {
        rustls::Error::InvalidCertificate(
            Refused::NotValidForName | Refused::NotValidForNameContext { .. },
        ) => format!(
            "the server's TLS certificate is made out to another host name ({tls}); use the address the certificate names in the profile, or ask the server's administrators for a certificate for this one"
        ),
        rustls::Error::InvalidCertificate(
            Refused::Expired | Refused::ExpiredContext { .. } | Refused::NotValidYet | Refused::NotValidYetContext { .. },
        ) => format!(
            "the server's TLS certificate is outside its validity period ({tls}); its administrators must renew it (or, if only this computer's clock is wrong, correct the clock)"
        ),
        _ => format!(
            "the server's TLS certificate is not trusted ({tls}); if your company signs it with its own CA, give that CA's PEM file as ca_file (aasmd --ca-file)"
        ),
    }
}

/// The body, read chunk by chunk so an oversized or too deeply nested answer is
/// refused before it fills memory or disk; past `spool_at` it goes to a temporary file. Bytes held in memory that are not UTF-8 are bad data, not
/// something to guess at.
pub(crate) async fn receive(
    url: &str,
    mut response: reqwest::Response,
    limit: usize,
    spool_at: Option<usize>,
    pace: Pace,
) -> Result<Body> {
    // The proxy's refusal, not the server's answer: its page is of no use (tinyproxy
    // closes it mid-body).
    if response.status() == reqwest::StatusCode::PROXY_AUTHENTICATION_REQUIRED {
        return Err(proxy_refused());
    }
    let spool_failed = |source| {
        Error::File(FileError {
            action: "keep a large answer in a temporary file for",
            path: url.into(),
            source,
        })
    };
    let announced = response.content_length().unwrap_or(0);
    let mut body = Receiving::new(announced, limit, spool_at);
    let mut pacing = Pacing::new(pace);
    // Measured as it arrives, so that the raw views and the walkers after them never
    // meet JSON past MAX_DEPTH, and a body that goes past it is read no further.
    let mut depth = aas_model::DepthScan::default();
    while let Some(chunk) = response.chunk().await.map_err(|e| cut_short(url, e))? {
        depth
            .feed(&chunk)
            .map_err(|deep| Error::BadData(deep.into()))?;
        pacing.arrived(url, chunk.len())?;
        if body.size() + chunk.len() as u64 > limit as u64 {
            return Err(Error::TooLarge {
                url: url.to_owned(),
                limit,
            });
        }
        body.push(&chunk).map_err(spool_failed)?;
    }
    body.finish().map_err(spool_failed)?.map_err(|at| {
        Error::BadData(aas_model::Error::Decode {
            path: ".".into(),
            message: format!("the answer is not UTF-8 text (byte {at})"),
        })
    })
}

/// A body of any bytes (a file's content), held in memory: at most `limit` bytes, at
/// `pace`.
pub(crate) async fn receive_bytes(
    url: &str,
    mut response: reqwest::Response,
    limit: usize,
    pace: Pace,
) -> Result<Vec<u8>> {
    let too_large = || Error::TooLarge {
        url: url.to_owned(),
        limit,
    };
    if response.content_length().is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    let mut pacing = Pacing::new(pace);
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| cut_short(url, e))? {
        pacing.arrived(url, chunk.len())?;
        if bytes.len() + chunk.len() > limit {
            return Err(too_large());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// A body that stopped coming.
fn cut_short(url: &str, e: reqwest::Error) -> Error {
    Error::Incomplete {
        url: url.to_owned(),
        reason: idle_or(&e.without_url()),
    }
}

/// How fast a body arrives, period by period: one slower than the pace's rate is cut
/// off (a trickling server is not waited for).
struct Pacing {
    pace: Pace,
    period_start: tokio::time::Instant,
    period_bytes: u64,
}

impl Pacing {
    fn new(pace: Pace) -> Self {
        Pacing {
            pace,
            period_start: tokio::time::Instant::now(),
            period_bytes: 0,
        }
    }

    fn arrived(&mut self, url: &str, bytes: usize) -> Result<()> {
        self.period_bytes += bytes as u64;
        let elapsed = self.period_start.elapsed();
        if elapsed < self.pace.period {
            return Ok(());
        }
        let (got, rate) = (self.period_bytes, self.pace.min_rate);
        if (got as f64) < rate as f64 * elapsed.as_secs_f64() {
            return Err(Error::Incomplete {
                url: url.to_owned(),
                reason: format!(
                    "the answer came too slowly ({got} bytes in {:.0} s, under {rate} bytes a second); a trickling server is not waited for",
                    elapsed.as_secs_f64(),
                ),
            });
        }
        (self.period_start, self.period_bytes) = (tokio::time::Instant::now(), 0);
        Ok(())
    }
}

/// [`receive`] of a small answer held in memory, as text, at the default pace (the
/// token endpoint's and discovery's).
pub(crate) async fn read_body(
    url: &str,
    response: reqwest::Response,
    limit: usize,
) -> Result<String> {
    receive(url, response, limit, None, Pace::DEFAULT)
        .await?
        .into_text()
        .map_err(|source| {
            Error::File(FileError {
                action: "read the answer of",
                path: url.into(),
                source,
            })
        })
}

/// A timeout said in words; any other failure as reqwest says it.
fn idle_or(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "no answer in time (nothing arrived for longer than the idle timeout)".to_owned()
    } else {
        e.to_string()
    }
}

/// The first error of type `T` among `e`'s causes.
fn find_cause<'e, T: StdError + 'static>(e: &'e (dyn StdError + 'static)) -> Option<&'e T> {
    causes(e).find_map(|cause| cause.downcast_ref::<T>())
}

/// `e` and its causes. `io::Error` hides the error it wraps from `source()` (rustls'
/// errors and reqwest's tunnel errors come wrapped so), so the walk goes into it.
fn causes<'e>(
    e: &'e (dyn StdError + 'static),
) -> impl Iterator<Item = &'e (dyn StdError + 'static)> {
    std::iter::successors(Some(e), |&err| next_cause(err))
}

fn next_cause<'e>(err: &'e (dyn StdError + 'static)) -> Option<&'e (dyn StdError + 'static)> {
    match err
        .downcast_ref::<std::io::Error>()
        .and_then(|io| io.get_ref())
    {
        Some(inner) => Some(inner as &(dyn StdError + 'static)),
        None => err.source(),
    }
}
