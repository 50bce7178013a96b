//! `--file FILE`: an AAS file as the source of the commands that read snapshots. Each
//! file is taken into a temporary store, as `snapshot import` takes it into a lasting
//! one, and the command reads that store; the store is removed when aasmd ends.

use std::path::PathBuf;

use aas_app::SnapshotStore;
use tempfile::TempDir;

use crate::cli::{Command, StoreArg};
use crate::error::CliError;

/// The temporary store holding the files, one snapshot each, in their order.
pub struct FileStore {
    /// Removed, with the store in it, when this is dropped.
    _dir: TempDir,
    path: PathBuf,
    ids: Vec<i64>,
}

/// Takes `files` into a new temporary store.
pub fn take_in(files: &[PathBuf]) -> Result<FileStore, CliError> {
    let dir = (tempfile::Builder::new().prefix("aasmd-file-").tempdir())
        .map_err(|e| CliError::Usage(format!("cannot make a temporary store: {e}")))?;
    let path = dir.path().join("snapshots.sqlite3");
    let store = SnapshotStore::at(path.clone());
    let mut ids = Vec::new();
    for file in files {
        // Two files of one name are two snapshots of it: none is retired.
        ids.push(store.import_file(file, files.len())?.info.id);
    }
    Ok(FileStore {
        _dir: dir,
        path,
        ids,
    })
}

/// `command` reading `store` instead of the store it names: search, table and audit the
/// file's snapshot, export it unless another is named, diff the first file's and the
/// second's. Any other command reads a platform, or names its file itself: refused.
pub fn reading(mut command: Command, store: &FileStore) -> Result<Command, CliError> {
    let to_files = |arg: &mut StoreArg| arg.path = Some(store.path.clone());
    match &mut command {
        Command::Search { store: arg, .. } => to_files(arg),
        Command::Table(table) => to_files(&mut table.store),
        Command::Audit(audit) => to_files(&mut audit.store),
        Command::Export {
            snapshot,
            store: arg,
            ..
        } => {
            if snapshot.is_none() {
                *snapshot = store.ids.last().copied();
            }
            to_files(arg);
        }
        Command::Diff {
            ids, store: arg, ..
        } => {
            if ids.is_empty() && store.ids.len() == 2 {
                ids.clone_from(&store.ids);
            }
            to_files(arg);
        }
        _ => {
            return Err(CliError::Usage(
                "--file is a source for search, diff, table, audit and export; \
                 inspect and convert name their file, the other commands read a platform"
                    .into(),
            ))
        }
    }
    Ok(command)
}
