//! *Open* on a File or Blob of an AAS file opened (or of a V3 server): its content
//! written to this run's own temporary folder under a plain name that ends in its type's
//! extension, for the system's viewer. Only documents and pictures a viewer shows are
//! opened, never what a viewer would run: a package can hold anything. The folder goes
//! when the app ends; one a run left behind (killed, or crashed) goes when a later run
//! makes its own: each run holds a lock on a file in its folder while it lasts.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use aas_client::ElementAddress;

use crate::file_content::content;
use crate::{lock, App, Error, Result};

/// The types opened in a viewer (the extensions `content.rs` gives them).
const VIEWABLE: [&str; 6] = ["pdf", "png", "jpg", "csv", "txt", "json"];

/// Contents opened in this run are numbered, so that two of one name do not meet.
static NEXT_VIEWED: AtomicU32 = AtomicU32::new(1);

/// How each run's folder of contents opened is named (then a random part).
const FOLDER_PREFIX: &str = "aas-browser-opened-";

/// The file in each run's folder its run holds locked while it lasts.
const IN_USE: &str = ".in-use";

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
    /// those of runs that ended without removing theirs.
    fn make_in(root: &Path) -> std::io::Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix(FOLDER_PREFIX)
            .tempdir_in(root)?;
        let in_use = File::create(dir.path().join(IN_USE))?;
        in_use.try_lock()?;
        let folder = ViewedFolder {
            _in_use: in_use,
            dir,
        };
        folder.remove_left_behind(root);
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
            let ours = entry
                .file_name()
                .to_string_lossy()
                .starts_with(FOLDER_PREFIX)
                && path != self.dir.path()
                && entry.file_type().is_ok_and(|t| t.is_dir())
                && same_owner(&path, self.dir.path());
            let Some(lock) = ours.then(|| File::open(path.join(IN_USE)).ok()).flatten() else {
                continue;
            };
            if lock.try_lock().is_ok() {
                drop(lock);
                if let Err(e) = std::fs::remove_dir_all(&path) {
                    tracing::debug!(error = %e, folder = %path.display(), "a folder left behind stays");
                }
            }
        }
    }

    fn path(&self) -> &Path {
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

impl App {
    /// Writes what the element `at` of opened file `file` holds where the system's viewer
    /// can open it, and returns that path; refuses a type a viewer would not just show.
    pub async fn view_file_content(&self, file: u32, at: &ElementAddress) -> Result<PathBuf> {
        let opened = self.whole_file(file).await?;
        let (offer, bytes) = content(&opened, at).await?;
        if !VIEWABLE.contains(&offer.extension) {
            return Err(Error::BadRequest(format!(
                "{} is no document or picture a viewer shows (.{}): save it to disk and open it yourself if you trust it",
                offer.name(),
                offer.extension
            )));
        }
        let mut name = offer.name().to_owned();
        if !name
            .to_ascii_lowercase()
            .ends_with(&format!(".{}", offer.extension))
        {
            name = format!("{name}.{}", offer.extension);
        }
        let number = NEXT_VIEWED.fetch_add(1, Ordering::Relaxed);
        let path = self.viewed_folder()?.join(format!("{number}-{name}"));
        aas_output::write_atomically(&path, &bytes)?;
        Ok(path)
    }

    /// Removes this run's folder of contents opened (when the app ends: a viewer that
    /// still shows one keeps its own copy open).
    pub fn remove_viewed(&self) {
        lock(&self.viewed).take();
    }

    /// This run's folder for contents opened, made when first needed.
    fn viewed_folder(&self) -> Result<PathBuf> {
        let mut viewed = lock(&self.viewed);
        if let Some(folder) = viewed.as_ref() {
            return Ok(folder.path().to_owned());
        }
        let made = ViewedFolder::make_in(&std::env::temp_dir())
            .map_err(|e| Error::internal("a folder for the contents opened", e))?;
        let path = made.path().to_owned();
        *viewed = Some(made);
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_a_run_left_behind_goes_and_one_in_use_stays() {
        let root = tempfile::tempdir().expect("a folder");
        let left = root.path().join(format!("{FOLDER_PREFIX}left"));
        std::fs::create_dir(&left).expect("made");
        std::fs::write(left.join(IN_USE), "").expect("written");
        std::fs::write(left.join("1-manual.pdf"), "%PDF").expect("written");
        let unlocked_older = root.path().join(format!("{FOLDER_PREFIX}older"));
        std::fs::create_dir(&unlocked_older).expect("made");
        let other = root.path().join("other-app-folder");
        std::fs::create_dir(&other).expect("made");
        let running = ViewedFolder::make_in(root.path()).expect("a run's folder");

        let folder = ViewedFolder::make_in(root.path()).expect("a later run's folder");
        assert!(!left.exists(), "left behind: removed");
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
