//! Plant snapshots: every answer of a crawl, exactly as the server sent it, stored by
//! content hash, with an index of the elements for full-text search, in one SQLite
//! file (one desktop) or a PostgreSQL database (a team: the store is named by a
//! `postgres://` URL). An unchanged plant's second snapshot adds rows, not bodies.
//! Every SQL statement lives in this crate, behind this API: in one module per
//! database (`sqlite`, `postgres`), behind the `Backend` trait (`backend`), below the
//! rules the other modules hold once.
//!
//! Snapshots are copied between stores (`copy`), each whole or not at all.
//!
//! One writer at a time (SQLite: a lock file beside the store, a second gets
//! [`Error::Busy`]; PostgreSQL: one take per plant and source, [`Error::BusyTeam`]);
//! readers are never blocked. A snapshot interrupted by a crash is marked partial by
//! the next writer.

mod backend;
mod browse;
mod chunk;
mod content;
mod copy;
mod diff;
mod free_space;
mod index;
mod postgres;
mod read;
mod search;
mod sqlite;
mod store;
mod words;
mod writer;

use aas_model::FileError;
use std::path::PathBuf;

pub use backend::{Access, SnapshotInfo};
pub use copy::{Copied, CopyEvent, Outcome, Pick};
pub use diff::{Change, ChangeKind, Diff};
pub use postgres::{is_url, url_role, with_password};
pub use search::Hit;
pub use store::{store_name, Store};
pub use writer::SnapshotWriter;

/// What went wrong with the store. Messages name the file.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file is not a snapshot store, or is damaged.
    #[error("the snapshot store {} is damaged or not a snapshot store ({source}); move it aside to start a new one", .path.display())]
    Damaged {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    /// A read or a change of a store that is not there (a take creates one).
    #[error("there is no snapshot store at {}; take a snapshot first (aasmd snapshot take, or Take snapshot in the app), or check --store / AASMD_STORE", .0.display())]
    NoStore(PathBuf),
    /// The store's path names a folder.
    #[error("{} is a folder, not a snapshot store: name the store's file (for example {}/snapshots.sqlite3)", .0.display(), .0.display())]
    Folder(PathBuf),
    /// The store cannot be written (a read-only file system or file); it can be read.
    #[error("the snapshot store {} cannot be written (a read-only file system or file); it can still be listed, searched, compared and exported", .path.display())]
    ReadOnly { path: PathBuf },
    /// A newer version of the app made the store.
    #[error("the snapshot store {} was made by a newer version of this app (schema {found}, this one knows {known})", .path.display())]
    TooNew {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    /// Another process is taking a snapshot into this store.
    #[error("another snapshot is being taken into {} (by the app or aasmd); wait for it to end", .path.display())]
    Busy { path: PathBuf },
    /// The snapshot is being taken right now (its writer holds the lock): removing it
    /// would leave the take to report a snapshot that no longer exists.
    #[error("snapshot {0} is being taken right now; remove it once that take has ended")]
    BeingTaken(i64),
    /// The store's file or its lock could not be created, read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// SQLite failed (a full disk, a lock held too long).
    #[error("the snapshot store {}: {source}", .path.display())]
    Sql {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    /// An export of a snapshot failed (its file could not be written).
    #[error(transparent)]
    Export(#[from] aas_export::Error),
    /// The plant's snapshots come from several sources (profiles, platforms) and none
    /// was named: the newest of them would mix them.
    #[error("the snapshots of {plant} come from several sources ({}): say which", .sources.join(", "))]
    SeveralSources { plant: String, sources: Vec<String> },
    /// The team store (PostgreSQL) failed or cannot be reached; named without its
    /// password.
    #[error("the team store {store}: {}", postgres_reason(.source))]
    Postgres {
        store: String,
        #[source]
        source: ::postgres::Error,
    },
    /// The team store's URL asks for something that cannot be done (an unknown
    /// `sslmode`, a root certificate that cannot be read).
    #[error("the team store {store}: {reason}")]
    TeamUrl { store: String, reason: String },
    /// Another take of the plant from the same source is running against the team store.
    #[error("another snapshot of {plant} is being taken into the team store {store} (by a scheduled take or another desktop); wait for it to end")]
    BusyTeam { store: String, plant: String },
    /// A newer version of the app made the team store's tables.
    #[error("the team store {store} was made by a newer version of this app (schema {found}, this one knows {known})")]
    TooNewTeam {
        store: String,
        found: i64,
        known: i64,
    },
    /// The team store's tables are older than this app (or not made yet): only its
    /// writer role may make or migrate them.
    #[error("the team store {store} {}", not_migrated(*.found))]
    NotMigrated { store: String, found: i64 },
    /// The team store's role may only read: takes and removals are the writer role's.
    #[error("the team store {store} lets {user} only read: browsing, searching, comparing and exporting its snapshots work, but taking or removing one is for the team's writer role (its scheduled take)")]
    ReadOnlyTeam { store: String, user: String },
    /// No snapshot has this id.
    #[error("no snapshot {0} in the store")]
    NoSuchSnapshot(i64),
    /// A copy was stopped (Ctrl-C) while snapshot `id` was being copied: nothing of it
    /// was written.
    #[error("the copy stopped before snapshot {id} was whole: nothing of it is in {}; the snapshots copied before it stay", .store.display())]
    CopyStopped { id: i64, store: PathBuf },
}

pub type Result<T> = std::result::Result<T, Error>;

/// What a team store of schema `found` lacks, and who mends it.
fn not_migrated(found: i64) -> String {
    match found {
        0 => "has no snapshot tables yet: the writer role makes them with `aasmd store init --store URL`".to_owned(),
        _ => format!(
            "has schema {found}, this app needs {}: the writer role brings it up to date with `aasmd store migrate --store URL`",
            postgres::latest()
        ),
    }
}

/// PostgreSQL's own words for what failed (the driver's display of a server error is
/// only "db error").
fn postgres_reason(e: &::postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => db.message().to_owned(),
        None if e.is_closed() => {
            "the connection was lost (the server stopped or restarted)".to_owned()
        }
        None => match std::error::Error::source(e) {
            Some(cause) if refused_certificate(cause) => format!(
                "{e}: {cause} (the server's certificate must be signed by the CA of sslrootcert and, for sslmode=verify-full, name the URL's host)"
            ),
            Some(cause) => format!("{e}: {cause}"),
            None => e.to_string(),
        },
    }
}

/// Whether `cause` (or what it wraps) is TLS refusing the server's certificate.
fn refused_certificate(cause: &(dyn std::error::Error + 'static)) -> bool {
    let mut at = Some(cause);
    while let Some(e) = at {
        if let Some(rustls::Error::InvalidCertificate(_)) = e.downcast_ref::<rustls::Error>() {
            return true;
        }
        // io::Error hides what it wraps from `source()`.
        at = match e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            Some(inner) => Some(inner),
            None => e.source(),
        };
    }
    false
}

impl Error {
    /// Whether the disk (or the user's quota) is full: what was committed before stays.
    pub fn is_disk_full(&self) -> bool {
        match self {
            Error::Sql { source, path } => match source.sqlite_error_code() {
                Some(rusqlite::ErrorCode::DiskFull) => true,
                // A full disk that stops the shared-memory file from growing is only a
                // "disk I/O error" to SQLite: the file system is asked.
                Some(rusqlite::ErrorCode::SystemIoFailure) => free_space::nearly_full(path),
                _ => false,
            },
            Error::File(e) => e.is_disk_full(),
            Error::Export(e) => e.is_disk_full(),
            _ => false,
        }
    }
}
