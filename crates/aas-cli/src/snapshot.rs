//! `aasmd snapshot take|list|rm|copy`, `aasmd search`, `aasmd diff` and `aasmd export`:
//! the snapshot store through aas-app's `SnapshotStore`, whose rules the app uses too;
//! here only the arguments and the printing.

mod copy;

use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use aas_app::{
    changes_csv, CrawlSummary, Imported, Preferences, SettingsFrom, SnapshotStore, Taken,
};
use aas_client::CrawlPlan;
use aas_export::Format;
use aas_model::AssetType;
use aas_snapshot::{ChangeKind, SnapshotInfo};

use crate::cli::{ConnectionArgs, SnapshotCommand, StoreArg, StoreCommand};
use crate::crawl::{cancel_on_ctrl_c, outcome, took, CrawlProgress};
use crate::error::CliError;
use crate::query::{connection, source};

pub async fn run(conn: &ConnectionArgs, command: SnapshotCommand) -> Result<(), CliError> {
    match command {
        SnapshotCommand::Take {
            plant,
            asset_types,
            keep,
            store,
        } => match (crate::taken_source::named_v3_server(conn)?, plant) {
            (Some(server), None) => take_v3(server, keep, &store).await,
            (None, Some(plant)) => take(conn, plant, asset_types, keep, &store).await,
            (Some(_), Some(_)) => Err(CliError::Usage(
                "a V3 server's snapshot is named by its address: leave --plant out".into(),
            )),
            (None, None) => Err(CliError::Usage(
                "snapshot take needs --plant PLANT (or --v3 URL, or a V3 server's --profile)"
                    .into(),
            )),
        },
        SnapshotCommand::Import { file, keep, store } => import(&file, keep, &store),
        SnapshotCommand::List { plant, json, store } => {
            let list = store_of(&store)?.read(|store| store.list(plant.as_deref()))?;
            if json {
                print(&serde_json::to_string(&list)?)
            } else {
                let lines: Vec<String> = list.iter().map(line).collect();
                print(&lines.join("\n"))
            }
        }
        SnapshotCommand::Rm { id, store } => {
            store_of(&store)?.remove(id)?;
            eprintln!("aasmd: snapshot {id} removed");
            Ok(())
        }
        SnapshotCommand::Copy {
            from,
            to,
            ids,
            plant,
        } => copy::run(from, to, ids, plant).await,
    }
}

/// `aasmd store init|migrate`.
pub fn store(command: StoreCommand) -> Result<(), CliError> {
    let (create, readers, store) = match command {
        StoreCommand::Init { readers, store } => (true, readers, store),
        StoreCommand::Migrate { store } => (false, Vec::new(), store),
    };
    let found = store_of(&store)?.init_team(create, &readers)?;
    let schema = aas_snapshot::Store::team_schema();
    match found {
        0 => eprintln!("aasmd: the team store's tables are made (schema {schema})"),
        _ if found < schema => {
            eprintln!("aasmd: the team store is migrated (schema {found} → {schema})")
        }
        _ => eprintln!("aasmd: the team store is up to date (schema {schema})"),
    }
    for reader in &readers {
        eprintln!("aasmd: {reader} may read it");
    }
    Ok(())
}

/// `aasmd search`.
pub fn search(
    args: &ConnectionArgs,
    query: &str,
    snapshot: Option<i64>,
    plant: Option<String>,
    limit: usize,
    json: bool,
    store: &StoreArg,
) -> Result<(), CliError> {
    let store = store_of(store)?;
    let source = named_source(args)?;
    let chosen = store.chosen(snapshot, plant.as_deref(), source.as_deref())?;
    if snapshot.is_none() {
        say_chosen("searching", &chosen);
    }
    // The hits alone: the asset type of each (which the app opens hits by) would read
    // every AAS list of the snapshot first.
    let hits = store.read(|store| store.search(chosen.id, query, limit))?;
    if json {
        return print(&serde_json::to_string(&hits)?);
    }
    let lines: Vec<String> = hits
        .iter()
        .map(|h| {
            let at = [h.submodel.clone().unwrap_or_default(), h.path.join("/")].join("/");
            let value = shown(h.value.as_deref().unwrap_or(""), h.value_length);
            format!(
                "{}\t{}\t{}\t{value}",
                field(&h.aas_id),
                field(&at),
                field(&h.model_type)
            )
        })
        .collect();
    print(&lines.join("\n"))
}

