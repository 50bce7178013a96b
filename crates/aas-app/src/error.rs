use aas_client::ErrorKind;

/// What went wrong in the application layer. Messages never hold a secret or a token.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Talking to the service.
    #[error(transparent)]
    Client(#[from] aas_client::Error),
    /// Writing an export or a file the user chose.
    #[error(transparent)]
    Export(#[from] aas_export::Error),
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
    /// A snapshot does not hold the node asked for.
    #[error("{0}")]
    NotInSnapshot(String),
    /// No snapshot to search, compare or export; the message says how to get one.
    #[error("{0}")]
    NoSnapshot(String),
    /// A local file could not be moved, read or written.
    #[error("cannot {action} {}: {source}", .path.display())]
    Io {
        action: &'static str,
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
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
            Error::Export(e) => export_kind(e),
            Error::Settings(_) => ErrorKind::Config,
            Error::Keychain(_) => ErrorKind::Keychain,
            Error::KeychainUnavailable(_) => ErrorKind::KeychainUnavailable,
            Error::Busy(_) => ErrorKind::Busy,
            Error::BadRequest(_) => ErrorKind::BadRequest,
            Error::BadData(_) => ErrorKind::BadData,
            Error::Demo(_) => ErrorKind::Server,
            Error::Snapshot(e) => snapshot_kind(e),
            Error::NoSnapshot(_) => ErrorKind::NoSnapshot,
            Error::NotInSnapshot(_) => ErrorKind::NotFound,
            Error::Io { source, .. } if source.kind() == std::io::ErrorKind::StorageFull => {
                ErrorKind::DiskFull
            }
            Error::Io { .. } => ErrorKind::Io,
        }
    }

    /// The server's body for an API error, else the chain of causes.
    pub fn detail(&self) -> Option<String> {
        match self {
            Error::Client(e) => e.detail(),
            Error::Demo(e) => Some(e.to_string()),
            Error::Snapshot(e) => std::error::Error::source(e).map(|s| s.to_string()),
            Error::Io { source, .. } => Some(source.to_string()),
            _ => None,
        }
    }
}

/// The kind of an export's error, for the page and `aasmd`'s exit codes alike.
pub fn export_kind(e: &aas_export::Error) -> ErrorKind {
    use aas_export::Error as Export;
    match e {
        _ if e.is_disk_full() => ErrorKind::DiskFull,
        Export::Io { .. } | Export::Stopped => ErrorKind::Io,
        Export::BadData(_) => ErrorKind::BadData,
        Export::NotAFile(_) => ErrorKind::Config,
    }
}

fn snapshot_kind(e: &aas_snapshot::Error) -> ErrorKind {
    use aas_snapshot::Error as Store;
    match e {
        _ if e.is_disk_full() => ErrorKind::DiskFull,
        Store::Damaged { .. } | Store::TooNew { .. } => ErrorKind::StoreDamaged,
        Store::Busy { .. } | Store::BeingTaken(_) => ErrorKind::Busy,
        Store::NoSuchSnapshot(_) => ErrorKind::NotFound,
        Store::NoStore(_) => ErrorKind::NoSnapshot,
        Store::Folder(_) | Store::SeveralSources { .. } => ErrorKind::Config,
        Store::Export(e) => export_kind(e),
        Store::Io { .. } | Store::Sql { .. } | Store::ReadOnly { .. } => ErrorKind::Io,
    }
}

impl From<aas_model::UnknownAssetType> for Error {
    fn from(e: aas_model::UnknownAssetType) -> Self {
        Error::BadRequest(e.to_string())
    }
}
