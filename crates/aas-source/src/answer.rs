//! One answer of a source as it was sent, and what could not be had of it: a node that
//! failed, or the part of an answer that cannot be read.

use serde::Serialize;

use crate::{Body, ErrorKind, NodePath};

/// An answer, exactly as the server sent it.
#[derive(Debug, Clone)]
pub struct Fetched {
    pub path: NodePath,
    pub url: String,
    /// The answer as sent; it passed a JSON syntax check when it arrived.
    pub raw: Body,
}

/// A node that could not be fetched or read, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    pub path: NodePath,
    pub url: String,
    pub kind: ErrorKind,
    pub message: String,
}

/// Part of an answer that cannot be read (an element with a number past f64, a key
/// given twice, a Property whose value is an object…). The answer is kept as sent; this
/// names the part so that it is not missed in what is shown, searched and exported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unreadable {
    pub path: NodePath,
    pub url: String,
    /// Its JSON path within the answer, e.g. `$[3].value[0]`.
    pub at: String,
    pub reason: String,
}

/// `URL at $[3].value: reason`, as summaries name it.
impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at {}: {}", self.url, self.at, self.reason)
    }
}
