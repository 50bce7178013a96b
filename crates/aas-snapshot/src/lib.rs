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
use aas_source::ErrorKind;
use std::path::PathBuf;

pub use backend::{Access, SnapshotInfo};
pub use copy::{Copied, CopyEvent, Outcome, Pick};
pub use diff::{Change, ChangeKind, Diff};
pub use postgres::{is_url, url_role, with_password};
pub use search::Hit;
pub use store::{store_name, Store};
pub use words::{MAX_SEARCH_WORDS, MAX_SEARCH_WORD_CHARS};
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
    /// An answer stored in the store is not what its row records (it unpacks to more
    /// or fewer bytes than its recorded size, not at all, past the largest answer a store
    /// keeps, or to other bytes than its SHA-256): nothing was read past its recorded
    /// size, and a copy does not carry it.
    #[error("the snapshot store {} is damaged: {reason}; {}", .path.display(), damaged_advice(.path))]
    DamagedAnswer { path: PathBuf, reason: String },
    /// The file is a database of another program (tables of its own, or a schema
    /// version this app never writes): it is refused, and nothing is written to it.
    #[error("{} is not a snapshot store: it is a database of another program ({why}); nothing was written to it: name another file as the store (--store or AASMD_STORE)", .path.display())]
    NotAStore { path: PathBuf, why: String },
    /// The team store's database holds tables of another program: `store init` makes
    /// nothing in it.
    #[error("the team store {store} is a database with tables of its own ({tables}), not one made for snapshots; nothing was made in it: give the snapshots an empty database of their own (CREATE DATABASE … OWNER the writer role)")]
    NotATeamStore { store: String, tables: String },
    /// What was typed to search for is past the limits of a search
    /// ([`MAX_SEARCH_WORDS`], [`MAX_SEARCH_WORD_CHARS`]); the message quotes only its
    /// start.
    #[error("{0}")]
    Query(String),
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

/// What to do about a store with a damaged answer: a file is moved aside (the app does
/// it), a team store's snapshot holding it is removed by its writer role.
fn damaged_advice(path: &std::path::Path) -> &'static str {
    match path.to_str().is_some_and(postgres::is_url) {
        true => "the team's writer role can remove the snapshot that holds it (aasmd snapshot rm), or restore the database from a backup",
        false => "move it aside to start a new one",
    }
}

/// Whether the team store's server was not reached or the connection to it was lost
/// (the server stopped or restarted, the network failed), rather than the server
/// refusing what was asked: no answer from PostgreSQL itself, a connection exception
/// (SQLSTATE class 08), or the server ending the session (57P01 administrator command,
/// 57P02 crash of another server process, 57P03 starting up or shutting down).
fn connection_lost(e: &::postgres::Error) -> bool {
    match e.as_db_error() {
        None => true,
        Some(db) => {
            let code = db.code().code();
            code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03")
        }
    }
}

/// Whether an I/O error is a connection that broke off (rather than one never made).
fn broke_off(cause: &(dyn std::error::Error + 'static)) -> bool {
    use std::io::ErrorKind as Kind;
    cause.downcast_ref::<std::io::Error>().is_some_and(|io| {
        matches!(
            io.kind(),
            Kind::ConnectionReset
                | Kind::ConnectionAborted
                | Kind::BrokenPipe
                | Kind::UnexpectedEof
        )
    })
}

/// PostgreSQL's own words for what failed (the driver's display of a server error is
/// only "db error").
fn postgres_reason(e: &::postgres::Error) -> String {
    const LOST: &str =
        "the connection to it was lost (its server stopped or restarted, or the network failed)";
    match e.as_db_error() {
        Some(db) if connection_lost(e) => format!("{LOST}: {}", db.message()),
        Some(db) => db.message().to_owned(),
        None if e.is_closed() => LOST.to_owned(),
        None => match std::error::Error::source(e) {
            Some(cause) if broke_off(cause) => format!("{LOST}: {cause}"),
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
    /// Whether the team store could not be reached, or its connection was lost while it
    /// was used (its server stopped or restarted, the network failed): the store is
    /// unreachable, not refusing, and nothing on this computer's disk is at fault.
    pub fn is_team_store_unreachable(&self) -> bool {
        matches!(Error::found_in(self), Some(Error::Postgres { source, .. }) if connection_lost(source))
    }

    /// The store's error that `e` is or carries (through the sources of its chain, and
    /// inside the I/O errors an export makes of a store's failure: a damaged answer, a
    /// lost team store), if any; an export's error of the store's is looked through.
    pub fn found_in<'e>(e: &'e (dyn std::error::Error + 'static)) -> Option<&'e Error> {
        let mut at = Some(e);
        while let Some(e) = at {
            match e.downcast_ref::<Error>() {
                Some(Error::Export(export)) => {
                    at = Some(export);
                    continue;
                }
                Some(store) => return Some(store),
                None => {}
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
        None
    }

    /// The kind the page and `aasmd`'s exit codes act on.
    pub fn kind(&self) -> ErrorKind {
        match self {
            _ if self.is_disk_full() => ErrorKind::DiskFull,
            Error::Damaged { .. } | Error::TooNew { .. } | Error::DamagedAnswer { .. } => {
                ErrorKind::StoreDamaged
            }
            Error::Busy { .. } | Error::BusyTeam { .. } | Error::BeingTaken(_) => ErrorKind::Busy,
            Error::TooNewTeam { .. } | Error::NotMigrated { .. } | Error::TeamUrl { .. } => {
                ErrorKind::Config
            }
            Error::ReadOnlyTeam { .. } => ErrorKind::NotAllowed,
            // The team store's server not reached, or the connection to it lost (also
            // when the server ended the session as it stopped).
            Error::Postgres { .. } if self.is_team_store_unreachable() => ErrorKind::Offline,
            Error::Postgres { .. } => ErrorKind::Server,
            Error::NoSuchSnapshot(_) => ErrorKind::NotFound,
            Error::CopyStopped { .. } => ErrorKind::Interrupted,
            Error::NoStore(_) => ErrorKind::NoSnapshot,
            Error::Folder(_)
            | Error::SeveralSources { .. }
            | Error::NotAStore { .. }
            | Error::NotATeamStore { .. } => ErrorKind::Config,
            Error::Query(_) => ErrorKind::BadRequest,
            Error::Export(e) => e.kind(),
            Error::File(_) | Error::Sql { .. } | Error::ReadOnly { .. } => ErrorKind::Io,
        }
    }

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
