//! An error as a front end's page receives it (the desktop shell's commands answer
//! with it): kept here, beside the errors it carries, so the shell stays glue.

use serde::Serialize;

use aas_source::{ErrorKind, Heard};

use crate::Error;

/// An error as the web UI receives it: a kind it can react to ("auth", "offline", ...),
/// words for the user, what to do where the app knows better than the message (a full
/// disk, a busy app), the detail a bug report needs (the server's body, or causes),
/// and what it says of the service (`answered`, `unreachable` or null), which moves the
/// page's offline banner, with the server that did not answer (its origin) to name there.
#[derive(Debug, thiserror::Error, Serialize)]
#[error("{message}")]
pub struct IpcError {
    kind: ErrorKind,
    message: String,
    advice: Option<&'static str>,
    detail: Option<String>,
    service: Option<Heard>,
    unreachable: Option<String>,
}

/// What to do, in the words the page shows for the kinds whose message alone (an OS
/// error, the job that runs) does not say it.
fn advice(kind: ErrorKind) -> Option<&'static str> {
    match kind {
        ErrorKind::DiskFull => Some(
            "The disk is full: nothing more was written, and no earlier snapshot was lost. \
             Free some space (or delete old snapshots) and try again.",
        ),
        ErrorKind::Busy => Some(
            "Another long job is under way (a snapshot, an export, a file being opened): wait for it to end, or cancel it, and try again.",
        ),
        _ => None,
    }
}

impl From<Error> for IpcError {
    fn from(e: Error) -> Self {
        // Every failure the page sees goes to the log (and so to Copy diagnostics).
        tracing::warn!(kind = ?e.kind(), "{e}");
        IpcError {
            kind: e.kind(),
            message: e.to_string(),
            advice: advice(e.kind()),
            detail: e.detail(),
            service: e.heard(),
            unreachable: e.unreachable_server(),
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
            advice: None,
            detail: None,
            service: None,
            unreachable: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_says_what_to_do_and_what_was_kept() {
        let full = Error::File(aas_model::FileError {
            action: "write",
            path: "/data/snapshots.sqlite3".into(),
            source: std::io::ErrorKind::StorageFull.into(),
        });
        let sent = serde_json::to_value(IpcError::from(full)).expect("json");
        assert_eq!(sent["kind"], "disk_full");
        let advice = sent["advice"].as_str().expect("advice");
        assert!(
            advice.starts_with("The disk is full: nothing more was written"),
            "{advice}"
        );
        let other = serde_json::to_value(IpcError::from(Error::BadRequest("x".into())));
        assert_eq!(other.expect("json")["advice"], serde_json::Value::Null);
    }

    #[test]
    fn a_server_that_does_not_answer_is_named() {
        let away = Error::Client(aas_client::Error::Offline {
            url: "https://login.example:8443/auth/realms/p/protocol/openid-connect/token".into(),
            reason: "connection refused or unreachable".into(),
            source: None,
        });
        let sent = serde_json::to_value(IpcError::from(away)).expect("json");
        assert_eq!(sent["service"], "unreachable");
        assert_eq!(sent["unreachable"], "https://login.example:8443");
    }
}
