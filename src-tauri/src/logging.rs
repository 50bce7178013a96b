//! Where the app logs: stderr and a rotated file in its data folder (`logs/`), at the
//! level `AAS_BROWSER_LOG` names (default `warn`).

use aas_app::RecentErrors;
use tracing_subscriber::EnvFilter;

pub fn start() -> RecentErrors {
    let filter =
        || EnvFilter::try_from_env("AAS_BROWSER_LOG").unwrap_or_else(|_| EnvFilter::new("warn"));
    let started =
        aas_app::app_data_dir().and_then(|dir| aas_app::start_logging(&dir.join("logs"), filter()));
    started.unwrap_or_else(|e| {
        // No log file (no data folder, a read-only disk): stderr still works.
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_env_filter(filter())
            .init();
        tracing::warn!("no log file: {e}");
        RecentErrors::default()
    })
}
