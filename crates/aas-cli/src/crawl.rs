use std::cell::Cell;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use aas_client::{export, Client, Crawl, CrawlPlan, Format, Progress};
use indicatif::{ProgressBar, ProgressStyle};
use tokio_util::sync::CancellationToken;

use crate::error::CliError;

/// Crawls, exports, and prints a summary on stderr.
pub async fn run(
    client: Client,
    plan: CrawlPlan,
    format: Format,
    out: &Path,
) -> Result<(), CliError> {
    let client = Arc::new(client);
    let cancel = cancel_on_ctrl_c();
    let progress = CrawlProgress::new();
    let crawl = client.crawl(&plan, &cancel, |p| progress.show(p)).await;
    progress.finish();
    let bytes = export(&crawl, format, "aasmd", out)?;
    let shells = crawl
        .fetched
        .iter()
        .filter(|f| matches!(f.path, aas_client::NodePath::Submodels { .. }))
        .count();
    eprintln!(
        "aasmd: {} requests in {:.2}s: {shells} AAS, {} retries, {} failed; wrote {} ({bytes} bytes)",
        crawl.fetched.len() + crawl.failures.len(),
        took(&crawl),
        crawl.retries,
        crawl.failures.len(),
        out.display()
    );
    outcome(&crawl)
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
    was_offline: Cell<bool>,
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
            was_offline: Cell::new(false),
        }
    }

    pub(crate) fn show(&self, p: &Progress) {
        if p.offline != self.was_offline.replace(p.offline) {
            self.bar.suspend(|| {
                eprintln!(
                    "aasmd: {}",
                    if p.offline {
                        "offline: the server stopped answering; waiting for it (Ctrl-C stops)"
                    } else {
                        "online again: the crawl goes on"
                    }
                )
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

/// Names the failed nodes on stderr; `Err` when the crawl was interrupted or is partial.
pub(crate) fn outcome(crawl: &Crawl) -> Result<(), CliError> {
    for f in &crawl.failures {
        eprintln!("aasmd: failed: {}: {}", f.url, f.message);
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
