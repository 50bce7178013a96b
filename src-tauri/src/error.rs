use serde::Serialize;

/// An error as the web UI receives it: a kind it can react to ("auth", "offline", ...),
/// words for the user, and the detail a bug report needs (the server's body, or causes).
#[derive(Debug, thiserror::Error, Serialize)]
#[error("{message}")]
pub struct IpcError {
    kind: aas_app::ErrorKind,
    message: String,
    detail: Option<String>,
}

impl From<aas_app::Error> for IpcError {
    fn from(e: aas_app::Error) -> Self {
        // Every failure the page sees goes to the log (and so to Copy diagnostics).
        tracing::warn!(kind = ?e.kind(), "{e}");
        IpcError {
            kind: e.kind(),
            message: e.to_string(),
            detail: e.detail(),
        }
    }
}

impl IpcError {
    /// A failure of this machine's desktop (opening a browser, a file manager).
    pub fn local(message: String) -> Self {
        tracing::warn!("{message}");
        IpcError {
            kind: aas_app::ErrorKind::Io,
            message,
            detail: None,
        }
    }
}
