use std::fmt;

/// Why a piece of JSON could not be read as the AAS type that was expected, or a typed
/// value could not be written back as JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The JSON is well formed but does not have the expected shape; `path` is where
    /// (e.g. `[3].value[0].idShort`, or `.` for the document root).
    #[error("unexpected JSON at {path}: {message}")]
    Decode { path: String, message: String },
    /// Writing a typed value as JSON failed (it cannot for this crate's types; the
    /// variant exists because serde's writer is fallible).
    #[error("cannot write JSON: {0}")]
    Encode(String),
    /// An AASX package could not be read or written.
    #[error("AASX package: {0}")]
    Package(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub(crate) fn decode(path: impl fmt::Display, err: impl fmt::Display) -> Self {
        let path = path.to_string();
        Error::Decode {
            path: if path.is_empty() { ".".into() } else { path },
            message: err.to_string(),
        }
    }
}
