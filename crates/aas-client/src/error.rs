use aas_model::FileError;
use aas_source::{ErrorKind, Heard};

/// What went wrong, in the kinds the UI acts on (see [`ErrorKind`]). Messages never
/// hold a secret or a token.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The server answered with an error status.
    #[error("{}", api_message(*.status, .error.as_deref(), .description.as_deref(), *.v3))]
    Api {
        status: u16,
        /// From an AAS V3 server, whose refusals mean what the Part 2 API says, not what
        /// the platform's gateway means by them.
        v3: bool,
        error: Option<String>,
        description: Option<String>,
        /// The server's `Retry-After`, when it sent one.
        retry_after: Option<std::time::Duration>,
        /// The start of the server's answer ([`MAX_ERROR_BODY`] at most), for a bug report.
        body: String,
    },
    /// The server could not be reached or did not answer in time.
    #[error("cannot reach the server at {url}: {reason}")]
    Offline {
        url: String,
        reason: String,
        #[source]
        source: Option<reqwest::Error>,
    },
    /// The answer was cut short or is not JSON at all (a proxy's page, a truncated
    /// body): worth another attempt, unlike [`Error::BadData`].
    #[error("the server's answer from {url} was incomplete or not JSON: {reason}")]
    Incomplete { url: String, reason: String },
    /// The answer was larger than the client accepts.
    #[error("the answer from {url} is larger than {limit} bytes, the most this app reads")]
    TooLarge { url: String, limit: usize },
    /// The token endpoint answered 2xx with something that is not a token answer.
    #[error("the token endpoint {url} sent an answer this app cannot read: {reason}")]
    TokenAnswer { url: String, reason: String },
    /// An identifier is `.` or `..`: every URL parser on the way (this client's
    /// included) reads such a path segment as a step, even when percent-encoded, so
    /// the request would reach another resource. It is not made.
    #[error("{url} is not asked for: an identifier in it is `.` or `..`, which URL parsers (this app's, proxies', servers') read as a step to another address even when encoded")]
    DotSegment { url: String },
    /// The server answered 2xx with something that is not the expected JSON.
    #[error("the server sent data this app cannot read: {0}")]
    BadData(#[from] aas_model::Error),
    /// The connection settings are unusable: the client's own words for why.
    #[error("connection settings: {0}")]
    Settings(String),
    /// A connection setting is refused by the library that reads it (an address, a CA
    /// file's certificates, the TLS set-up): which setting, and the library's error.
    #[error("connection settings: {setting}: {source}")]
    Refused {
        setting: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A file could not be read or written (an export, a CA file).
    #[error(transparent)]
    File(#[from] FileError),
}

/// Token endpoint error codes that mean the client id or secret was refused.
const CREDENTIALS_REFUSED: [&str; 3] = ["unauthorized_client", "invalid_client", "invalid_grant"];

/// The most of an error answer's body kept in [`Error::Api`].
pub const MAX_ERROR_BODY: usize = 2048;

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn kind(&self) -> ErrorKind {
        match self {
            // The token endpoint's words for a refused client id or secret (RFC 6749
            // §5.2), whatever the status: Keycloak answers some with 400.
            Error::Api {
                error: Some(code), ..
            } if CREDENTIALS_REFUSED.contains(&code.as_str()) => ErrorKind::Auth,
            Error::Api {
                status: 401,
                error: Some(code),
                ..
            } if code == "invalid_user_token" => ErrorKind::UserToken,
            Error::Api { status, .. } => match status {
                401 | 407 => ErrorKind::Auth,
                403 => ErrorKind::NotAllowed,
                404 => ErrorKind::NotFound,
                429 => ErrorKind::RateLimited,
                400..=499 => ErrorKind::BadRequest,
                _ => ErrorKind::Server,
            },
            Error::Offline { .. } => ErrorKind::Offline,
            Error::BadData(_)
            | Error::Incomplete { .. }
            | Error::TooLarge { .. }
            | Error::DotSegment { .. }
            | Error::TokenAnswer { .. } => ErrorKind::BadData,
            Error::Settings(_) | Error::Refused { .. } => ErrorKind::Config,
            Error::File(e) if e.is_disk_full() => ErrorKind::DiskFull,
            Error::File(_) => ErrorKind::Io,
        }
    }

    /// The server that did not answer, as its origin (`https://host:port`): the token
    /// server, the registry or the gateway, whichever the request went to.
    pub fn unreachable_server(&self) -> Option<String> {
        match self {
            Error::Offline { url, .. } => Some(crate::waiting::origin(url)),
            _ => None,
        }
    }

    /// What the failure says of the server: it answered (a refusal, an answer this app
    /// cannot use), or nothing answered; `None` when no request was made.
    pub fn heard(&self) -> Option<Heard> {
        match self {
            Error::Api { .. }
            | Error::Incomplete { .. }
            | Error::TooLarge { .. }
            | Error::TokenAnswer { .. }
            | Error::BadData(_) => Some(Heard::Answered),
            Error::Offline { .. } => Some(Heard::Unreachable),
            Error::DotSegment { .. }
            | Error::Settings(_)
            | Error::Refused { .. }
            | Error::File(_) => None,
        }
    }

    /// What a bug report needs beyond the message: the server's body for an API
    /// error, else the chain of causes; `None` when there is nothing more.
    pub fn detail(&self) -> Option<String> {
        if let Error::Api { body, .. } = self {
            return (!body.is_empty()).then(|| body.clone());
        }
        let mut causes = Vec::new();
        let mut cause = std::error::Error::source(self);
        while let Some(e) = cause {
            causes.push(e.to_string());
            cause = e.source();
        }
        (!causes.is_empty()).then(|| causes.join(": "))
    }

    /// Builds the error for a non-success answer from its status and body, reading
    /// the `{error, error_description}` fields (OAuth 2, the gateway) or the first of
    /// the Part 2 API's `messages` (`code`, `text`) when the body has them.
    pub(crate) fn from_response(
        status: u16,
        body: &str,
        retry_after: Option<std::time::Duration>,
    ) -> Self {
        #[derive(serde::Deserialize)]
        struct Body {
            error: Option<String>,
            error_description: Option<String>,
            /// The Part 2 API's `Result` (AAS V3 servers).
            #[serde(default)]
            messages: Vec<Message>,
        }
        #[derive(serde::Deserialize)]
        struct Message {
            code: Option<String>,
            text: Option<String>,
        }
        let fields: Option<Body> = serde_json::from_str(body).ok();
        let (error, description) = fields
            .map(|mut b| match (b.error, b.messages.is_empty()) {
                (None, false) => {
                    let first = b.messages.swap_remove(0);
                    (first.code, first.text)
                }
                (error, _) => (error, b.error_description),
            })
            .unwrap_or_default();
        Error::Api {
            status,
            v3: false,
            error,
            description,
            retry_after,
            body: truncate(body, MAX_ERROR_BODY).to_owned(),
        }
    }

    /// [`Error::from_response`] of an AAS V3 server.
    pub(crate) fn from_v3_response(
        status: u16,
        body: &str,
        retry_after: Option<std::time::Duration>,
    ) -> Self {
        let mut error = Error::from_response(status, body, retry_after);
        if let Error::Api { v3, .. } = &mut error {
            *v3 = true;
        }
        error
    }
}

/// The longest start of `text` of at most `max` bytes that ends on a character.
fn truncate(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn api_message(status: u16, error: Option<&str>, description: Option<&str>, v3: bool) -> String {
    let what = match (status, error) {
        (403, _) if v3 => "the server refused access: the token lacks the rights, or the server keeps this from everyone",
        (404, _) if v3 => "the server does not hold it",
        (501, _) if v3 => "the server does not offer this",
        (401, Some("invalid_user_token")) => {
            "the user token was refused or has expired: open the profile and paste a new one"
        }
        (_, Some(code)) if CREDENTIALS_REFUSED.contains(&code) => {
            "the token server refused the client id or secret"
        }
        (401, _) => "the server did not accept our credentials",
        (407, _) => {
            "the proxy refused our credentials: check the proxy user and password of the profile (aasmd: --proxy-user, AASMD_PROXY_PASSWORD)"
        }
        (403, _) => "the user token does not grant access to this plant",
        (404, _) => "not found, or not shared with this application",
        (429, _) => "the server is busy (rate limited)",
        (400..=499, _) => "the server rejected the request",
        _ => "the server failed",
    };
    let detail = [error, description]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(": ");
    if detail.is_empty() {
        format!("{what} (HTTP {status})")
    } else {
        format!("{what} (HTTP {status}, {detail})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn api(status: u16, code: &str) -> Error {
        Error::from_response(status, &format!(r#"{{"error":"{code}"}}"#), None)
    }

    #[test]
    fn each_refusal_has_its_kind_and_its_words() {
        for code in ["unauthorized_client", "invalid_client", "invalid_grant"] {
            for status in [400, 401] {
                let e = api(status, code);
                assert_eq!(e.kind(), ErrorKind::Auth, "{status} {code}");
                assert!(e.to_string().contains("client id or secret"), "{e}");
            }
        }
        let user = api(401, "invalid_user_token");
        assert_eq!(user.kind(), ErrorKind::UserToken);
        assert!(user.to_string().contains("paste a new one"), "{user}");
        assert_eq!(api(401, "invalid_token").kind(), ErrorKind::Auth);
        assert_eq!(api(400, "invalid_request").kind(), ErrorKind::BadRequest);
        assert!(api(403, "forbidden").to_string().contains("does not grant"));
        assert!(api(404, "not_found").to_string().contains("not shared"));
        assert_eq!(api(404, "not_found").heard(), Some(Heard::Answered));
        let offline = Error::Offline {
            url: "https://gateway".into(),
            reason: "connection refused".into(),
            source: None,
        };
        assert_eq!(offline.heard(), Some(Heard::Unreachable));
        assert_eq!(Error::Settings("no gateway".into()).heard(), None);
        let long = Error::from_response(500, &"x".repeat(5000), None);
        assert_eq!(long.detail().map(|d| d.len()), Some(MAX_ERROR_BODY));
    }
}
