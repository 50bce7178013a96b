//! The native file dialogs, save and open: the only ways a file path reaches the app's
//! commands (the webview never names one).

use std::path::PathBuf;

use aas_app::SaveAs;
use tauri::AppHandle;
use tauri_plugin_dialog::{DialogExt, FilePath};

/// Names a folder to save into without asking (for tests that drive the window); only
/// debug builds read it, so an installed app always asks.
#[cfg(debug_assertions)]
const SAVE_DIR_VARIABLE: &str = "AAS_BROWSER_SAVE_DIR";

/// Names the file to open without asking (for tests that drive the window); only debug
/// builds read it, so an installed app always asks.
#[cfg(debug_assertions)]
const OPEN_FILE_VARIABLE: &str = "AAS_BROWSER_OPEN_FILE";

/// Asks where to save `offer.name`, offering files ending in its extension; `None`
/// when the user cancelled.
pub async fn ask_save_path(app: &AppHandle, offer: SaveAs) -> aas_app::Result<Option<PathBuf>> {
    // Set by whoever starts the app (the end-to-end tests), never by the webview: the
    // native dialog cannot be driven through WebDriver.
    #[cfg(debug_assertions)]
    if let Some(dir) = std::env::var_os(SAVE_DIR_VARIABLE) {
        return Ok(Some(PathBuf::from(dir).join(offer.name)));
    }
    let dialog = app
        .dialog()
        .file()
        .set_file_name(&offer.name)
        .add_filter(offer.extension.to_uppercase(), &[offer.extension]);
    // The dialog blocks until answered: keep it off the async workers.
    let chosen = tokio::task::spawn_blocking(move || dialog.blocking_save_file()).await;
    chosen_path(chosen, "save")
}

/// Asks for a file to open, offering those ending in one of `extensions` (named `kind`
/// in the dialog's filter); `None` when the user cancelled.
pub async fn ask_open_path(
    app: &AppHandle,
    kind: &str,
    extensions: &[&str],
) -> aas_app::Result<Option<PathBuf>> {
    // As for the save dialog: set by whoever starts the app, never by the webview.
    #[cfg(debug_assertions)]
    if let Some(file) = std::env::var_os(OPEN_FILE_VARIABLE) {
        return Ok(Some(PathBuf::from(file)));
    }
    let dialog = app.dialog().file().add_filter(kind, extensions);
    let chosen = tokio::task::spawn_blocking(move || dialog.blocking_pick_file()).await;
    chosen_path(chosen, "open")
}

/// The path a dialog answered with (`None`: cancelled), or why it could not be shown.
fn chosen_path(
    chosen: Result<Option<FilePath>, tokio::task::JoinError>,
    which: &str,
) -> aas_app::Result<Option<PathBuf>> {
    let chosen =
        chosen.map_err(|e| aas_app::Error::Internal(format!("the {which} dialog failed: {e}")))?;
    Ok(chosen.and_then(|p| p.into_path().ok()))
}
