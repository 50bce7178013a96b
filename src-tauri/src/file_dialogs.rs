//! The native file dialogs, save and open: the only ways a file path reaches the app's
//! commands (the webview never names one).

use std::path::PathBuf;

use aas_app::SaveAs;
use tauri::AppHandle;
use tauri_plugin_dialog::{DialogExt, FilePath};

/// Asks where to save `offer.name()`, offering files ending in its extension; `None`
/// when the user cancelled.
pub async fn ask_save_path(app: &AppHandle, offer: SaveAs) -> aas_app::Result<Option<PathBuf>> {
    if let Some(path) = offer.preset() {
        return Ok(Some(path));
    }
    let dialog = app
        .dialog()
        .file()
        .set_file_name(offer.name())
        .add_filter(offer.extension.to_uppercase(), &[offer.extension]);
    // The dialog blocks until answered: keep it off the async workers.
    chosen_path(tokio::task::spawn_blocking(move || dialog.blocking_save_file()).await)
}

/// Asks for a file to open, offering those ending in one of `extensions` (named `kind`
/// in the dialog's filter); `None` when the user cancelled.
pub async fn ask_open_path(
    app: &AppHandle,
    kind: &str,
    extensions: &[&str],
) -> aas_app::Result<Option<PathBuf>> {
    if let Some(file) = aas_app::preset_open_file() {
        return Ok(Some(file));
    }
    let dialog = app.dialog().file().add_filter(kind, extensions);
    chosen_path(tokio::task::spawn_blocking(move || dialog.blocking_pick_file()).await)
}

/// The path a dialog answered with (`None`: cancelled), or why it could not be shown.
fn chosen_path(
    chosen: Result<Option<FilePath>, tokio::task::JoinError>,
) -> aas_app::Result<Option<PathBuf>> {
    let chosen =
        chosen.map_err(|e| aas_app::Error::Internal(format!("a file dialog failed: {e}")))?;
    Ok(chosen.and_then(|p| p.into_path().ok()))
}
