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
    /// The answers could not be read (the store, or an answer that no longer parses).
    #[error(transparent)]
    Answers(#[from] aas_export::Error),
    /// A stored answer could not be read.
    #[error("the stored answer of {url} cannot be read: {source}")]
    Read { url: String, source: std::io::Error },
    /// The findings could not be written.
    #[error("the findings could not be written: {0}")]
    Write(#[from] std::io::Error),
    /// More findings than an Excel sheet holds.
    #[error(transparent)]
    TooLargeForExcel(#[from] aas_export::TooLargeForExcel),
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

pub type Result<T> = std::result::Result<T, Error>;
