//! Where the app's preferences live: a tauri-plugin-store store (`preferences.json` in
//! the app's data folder). What they mean is `aas_app::Preferences`; the page reaches
//! them only through the app's own commands, so it is granted no store permission.

use aas_app::{Preferences, ProfileStore, PREFERENCES_FILE};
use tauri::{AppHandle, Manager};
use tauri_plugin_store::StoreExt;

use crate::error::IpcError;

/// The stored preferences. The plugin starts a damaged file as an empty store, and
/// `Preferences::read` takes what is valid of the rest: a start never fails on it.
pub fn load(app: &AppHandle) -> Result<Preferences, IpcError> {
    let store = app.store(PREFERENCES_FILE).map_err(store_failed)?;
    Ok(Preferences::read(|key| store.get(key)))
}

pub fn save(app: &AppHandle, preferences: &Preferences) -> Result<(), IpcError> {
    let store = app.store(PREFERENCES_FILE).map_err(store_failed)?;
    for (key, value) in preferences.entries() {
        store.set(key, value);
    }
    store.save().map_err(store_failed)
}

/// At start, what earlier versions kept elsewhere: the last profile moves out of the
/// profiles' settings file; the webview's own storage (their theme and views) is
/// emptied once, since the app keeps nothing there now and the page never reads it.
pub fn migrate(app: &AppHandle) -> Result<(), IpcError> {
    let mut preferences = load(app)?;
    let mut changed = preferences.take_last_profile_from(&ProfileStore::app_default()?)?;
    if !preferences.web_storage_cleared {
        if let Some(window) = app.get_webview_window("main") {
            window
                .clear_all_browsing_data()
                .map_err(|e| IpcError::local(format!("cannot empty the webview's storage: {e}")))?;
            preferences.web_storage_cleared = true;
            changed = true;
        }
    }
    if changed {
        save(app, &preferences)?;
    }
    Ok(())
}

fn store_failed(e: tauri_plugin_store::Error) -> IpcError {
    IpcError::local(format!("preferences: {e}"))
}
