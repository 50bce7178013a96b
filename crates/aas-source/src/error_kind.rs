//! The one list of kinds of failure: every crate's error answers `kind()` in these
//! words, the page acts on them, and `aasmd`'s exit codes are chosen by them.

use serde::{Deserialize, Serialize};

/// The kinds of failure the page and `aasmd`'s exit codes act on, by cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The token server refused the client id or secret, or the gateway the access token.
    Auth,
    /// The gateway refused the user token: a new one must be pasted into the profile.
    UserToken,
    NotAllowed,
    NotFound,
    /// The request cannot be carried out as asked (by the server or by this program).
    BadRequest,
    RateLimited,
    Server,
    Offline,
    /// The server's answer cannot be used.
    BadData,
    /// Unusable settings: a profile, a command line, a configuration file.
    Config,
    /// A local file could not be read or written.
    Io,
    /// The OS keychain refused or failed.
    Keychain,
    /// No OS keychain is reachable: the user may keep secrets for this session only.
    KeychainUnavailable,
    /// Another job is running.
    Busy,
    /// No snapshot to search, compare or export yet.
    NoSnapshot,
    /// The snapshot store file is damaged (or from a newer version): it can be moved aside.
    StoreDamaged,
    /// The disk is full; nothing written earlier was lost.
    DiskFull,
    /// Stopped before the end.
    Interrupted,
    /// A bug of this program.
    Internal,
}

/// What a failure says of a remote source (a server): it answered, if only to refuse,
/// or it could not be reached. A failure on this computer says neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Heard {
    Answered,
    Unreachable,
}
