use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use aas_client::{Client, Crawl, CrawlPlan, Fetched, NodePath, Progress, Selection};
use aas_export::{export, Format};
use aas_snapshot::{Access, Store};
use indicatif::{ProgressBar, ProgressStyle};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::error::CliError;

/// Answers held in memory before the crawl goes on through a temporary snapshot store
/// (MiB; `AASMD_CRAWL_MEMORY_MB`). Below it a crawl is as fast as it can be; above it
/// memory stays bounded, as for `snapshot take` (100,000 assets: 0.9 GB at the peak
/// instead of 3.7, in twice the time).
const DEFAULT_HELD_MB: u64 = 1024;

/// Crawls, exports, and prints a summary on stderr. Answers are held in memory up to
/// [`DEFAULT_HELD_MB`]; past that a thread of its own moves them into a temporary
/// snapshot store and keeps the rest there ([`Spill`]), and the export reads them back.
pub async fn run(
    client: Client,
    plan: CrawlPlan,
    format: Format,
    out: &Path,
) -> Result<(), CliError> {
    let client = Arc::new(client);
    let cancel = cancel_on_ctrl_c();
    let progress = CrawlProgress::new();
    let (mut held, mut held_bytes, limit) = (Vec::new(), 0, held_limit());
    let mut spill: Option<Spill> = None;
    let (mut answers, mut shells) = (0, 0);
    let mut crawl = client
        .crawl_into(
            &plan,
            &Selection::everything(),
            &cancel,
            |p| progress.show(p),
            |answer| {
                answers += 1;
                shells += usize::from(matches!(answer.path, NodePath::Submodels { .. }));
                if let Some(spill) = &spill {
                    // A spill that is gone failed to write, and has cancelled the crawl.
                    let _ = spill.answers.send(Kept::Answer(answer));
                    return;
                }
                held_bytes += answer.raw.size();
                held.push(answer);
                if held_bytes > limit {
                    progress.say(&format!(
                        "past {} MiB of answers: the rest goes through a temporary store beside the output",
                        limit >> 20
                    ));
                    let held = std::mem::take(&mut held);
                    spill = Some(Spill::start(held, &plan.plant, format, out, &cancel));
                }
            },
        )
        .await;
    progress.finish();
    let bytes = match spill {
        None => {
            crawl.fetched = held;
            export(&crawl, format, SOURCE, out)?
        }
        Some(spill) => {
            let _ = spill.answers.send(Kept::Ended(crawl));
            let written;
            (crawl, written) = spill.written.await.map_err(|_| CliError::Interrupted)??;
            written
        }
    };
    eprintln!(
        "aasmd: {} requests in {:.2}s: {shells} AAS, {} retries, {} failed, {} unreadable parts; wrote {} ({bytes} bytes)",
        answers + crawl.failures.len(),
        took(&crawl),
        crawl.retries,
        crawl.failures.len(),
        crawl.unreadable.len(),
        out.display()
    );
    outcome(&crawl)
}

/// What the crawl hands a spill: each answer, then the crawl as it ended.
enum Kept {
    Answer(Fetched),
    Ended(Crawl),
}

/// Answers on their way to the spill: few, so that a store slower than the crawl slows
/// the crawl down instead of letting answers pile up in memory.
const SPILL_QUEUE: usize = 64;

/// A crawl going on through a temporary snapshot store beside `out` (not in `$TMPDIR`,
/// often in memory itself), on a thread of its own that then writes the export.
struct Spill {
    answers: SyncSender<Kept>,
    /// The crawl as it ended, without its answers, and the bytes written.
    written: JoinHandle<Result<(Crawl, u64), CliError>>,
}

impl Spill {
    fn start(
        held: Vec<Fetched>,
        plant: &str,
        format: Format,
        out: &Path,
        cancel: &CancellationToken,
    ) -> Spill {
        let (answers, kept) = sync_channel(SPILL_QUEUE);
        let (plant, out, cancel) = (plant.to_owned(), out.to_owned(), cancel.clone());
        let written = tokio::task::spawn_blocking(move || {
            let written = (|| {
                let dir = spill_dir(&out)?;
                let mut store = Store::open(&dir.path().join("crawl.sqlite3"), Access::Create)?;
                let (crawl, id) = keep_in(&mut store, held, &kept, &plant)?;
                let bytes = store.export_crawled(id, &crawl, format, &out)?;
                Ok((crawl, bytes))
            })();
            if written.is_err() {
                cancel.cancel(); // nothing more is fetched to be lost
            }
            written
        });
        Spill { answers, written }
    }
}

