use serde::Serialize;

/// What went wrong, in the kinds the UI acts on (see [`ErrorKind`]). Messages never
/// hold a secret or a token.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The server answered with an error status.
    #[error("{}", api_message(*.status, .error.as_deref(), .description.as_deref()))]
    Api {
        status: u16,
        error: Option<String>,
        description: Option<String>,
        /// The server's `Retry-After`, when it sent one.
        retry_after: Option<std::time::Duration>,
    },
    /// The server could not be reached or did not answer in time.
    #[error("cannot reach the server at {url}: {reason}")]
    Offline { url: String, reason: String },
    /// The answer was cut short or is not JSON at all (a proxy's page, a truncated
    /// body): worth another attempt, unlike [`Error::BadData`].
    #[error("the server's answer from {url} was incomplete or not JSON: {reason}")]
    Incomplete { url: String, reason: String },
    /// The answer was larger than the client accepts.
    #[error("the answer from {url} is larger than {limit} bytes, the most this app reads")]
    TooLarge { url: String, limit: usize },
    /// The server answered 2xx with something that is not the expected JSON.
    #[error("the server sent data this app cannot read: {0}")]
    BadData(#[from] aas_model::Error),
    /// The connection settings are unusable.
    #[error("connection settings: {0}")]
    Config(String),
    /// The OS keychain could not be used.
    #[error("keychain: {0}")]
    Keychain(String),
    /// No OS keychain is reachable (no Secret Service on Linux): the user may choose
    /// to keep secrets for this session only, never silently in a file.
    #[error("{0}")]
    KeychainUnavailable(String),
}

pub type Result<T> = std::result::Result<T, Error>;

/// The kinds of failure the UI reacts to differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    Auth,
    NotAllowed,
    NotFound,
    BadRequest,
    RateLimited,
    Server,
    Offline,
    BadData,
    Config,
    KeychainUnavailable,
}

impl Error {
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Api { status, .. } => match status {
                401 => ErrorKind::Auth,
                403 => ErrorKind::NotAllowed,
                404 => ErrorKind::NotFound,
                429 => ErrorKind::RateLimited,
                400..=499 => ErrorKind::BadRequest,
                _ => ErrorKind::Server,
            },
            Error::Offline { .. } => ErrorKind::Offline,
            Error::BadData(_) | Error::Incomplete { .. } | Error::TooLarge { .. } => {
                ErrorKind::BadData
            }
            Error::Config(_) | Error::Keychain(_) => ErrorKind::Config,
            Error::KeychainUnavailable(_) => ErrorKind::KeychainUnavailable,
        }
    }

    /// Builds the error for a non-success answer from its status and body, reading
    /// the `{error, error_description}` fields when the body has them.
    pub(crate) fn from_response(
        status: u16,
        body: &str,
        retry_after: Option<std::time::Duration>,
    ) -> Self {
        #[derive(serde::Deserialize)]
        struct Body {
            error: Option<String>,
            error_description: Option<String>,
        }
        let body: Option<Body> = serde_json::from_str(body).ok();
        let (error, description) = body
            .map(|b| (b.error, b.error_description))
            .unwrap_or_default();
        Error::Api {
            status,
            error,
            description,
            retry_after,
        }
    }
}

fn api_message(status: u16, error: Option<&str>, description: Option<&str>) -> String {
    let what = match status {
        401 => "the server did not accept our credentials",
        403 => "access is not allowed",
        404 => "not found, or not shared with this application",
        429 => "the server is busy (rate limited)",
        400..=499 => "the server rejected the request",
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
