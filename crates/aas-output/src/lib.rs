//! Writing the project's files: one writer that never leaves half a file
//! ([`write_atomically`], [`write_with`]), file names Windows takes, text a spreadsheet
//! shows but never runs, what a file was made from ([`About`]), and the XLSX kit.

mod about;
mod file_name;
mod spreadsheet;
mod write;
#[cfg(feature = "xlsx")]
pub mod xlsx;

use aas_model::FileError;
use aas_source::ErrorKind;
use std::path::PathBuf;

pub use about::About;
pub use file_name::{windows_name_problem, windows_safe_name};
pub use spreadsheet::{excel_text, fits_excel, SafeCsv, TooLargeForExcel};
pub use write::{
    put_in_place, stage_exactly, stage_with, write_atomically, write_with, Out, Pending, Staged,
    WriteStop,
};

/// Why a file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be written.
    #[error(transparent)]
    File(FileError),
    /// The path names no file (a root, `..`).
    #[error("{} is not a file path", .0.display())]
    NotAFile(PathBuf),
    /// A file name Windows refuses (checked on Windows only; see file_name.rs).
    #[error("{}: {why}; choose another name, e.g. {suggestion:?}", .path.display())]
    ForbiddenName {
        path: PathBuf,
        why: String,
        suggestion: String,
    },
}

impl Error {
    /// Whether the disk (or the user's quota) is full.
    pub fn is_disk_full(&self) -> bool {
        matches!(self, Error::File(e) if e.is_disk_full())
    }

    /// The kind the page and `aasmd`'s exit codes act on.
    pub fn kind(&self) -> ErrorKind {
        match self {
            _ if self.is_disk_full() => ErrorKind::DiskFull,
            Error::File(_) => ErrorKind::Io,
            Error::NotAFile(_) | Error::ForbiddenName { .. } => ErrorKind::Config,
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