/// Writes `held`, then the rest of the crawl's answers and its failures, into a new
/// snapshot of `store`; returns the crawl as it ended and the snapshot's id.
fn keep_in(
    store: &mut Store,
    held: Vec<Fetched>,
    kept: &Receiver<Kept>,
    plant: &str,
) -> Result<(Crawl, i64), CliError> {
    let mut writer = store.begin(SOURCE, plant, SystemTime::now())?;
    for answer in held {
        writer.answer(answer)?;
    }
    let crawl = loop {
        match kept.recv() {
            Ok(Kept::Answer(answer)) => writer.answer(answer)?,
            Ok(Kept::Ended(crawl)) => break crawl,
            Err(_) => return Err(CliError::Interrupted), // the crawl went away
        }
    };
    for failure in &crawl.failures {
        writer.failure(failure)?;
    }
    let info = writer.finish(!crawl.cancelled && !crawl.is_partial())?;
    Ok((crawl, info.id))
}

/// The name the export gives its maker (the raw bundle's manifest), either way.
const SOURCE: &str = "aasmd";

/// The bytes of answers a crawl may hold: `AASMD_CRAWL_MEMORY_MB`, else the default.
fn held_limit() -> u64 {
    std::env::var("AASMD_CRAWL_MEMORY_MB")
        .ok()
        .and_then(|mb| mb.trim().parse().ok())
        .unwrap_or(DEFAULT_HELD_MB)
        .saturating_mul(1024 * 1024)
}

/// A folder beside `out` for the temporary store, removed with everything in it;
/// in the system's temporary folder when `out` is a device or pipe (never in `/dev`).
fn spill_dir(out: &Path) -> Result<tempfile::TempDir, CliError> {
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
            CliError::Client(aas_client::Error::Io {
                action: "make a temporary folder in",
                path: beside.to_owned(),
                source,
            })
        })
}

/// A token cancelled by Ctrl-C.
pub(crate) fn cancel_on_ctrl_c() -> CancellationToken {
    let cancel = CancellationToken::new();
    let on_ctrl_c = cancel.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_ctrl_c.cancel();
        }
    });
    cancel
}

/// Seconds the crawl took.
pub(crate) fn took(crawl: &Crawl) -> f64 {
    crawl
        .finished
        .duration_since(crawl.started)
        .unwrap_or_default()
        .as_secs_f64()
}

/// A crawl's progress bar on stderr, with the service's going offline and coming back
/// said on lines of their own (the bar is hidden when stderr is no terminal).
pub(crate) struct CrawlProgress {
    bar: ProgressBar,
    was_offline: AtomicBool,
}

impl CrawlProgress {
    pub(crate) fn new() -> Self {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{bar:30}] {pos}/{len} requests, {msg} ({elapsed})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        CrawlProgress {
            bar,
            was_offline: AtomicBool::new(false),
        }
    }

    /// A line of its own on stderr, above the bar.
    pub(crate) fn say(&self, line: &str) {
        self.bar.suspend(|| eprintln!("aasmd: {line}"));
    }

    pub(crate) fn show(&self, p: &Progress) {
        if p.offline != self.was_offline.swap(p.offline, Ordering::Relaxed) {
            self.say(if p.offline {
                "offline: the server stopped answering; waiting for it (Ctrl-C stops)"
            } else {
                "online again: the crawl goes on"
            });
        }
        self.bar.set_length(p.requests_known);
        self.bar.set_position(p.requests_done);
        self.bar.set_message(format!(
            "{:.1} MB, {} retries, {} failed",
            p.bytes as f64 / 1e6,
            p.retries,
            p.failures
        ));
    }

    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Unreadable parts named one by one on stderr, at most; the raw export's manifest
/// names them all.
const UNREADABLE_SHOWN: usize = 20;

/// Names the failed nodes and the unreadable parts on stderr; `Err` when the crawl was
/// interrupted or is partial.
pub(crate) fn outcome(crawl: &Crawl) -> Result<(), CliError> {
    for f in &crawl.failures {
        eprintln!("aasmd: failed: {}: {}", f.url, f.message);
    }
    for part in crawl.unreadable.iter().take(UNREADABLE_SHOWN) {
        eprintln!("aasmd: unreadable: {part} (kept as sent)");
    }
    if let Some(more) = crawl.unreadable.len().checked_sub(UNREADABLE_SHOWN) {
        if more > 0 {
            eprintln!("aasmd: … and {more} more unreadable parts (the raw export's manifest names them all)");
        }
    }
    if crawl.node_limit_reached {
        eprintln!(
            "aasmd: the plant has more than {} nodes (--max-nodes); those past it were not fetched",
            crawl.plan.max_nodes
        );
    }
    if crawl.cancelled {
        Err(CliError::Interrupted)
    } else if crawl.is_partial() {
        let mut why = vec![format!("{} nodes failed", crawl.failures.len())];
        if crawl.node_limit_reached {
            why.push("node limit reached".into());
        }
        Err(CliError::Partial(why.join(", ")))
    } else {
        Ok(())
    }
}
