//! `aasmd snapshot take|list|rm`, `aasmd search`, `aasmd diff` and `aasmd export`: the
//! local snapshot store.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use aas_app::{changes_csv, take_snapshot, ConnectionSource, Preferences, Taken};
use aas_client::{Connection, CrawlPlan};
use aas_export::Format;
use aas_model::AssetType;
use aas_snapshot::{Access, ChangeKind, SnapshotInfo, Store};

use crate::cli::{ConnectionArgs, SnapshotCommand, StoreArg};
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
        } => take(conn, plant, asset_types, keep, &store).await,
        SnapshotCommand::List { plant, json, store } => {
            let list = open(&store, Access::Read)?.list(plant.as_deref())?;
            if json {
                print(&serde_json::to_string(&list)?)
            } else {
                let lines: Vec<String> = list.iter().map(line).collect();
                print(&lines.join("\n"))
            }
        }
        SnapshotCommand::Rm { id, store } => {
            open(&store, Access::Write)?.remove(id)?;
            eprintln!("aasmd: snapshot {id} removed");
            Ok(())
        }
    }
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
    let store = open(store, Access::Read)?;
    let id = match snapshot {
        Some(id) => id,
        None => latest(&store, plant, named_source(args)?.as_deref())?.id,
    };
    let hits = store.search(id, query, limit)?;
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
    let store = open(store, Access::Read)?;
    let (old, new) = match ids {
        [old, new] => (*old, *new),
        _ => latest_two(&store, plant, named_source(args)?.as_deref())?,
    };
    let diff = store.diff(old, new)?;
    for warning in &diff.warnings {
        eprintln!("aasmd: warning: {warning}");
    }
    if json {
        return print(&serde_json::to_string(&diff.changes)?);
    }
    if csv {
        let mut out = std::io::stdout().lock();
        out.write_all(&changes_csv(&diff.changes)?)?;
        out.flush()?;
        return Ok(());
    }
    let lines: Vec<String> = diff
        .changes
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
pub fn export(id: i64, format: Format, out: &Path, store: &StoreArg) -> Result<(), CliError> {
    let store = open(store, Access::Read)?;
    let info = store.snapshot(id)?;
    let bytes = store.export(id, format, out)?;
    eprintln!(
        "aasmd: snapshot {id} of {} ({}): wrote {} ({bytes} bytes)",
        info.plant,
        info.taken_at,
        out.display()
    );
    Ok(())
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
    let name = source_name(&from, &conn);
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
    let taken = take_snapshot(
        &client,
        &store_path(store)?,
        &name,
        &plan,
        keep,
        &cancel,
        |p| progress.show(p),
    )
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
    if !retired.is_empty() {
        let ids: Vec<String> = retired.iter().map(i64::to_string).collect();
        eprintln!(
            "aasmd: removed older snapshots {} (keeping the newest {keep} complete ones)",
            ids.join(", ")
        );
    }
    print(&serde_json::to_string(&info)?)?;
    outcome(&crawl)
}

/// Whose snapshot it is: the profile's name, else the client and the registry's host,
/// so that two platforms (or two runs of the demo) never mix.
fn source_name(source: &ConnectionSource, conn: &Connection) -> String {
    match source {
        ConnectionSource::Profile(name) => name.clone(),
        _ => {
            let host = host_of(&conn.registry_url);
            format!("{}@{} ({host})", conn.client_id, conn.realm)
        }
    }
}

/// `host:port` of a URL, or the URL when it has none.
fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    rest.split('/').next().unwrap_or(rest).to_owned()
}

/// The store of `--store` / `AASMD_STORE`, else the app's.
fn store_path(store: &StoreArg) -> Result<PathBuf, CliError> {
    match &store.path {
        Some(path) => Ok(path.clone()),
        None => Ok(aas_app::snapshot_store_path()?),
    }
}

fn open(store: &StoreArg, access: Access) -> Result<Store, CliError> {
    Ok(Store::open(&store_path(store)?, access)?)
}

/// The source the connection flags name (`--profile`, `--config`, `--registry-url`…),
/// as a take from them records it; `None` when none is given.
fn named_source(args: &ConnectionArgs) -> Result<Option<String>, CliError> {
    let from = source(args);
    if matches!(from, ConnectionSource::Nothing) && args.registry_url.is_none() {
        return Ok(None);
    }
    let conn = connection(args, &from)?;
    Ok(Some(source_name(&from, &conn)))
}

/// The complete snapshots of `plant` (or of the store's only plant) from `source` (or
/// from the plant's only source), newest first, by the rule the app uses.
fn complete_newest_first(
    store: &Store,
    plant: Option<String>,
    source: Option<&str>,
) -> Result<Vec<SnapshotInfo>, CliError> {
    let plant =
        match plant {
            Some(plant) => plant,
            None => match store.plants()?.as_slice() {
                [] => return Err(CliError::NoSnapshot(
                    "the store holds no snapshot yet; take one with aasmd snapshot take --plant P"
                        .into(),
                )),
                [only] => only.clone(),
                several => {
                    return Err(CliError::Usage(format!(
                        "the store holds snapshots of several plants ({}); say which with --plant",
                        several.join(", ")
                    )))
                }
            },
        };
    let list = store.complete_newest_first(&plant, source)?;
    if list.is_empty() {
        return Err(CliError::NoSnapshot(format!(
            "no complete snapshot of {plant}{}; take one with aasmd snapshot take --plant {plant}",
            source.map(|s| format!(" from {s}")).unwrap_or_default()
        )));
    }
    Ok(list)
}

/// Names on stderr the snapshot a command chose by itself.
fn say_chosen(what: &str, s: &SnapshotInfo) {
    eprintln!(
        "aasmd: {what} snapshot {} of {} from {} ({})",
        s.id,
        field(&s.plant),
        field(&s.source),
        s.taken_at
    );
}

/// The latest complete snapshot of `plant` from `source`, by the app's rule.
fn latest(
    store: &Store,
    plant: Option<String>,
    source: Option<&str>,
) -> Result<SnapshotInfo, CliError> {
    let newest = complete_newest_first(store, plant, source)?.remove(0);
    say_chosen("searching", &newest);
    Ok(newest)
}

/// The latest two complete snapshots of `plant` from `source`, by the app's rule.
fn latest_two(
    store: &Store,
    plant: Option<String>,
    source: Option<&str>,
) -> Result<(i64, i64), CliError> {
    let mut newest_first = complete_newest_first(store, plant, source)?.into_iter();
    let newest = newest_first.next().expect("not empty");
    let Some(older) = newest_first.next() else {
        return Err(CliError::NoSnapshot(format!(
            "only one complete snapshot of {} from {}: take another to compare",
            newest.plant, newest.source
        )));
    };
    say_chosen("comparing", &older);
    say_chosen("with", &newest);
    Ok((older.id, newest.id))
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
fn field(text: &str) -> String {
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

fn print(text: &str) -> Result<(), CliError> {
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
