use aas_client::ErrorKind;

/// What went wrong in the application layer. Messages never hold a secret or a token.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Talking to the service, or writing what it sent.
    #[error(transparent)]
    Client(#[from] aas_client::Error),
    /// The settings file or a profile is unusable.
    #[error("settings: {0}")]
    Settings(String),
    /// The OS keychain refused or failed.
    #[error("keychain: {0}")]
    Keychain(String),
    /// No OS keychain is reachable (no Secret Service on Linux): the user may choose
    /// to keep secrets for this session only, never silently in a file.
    #[error("{0}")]
    KeychainUnavailable(String),
    /// A load or export is already running.
    #[error("{0} is running; wait for it or cancel it first")]
    Busy(&'static str),
    /// The request itself cannot be carried out (nothing ticked, a wrong element type).
    #[error("{0}")]
    BadRequest(String),
    /// The server's data cannot be used as asked (a Blob that is not base64).
    #[error("{0}")]
    BadData(String),
    /// The built-in demo service did not start.
    #[error("the built-in demo service did not start: {0}")]
    Demo(#[from] aas_sandbox::Error),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// The kind the UI and `aasmd`'s exit codes act on.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Client(e) => e.kind(),
            Error::Settings(_) => ErrorKind::Config,
            Error::Keychain(_) => ErrorKind::Keychain,
            Error::KeychainUnavailable(_) => ErrorKind::KeychainUnavailable,
            Error::Busy(_) => ErrorKind::Busy,
            Error::BadRequest(_) => ErrorKind::BadRequest,
            Error::BadData(_) => ErrorKind::BadData,
            Error::Demo(_) => ErrorKind::Server,
        }
    }

    /// The server's body for an API error, else the chain of causes.
    pub fn detail(&self) -> Option<String> {
        match self {
            Error::Client(e) => e.detail(),
            Error::Demo(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

impl From<aas_model::UnknownAssetType> for Error {
    fn from(e: aas_model::UnknownAssetType) -> Self {
        Error::BadRequest(e.to_string())
    }
}