/// `aasmd diff`.
pub fn diff(
    args: &ConnectionArgs,
    ids: &[i64],
    plant: Option<String>,
    json: bool,
    csv: bool,
    store: &StoreArg,
) -> Result<(), CliError> {
    let store = store_of(store)?;
    let named = match ids {
        [old, new] => Some((*old, *new)),
        _ => None,
    };
    let source = named_source(args)?;
    let (old, new) = store.chosen_pair(named, plant.as_deref(), source.as_deref())?;
    if named.is_none() {
        say_chosen("comparing", &old);
        say_chosen("with", &new);
    }
    let changes = store.changes(old, new)?;
    for warning in &changes.warnings {
        eprintln!("aasmd: warning: {warning}");
    }
    let changes = changes.changes;
    if json {
        return print(&serde_json::to_string(&changes)?);
    }
    if csv {
        let mut out = std::io::stdout().lock();
        out.write_all(&changes_csv(&changes)?)?;
        out.flush()?;
        return Ok(());
    }
    let lines: Vec<String> = changes
        .iter()
        .map(|c| {
            let at = [c.submodel.as_deref().unwrap_or(""), &c.path.join("/")].join("/");
            let values = match c.change {
                ChangeKind::Changed => format!(
                    "\t{} → {}",
                    shown(c.old.as_deref().unwrap_or(""), None),
                    shown(c.new.as_deref().unwrap_or(""), None)
                ),
                _ => String::new(),
            };
            format!(
                "{}\t{}\t{}{values}",
                c.change.word(),
                field(&c.aas_id),
                field(&at)
            )
        })
        .collect();
    print(&lines.join("\n"))
}

/// `aasmd export --snapshot ID`.
pub async fn export(id: i64, format: Format, out: &Path, store: &StoreArg) -> Result<(), CliError> {
    let store = store_of(store)?;
    let info = store.chosen(Some(id), None, None)?;
    let exported = store.export(id, format, out.to_owned()).await?;
    eprintln!(
        "aasmd: snapshot {id} of {} ({}): wrote {} ({} bytes)",
        info.plant,
        info.taken_at,
        out.display(),
        exported.bytes
    );
    if let Some(conversion) = exported.conversion {
        eprintln!("aasmd: {}", conversion.summary());
    }
    Ok(())
}

/// `aasmd snapshot import FILE`.
fn import(file: &Path, keep: Option<u16>, store: &StoreArg) -> Result<(), CliError> {
    let keep = keep.map_or_else(|| Preferences::of_app().keep_snapshots, usize::from);
    imported_said(&store_of(store)?.import_file(file, keep)?, keep)
}

/// What a snapshot taken in holds (stderr), the older ones retired, and its JSON line
/// (stdout).
fn imported_said(imported: &Imported, keep: usize) -> Result<(), CliError> {
    let info = &imported.info;
    eprintln!(
        "aasmd: snapshot {} of {}: {} answers, {} AAS",
        info.id, info.plant, info.nodes, info.shells
    );
    retired_said(&imported.retired, keep);
    print(&serde_json::to_string(info)?)
}

/// `aasmd --v3 URL snapshot take` (or a V3 server's `--profile`): the server read into a
/// new snapshot shell by shell (plant: its address; source: "v3"). Exit code 6 when the
/// reading was partial (kept, marked so).
async fn take_v3(
    server: aas_client::V3Server,
    keep: Option<u16>,
    store: &StoreArg,
) -> Result<(), CliError> {
    let keep = keep.map_or_else(|| Preferences::of_app().keep_snapshots, usize::from);
    let address = server.address().to_owned();
    let taken = crate::taken_source::take_server(&store_of(store)?, server, keep).await?;
    let imported = Imported {
        info: taken.info,
        retired: taken.retired,
    };
    imported_said(&imported, keep)?;
    let info = imported.info;
    match info.complete {
        true => Ok(()),
        false => Err(CliError::Partial(format!(
            "snapshot {} of {address}",
            info.id
        ))),
    }
}

