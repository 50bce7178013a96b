//! How much room the disk holding the store has left: a full disk that stops SQLite's
//! shared-memory file from growing is only a "disk I/O error" to SQLite, so the file
//! system is asked.

use std::path::Path;

/// Whether the file system holding `path` has less than a megabyte left for the user.
pub(crate) fn nearly_full(path: &Path) -> bool {
    let folder = match path.parent() {
        Some(folder) if folder.as_os_str().is_empty() => Path::new("."),
        Some(folder) => folder,
        None => path,
    };
    free_bytes(folder).is_some_and(|free| free < 1024 * 1024)
}

/// Bytes the user may still write on the file system holding `folder`; `None` when it
/// cannot be asked.
#[cfg(unix)]
fn free_bytes(folder: &Path) -> Option<u64> {
    let fs = rustix::fs::statvfs(folder).ok()?;
    Some(fs.f_bavail.saturating_mul(fs.f_frsize))
}

#[cfg(windows)]
#[expect(
    unsafe_code,
    reason = "the standard library has no call for a disk's free space"
)]
fn free_bytes(folder: &Path) -> Option<u64> {
    use std::os::windows::ffi::OsStrExt;
    use windows_sys::Win32::Storage::FileSystem::GetDiskFreeSpaceExW;

    let wide: Vec<u16> = folder.as_os_str().encode_wide().chain([0]).collect();
    let mut free: u64 = 0;
    // SAFETY: `wide` is NUL-terminated and outlives the call; `free` is a live u64; the
    // two totals not wanted may be null (documented as optional).
    let asked = unsafe {
        GetDiskFreeSpaceExW(
            wide.as_ptr(),
            &mut free,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    };
    // Free bytes for this user, quotas counted.
    (asked != 0).then_some(free)
}

#[cfg(not(any(unix, windows)))]
fn free_bytes(_: &Path) -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_disk_is_asked_and_a_missing_folder_is_not_full() {
        let dir = tempfile::tempdir().expect("temp dir");
        let free = free_bytes(dir.path()).expect("a real folder's disk answers");
        assert!(free > 0);
        // The build's own disk has far more than a megabyte left.
        assert!(!nearly_full(&dir.path().join("store.sqlite3")));
        assert_eq!(free_bytes(&dir.path().join("no such folder")), None);
        assert!(!nearly_full(
            &dir.path().join("no such folder").join("s.sqlite3")
        ));
        assert!(
            !nearly_full(Path::new("store.sqlite3")),
            "a bare name: the current folder"
        );
    }
}
