use std::cell::Cell;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use aas_client::{export, Client, CrawlPlan, Format};
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
    let cancel = CancellationToken::new();
    let on_ctrl_c = cancel.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_ctrl_c.cancel();
        }
    });
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{bar:30}] {pos}/{len} requests, {msg} ({elapsed})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    let was_offline = Cell::new(false);
    let crawl = client
        .crawl(&plan, &cancel, |p| {
            // Said on a line of its own too: the bar is hidden when stderr is no terminal.
            if p.offline != was_offline.replace(p.offline) {
                bar.suspend(|| {
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
            bar.set_length(p.requests_known);
            bar.set_position(p.requests_done);
            bar.set_message(format!(
                "{:.1} MB, {} retries, {} failed",
                p.bytes as f64 / 1e6,
                p.retries,
                p.failures
            ));
        })
        .await;
    bar.finish_and_clear();
    let bytes = export(&crawl, format, "aasmd", out)?;
    let took = crawl
        .finished
        .duration_since(crawl.started)
        .unwrap_or_default()
        .as_secs_f64();
    let shells = crawl
        .fetched
        .iter()
        .filter(|f| matches!(f.path, aas_client::NodePath::Submodels { .. }))
        .count();
    eprintln!(
        "aasmd: {} requests in {took:.2}s: {shells} AAS, {} retries, {} failed; wrote {} ({bytes} bytes)",
        crawl.fetched.len() + crawl.failures.len(),
        crawl.retries,
        crawl.failures.len(),
        out.display()
    );
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
