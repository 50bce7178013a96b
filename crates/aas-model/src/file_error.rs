//! The one error type for a local file that could not be used, shared by every crate
//! that touches files (the client's spool and CA file, exports, the snapshot store,
//! the app's settings): the same words and the same disk-full test everywhere.

use std::path::PathBuf;

/// A local file or folder that could not be created, read, written or moved: what was
/// being done, to which path, and why.
#[derive(Debug, thiserror::Error)]
#[error("cannot {action} {}: {source}", .path.display())]
pub struct FileError {
    pub action: &'static str,
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

impl FileError {
    /// Whether the disk (or the user's quota) is full: what was written before stays.
    pub fn is_disk_full(&self) -> bool {
        self.source.kind() == std::io::ErrorKind::StorageFull
    }
}
