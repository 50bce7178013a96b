use std::path::PathBuf;

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
    /// An AAS file the user opened could not be read.
    #[error(transparent)]
    Opened(#[from] aas_file::Error),
    /// A settings, profiles or connection file is not what it should be.
    #[error("settings: {} is not {what}: {source}", path.display())]
    NotSettings {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    /// No saved profile has the name asked for.
    #[error("settings: no profile {name:?} in {} (known: {known:?})", path.display())]
    NoProfile {
        name: String,
        path: PathBuf,
        known: Vec<String>,
    },
    /// A saved profile's secret is not in the keychain.
    #[error("settings: profile {profile:?} has no {secret} in the keychain; open the profile and enter it")]
    NoSecret {
        profile: String,
        secret: &'static str,
    },
    /// The command line, a connection file and the environment left fields out.
    #[error("settings: incomplete connection (missing {}); give --config FILE or --profile NAME, or the URL flags, --realm, --client-id and AASMD_CLIENT_SECRET / AASMD_USER_TOKEN", missing.join(", "))]
    IncompleteConnection { missing: Vec<&'static str> },
    /// The system names no folder for a user's data.
    #[error("settings: no user data folder (is HOME set?)")]
    NoDataFolder,
    /// The log's folder cannot be written.
    #[error("cannot log to {}: {source}", path.display())]
    NoLog {
        path: PathBuf,
        #[source]
        source: tracing_appender::rolling::InitError,
    },
    /// The OS keychain refused or failed.
    #[error("keychain: {0}")]
    Keychain(String),
    /// No OS keychain is reachable (no Secret Service on Linux): the user may choose
    /// to keep secrets for this session only, never silently in a file.
    #[error("{0}")]
    KeychainUnavailable(String),
    /// A load or export is already running.
    #[error("{0} is under way; wait for it or cancel it first")]
    Busy(&'static str),
    /// The request itself cannot be carried out (nothing ticked, a wrong element type):
    /// the app's own words for it, no cause behind them.
    #[error("{0}")]
    BadRequest(String),
    /// An asset type no plant has.
    #[error(transparent)]
    UnknownAssetType(#[from] aas_model::UnknownAssetType),
    /// The data cannot be used as asked (a Blob that is not base64): which, and why.
    #[error("{what}: {source}")]
    BadData {
        what: String,
        #[source]
        source: Cause,
    },
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
    Demo(#[from] aas_demo::Error),
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
            Error::Opened(aas_file::Error::Io { .. }) => ErrorKind::Io,
            // The disk failing mid-read is no fault of the file's.
            Error::Opened(aas_file::Error::Unreadable { source, .. })
                if !matches!(
                    source.kind(),
                    std::io::ErrorKind::InvalidData
                        | std::io::ErrorKind::UnexpectedEof
                        | std::io::ErrorKind::FileTooLarge
                ) =>
            {
                ErrorKind::Io
            }
            Error::Opened(aas_file::Error::Cancelled) => ErrorKind::Interrupted,
            Error::Opened(_) => ErrorKind::BadData,
            Error::NotSettings { .. }
            | Error::NoProfile { .. }
            | Error::NoSecret { .. }
            | Error::IncompleteConnection { .. }
            | Error::NoDataFolder => ErrorKind::Config,
            Error::NoLog { .. } => ErrorKind::Io,
            Error::Keychain(_) => ErrorKind::Keychain,
            Error::KeychainUnavailable(_) => ErrorKind::KeychainUnavailable,
            Error::Busy(_) => ErrorKind::Busy,
            Error::BadRequest(_) | Error::UnknownAssetType(_) => ErrorKind::BadRequest,
            Error::BadData { .. } => ErrorKind::BadData,
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

    /// The origin of the server that did not answer, where one did not.
    pub fn unreachable_server(&self) -> Option<String> {
        match self {
            Error::Client(e) => e.unreachable_server(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_that_cannot_be_read_is_bad_data_unless_the_disk_failed() {
        let unreadable = |kind| {
            Error::Opened(aas_file::Error::Unreadable {
                part: "/aasx/data.json".into(),
                source: std::io::Error::new(kind, "what the reader said"),
            })
        };
        assert_eq!(
            unreadable(std::io::ErrorKind::InvalidData).kind(),
            ErrorKind::BadData
        );
        assert_eq!(
            unreadable(std::io::ErrorKind::UnexpectedEof).kind(),
            ErrorKind::BadData
        );
        assert_eq!(unreadable(std::io::ErrorKind::Other).kind(), ErrorKind::Io);
    }
}
