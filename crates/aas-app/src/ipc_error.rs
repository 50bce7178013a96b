//! An error as a front end's page receives it (the desktop shell's commands answer
//! with it): kept here, beside the errors it carries, so the shell stays glue.

use serde::Serialize;

use aas_source::{ErrorKind, Heard};

use crate::Error;

/// An error as the web UI receives it: a kind it can react to ("auth", "offline", ...),
/// words for the user, the detail a bug report needs (the server's body, or causes),
/// and what it says of the service (`answered`, `unreachable` or null), which moves the
/// page's offline banner.
#[derive(Debug, thiserror::Error, Serialize)]
#[error("{message}")]
pub struct IpcError {
    kind: ErrorKind,
    message: String,
    detail: Option<String>,
    service: Option<Heard>,
}

impl From<Error> for IpcError {
    fn from(e: Error) -> Self {
        // Every failure the page sees goes to the log (and so to Copy diagnostics).
        tracing::warn!(kind = ?e.kind(), "{e}");
        IpcError {
            kind: e.kind(),
            message: e.to_string(),
            detail: e.detail(),
            service: e.heard(),
        }
    }
}

impl IpcError {
    /// A failure of this machine's desktop (opening a browser, a file manager).
    pub fn local(message: String) -> Self {
        tracing::warn!("{message}");
        IpcError {
            kind: ErrorKind::Io,
            message,
            detail: None,
            service: None,
        }
    }
}
