//! "Load everything" (a crawl of the plant with progress and Cancel), the export of
//! what it loaded or of what the user ticked, and "Show in folder" for the file
//! written. Paths come from the save dialog only: the webview never names one.

use std::path::PathBuf;

use aas_client::{export, Crawl, CrawlPlan, Format, Pick, Progress, Selection};
use aas_model::AssetType;
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, State};
use tokio_util::sync::CancellationToken;

use crate::error::IpcError;
use crate::save_dialog::ask_save_path;
use crate::state::AppState;

#[derive(Debug, Serialize)]
pub struct LoadSummary {
    requests: usize,
    failures: Vec<String>,
    cancelled: bool,
}

impl LoadSummary {
    fn of(crawl: &Crawl) -> Self {
        LoadSummary {
            requests: crawl.fetched.len() + crawl.failures.len(),
            failures: crawl
                .failures
                .iter()
                .map(|f| format!("{}: {}", f.url, f.message))
                .collect(),
            cancelled: crawl.cancelled,
        }
    }
}

/// What an export did: where it wrote (none when cancelled) and what it fetched.
#[derive(Debug, Serialize)]
pub struct ExportSummary {
    path: Option<String>,
    bytes: u64,
    loaded: LoadSummary,
}

impl ExportSummary {
    /// The user cancelled: no file was written.
    fn unwritten(loaded: LoadSummary) -> Self {
        ExportSummary {
            path: None,
            bytes: 0,
            loaded,
        }
    }
}

#[tauri::command]
pub async fn load_everything(
    state: State<'_, AppState>,
    plant: String,
    asset_types: Vec<String>,
    on_progress: Channel<Progress>,
) -> Result<LoadSummary, IpcError> {
    let plan = plan(plant, &asset_types)?;
    let crawl = crawl(&state, &plan, &Selection::everything(), &on_progress).await;
    let summary = LoadSummary::of(&crawl);
    *lock(&state.loaded) = Some(crawl);
    Ok(summary)
}

#[tauri::command]
pub fn cancel_loading(state: State<'_, AppState>) {
    if let Some(cancel) = lock(&state.loading).take() {
        cancel.cancel();
    }
}

/// Asks where to save, then writes what "load everything" loaded; `None` when the
/// user cancelled the dialog.
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
    let Some(path) = ask_where(&app, format).await? else {
        return Ok(None);
    };
    let loaded = lock(&state.loaded);
    let crawl = loaded
        .as_ref()
        .ok_or_else(|| IpcError::bad_request("nothing is loaded"))?;
    export(crawl, format, &state.session().profile.name, &path)?;
    *lock(&state.last_export) = Some(path.clone());
    Ok(Some(path.display().to_string()))
}

/// Asks where to save, fetches the ticked shells and submodels (progress on
/// `on_progress`, Cancel as for "load everything"), then writes them. Nothing is
/// written when the user cancels the dialog or the fetching.
#[tauri::command]
pub async fn export_selection(
    app: AppHandle,
    state: State<'_, AppState>,
    plant: String,
    asset_types: Vec<String>,
    picks: Vec<Pick>,
    format: String,
    on_progress: Channel<Progress>,
) -> Result<ExportSummary, IpcError> {
    let format: Format = format.parse().map_err(IpcError::bad_request)?;
    if picks.is_empty() {
        return Err(IpcError::bad_request("nothing is ticked in the tree"));
    }
    let plan = plan(plant, &asset_types)?;
    let selection = Selection::from(Some(picks));
    let Some(path) = ask_where(&app, format).await? else {
        let nothing = LoadSummary {
            requests: 0,
            failures: Vec::new(),
            cancelled: true,
        };
        return Ok(ExportSummary::unwritten(nothing));
    };
    let crawl = crawl(&state, &plan, &selection, &on_progress).await;
    let loaded = LoadSummary::of(&crawl);
    if crawl.cancelled {
        return Ok(ExportSummary::unwritten(loaded));
    }
    let bytes = export(&crawl, format, &state.session().profile.name, &path)?;
    *lock(&state.last_export) = Some(path.clone());
    Ok(ExportSummary {
        path: Some(path.display().to_string()),
        bytes,
        loaded,
    })
}

/// Shows the last exported file in the system's file manager.
#[tauri::command]
pub fn reveal_export(state: State<'_, AppState>) -> Result<(), IpcError> {
    let path = lock(&state.last_export)
        .clone()
        .ok_or_else(|| IpcError::bad_request("nothing was exported yet"))?;
    tauri_plugin_opener::reveal_item_in_dir(&path)
        .map_err(|e| IpcError::bad_request(format!("cannot show {}: {e}", path.display())))
}

fn plan(plant: String, asset_types: &[String]) -> Result<CrawlPlan, IpcError> {
    let asset_types = asset_types
        .iter()
        .map(|t| t.parse::<AssetType>())
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CrawlPlan::new(plant, asset_types))
}

/// Runs one crawl at a time per window, cancellable through [`cancel_loading`].
async fn crawl(
    state: &AppState,
    plan: &CrawlPlan,
    selection: &Selection,
    on_progress: &Channel<Progress>,
) -> Crawl {
    let cancel = CancellationToken::new();
    *lock(&state.loading) = Some(cancel.clone());
    let session = state.session();
    let crawl = session
        .client
        .crawl_selection(plan, selection, &cancel, |p| {
            // The window may be gone; the crawl need not care.
            let _ = on_progress.send(*p);
        })
        .await;
    lock(&state.loading).take();
    crawl
}

async fn ask_where(app: &AppHandle, format: Format) -> Result<Option<PathBuf>, IpcError> {
    let (name, extension) = match format {
        Format::Raw => ("aas-raw-bundle.json", "json"),
        Format::Env => ("aas-environment.json", "json"),
        Format::Aasx => ("aas-environment.aasx", "aasx"),
        Format::Csv => ("aas-properties.csv", "csv"),
    };
    ask_save_path(app, name, extension).await
}

/// A poisoned lock only means another command panicked; the data is still usable.
fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
