//! A crawl written to an export file in bounded memory, for `aasmd crawl` and the app's
//! Export of what is ticked alike: answers are held in memory up to a limit; past it a
//! thread of its own moves them into a temporary snapshot store beside the output and
//! keeps the rest there, and the export reads them back.

use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;
use std::time::SystemTime;

use aas_client::{Client, Crawl, CrawlPlan, Progress};
use aas_export::{export, Exported, Format};
use aas_snapshot::{Access, Store};
use aas_source::{Fetched, NodePath, Selection};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::{Error, Result};
use aas_model::FileError;

/// Answers held in memory before the crawl goes on through a temporary snapshot store,
/// unless the caller says otherwise. Below it a crawl is as fast as it can be; above it
/// memory stays bounded (100,000 assets: 0.9 GB at the peak instead of 3.7, in twice
/// the time).
pub const DEFAULT_HELD_BYTES: u64 = 1 << 30;

/// Where a crawl's export goes.
#[derive(Debug, Clone, Copy)]
pub struct ToFile<'a> {
    pub format: Format,
    pub out: &'a Path,
    /// Who made the export (the raw bundle's manifest names it).
    pub maker: &'a str,
    /// Bytes of answers held in memory before the rest goes through a store.
    pub held_limit: u64,
    /// A cancelled crawl writes what it fetched (`aasmd`), or nothing (the app).
    pub write_if_cancelled: bool,
}

/// What a crawl to a file did.
#[derive(Debug)]
pub struct Written {
    /// The crawl as it ended, without its answers.
    pub crawl: Crawl,
    /// What was written; `None` when a cancelled crawl wrote nothing.
    pub exported: Option<Exported>,
    pub shells: usize,
}

/// Crawls `selection` of `plan` and writes it as `to` says. `on_spill` is called once
/// if the answers pass the limit and the rest goes through a temporary store.
pub async fn crawl_to_file(
    client: &Arc<Client>,
    plan: &CrawlPlan,
    selection: &Selection,
    to: ToFile<'_>,
    cancel: &CancellationToken,
    on_progress: impl Fn(&Progress),
    on_spill: impl Fn() + Sync,
) -> Result<Written> {
    let (mut held, mut held_bytes) = (Vec::new(), 0);
    let mut spill: Option<Spill> = None;
    let mut shells = 0;
    let mut crawl = client
        .crawl_into(plan, selection, cancel, on_progress, |answer| {
            shells += usize::from(matches!(answer.path, NodePath::Submodels { .. }));
            if let Some(spill) = &spill {
                // A spill that is gone failed to write, and has cancelled the crawl.
                let _ = spill.answers.send(Kept::Answer(answer));
                return;
            }
            held_bytes += answer.raw.size();
            held.push(answer);
            if held_bytes > to.held_limit {
                on_spill();
                let held = std::mem::take(&mut held);
                spill = Some(Spill::start(held, &plan.plant, to, cancel));
            }
        })
        .await;
    let exported = match spill {
        None if crawl.cancelled && !to.write_if_cancelled => None,
        None => {
            crawl.fetched = held;
            let exported = export(&crawl, to.format, to.maker, to.out)?;
            crawl.fetched = Vec::new(); // the answers are written: no need to hold them
            Some(exported)
        }
        Some(spill) => {
            let _ = spill.answers.send(Kept::Ended(crawl));
            let written;
            (crawl, written) = spill.written.await.map_err(Error::stopped)??;
            written
        }
    };
    Ok(Written {
        crawl,
        exported,
        shells,
    })
}

/// What the crawl hands a spill: each answer, then the crawl as it ended.
enum Kept {
    Answer(Fetched),
    Ended(Crawl),
}

/// Answers on their way to the spill: few, so that a store slower than the crawl slows
/// the crawl down instead of letting answers pile up in memory.
const SPILL_QUEUE: usize = 64;

/// A crawl going on through a temporary snapshot store beside the output (not in
/// `$TMPDIR`, often in memory itself), on a thread of its own that then writes the
/// export.
struct Spill {
    answers: SyncSender<Kept>,
    /// The crawl as it ended, without its answers, and what was written.
    written: JoinHandle<Result<(Crawl, Option<Exported>)>>,
}

impl Spill {
    fn start(held: Vec<Fetched>, plant: &str, to: ToFile<'_>, cancel: &CancellationToken) -> Spill {
        let (answers, kept) = sync_channel(SPILL_QUEUE);
        let (plant, out, cancel) = (plant.to_owned(), to.out.to_owned(), cancel.clone());
        let (format, maker, write_if_cancelled) =
            (to.format, to.maker.to_owned(), to.write_if_cancelled);
        let written = tokio::task::spawn_blocking(move || {
            let written = (|| {
                let dir = spill_dir(&out)?;
                let mut store = Store::open(&dir.path().join("crawl.sqlite3"), Access::Create)?;
                let (crawl, id) = keep_in(&mut store, held, &kept, &maker, &plant)?;
                if crawl.cancelled && !write_if_cancelled {
                    return Ok((crawl, None));
                }
                let exported = store.export_crawled(id, &crawl, format, &out)?;
                Ok((crawl, Some(exported)))
            })();
            if written.is_err() {
                cancel.cancel(); // nothing more is fetched to be lost
            }
            written
        });
        Spill { answers, written }
    }
}

/// Writes `held`, then the rest of the crawl's answers, into a new snapshot of `store`;
/// returns the crawl as it ended and the snapshot's id.
fn keep_in(
    store: &mut Store,
    held: Vec<Fetched>,
    kept: &Receiver<Kept>,
    maker: &str,
    plant: &str,
) -> Result<(Crawl, i64)> {
    let mut writer = store.begin(maker, plant, SystemTime::now())?;
    for answer in held {
        writer.answer(answer)?;
    }
    let crawl = loop {
        match kept.recv() {
            Ok(Kept::Answer(answer)) => writer.answer(answer)?,
            Ok(Kept::Ended(crawl)) => break crawl,
            Err(_) => return Err(Error::Interrupted), // the crawl went away
        }
    };
    let info = writer.finish_crawl(&crawl)?;
    Ok((crawl, info.id))
}

/// A folder beside `out` for the temporary store, removed with everything in it;
/// in the system's temporary folder when `out` is a device or pipe (never in `/dev`).
fn spill_dir(out: &Path) -> Result<tempfile::TempDir> {
    let temp = std::env::temp_dir();
    let device = std::fs::metadata(out).is_ok_and(|m| !m.is_file());
    let beside = match out.parent() {
        _ if device => &temp,
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    tempfile::Builder::new()
        .prefix(".aasmd-crawl-")
        .tempdir_in(beside)
        .map_err(|source| {
            Error::File(FileError {
                action: "make a temporary folder in",
                path: beside.to_owned(),
                source,
            })
        })
}
