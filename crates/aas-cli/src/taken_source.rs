//! `--file FILE` and `--v3 URL`: an AAS file, or an AAS V3 server read into the store, as the
//! source of the commands that read snapshots. Each is taken into a temporary store, as
//! `snapshot import` takes a file into a lasting one, and the command reads that store;
//! the store is removed when aasmd ends.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use aas_app::{Keychain, ProfileKind, ProfileStore, SecretKind, SnapshotStore, TakenV3};
use aas_client::{RepositoryProgress, Secret, V3Auth, V3Server};
use indicatif::{ProgressBar, ProgressStyle};
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

/// Reads `server` into a new temporary store.
pub async fn take_in_server(server: V3Server) -> Result<TakenStore, CliError> {
    let (dir, path, store) = temporary_store()?;
    let id = take_server(&store, server, 1).await?.info.id;
    Ok(TakenStore {
        _dir: dir,
        path,
        ids: vec![id],
    })
}

/// The V3 server the command line names, if any: `--v3 URL` (or `--v3-registry URL`,
/// whose descriptors lead to it, within its origin and --v3's), asked with what the
/// environment and the flags give (AASMD_V3_TOKEN; AASMD_V3_API_KEY in --api-key-header;
/// --token-url and --client-id with AASMD_CLIENT_SECRET), or a V3 server's profile
/// (`--profile`), asked as it says, each secret from the environment or else the
/// keychain. `None`: the source is a platform (or files).
pub fn named_v3_server(args: &ConnectionArgs) -> Result<Option<V3Server>, CliError> {
    let server = match (&args.v3, &args.v3_registry, &args.profile) {
        (Some(address), None, _) => {
            let transport = crate::query::transport(args)?;
            V3Server::new(address, v3_auth(args)?, &transport)?
                .with_idle_timeout(args.idle_timeout, &transport)?
        }
        (repository, Some(registry), _) => {
            let transport = crate::query::transport(args)?;
            let mut server = V3Server::registry(registry, v3_auth(args)?, &transport)?;
            if let Some(repository) = repository {
                server = server.allowing(repository, &transport)?;
            }
            server.with_idle_timeout(args.idle_timeout, &transport)?
        }
        (None, None, Some(name)) => {
            // A profile that is not there is the platform's error to tell.
            let Ok(profile) = ProfileStore::app_default()?.find(name) else {
                return Ok(None);
            };
            if profile.kind != ProfileKind::V3Server {
                return Ok(None);
            }
            let lookup = |kind| match environment_secret(kind)? {
                Some(given) => Ok(Some(given)),
                None => Keychain.get(name, kind),
            };
            // The transport flags override the profile's, as for a platform's.
            let mut transport = profile.v3_transport(&lookup)?;
            transport.allow_plain_http |= args.allow_plain_http;
            transport.ca_file = args.ca_file.clone().or(transport.ca_file);
            transport.proxy = args.proxy.clone().or(transport.proxy);
            transport.proxy_user = args.proxy_user.clone().or(transport.proxy_user);
            (profile.v3_server_over(&transport, lookup)?)
                .with_idle_timeout(args.idle_timeout, &transport)?
        }
        (None, None, None) => return Ok(None),
    };
    Ok(Some(server))
}

/// Whether `--profile` names a V3 server's profile.
pub fn names_v3_profile(args: &ConnectionArgs) -> bool {
    (args.profile.as_deref())
        .and_then(|name| ProfileStore::app_default().ok()?.find(name).ok())
        .is_some_and(|profile| profile.kind == ProfileKind::V3Server)
}

/// How `--v3 URL` is asked: by the one credential the environment and flags give.
fn v3_auth(args: &ConnectionArgs) -> Result<V3Auth, CliError> {
    let token = crate::query::secret("AASMD_V3_TOKEN")?;
    let key = crate::query::secret("AASMD_V3_API_KEY")?;
    match (token, key, &args.token_url) {
        (None, None, None) => Ok(V3Auth::None),
        (Some(token), None, None) => Ok(V3Auth::Bearer(token)),
        (None, Some(key), None) => Ok(V3Auth::ApiKey {
            header: args.api_key_header.clone(),
            key,
        }),
        (None, None, Some(token_url)) => Ok(V3Auth::ClientCredentials {
            token_url: token_url.clone(),
            client_id: args.client_id.clone().ok_or_else(|| {
                CliError::Usage("--token-url with --v3 needs --client-id (and AASMD_CLIENT_SECRET)".into())
            })?,
            client_secret: crate::query::secret("AASMD_CLIENT_SECRET")?.ok_or_else(|| {
                CliError::Usage("--token-url with --v3 needs AASMD_CLIENT_SECRET (or AASMD_CLIENT_SECRET_FILE)".into())
            })?,
            client_auth: args.client_auth.unwrap_or_default(),
        }),
        _ => Err(CliError::Usage(
            "--v3 is asked with one credential: AASMD_V3_TOKEN, AASMD_V3_API_KEY or --token-url, not several".into(),
        )),
    }
}

/// The secret of `kind` the environment gives, over the keychain's.
fn environment_secret(kind: SecretKind) -> aas_app::Result<Option<Secret>> {
    let variable = match kind {
        SecretKind::ClientSecret => "AASMD_CLIENT_SECRET",
        SecretKind::UserToken => "AASMD_USER_TOKEN",
        SecretKind::ProxyPassword => "AASMD_PROXY_PASSWORD",
        SecretKind::BearerToken => "AASMD_V3_TOKEN",
        SecretKind::ApiKey => "AASMD_V3_API_KEY",
    };
    crate::query::secret(variable).map_err(|e| aas_app::Error::BadRequest(e.to_string()))
}

/// Reads `server` into `store`, shell by shell, keeping its newest `keep` snapshots.
/// Ctrl-C ends the reading: what was read is kept, marked partial. A partial reading is
/// said on stderr, with each failure.
pub async fn take_server(
    store: &SnapshotStore,
    server: V3Server,
    keep: usize,
) -> Result<TakenV3, CliError> {
    let address = server.address().to_owned();
    let cancel = crate::crawl::cancel_on_ctrl_c();
    // Shown as it goes (hidden when stderr is no terminal): a server's size is not known
    // before it is read.
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    let show = |p: RepositoryProgress| {
        bar.set_message(format!(
            "{} shells, {} submodels, {} requests, {} failed",
            p.shells, p.submodels, p.requests, p.failures
        ))
    };
    let taken = store.take_v3(&Arc::new(server), keep, &cancel, &show).await;
    bar.finish_and_clear();
    let taken = taken?;
    let read = &taken.reading;
    if !read.complete() {
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
    Ok(taken)
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
        _ => return Err(not_a_source_command()),
    }
    Ok(command)
}

/// Refuses, before anything is read, a command that reads no file or V3 server.
pub fn check_reads_sources(command: &Command) -> Result<(), CliError> {
    match command {
        Command::Search { .. }
        | Command::Table(_)
        | Command::Audit(_)
        | Command::Export { .. }
        | Command::Diff { .. } => Ok(()),
        _ => Err(not_a_source_command()),
    }
}

fn not_a_source_command() -> CliError {
    CliError::Usage(
        "--file, --v3 and a V3 server's profile are sources for search, diff, table, audit \
         and export (and snapshot take); inspect and convert name their file, the other \
         commands read a platform"
            .into(),
    )
}