async fn take(
    args: &ConnectionArgs,
    plant: String,
    asset_types: Vec<AssetType>,
    keep: Option<u16>,
    store: &StoreArg,
) -> Result<(), CliError> {
    let from = source(args);
    let conn = connection(args, &from)?;
    let name = from.snapshot_source(&conn);
    let asset_types = if asset_types.is_empty() {
        from.requested_types()?
    } else {
        asset_types
    };
    let keep = keep.map_or_else(|| Preferences::of_app().keep_snapshots, usize::from);
    let client = Arc::new(crate::query::client(args, conn)?);
    let plan = CrawlPlan::new(plant, asset_types);
    let cancel = cancel_on_ctrl_c();
    let progress = CrawlProgress::new();
    let taken = store_of(store)?
        .take(&client, &name, &plan, keep, &cancel, |p| progress.show(p))
        .await;
    progress.finish();
    let Taken {
        info,
        crawl,
        retired,
    } = taken?;
    eprintln!(
        "aasmd: snapshot {} of {}: {} answers, {} AAS, {} failed, {} unreadable parts in {:.2}s",
        info.id,
        info.plant,
        info.nodes,
        info.shells,
        crawl.failures.len(),
        info.unreadable,
        took(&crawl)
    );
    retired_said(&retired, keep);
    print(&serde_json::to_string(&info)?)?;
    outcome(&CrawlSummary::of(&crawl))
}

/// Says on stderr which older snapshots a take or an import removed.
fn retired_said(retired: &[i64], keep: usize) {
    if !retired.is_empty() {
        let ids: Vec<String> = retired.iter().map(i64::to_string).collect();
        eprintln!(
            "aasmd: removed older snapshots {} (keeping the newest {keep} complete ones)",
            ids.join(", ")
        );
    }
}

/// The store of `--store` / `AASMD_STORE`, else the app's.
pub(crate) fn store_of(store: &StoreArg) -> Result<SnapshotStore, CliError> {
    Ok(match &store.path {
        Some(path) => SnapshotStore::at(path.clone()),
        None => SnapshotStore::app_default()?,
    })
}

/// Warns on stderr, once, when an argument holds a store URL with a password (as
/// `postgres://ROLE:PASSWORD@…` or `?password=…`): every user of this computer can read
/// a command line (`ps`). The password is not echoed. Says whether it warned.
pub(crate) fn warn_of_store_passwords(args: impl IntoIterator<Item = OsString>) -> bool {
    let given = args.into_iter().any(|arg| {
        let arg = arg.to_string_lossy();
        // The URL wherever it starts in the argument (`--store=postgres://…`).
        let mut urls = arg.match_indices("postgres").map(|(at, _)| &arg[at..]);
        // The one redaction of a store URL: it changes the URL only to take a password out.
        urls.any(|url| aas_snapshot::store_name(Path::new(url)) != url)
    });
    if given {
        eprintln!(
            "aasmd: warning: a store URL on the command line holds a password, and every user of \
             this computer can read a command line (ps). Leave it out of the URL and give it in \
             PGPASSWORD, or in the password file (~/.pgpass, or the file PGPASSFILE names: \
             HOST:PORT:DATABASE:ROLE:PASSWORD); or name the store in AASMD_STORE, which only \
             you and root can read."
        );
    }
    given
}

