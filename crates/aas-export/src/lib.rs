//! Writing a plant's answers as files: every answer exactly as received (the raw
//! bundle), an AAS V2.0.1 environment JSON, an AASX package of it, a CSV of
//! property-like elements, or the AAS V3.0 environment (JSON or AASX) with a
//! conversion report; and converting a V2 file a user has to V3.0. Each reads any source ([`aas_source::Source`]: a crawl held
//! in memory, a snapshot in the store) one answer at a time, and writes through one
//! writer that never leaves half a file ([`aas_output::write_with`]).

mod answers;
mod convert;
mod format;
mod output;
mod report;
mod report_reading;
mod v3;
mod v3_format;

use aas_model::FileError;
use aas_source::ErrorKind;

/// The V3 version a V3 format or a conversion writes.
pub use aas_v3::Target;
pub use answers::{listed_shells, Listed, ListedShell};
pub use convert::convert;
pub use format::{export, Format};
pub use report::{report_path, Conversion, Exported};
pub use report_reading::{read_report, ConversionReport, RuleChanges, ShownChange};
pub use v3_format::{Serialisation, V3Format};

/// Why an export or a conversion failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The source's answers could not be read (a damaged store, a lost team store).
    #[error(transparent)]
    Source(#[from] aas_source::Error),
    /// An answer no longer reads as what it was read as when it arrived.
    #[error("an answer cannot be read: {0}")]
    BadData(#[from] aas_model::Error),
    /// The file could not be put in place, or its path is not one to write.
    #[error(transparent)]
    Output(#[from] aas_output::Error),
    /// A V3.0 conversion stopped: `--strict` met a change, or the file holds no AAS.
    #[error(transparent)]
    Converted(#[from] aas_v3::Error),
    /// AAS V3 answers (a V3 file taken in) asked for as a V2 file, which cannot hold them.
    #[error("these answers are AAS V3 (a V3 file taken in): they are written as AAS V3 only")]
    NotV2,
    /// A worker converting answers ended before its work was done (it panicked).
    #[error(transparent)]
    WorkerGone(#[from] aas_in_order::WorkerGone),
}

impl Error {
    /// Whether a strict conversion stopped at something V3.0 cannot hold as it is.
    pub fn is_strict_refusal(&self) -> bool {
        matches!(self, Error::Converted(aas_v3::Error::Strict(_)))
    }

    /// Whether the disk (or the user's quota) is full.
    pub fn is_disk_full(&self) -> bool {
        match self {
            Error::File(e) => e.is_disk_full(),
            Error::Output(e) => e.is_disk_full(),
            _ => false,
        }
    }

    /// The kind the page and `aasmd`'s exit codes act on.
    pub fn kind(&self) -> ErrorKind {
        match self {
            _ if self.is_disk_full() => ErrorKind::DiskFull,
            Error::File(_) => ErrorKind::Io,
            // A store's failure while its answers were read is the store's kind.
            Error::Source(e) => e.kind(),
            Error::BadData(_) => ErrorKind::BadData,
            Error::Output(e) => e.kind(),
            Error::Converted(aas_v3::Error::Report(_)) => ErrorKind::Io,
            // A strict conversion that met a change, or a file that holds no AAS.
            Error::Converted(_) | Error::NotV2 => ErrorKind::BadRequest,
            Error::WorkerGone(_) => ErrorKind::Internal,
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
