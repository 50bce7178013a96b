//! The app's log: a file in its local data folder (an app started from the desktop menu has
//! no terminal), rotated daily with the last few days kept, and the last warnings and
//! errors in memory for "Copy diagnostics". Nothing logged holds a secret or a token:
//! secrets print as `[redacted]` and URLs carry none (a test searches the files).

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

use crate::{Error, Result};

/// Days of log files kept.
const KEPT_FILES: usize = 7;
/// Warnings and errors kept for a bug report.
const KEPT_ERRORS: usize = 20;

/// The last warnings and errors, newest last.
#[derive(Debug, Clone, Default)]
pub struct RecentErrors(Arc<Mutex<VecDeque<String>>>);

impl RecentErrors {
    pub fn lines(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect()
    }
}

impl<S: Subscriber> Layer<S> for RecentErrors {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        let level = *event.metadata().level();
        if level > Level::WARN {
            return;
        }
        let mut line = format!("{level} {}:", event.metadata().target());
        event.record(&mut Fields(&mut line));
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() == KEPT_ERRORS {
            kept.pop_front();
        }
        kept.push_back(line);
    }
}

/// Writes an event's fields as ` name=value`, the message bare.
struct Fields<'s>(&'s mut String);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let _ = match field.name() {
            "message" => write!(self.0, " {value:?}"),
            name => write!(self.0, " {name}={value:?}"),
        };
    }
}

/// Logs to stderr and to `<dir>/aas-browser.<date>.log` at the level `filter` names
/// (e.g. "warn", "aas_client=debug"), and keeps the last warnings in the
/// [`RecentErrors`] returned. Call once per process.
pub fn start_logging(dir: &Path, filter: EnvFilter) -> Result<RecentErrors> {
    let file = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix("aas-browser")
        .filename_suffix("log")
        .max_log_files(KEPT_FILES)
        .build(dir)
        .map_err(|source| Error::NoLog {
            path: dir.to_owned(),
            source,
        })?;
    let recent = RecentErrors::default();
    tracing_subscriber::registry()
        .with(filter)
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(
            tracing_subscriber::fmt::layer()
                .with_ansi(false)
                .with_writer(file),
        )
        .with(recent.clone())
        .try_init()
        .map_err(|e| Error::internal("logging is already set up", e))?;
    Ok(recent)
}

/// The desktop app's logging: [`start_logging`] into the local data folder's `logs/` at the
/// level the environment variable `level_var` names (default `warn`); stderr alone when
/// there can be no log file (no data folder, a read-only disk).
pub fn start_app_logging(level_var: &str) -> RecentErrors {
    let filter = || EnvFilter::try_from_env(level_var).unwrap_or_else(|_| EnvFilter::new("warn"));
    let started =
        crate::app_local_data_dir().and_then(|dir| start_logging(&dir.join("logs"), filter()));
    started.unwrap_or_else(|e| {
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_env_filter(filter())
            .init();
        tracing::warn!("no log file: {e}");
        RecentErrors::default()
    })
}

/// Logs (to the log file and stderr: a Windows release build has no console) that the
/// app could not start or stopped with `error`; the same in words for a message box,
/// with where the log is.
pub fn start_failed(error: &dyn std::fmt::Display) -> String {
    tracing::error!(error = %error, "the app could not start");
    let logs = crate::app_local_data_dir().map(|dir| dir.join("logs").display().to_string());
    format!(
        "The app could not start: {error}\n\nThe log: {}",
        logs.unwrap_or_default()
    )
}
