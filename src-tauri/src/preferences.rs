//! Where the app's preferences live: a tauri-plugin-store store (`preferences.json` in
//! the app's data folder), handed to aas-app, which owns what they mean. The page
//! reaches them only through the app's own commands, so it is granted no store
//! permission.

use std::sync::Arc;

use aas_app::{PreferenceStore, PREFERENCES_FILE};
use serde_json::Value;
use tauri::{AppHandle, Runtime};
use tauri_plugin_store::{Store, StoreExt};

/// The plugin's store of the preferences. The plugin starts a damaged file as an empty
/// store, and `aas_app::Preferences` takes what is valid of the rest: a start never
/// fails on it.
pub struct PluginStore<R: Runtime>(Arc<Store<R>>);

impl<R: Runtime> PluginStore<R> {
    pub fn open(app: &AppHandle<R>) -> Result<Self, tauri_plugin_store::Error> {
        Ok(PluginStore(app.store(PREFERENCES_FILE)?))
    }
}

impl<R: Runtime> std::fmt::Debug for PluginStore<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PluginStore(preferences.json)")
    }
}

impl<R: Runtime> PreferenceStore for PluginStore<R> {
    fn get(&self, key: &str) -> Option<Value> {
        self.0.get(key)
    }

    fn set(&self, key: &str, value: Value) {
        self.0.set(key, value);
    }

    fn save(&self) -> Result<(), aas_app::Cause> {
        Ok(self.0.save()?)
    }
}
