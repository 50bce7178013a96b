//! The native file dialogs, save and open: the only ways a file path reaches the app's
//! commands (the webview never names one).

use std::path::PathBuf;

use aas_app::SaveAs;
use tauri::{AppHandle, Runtime};
use tauri_plugin_dialog::{DialogExt, FilePath};

/// Asks where to save `offer.name()`, offering files ending in its extension; `None`
/// when the user cancelled.
pub async fn ask_save_path<R: Runtime>(
    app: &AppHandle<R>,
    offer: SaveAs,
) -> aas_app::Result<Option<PathBuf>> {
    if let Some(dir) = preset("AAS_BROWSER_SAVE_DIR") {
        return Ok(Some(dir.join(offer.name())));
    }
    let mut dialog = app
        .dialog()
        .file()
        .set_file_name(offer.name())
        .add_filter(offer.extension.to_uppercase(), &[offer.extension]);
    if let Some(folder) = &offer.folder {
        dialog = dialog.set_directory(folder);
    }
    // The dialog blocks until answered: keep it off the async workers.
    chosen_path(tokio::task::spawn_blocking(move || dialog.blocking_save_file()).await)
}

/// Asks for a file to open, offering those ending in one of `extensions` (named `kind`
/// in the dialog's filter); `None` when the user cancelled.
pub async fn ask_open_path<R: Runtime>(
    app: &AppHandle<R>,
    kind: &str,
    extensions: &[&str],
) -> aas_app::Result<Option<PathBuf>> {
    if let Some(file) = preset("AAS_BROWSER_OPEN_FILE") {
        return Ok(Some(file));
    }
    let dialog = (app.dialog().file())
        .set_title(format!("Open {kind}"))
        .add_filter(kind, extensions);
    chosen_path(tokio::task::spawn_blocking(move || dialog.blocking_pick_file()).await)
}

/// The path a dialog answered with (`None`: cancelled), or why it could not be shown.
fn chosen_path(
    chosen: Result<Option<FilePath>, tokio::task::JoinError>,
) -> aas_app::Result<Option<PathBuf>> {
    let chosen = chosen.map_err(|e| aas_app::Error::internal("a file dialog failed", e))?;
    Ok(chosen.and_then(|p| p.into_path().ok()))
}

/// The answer a build for the end-to-end tests gives instead of a dialog (a native
/// dialog cannot be driven through WebDriver): the path the variable names, set by
/// whoever starts the app, never by the webview. Other builds always ask.
#[cfg(feature = "e2e-hooks")]
pub(crate) fn preset(variable: &str) -> Option<PathBuf> {
    std::env::var_os(variable).map(PathBuf::from)
}

#[cfg(not(feature = "e2e-hooks"))]
pub(crate) fn preset(_: &str) -> Option<PathBuf> {
    None
}
