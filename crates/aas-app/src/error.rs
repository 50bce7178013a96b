use aas_model::FileError;
use serde::Serialize;

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
    /// A task of this program failed (a bug): the message says which.
    #[error("{0}")]
    Internal(String),
}

pub type Result<T> = std::result::Result<T, Error>;

/// The kinds of failure the page and `aasmd`'s exit codes act on, by cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The token server refused the client id or secret, or the gateway the access token.
    Auth,
    /// The gateway refused the user token: a new one must be pasted into the profile.
    UserToken,
    NotAllowed,
    NotFound,
    /// The request cannot be carried out as asked (by the server or by this program).
    BadRequest,
    RateLimited,
    Server,
    Offline,
    /// The server's answer cannot be used.
    BadData,
    /// Unusable settings: a profile, a command line, a configuration file.
    Config,
    /// A local file could not be read or written.
    Io,
    /// The OS keychain refused or failed.
    Keychain,
    /// No OS keychain is reachable: the user may keep secrets for this session only.
    KeychainUnavailable,
    /// Another job is running.
    Busy,
    /// No snapshot to search, compare or export yet.
    NoSnapshot,
    /// The snapshot store file is damaged (or from a newer version): it can be moved aside.
    StoreDamaged,
    /// The disk is full; nothing written earlier was lost.
    DiskFull,
    /// Stopped before the end.
    Interrupted,
    /// A bug of this program.
    Internal,
}

impl From<aas_client::ErrorKind> for ErrorKind {
    fn from(kind: aas_client::ErrorKind) -> Self {
        use aas_client::ErrorKind as Client;
        match kind {
            Client::Auth => ErrorKind::Auth,
            Client::UserToken => ErrorKind::UserToken,
            Client::NotAllowed => ErrorKind::NotAllowed,
            Client::NotFound => ErrorKind::NotFound,
            Client::BadRequest => ErrorKind::BadRequest,
            Client::RateLimited => ErrorKind::RateLimited,
            Client::Server => ErrorKind::Server,
            Client::Offline => ErrorKind::Offline,
            Client::BadData => ErrorKind::BadData,
            Client::Config => ErrorKind::Config,
            Client::Io => ErrorKind::Io,
            Client::DiskFull => ErrorKind::DiskFull,
        }
    }
}

impl Error {
    /// The kind the UI and `aasmd`'s exit codes act on.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Client(e) => e.kind().into(),
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
            Error::Table(aas_table::Error::Export(e)) => export_kind(e),
            Error::Table(aas_table::Error::Xlsx(_)) => ErrorKind::Io,
            Error::Table(_) => ErrorKind::BadRequest,
            Error::Audit(e) => audit_kind(e),
            Error::NotInSnapshot(_) => ErrorKind::NotFound,
            Error::File(e) if e.is_disk_full() => ErrorKind::DiskFull,
            Error::File(_) => ErrorKind::Io,
            Error::Interrupted => ErrorKind::Interrupted,
            Error::Internal(_) => ErrorKind::Internal,
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

    /// A task that ended without finishing its work (it panicked or was aborted).
    pub(crate) fn stopped(e: tokio::task::JoinError) -> Self {
        Error::Internal(format!("the task stopped before its end: {e}"))
    }
}

/// The kind of an export's error, for the page and `aasmd`'s exit codes alike.
pub fn export_kind(e: &aas_export::Error) -> ErrorKind {
    use aas_export::Error as Export;
    match e {
        _ if e.is_disk_full() => ErrorKind::DiskFull,
        // A snapshot store's failure while its answers were read (a damaged answer, a
        // team store whose connection was lost) is the store's, not the file's.
        Export::File(file) => match aas_snapshot::Error::found_in(&file.source) {
            Some(store) => snapshot_kind(store),
            None => ErrorKind::Io,
        },
        Export::Stopped => ErrorKind::Interrupted,
        Export::BadData(_) => ErrorKind::BadData,
        Export::NotAFile(_) | Export::ForbiddenName { .. } => ErrorKind::Config,
        Export::Converted(aas_v3::Error::Report(_)) => ErrorKind::Io,
        // A strict conversion that met a change, or a file that holds no AAS.
        Export::Converted(_) => ErrorKind::BadRequest,
    }
}

/// The kind of a template audit's error.
fn audit_kind(e: &aas_audit::Error) -> ErrorKind {
    use aas_audit::Error as Audit;
    match e {
        Audit::Template { .. } | Audit::UnknownTemplate { .. } | Audit::TooLargeForExcel(_) => {
            ErrorKind::BadRequest
        }
        Audit::Answers(e) => export_kind(e),
        Audit::Read { .. } | Audit::Write(_) | Audit::Xlsx(_) => ErrorKind::Io,
        Audit::Cancelled => ErrorKind::Interrupted,
    }
}

/// The kind of a snapshot store's error.
pub fn snapshot_kind(e: &aas_snapshot::Error) -> ErrorKind {
    use aas_snapshot::Error as Store;
    match e {
        _ if e.is_disk_full() => ErrorKind::DiskFull,
        Store::Damaged { .. } | Store::TooNew { .. } | Store::DamagedAnswer { .. } => {
            ErrorKind::StoreDamaged
        }
        Store::Busy { .. } | Store::BusyTeam { .. } | Store::BeingTaken(_) => ErrorKind::Busy,
        Store::TooNewTeam { .. } | Store::NotMigrated { .. } | Store::TeamUrl { .. } => {
            ErrorKind::Config
        }
        Store::ReadOnlyTeam { .. } => ErrorKind::NotAllowed,
        // The team store's server not reached, or the connection to it lost (also when
        // the server ended the session as it stopped).
        Store::Postgres { .. } if e.is_team_store_unreachable() => ErrorKind::Offline,
        Store::Postgres { .. } => ErrorKind::Server,
        Store::NoSuchSnapshot(_) => ErrorKind::NotFound,
        Store::CopyStopped { .. } => ErrorKind::Interrupted,
        Store::NoStore(_) => ErrorKind::NoSnapshot,
        Store::Folder(_)
        | Store::SeveralSources { .. }
        | Store::NotAStore { .. }
        | Store::NotATeamStore { .. } => ErrorKind::Config,
        Store::Query(_) => ErrorKind::BadRequest,
        Store::Export(e) => export_kind(e),
        Store::File(_) | Store::Sql { .. } | Store::ReadOnly { .. } => ErrorKind::Io,
    }
}

impl From<aas_model::UnknownAssetType> for Error {
    fn from(e: aas_model::UnknownAssetType) -> Self {
        Error::BadRequest(e.to_string())
    }
}
