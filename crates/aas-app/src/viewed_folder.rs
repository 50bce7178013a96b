//! This run's folder of contents opened in the system's viewer (view_content.rs), in the
//! system's temporary folder: removed when the app ends; one a run left behind (killed,
//! or crashed) goes when a later run makes its own. Each run holds a lock on a file in
//! its folder while it lasts, so that a run still going keeps its own.

use std::fs::File;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// How each run's folder of contents opened is named (then a random part).
const FOLDER_PREFIX: &str = "aas-browser-opened-";

/// The file in each run's folder its run holds locked while it lasts.
const IN_USE: &str = ".in-use";

/// How long a folder is left alone after it was made: its run locks it just after.
const SETTLED: Duration = Duration::from_secs(60);

/// This run's folder of contents opened, and the lock that says it is in use (let go
/// before the folder is removed: an open file cannot be removed on Windows).
#[derive(Debug)]
pub(crate) struct ViewedFolder {
    /// Held, locked, for as long as the run lasts.
    _in_use: File,
    dir: tempfile::TempDir,
}

impl ViewedFolder {
    /// Makes this run's folder in `root` (the system's temporary folder), then removes
    /// those of runs that ended without removing theirs — where locks can be had: a
    /// folder whose lock cannot be taken is never taken for one left behind.
    pub(crate) fn make_in(root: &Path) -> std::io::Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix(FOLDER_PREFIX)
            .tempdir_in(root)?;
        let in_use = File::create(dir.path().join(IN_USE))?;
        let locked = in_use.try_lock().is_ok();
        let folder = ViewedFolder {
            _in_use: in_use,
            dir,
        };
        if locked {
            folder.remove_left_behind(root);
        }
        Ok(folder)
    }

    /// Removes each folder of contents opened in `root` whose lock no run holds, and
    /// that belongs to whoever owns this run's; anything else stays (a folder of a run
    /// still going, of another user, or of an older version, which had no lock).
    fn remove_left_behind(&self, root: &Path) {
        let Ok(entries) = std::fs::read_dir(root) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            // A folder made a moment ago may not be locked yet: its run is starting.
            let settled = (entry.metadata().and_then(|m| m.modified()).ok())
                .and_then(|made| SystemTime::now().duration_since(made).ok())
                .is_some_and(|age| age > SETTLED);
            let ours = entry
                .file_name()
                .to_string_lossy()
                .starts_with(FOLDER_PREFIX)
                && settled
                && path != self.dir.path()
                && entry.file_type().is_ok_and(|t| t.is_dir())
                && same_owner(&path, self.dir.path());
            let Some(lock) = ours.then(|| File::open(path.join(IN_USE)).ok()).flatten() else {
                continue;
            };
            if lock.try_lock().is_ok() {
                drop(lock);
                if let Err(e) = remove_folder(&path) {
                    tracing::debug!(error = %e, folder = %path.display(), "a folder left behind stays");
                }
            }
        }
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Whether `path` has the owner `mine` has (on Windows the temporary folder is the
/// user's own).
fn same_owner(path: &Path, mine: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let owner = |p: &Path| std::fs::symlink_metadata(p).map(|m| m.uid()).ok();
        owner(path).is_some_and(|o| Some(o) == owner(mine))
    }
    #[cfg(not(unix))]
    {
        let _ = (path, mine);
        true
    }
}

/// Removes folder `path`, its lock file last: a document a viewer still holds open (on
/// Windows it cannot be removed) keeps the folder, and its lock file, for the next run.
fn remove_folder(path: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(path)? {
        let entry = entry?;
        if entry.file_name() == IN_USE {
            continue;
        }
        match entry.file_type()?.is_dir() {
            true => std::fs::remove_dir_all(entry.path())?,
            false => std::fs::remove_file(entry.path())?,
        }
    }
    std::fs::remove_file(path.join(IN_USE))?;
    std::fs::remove_dir(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(
        not(unix),
        ignore = "dates folders through File::open, which Windows refuses"
    )]
    fn a_folder_a_run_left_behind_goes_and_one_in_use_stays() {
        let root = tempfile::tempdir().expect("a folder");
        let left = root.path().join(format!("{FOLDER_PREFIX}left"));
        std::fs::create_dir(&left).expect("made");
        std::fs::write(left.join(IN_USE), "").expect("written");
        std::fs::write(left.join("1-manual.pdf"), "%PDF").expect("written");
        let just_made = root.path().join(format!("{FOLDER_PREFIX}starting"));
        std::fs::create_dir(&just_made).expect("made");
        std::fs::write(just_made.join(IN_USE), "").expect("written");
        let unlocked_older = root.path().join(format!("{FOLDER_PREFIX}older"));
        std::fs::create_dir(&unlocked_older).expect("made");
        let other = root.path().join("other-app-folder");
        std::fs::create_dir(&other).expect("made");
        let running = ViewedFolder::make_in(root.path()).expect("a run's folder");
        // All but the one just made were made a while ago.
        let earlier = SystemTime::now() - 2 * SETTLED;
        for folder in [&left, &unlocked_older, &other, &running.path().to_owned()] {
            File::open(folder)
                .and_then(|f| f.set_modified(earlier))
                .expect("dated");
        }

        let folder = ViewedFolder::make_in(root.path()).expect("a later run's folder");
        assert!(!left.exists(), "left behind: removed");
        assert!(
            just_made.exists(),
            "made a moment ago (its run may be starting): stays"
        );
        assert!(running.path().exists(), "in use by a run: stays");
        assert!(
            unlocked_older.exists(),
            "no lock (an older version's): stays"
        );
        assert!(other.exists(), "not ours: stays");
        assert!(folder.path().join(IN_USE).exists());
        // Let go, it goes whole when the run ends.
        let path = folder.path().to_owned();
        drop(folder);
        assert!(!path.exists());
    }
}
