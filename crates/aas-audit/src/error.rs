use aas_source::ErrorKind;
use std::path::PathBuf;

/// Why an audit, or reading a template, failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A template file cannot be read or is not one.
    #[error("template {}: {message}", .path.display())]
    Template { path: PathBuf, message: String },
    /// `--template NAME` names no template.
    #[error("no template is named {name:?}; known: {known}")]
    UnknownTemplate { name: String, known: String },
    /// An answer no longer parses as it did when it arrived.
    #[error(transparent)]
    Answers(#[from] aas_export::Error),
    /// The source's answers could not be read (a damaged store, a lost team store).
    #[error(transparent)]
    Source(#[from] aas_source::Error),
    /// A stored answer could not be read.
    #[error("the stored answer of {url} cannot be read: {source}")]
    Read { url: String, source: std::io::Error },
    /// The findings could not be written.
    #[error("the findings could not be written: {0}")]
    Write(#[from] std::io::Error),
    /// More findings than an Excel sheet holds.
    #[error(transparent)]
    TooLargeForExcel(#[from] aas_output::TooLargeForExcel),
    /// The XLSX workbook could not be made.
    #[error("the XLSX file could not be made: {0}")]
    Xlsx(#[from] rust_xlsxwriter::XlsxError),
    /// The progress callback asked to stop.
    #[error("the audit was cancelled")]
    Cancelled,
}

impl From<aas_model::Error> for Error {
    fn from(e: aas_model::Error) -> Self {
        Error::Answers(aas_export::Error::BadData(e))
    }
}

impl Error {
    /// The kind the page and `aasmd`'s exit codes act on.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Template { .. } | Error::UnknownTemplate { .. } | Error::TooLargeForExcel(_) => {
                ErrorKind::BadRequest
            }
            Error::Answers(e) => e.kind(),
            Error::Source(e) => e.kind(),
            Error::Read { .. } | Error::Write(_) | Error::Xlsx(_) => ErrorKind::Io,
            Error::Cancelled => ErrorKind::Interrupted,
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
