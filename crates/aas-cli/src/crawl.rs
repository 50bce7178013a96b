use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use aas_app::{crawl_to_file, CrawlSummary, ToFile, DEFAULT_HELD_BYTES, UNREADABLE_NAMED};
use aas_client::{Client, Crawl, CrawlPlan, Progress};
use aas_export::Format;
use aas_source::Selection;
use indicatif::{ProgressBar, ProgressStyle};
use tokio_util::sync::CancellationToken;

use crate::error::CliError;

/// Crawls, exports, and prints a summary on stderr. Answers are held in memory up to
/// `AASMD_CRAWL_MEMORY_MB` (default [`DEFAULT_HELD_BYTES`]); past that the rest goes
/// through a temporary snapshot store beside the output ([`aas_app::crawl_to_file`]).
pub async fn run(
    client: Client,
    plan: CrawlPlan,
    format: Format,
    out: &Path,
) -> Result<(), CliError> {
    let client = Arc::new(client);
    let cancel = cancel_on_ctrl_c();
    let progress = CrawlProgress::new();
    let held_limit = held_limit();
    let to = ToFile {
        format,
        out,
        maker: "aasmd",
        held_limit,
        write_if_cancelled: true,
    };
    let written = crawl_to_file(
        &client,
        &plan,
        &Selection::everything(),
        to,
        &cancel,
        |p| progress.show(p),
        || {
            progress.say(&format!(
                "past {} MiB of answers: the rest goes through a temporary store beside the output",
                held_limit >> 20
            ))
        },
    )
    .await;
    progress.finish();
    let written = written?;
    let crawl = &written.crawl;
    eprintln!(
        "aasmd: {} requests in {:.2}s: {} AAS, {} retries, {} failed, {} unreadable parts; wrote {} ({} bytes)",
        crawl.answers + crawl.failures.len(),
        took(crawl),
        written.shells,
        crawl.retries,
        crawl.failures.len(),
        crawl.unreadable.len(),
        out.display(),
        written.exported.as_ref().map_or(0, |e| e.bytes)
    );
    if let Some(conversion) = written.exported.and_then(|e| e.conversion) {
        eprintln!("aasmd: {}", conversion.summary());
    }
    outcome(&CrawlSummary::of(crawl))
}

/// The bytes of answers a crawl may hold: `AASMD_CRAWL_MEMORY_MB`, else the default.
fn held_limit() -> u64 {
    std::env::var("AASMD_CRAWL_MEMORY_MB")
        .ok()
        .and_then(|mb| mb.trim().parse::<u64>().ok())
        .map_or(DEFAULT_HELD_BYTES, |mb| mb.saturating_mul(1024 * 1024))
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

/// Names the failed nodes and the unreadable parts on stderr; `Err` when the crawl was
/// interrupted or is partial.
pub(crate) fn outcome(summary: &CrawlSummary) -> Result<(), CliError> {
    for failure in &summary.failures {
        eprintln!("aasmd: failed: {failure}");
    }
    for part in &summary.unreadable {
        eprintln!("aasmd: unreadable: {part} (kept as sent)");
    }
    if let Some(more) = summary.unreadable_count.checked_sub(UNREADABLE_NAMED) {
        if more > 0 {
            eprintln!("aasmd: … and {more} more unreadable parts (the raw export's manifest names them all)");
        }
    }
    if summary.cancelled {
        Err(CliError::Interrupted)
    } else if summary.is_partial() {
        let mut why = vec![format!("{} nodes failed", summary.failed_nodes())];
        if summary.node_limit_reached {
            why.push("node limit reached".into());
        }
        Err(CliError::Partial(why.join(", ")))
    } else {
        Ok(())
    }
}
