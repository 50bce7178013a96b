//! The HTTP client every request goes through: which servers it trusts, which
//! redirects it follows, and how its failures are described.

use std::error::Error as StdError;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

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
}

/// How long a request may go without a byte arriving (the answer's head or the next
/// piece of its body) before it counts as lost. It limits silence, not the whole
/// request, so a large answer on a slow link still arrives.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// Redirects followed at most, as reqwest's default policy does.
const MAX_REDIRECTS: usize = 10;

/// The pooled client: built-in roots plus the `ca_file`, and redirects followed only
/// within one origin (reqwest drops `Authorization` on a cross-host redirect but would
/// forward the `UserToken` header).
pub(crate) fn http_client(transport: &Transport, idle: Duration) -> Result<reqwest::Client> {
    let mut builder = with_proxies(reqwest::Client::builder())?
        .connect_timeout(Duration::from_secs(10))
        .read_timeout(idle)
        .redirect(reqwest::redirect::Policy::custom(same_origin_only));
    if let Some(path) = &transport.ca_file {
        let bad = |why: String| Error::Settings(format!("CA file {}: {why}", path.display()));
        let pem = std::fs::read(path).map_err(|source| Error::Io {
            action: "read the CA file",
            path: path.clone(),
            source,
        })?;
        let certificates =
            reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| bad(e.to_string()))?;
        if certificates.is_empty() {
            return Err(bad("holds no PEM certificate".into()));
        }
        for certificate in certificates {
            builder = builder.add_root_certificate(certificate);
        }
    }
    builder
        .build()
        .map_err(|e| Error::Settings(format!("cannot set up HTTP: {e}")))
}

/// This machine, never reached through a proxy: the built-in demo and local services
/// must work for a user who has a proxy exported.
const LOOPBACK: &str = "localhost,127.0.0.0/8,::1";

/// The environment's proxies (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, and `NO_PROXY`
/// for hosts to reach directly, upper or lower case), except for this machine.
fn with_proxies(builder: reqwest::ClientBuilder) -> Result<reqwest::ClientBuilder> {
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
    // The automatic proxies off, ours on: the same variables, with the loopback rule.
    let mut builder = builder.no_proxy();
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

fn same_origin_only(attempt: reqwest::redirect::Attempt<'_>) -> reqwest::redirect::Action {
    let Some(first) = attempt.previous().first() else {
        return attempt.follow();
    };
    if attempt.url().origin() != first.origin() {
        let error = CrossOriginRedirect(attempt.url().origin().ascii_serialization());
        return attempt.error(error);
    }
    if attempt.previous().len() > MAX_REDIRECTS {
        return attempt.error(format!("more than {MAX_REDIRECTS} redirects"));
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

/// A transport failure, described without the request's headers.
pub(crate) fn offline(url: &str, e: reqwest::Error) -> Error {
    if let Some(redirect) = find_cause::<CrossOriginRedirect>(&e) {
        return Error::Settings(format!("{url}: {redirect}"));
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

/// The most a body's buffer is sized for before its bytes arrive.
const PRESIZE_MAX: usize = 8 * 1024 * 1024;

/// The body as text, read chunk by chunk so an oversized answer is refused before it
/// fills memory; bytes that are not UTF-8 are bad data, not something to guess at.
pub(crate) async fn read_body(
    url: &str,
    mut response: reqwest::Response,
    limit: usize,
) -> Result<String> {
    // Sized for the announced length, so the body is not copied as the buffer grows;
    // capped, since the announcement is the server's word.
    let announced = response.content_length().unwrap_or(0);
    let mut bytes = Vec::with_capacity(announced.min(PRESIZE_MAX.min(limit) as u64) as usize);
    while let Some(chunk) = response.chunk().await.map_err(|e| Error::Incomplete {
        url: url.to_owned(),
        reason: idle_or(&e.without_url()),
    })? {
        if bytes.len() + chunk.len() > limit {
            return Err(Error::TooLarge {
                url: url.to_owned(),
                limit,
            });
        }
        bytes.extend_from_slice(&chunk);
    }
    String::from_utf8(bytes).map_err(|e| {
        Error::BadData(aas_model::Error::Decode {
            path: ".".into(),
            message: format!(
                "the answer is not UTF-8 text (byte {})",
                e.utf8_error().valid_up_to()
            ),
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

/// The first error of type `T` among `e`'s causes. `io::Error` hides the error it
/// wraps from `source()` (rustls' errors come wrapped twice), so the walk goes into it.
fn find_cause<'e, T: StdError + 'static>(e: &'e (dyn StdError + 'static)) -> Option<&'e T> {
    let mut cause = Some(e);
    while let Some(err) = cause {
        if let Some(found) = err.downcast_ref::<T>() {
            return Some(found);
        }
        cause = match err
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            Some(inner) => Some(inner as &(dyn StdError + 'static)),
            None => err.source(),
        };
    }
    None
}
