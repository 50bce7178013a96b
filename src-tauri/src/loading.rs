//! "Load everything" (a crawl of the plant with progress and Cancel) and the export of
//! what it loaded, through the save dialog: the webview never names a file path.

use aas_client::{export, CrawlPlan, Format, Progress};
use aas_model::AssetType;
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt;
use tokio_util::sync::CancellationToken;

use crate::error::IpcError;
use crate::state::AppState;

/// Requests in flight during "load everything".
const CONCURRENCY: usize = 8;

#[derive(Debug, Serialize)]
pub struct LoadSummary {
    requests: usize,
    failures: Vec<String>,
    cancelled: bool,
}

#[tauri::command]
pub async fn load_everything(
    state: State<'_, AppState>,
    plant: String,
    asset_types: Vec<String>,
    on_progress: Channel<Progress>,
) -> Result<LoadSummary, IpcError> {
    let asset_types = asset_types
        .iter()
        .map(|t| t.parse::<AssetType>())
        .collect::<Result<Vec<_>, _>>()?;
    let cancel = CancellationToken::new();
    *lock(&state.loading) = Some(cancel.clone());
    let plan = CrawlPlan {
        plant,
        asset_types,
        concurrency: CONCURRENCY,
    };
    let session = state.session();
    let crawl = session
        .client
        .crawl(&plan, &cancel, |p| {
            // The window may be gone; the crawl need not care.
            let _ = on_progress.send(*p);
        })
        .await;
    lock(&state.loading).take();
    let summary = LoadSummary {
        requests: crawl.fetched.len() + crawl.failures.len(),
        failures: crawl
            .failures
            .iter()
            .map(|f| format!("{}: {}", f.url, f.message))
            .collect(),
        cancelled: crawl.cancelled,
    };
    *lock(&state.loaded) = Some(crawl);
    Ok(summary)
}

#[tauri::command]
pub fn cancel_loading(state: State<'_, AppState>) {
    if let Some(cancel) = lock(&state.loading).take() {
        cancel.cancel();
    }
}

/// Asks where to save, then writes what was loaded; `None` when the user cancelled.
#[tauri::command]
pub async fn export_loaded(
    app: AppHandle,
    state: State<'_, AppState>,
    format: String,
) -> Result<Option<String>, IpcError> {
    let format: Format = format.parse().map_err(IpcError::bad_request)?;
    if lock(&state.loaded).is_none() {
        return Err(IpcError::bad_request(
            "nothing is loaded yet: use Load everything first",
        ));
    }
    let (name, extension) = match format {
        Format::Raw => ("aas-raw-bundle.json", "json"),
        Format::Env => ("aas-environment.json", "json"),
        Format::Aasx => ("aas-environment.aasx", "aasx"),
        Format::Csv => ("aas-properties.csv", "csv"),
    };
    let dialog = app
        .dialog()
        .file()
        .set_file_name(name)
        .add_filter(extension.to_uppercase(), &[extension]);
    // The dialog blocks until answered: keep it off the async workers.
    let chosen = tokio::task::spawn_blocking(move || dialog.blocking_save_file())
        .await
        .map_err(|e| IpcError::bad_request(e.to_string()))?;
    let Some(path) = chosen.and_then(|p| p.into_path().ok()) else {
        return Ok(None);
    };
    let loaded = lock(&state.loaded);
    let crawl = loaded
        .as_ref()
        .ok_or_else(|| IpcError::bad_request("nothing is loaded"))?;
    export(crawl, format, &state.session().profile.name, &path)?;
    Ok(Some(path.display().to_string()))
}

/// A poisoned lock only means another command panicked; the data is still usable.
fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
