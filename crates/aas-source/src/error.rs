use std::path::PathBuf;

use aas_model::FileError;

use crate::ErrorKind;

/// Why a source could not hand over its answers.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An answer's body could not be read from where the source keeps it (a spooled
    /// answer's file).
    #[error(transparent)]
    Body(#[from] FileError),
    /// The source failed beneath its answers (a damaged store, a lost connection to the
    /// team store). It carries its own kind, so that whoever reads the source's answers
    /// need not know what kind of source it was.
    #[error("cannot read {}: {source}", .at.display())]
    Failed {
        at: PathBuf,
        kind: ErrorKind,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl Error {
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Body(e) if e.is_disk_full() => ErrorKind::DiskFull,
            Error::Body(_) => ErrorKind::Io,
            Error::Failed { kind, .. } => *kind,
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
