//! Where the app's preferences live: a tauri-plugin-store store (`preferences.json` in
//! the app's data folder). What they mean is `aas_app::Preferences`; the page reaches
//! them only through the app's own commands, so it is granted no store permission.

use aas_app::{Preferences, ProfileStore, PREFERENCES_FILE};
use tauri::AppHandle;
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

/// Once per start: the last profile moves out of the profiles' settings file, where
/// earlier versions kept it.
pub fn migrate(app: &AppHandle) -> Result<(), IpcError> {
    let mut preferences = load(app)?;
    if preferences.take_last_profile_from(&ProfileStore::app_default()?)? {
        save(app, &preferences)?;
    }
    Ok(())
}

fn store_failed(e: tauri_plugin_store::Error) -> IpcError {
    IpcError::local(format!("preferences: {e}"))
}
