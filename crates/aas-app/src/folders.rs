//! The app's folders, shared with `aasmd`: settings, profiles, preferences and templates
//! in the data folder (on Windows the roaming `%APPDATA%`, which follows the user
//! between computers), the snapshot store and the logs in the local one (on Windows
//! `%LOCALAPPDATA%`: a store can be gigabytes, which roaming profiles must not copy).
//! On Linux and macOS the two are the same folder.

use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// The app's bundle identifier: its folders are `<data dir>/<identifier>/`.
pub const APP_IDENTIFIER: &str = "org.aasbrowser.desktop";
const STORE_FILE: &str = "snapshots.sqlite3";

/// The app's data folder, `<data dir>/<identifier>/` (Windows: `%APPDATA%\…`).
pub fn app_data_dir() -> Result<PathBuf> {
    in_user_folder(dirs::data_dir())
}

/// The app's local data folder, `<local data dir>/<identifier>/` (Windows:
/// `%LOCALAPPDATA%\…`; elsewhere the same as [`app_data_dir`]).
pub fn app_local_data_dir() -> Result<PathBuf> {
    in_user_folder(dirs::data_local_dir())
}

fn in_user_folder(dir: Option<PathBuf>) -> Result<PathBuf> {
    let dir = dir.ok_or(Error::NoDataFolder)?;
    Ok(dir.join(APP_IDENTIFIER))
}

/// The snapshot store the app and `aasmd` share, in the local data folder.
pub fn snapshot_store_path() -> Result<PathBuf> {
    Ok(store_in(&app_local_data_dir()?, &app_data_dir()?))
}

/// The store in `local`, unless only `roaming` has one: earlier builds kept it there on
/// Windows, and it stays in use rather than seem lost. It is not
/// moved: a store open in another process, or its `-wal` file, could be split.
fn store_in(local: &Path, roaming: &Path) -> PathBuf {
    let (new, old) = (local.join(STORE_FILE), roaming.join(STORE_FILE));
    if !new.exists() && old.exists() {
        old
    } else {
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_store_is_local_unless_only_the_roaming_folder_has_one() {
        let home = tempfile::tempdir().expect("temp dir");
        let (local, roaming) = (home.path().join("Local"), home.path().join("Roaming"));
        std::fs::create_dir_all(&local).expect("local");
        std::fs::create_dir_all(&roaming).expect("roaming");
        let (new, old) = (local.join(STORE_FILE), roaming.join(STORE_FILE));

        assert_eq!(
            store_in(&local, &roaming),
            new,
            "neither has one: the new place"
        );
        std::fs::write(&old, b"old").expect("old store");
        assert_eq!(
            store_in(&local, &roaming),
            old,
            "only the old place has one"
        );
        std::fs::write(&new, b"new").expect("new store");
        assert_eq!(
            store_in(&local, &roaming),
            new,
            "both have one: the new place"
        );
        std::fs::remove_file(&old).expect("removed");
        assert_eq!(
            store_in(&local, &roaming),
            new,
            "only the new place has one"
        );
        assert_eq!(store_in(&local, &local), new, "Linux and macOS: one folder");
    }
}
