//! `aasmd snapshot copy`: aas-app's copy between two stores, with a progress bar and a
//! line per snapshot on stderr.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use aas_app::SnapshotStore;
use aas_snapshot::{Copied, CopyEvent, Outcome, Pick, SnapshotInfo};
use indicatif::{ProgressBar, ProgressStyle};

use super::field;
use crate::crawl::cancel_on_ctrl_c;
use crate::error::CliError;

pub async fn run(
    from: PathBuf,
    to: PathBuf,
    ids: Vec<i64>,
    plant: Option<String>,
) -> Result<(), CliError> {
    let target = aas_snapshot::store_name(&to);
    let pick = match ids.is_empty() {
        true => Pick::All { plant },
        false => Pick::Ids(ids),
    };
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} answers, {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    let shown = bar.clone();
    let mut started = Instant::now();
    let copied = SnapshotStore::at(from)
        .copy_to(
            &SnapshotStore::at(to),
            pick,
            &cancel_on_ctrl_c(),
            move |event| match event {
                CopyEvent::Starting(s) => {
                    started = Instant::now();
                    shown.reset();
                    shown.set_length(s.nodes);
                    shown.set_message(format!("copying snapshot {}", s.id));
                }
                CopyEvent::Written { done, .. } => shown.set_position(done),
                CopyEvent::Ended(copied) => {
                    let line = said(copied, &target, started.elapsed());
                    shown.suspend(|| eprintln!("aasmd: {line}"));
                }
            },
        )
        .await;
    bar.finish_and_clear();
    let copied = copied?;
    let written = (copied.iter())
        .filter(|c| matches!(c.outcome, Outcome::Copied { .. }))
        .count();
    eprintln!(
        "aasmd: {written} copied, {} left out",
        copied.len() - written
    );
    Ok(())
}

/// The line that says what became of one snapshot.
fn said(copied: &Copied, target: &str, took: Duration) -> String {
    let s = &copied.from;
    let what = format!(
        "snapshot {} of {} from {} ({}, {})",
        s.id,
        field(&s.plant),
        field(&s.source),
        s.taken_at,
        state(s)
    );
    match &copied.outcome {
        Outcome::Copied { to, bodies, bytes } => format!(
            "{what}: copied into {target} as snapshot {}: {} answers, {} AAS, {} unreadable parts, {bodies} new bodies ({:.1} MB) in {:.2}s",
            to.id,
            to.nodes,
            to.shells,
            to.unreadable,
            *bytes as f64 / 1e6,
            took.as_secs_f64()
        ),
        Outcome::AlreadyThere(id) => {
            format!("{what}: already in {target} as snapshot {id}, left out")
        }
        Outcome::BeingTaken => format!(
            "{what}: being taken (or left so by a take that stopped), left out: copy it once that take, or the next, has ended"
        ),
    }
}

fn state(s: &SnapshotInfo) -> &'static str {
    match s.complete {
        true => "complete",
        false => "partial",
    }
}
