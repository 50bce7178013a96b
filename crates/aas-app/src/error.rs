use aas_model::FileError;
use aas_source::{ErrorKind, Heard};

/// What went wrong in the application layer. Messages never hold a secret or a token.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Talking to the service.
    #[error(transparent)]
    Client(#[from] aas_client::Error),
    /// Writing an export, or converting a file.
    #[error(transparent)]
    Export(#[from] aas_export::Error),
    /// Writing a file the user chose.
    #[error(transparent)]
    Output(#[from] aas_output::Error),
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
    /// The snapshot store failed (damaged, busy, full disk…); the message names it.
    #[error(transparent)]
    Snapshot(#[from] aas_snapshot::Error),
    /// The plant table could not be built, arranged or written.
    #[error(transparent)]
    Table(#[from] aas_table::Error),
    /// The template audit failed: a template file, the answers it read, the findings'
    /// file, or it was stopped.
    #[error(transparent)]
    Audit(#[from] aas_audit::Error),
    /// A snapshot does not hold the node asked for.
    #[error("{0}")]
    NotInSnapshot(String),
    /// No snapshot to search, compare or export; the message says how to get one.
    #[error("{0}")]
    NoSnapshot(String),
    /// A local file could not be moved, read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The built-in demo service did not start.
    #[error("the built-in demo service did not start: {0}")]
    Demo(#[from] aas_sandbox::Error),
    /// The work was stopped before its end (Ctrl-C, the crawl it served went away).
    #[error("interrupted; what was fetched so far is kept")]
    Interrupted,
    /// The preferences could not be written (their file: a full disk, a folder that
    /// cannot be written).
    #[error("the preferences were not saved: {0}")]
    PreferencesNotSaved(#[source] Cause),
    /// A part of this program failed (a bug, or the desktop under it): what, and why.
    #[error("{what}: {source}")]
    Internal {
        what: &'static str,
        #[source]
        source: Cause,
    },
}

/// A cause as the library that failed gave it.
pub type Cause = Box<dyn std::error::Error + Send + Sync>;

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// The kind the UI and `aasmd`'s exit codes act on.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Client(e) => e.kind(),
            Error::Export(e) => e.kind(),
            Error::Output(e) => e.kind(),
            Error::Settings(_) => ErrorKind::Config,
            Error::Keychain(_) => ErrorKind::Keychain,
            Error::KeychainUnavailable(_) => ErrorKind::KeychainUnavailable,
            Error::Busy(_) => ErrorKind::Busy,
            Error::BadRequest(_) => ErrorKind::BadRequest,
            Error::BadData(_) => ErrorKind::BadData,
            Error::Demo(_) => ErrorKind::Server,
            Error::Snapshot(e) => e.kind(),
            Error::NoSnapshot(_) => ErrorKind::NoSnapshot,
            Error::Table(e) => e.kind(),
            Error::Audit(e) => e.kind(),
            Error::NotInSnapshot(_) => ErrorKind::NotFound,
            Error::File(e) if e.is_disk_full() => ErrorKind::DiskFull,
            Error::File(_) => ErrorKind::Io,
            Error::Interrupted => ErrorKind::Interrupted,
            Error::PreferencesNotSaved(cause)
                if io_cause(cause.as_ref())
                    .is_some_and(|e| e.kind() == std::io::ErrorKind::StorageFull) =>
            {
                ErrorKind::DiskFull
            }
            Error::PreferencesNotSaved(_) => ErrorKind::Io,
            Error::Internal { .. } => ErrorKind::Internal,
        }
    }

    /// What the failure says of the platform's service; `None` when it says nothing
    /// (a failure of this computer's, a store's, a snapshot's).
    pub fn heard(&self) -> Option<Heard> {
        match self {
            Error::Client(e) => e.heard(),
            _ => None,
        }
    }

    /// The server's body for an API error, else the chain of causes.
    pub fn detail(&self) -> Option<String> {
        match self {
            Error::Client(e) => e.detail(),
            Error::Demo(e) => Some(e.to_string()),
            Error::Snapshot(e) => std::error::Error::source(e).map(|s| s.to_string()),
            Error::File(e) => Some(e.source.to_string()),
            _ => None,
        }
    }

    /// A part of this program failed: `what`, because of `source`.
    pub fn internal(what: &'static str, source: impl Into<Cause>) -> Self {
        Error::Internal {
            what,
            source: source.into(),
        }
    }

    /// A task that ended without finishing its work (it panicked or was aborted).
    pub(crate) fn stopped(e: tokio::task::JoinError) -> Self {
        Error::internal("the task stopped before its end", e)
    }
}

/// The I/O error in `cause`'s chain, if any.
fn io_cause<'e>(cause: &'e (dyn std::error::Error + 'static)) -> Option<&'e std::io::Error> {
    let mut at = Some(cause);
    while let Some(e) = at {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            return Some(io);
        }
        at = e.source();
    }
    None
}

impl From<aas_model::UnknownAssetType> for Error {
    fn from(e: aas_model::UnknownAssetType) -> Self {
        Error::BadRequest(e.to_string())
    }
}
