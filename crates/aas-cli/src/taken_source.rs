//! `--file FILE` and `--v3 URL`: an AAS file, or an AAS V3 server read whole, as the
//! source of the commands that read snapshots. Each is taken into a temporary store, as
//! `snapshot import` takes a file into a lasting one, and the command reads that store;
//! the store is removed when aasmd ends.

use std::path::PathBuf;
use std::sync::Arc;

use aas_app::{SnapshotStore, V3_SOURCE};
use aas_client::{RepositoryPlan, V3Auth, V3Server};
use aas_file::EnvironmentAnswers;
use tempfile::TempDir;

use crate::cli::{Command, ConnectionArgs, StoreArg};
use crate::error::CliError;

/// The temporary store holding the source's snapshots, in their order.
pub struct TakenStore {
    /// Removed, with the store in it, when this is dropped.
    _dir: TempDir,
    path: PathBuf,
    ids: Vec<i64>,
}

/// Takes `files` into a new temporary store.
pub fn take_in(files: &[PathBuf]) -> Result<TakenStore, CliError> {
    let (dir, path, store) = temporary_store()?;
    let mut ids = Vec::new();
    for file in files {
        // Two files of one name are two snapshots of it: none is retired.
        ids.push(store.import_file(file, files.len())?.info.id);
    }
    Ok(TakenStore {
        _dir: dir,
        path,
        ids,
    })
}

/// Reads the V3 server at `address` whole into a new temporary store.
pub async fn take_in_server(address: &str, args: &ConnectionArgs) -> Result<TakenStore, CliError> {
    let answers = read_server(address, args).await?;
    let (dir, path, store) = temporary_store()?;
    let id = store.import(&answers, V3_SOURCE, 1)?.info.id;
    Ok(TakenStore {
        _dir: dir,
        path,
        ids: vec![id],
    })
}

/// Reads the V3 server at `address` whole (its token, if it wants one, in
/// AASMD_V3_TOKEN), as a source of answers. Ctrl-C ends the reading: what was read is
/// kept, marked partial. A partial reading is said on stderr, with each failure.
pub async fn read_server(
    address: &str,
    args: &ConnectionArgs,
) -> Result<EnvironmentAnswers, CliError> {
    let auth = match crate::query::secret("AASMD_V3_TOKEN")? {
        Some(token) => V3Auth::Bearer(token),
        None => V3Auth::None,
    };
    let transport = crate::query::transport(args)?;
    let server = V3Server::new(address, auth, &transport)?
        .with_idle_timeout(args.idle_timeout, &transport)?;
    let server = Arc::new(server);
    let cancel = crate::crawl::cancel_on_ctrl_c();
    let mut read = (server.read_repository(RepositoryPlan::default(), &cancel, &|_| {})).await?;
    let complete = read.complete();
    if !complete {
        eprintln!(
            "aasmd: the reading of {address} is partial ({} failed{}{}); the rest is kept",
            read.failures.len(),
            if read.cancelled { ", interrupted" } else { "" },
            if read.bounded {
                ", past the bound on items"
            } else {
                ""
            },
        );
    }
    for failure in &read.failures {
        eprintln!("aasmd: {}: {}", failure.url, failure.message);
    }
    let (failures, read_at) = (std::mem::take(&mut read.failures), read.read_at);
    let environment = read.into_environment();
    Ok(aas_file::environment_answers(
        server.address(),
        environment,
        read_at,
        failures,
        complete,
    )?)
}

/// A new, empty store in a temporary folder removed with it.
fn temporary_store() -> Result<(TempDir, PathBuf, SnapshotStore), CliError> {
    let dir = (tempfile::Builder::new().prefix("aasmd-source-").tempdir())
        .map_err(|e| CliError::Usage(format!("cannot make a temporary store: {e}")))?;
    let path = dir.path().join("snapshots.sqlite3");
    let store = SnapshotStore::at(path.clone());
    Ok((dir, path, store))
}

/// `command` reading `store` instead of the store it names: search, table and audit the
/// source's snapshot, export it unless another is named, diff the first file's and the
/// second's. Any other command reads a platform, or names its file itself: refused.
pub fn reading(mut command: Command, store: &TakenStore) -> Result<Command, CliError> {
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
        Command::Diff { .. } if store.ids.len() < 2 => {
            return Err(CliError::Usage(
                "diff compares two: give --file twice, or keep two snapshots of a V3 server \
                 (aasmd --v3 URL snapshot take) and compare them in the store \
                 (aasmd diff --plant URL)"
                    .into(),
            ))
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
                "--file and --v3 are sources for search, diff, table, audit and export; \
                 inspect and convert name their file, the other commands read a platform"
                    .into(),
            ))
        }
    }
    Ok(command)
}
