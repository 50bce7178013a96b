//! Writing a plant's answers as files: every answer exactly as received (the raw
//! bundle), an AAS V2.0.1 environment JSON, an AASX package of it, or a CSV of
//! property-like elements. Each reads any source of answers ([`Answers`]: a crawl held
//! in memory, a snapshot in the store) one answer at a time, and writes through one
//! writer that never leaves half a file ([`write_atomically`]).

mod format;
mod output;
mod spreadsheet;

use aas_model::FileError;
use std::path::PathBuf;

pub use format::{export, Answers, Format, Visit};
pub use output::write_atomically;
pub use spreadsheet::SafeCsv;

/// Why an export (or an atomic write) failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be written, or a stored answer read.
    #[error(transparent)]
    File(#[from] FileError),
    /// An answer no longer reads as what it was read as when it arrived.
    #[error("an answer cannot be read: {0}")]
    BadData(#[from] aas_model::Error),
    /// The path names no file (a root, `..`).
    #[error("{} is not a file path", .0.display())]
    NotAFile(PathBuf),
    /// Only ends a walk over the answers early, for a reason kept beside it; never
    /// returned from this crate.
    #[error("the export stopped")]
    Stopped,
}

impl Error {
    /// Whether the disk (or the user's quota) is full.
    pub fn is_disk_full(&self) -> bool {
        matches!(self, Error::File(e) if e.is_disk_full())
    }
}

pub type Result<T> = std::result::Result<T, Error>;