/// The source the connection flags name (`--profile`, `--config`, `--registry-url`…),
/// as a take from them records it; `None` when none is given.
pub(crate) fn named_source(args: &ConnectionArgs) -> Result<Option<String>, CliError> {
    let from = source(args);
    // A V3 server's snapshots are named by its address, their source is "v3".
    let v3_profile = crate::taken_source::names_v3_profile(args);
    if v3_profile || matches!(from, SettingsFrom::Nothing) && args.registry_url.is_none() {
        return Ok(None);
    }
    let conn = connection(args, &from)?;
    Ok(Some(from.snapshot_source(&conn)))
}

/// Names on stderr the snapshot a command chose by itself.
pub(crate) fn say_chosen(what: &str, s: &SnapshotInfo) {
    eprintln!(
        "aasmd: {what} snapshot {} of {} from {} ({})",
        s.id,
        field(&s.plant),
        field(&s.source),
        s.taken_at
    );
}

fn line(s: &SnapshotInfo) -> String {
    let mut state = if s.complete { "complete" } else { "partial" }.to_owned();
    if s.unreadable > 0 {
        state += &format!(", {} unreadable parts", s.unreadable);
    }
    format!(
        "{}\t{}\t{}\t{} AAS\t{} answers\t{state}\t{}",
        s.id,
        s.taken_at,
        field(&s.plant),
        s.shells,
        s.nodes,
        field(&s.source)
    )
}

/// One field of a plain output line, with tabs, line breaks and backslashes escaped
/// (`\t`, `\n`, `\r`, `\\`): a value never starts a column or a row of its own.
/// `--json` gives the values as they are.
pub(crate) fn field(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

/// The most of a value a plain line shows; `--json` has the whole value.
const MAX_SHOWN: usize = 200;

/// A value as a plain line shows it: [`field`], cut past [`MAX_SHOWN`] characters
/// with its length said, so that one huge value does not flood the terminal; a value
/// the store itself holds only the start of (`whole_bytes`) says its whole length.
fn shown(value: &str, whole_bytes: Option<u64>) -> String {
    let cut = value.char_indices().nth(MAX_SHOWN).map(|(at, _)| at);
    match (cut, whole_bytes) {
        (None, None) => field(value),
        (cut, Some(bytes)) => format!(
            "{}… ({bytes} bytes; an export of the snapshot holds it whole)",
            field(&value[..cut.unwrap_or(value.len())])
        ),
        (Some(cut), None) => format!(
            "{}… ({} characters; --json shows all)",
            field(&value[..cut]),
            value.chars().count()
        ),
    }
}

pub(crate) fn print(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    if !text.is_empty() {
        writeln!(out, "{text}")?;
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_password_on_the_command_line_is_found_wherever_the_url_starts() {
        let warns = |args: &[&str]| warn_of_store_passwords(args.iter().map(OsString::from));
        for args in [
            &["--store", "postgres://writer:pw@db/plants"][..],
            &["--store=postgresql://writer:pw@db/plants"],
            &[
                "snapshot",
                "copy",
                "--to",
                "postgres://writer@db/plants?password=pw",
            ],
        ] {
            assert!(warns(args), "{args:?}");
        }
        for args in [
            &["--store", "postgres://writer@db/plants?sslmode=require"][..],
            &["--store", "/home/me/pw@snapshots.sqlite3"],
            &["search", "postgres"],
        ] {
            assert!(!warns(args), "{args:?}");
        }
    }

    #[test]
    fn a_value_cannot_forge_a_column_or_a_row_of_plain_output() {
        assert_eq!(
            field("SN-1\tforged\nurn:x\tChanged\r\\n"),
            "SN-1\\tforged\\nurn:x\\tChanged\\r\\\\n"
        );
        assert_eq!(field("plain"), "plain");
    }

    #[test]
    fn a_long_value_is_cut_with_its_length() {
        let long = "ä".repeat(MAX_SHOWN + 1);
        let cut = shown(&long, None);
        assert!(cut.starts_with(&"ä".repeat(MAX_SHOWN)), "{cut}");
        assert!(cut.ends_with(&format!(
            "… ({} characters; --json shows all)",
            MAX_SHOWN + 1
        )));
        assert_eq!(shown("short\tone", None), "short\\tone");
    }
}
