//! The app's own preferences, apart from the profiles: theme, last profile, the plant
//! and asset type last shown per profile, the export format, how many snapshots to
//! keep. The desktop shell keeps
//! them in a tauri-plugin-store store ([`PREFERENCES_FILE`]); this module reads them
//! key by key, so a damaged or foreign value falls back to its default and never stops
//! the app from starting, and checks every change the page asks for.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::preference_bounds::check_name;
use crate::table_preferences::{
    apply_column_set, apply_table, within_bounds, ColumnSets, TableChange, TableViews,
};
use crate::{app_data_dir, Error, ProfileStore, Result, DEFAULT_KEEP};

/// The store's file, beside the profiles' `settings.json` (the plugin's default name
/// would be that very file).
pub const PREFERENCES_FILE: &str = "preferences.json";

/// Where preferences are kept, key by key: the desktop shell hands its
/// tauri-plugin-store store; without one they live in memory.
pub trait PreferenceStore: Send + Sync + std::fmt::Debug {
    fn get(&self, key: &str) -> Option<Value>;
    fn set(&self, key: &str, value: Value);
    /// Writes what was set; the error is why it could not.
    fn save(&self) -> std::result::Result<(), crate::error::Cause>;
}

/// Preferences of a program without a file of its own (tests, a front end that keeps
/// none).
#[derive(Debug, Default)]
pub(crate) struct InMemory(std::sync::Mutex<BTreeMap<String, Value>>);

impl PreferenceStore for InMemory {
    fn get(&self, key: &str) -> Option<Value> {
        crate::lock(&self.0).get(key).cloned()
    }

    fn set(&self, key: &str, value: Value) {
        crate::lock(&self.0).insert(key.to_owned(), value);
    }

    fn save(&self) -> std::result::Result<(), crate::error::Cause> {
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Preferences {
    /// `None`: follow the OS.
    pub theme: Option<Theme>,
    pub last_profile: Option<String>,
    /// Per profile name: what was shown last.
    pub views: BTreeMap<String, View>,
    /// The export format chosen last under any profile: a profile that has none of its own
    /// starts with it.
    pub export_format: Option<String>,
    /// Complete snapshots kept per plant and source (the app and `aasmd` both apply it).
    pub keep_snapshots: usize,
    /// The webview's own storage, where versions before this store kept the theme and
    /// views, was emptied (once, on the first start): nothing of the app stays there.
    pub web_storage_cleared: bool,
    /// The team's snapshot store (`postgres://ROLE@HOST/DATABASE`, never with its
    /// password: that is in the OS keychain).
    pub team_store: Option<String>,
    /// Per profile, plant and asset type: the table's columns and the tab shown last.
    pub tables: TableViews,
    /// Column sets the user named, for any plant.
    pub column_sets: ColumnSets,
    /// The Table takes the window's width (its *Full width* button), for every plant.
    pub table_full_width: bool,
    /// The folder a file was last saved to: where the next save dialog opens. Set by the
    /// app when the user chose, never by the page.
    pub save_folder: Option<std::path::PathBuf>,
    /// The AAS V3 server last read (its address, never a token): what Open server…
    /// offers next. Set by the app when a reading succeeded, never by the page.
    pub v3_server: Option<String>,
    /// The V3 server's profile read last, read again at the next start over the
    /// platform's profile used last (`last_profile`). Set by the app, never by the page.
    pub last_v3_profile: Option<String>,
    /// The AAS files opened last, the newest first (at most [`RECENT_FILES`]). Set by the
    /// app when a file opened, never by the page.
    pub recent_files: Vec<std::path::PathBuf>,
}

/// How many files *Recent files* lists.
pub const RECENT_FILES: usize = 10;

impl Default for Preferences {
    fn default() -> Self {
        Preferences {
            theme: None,
            last_profile: None,
            views: BTreeMap::new(),
            export_format: None,
            keep_snapshots: DEFAULT_KEEP,
            web_storage_cleared: false,
            team_store: None,
            tables: TableViews::new(),
            column_sets: ColumnSets::new(),
            table_full_width: false,
            save_folder: None,
            v3_server: None,
            last_v3_profile: None,
            recent_files: Vec::new(),
        }
    }
}

impl Preferences {
    /// `path` opened just now: first in the recent files, once.
    pub(crate) fn opened(&mut self, path: &std::path::Path) {
        self.recent_files.retain(|p| p != path);
        self.recent_files.insert(0, path.to_owned());
        self.recent_files.truncate(RECENT_FILES);
    }
}

fn is_format(name: &str) -> bool {
    name.parse::<aas_export::Format>().is_ok()
}

/// The most snapshots per plant a user may ask to keep.
const MAX_KEEP: usize = 1000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    #[serde(default)]
    pub plant: Option<String>,
    #[serde(default)]
    pub asset_type: Option<String>,
    /// The export format chosen last under this profile (a V3.1 AASX for the vendors'
    /// plant, V2 for the platform's); left out of the file until one is chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export_format: Option<String>,
}

/// One change the page asks for, e.g. `{"theme": "dark"}` or
/// `{"view": {"profile": "Plant Nord", "plant": "P1"}}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PreferenceChange {
    Theme(Theme),
    /// The parts given replace the profile's; the others are kept.
    View {
        profile: String,
        #[serde(default)]
        plant: Option<String>,
        #[serde(default)]
        asset_type: Option<String>,
        #[serde(default)]
        export_format: Option<String>,
    },
    ExportFormat(String),
    KeepSnapshots(usize),
    /// The team store's URL (`None`: no team store) and, when given, its password, which
    /// goes to the OS keychain, never to the preferences file (an empty one is forgotten).
    TeamStore {
        url: Option<String>,
        #[serde(default)]
        password: Option<aas_client::Secret>,
    },
    /// One plant and asset type's table: its columns, the tab shown.
    Table(TableChange),
    /// Names a column set; `columns` absent or empty forgets it.
    ColumnSet {
        name: String,
        #[serde(default)]
        columns: Option<Vec<String>>,
    },
    /// Whether the Table takes the window's width.
    TableFullWidth(bool),
}

impl Preferences {
    /// Reads the preferences from a store's values, each key on its own.
    pub fn read(get: impl Fn(&str) -> Option<Value>) -> Self {
        fn value<T: serde::de::DeserializeOwned>(v: Option<Value>) -> Option<T> {
            v.and_then(|v| serde_json::from_value(v).ok())
        }
        Preferences {
            theme: value(get("theme")),
            last_profile: value(get("last_profile")),
            views: value::<BTreeMap<String, View>>(get("views"))
                .unwrap_or_default()
                .into_iter()
                .map(|(profile, mut view)| {
                    view.export_format = view.export_format.filter(|f| is_format(f));
                    (profile, view)
                })
                .collect(),
            export_format: value::<String>(get("export_format")).filter(|f| is_format(f)),
            keep_snapshots: value::<usize>(get("keep_snapshots"))
                .filter(|n| (1..=MAX_KEEP).contains(n))
                .unwrap_or(DEFAULT_KEEP),
            web_storage_cleared: value(get("web_storage_cleared")).unwrap_or(false),
            team_store: value::<String>(get("team_store"))
                .filter(|url| check_team_url(url).is_ok()),
            tables: Default::default(),
            column_sets: Default::default(),
            table_full_width: value(get("table_full_width")).unwrap_or(false),
            save_folder: value(get("save_folder")),
            recent_files: value::<Vec<std::path::PathBuf>>(get("recent_files"))
                .unwrap_or_default()
                .into_iter()
                .filter(|p| p.is_absolute())
                .take(RECENT_FILES)
                .collect(),
            v3_server: value(get("v3_server")),
            last_v3_profile: value(get("last_v3_profile")),
        }
        .with_tables(
            value(get("tables")).unwrap_or_default(),
            value(get("column_sets")).unwrap_or_default(),
        )
    }

    /// The preferences the desktop app stored, read from its file (for `aasmd`);
    /// defaults when there is none or it cannot be read.
    pub fn of_app() -> Self {
        let stored = app_data_dir()
            .ok()
            .and_then(|dir| std::fs::read(dir.join(PREFERENCES_FILE)).ok())
            .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
            .unwrap_or(Value::Null);
        Preferences::read(|key| stored.get(key).cloned())
    }

    /// The store's keys and values.
    pub fn entries(&self) -> Vec<(&'static str, Value)> {
        let json = |v: serde_json::Result<Value>| v.unwrap_or(Value::Null);
        vec![
            ("theme", json(serde_json::to_value(self.theme))),
            (
                "last_profile",
                json(serde_json::to_value(&self.last_profile)),
            ),
            ("views", json(serde_json::to_value(&self.views))),
            (
                "export_format",
                json(serde_json::to_value(&self.export_format)),
            ),
            ("keep_snapshots", Value::from(self.keep_snapshots)),
            ("web_storage_cleared", Value::Bool(self.web_storage_cleared)),
            ("team_store", json(serde_json::to_value(&self.team_store))),
            ("tables", json(serde_json::to_value(&self.tables))),
            ("column_sets", json(serde_json::to_value(&self.column_sets))),
            ("table_full_width", Value::Bool(self.table_full_width)),
            ("save_folder", json(serde_json::to_value(&self.save_folder))),
            (
                "recent_files",
                json(serde_json::to_value(&self.recent_files)),
            ),
            ("v3_server", json(serde_json::to_value(&self.v3_server))),
            (
                "last_v3_profile",
                json(serde_json::to_value(&self.last_v3_profile)),
            ),
        ]
    }

    /// Applies a change from the page, refusing what is not a preference.
    pub fn apply(&mut self, change: PreferenceChange) -> Result<()> {
        match change {
            PreferenceChange::Theme(theme) => self.theme = Some(theme),
            PreferenceChange::View {
                profile,
                plant,
                asset_type,
                export_format,
            } => {
                for name in [Some(&profile), plant.as_ref(), asset_type.as_ref()]
                    .into_iter()
                    .flatten()
                {
                    check_name(name)?;
                }
                if let Some(format) = &export_format {
                    format
                        .parse::<aas_export::Format>()
                        .map_err(Error::BadRequest)?;
                }
                let view = self.views.entry(profile).or_default();
                view.plant = plant.or(view.plant.take());
                view.asset_type = asset_type.or(view.asset_type.take());
                view.export_format = export_format.or(view.export_format.take());
            }
            PreferenceChange::ExportFormat(format) => {
                format
                    .parse::<aas_export::Format>()
                    .map_err(Error::BadRequest)?;
                self.export_format = Some(format);
            }
            PreferenceChange::KeepSnapshots(n) => {
                if !(1..=MAX_KEEP).contains(&n) {
                    return Err(Error::BadRequest(format!(
                        "keep between 1 and {MAX_KEEP} snapshots per plant"
                    )));
                }
                self.keep_snapshots = n;
            }
            // The password is the app's to keep (App::set_preference), not a preference.
            PreferenceChange::TeamStore { url, .. } => {
                let url = url.map(|u| u.trim().to_owned()).filter(|u| !u.is_empty());
                if let Some(url) = &url {
                    check_team_url(url)?;
                }
                self.team_store = url;
            }
            PreferenceChange::Table(change) => apply_table(&mut self.tables, change)?,
            PreferenceChange::ColumnSet { name, columns } => {
                apply_column_set(&mut self.column_sets, &name, columns)?
            }
            PreferenceChange::TableFullWidth(full) => self.table_full_width = full,
        }
        Ok(())
    }

    fn with_tables(self, tables: TableViews, column_sets: ColumnSets) -> Self {
        let (tables, column_sets) = within_bounds(tables, column_sets);
        Preferences {
            tables,
            column_sets,
            ..self
        }
    }

    /// Earlier versions kept the last profile in the profiles' settings file: moves it
    /// here, once. Says whether anything moved.
    pub fn take_last_profile_from(&mut self, profiles: &ProfileStore) -> Result<bool> {
        let Some(name) = profiles.take_last_used()? else {
            return Ok(false);
        };
        self.last_profile = self.last_profile.take().or(Some(name));
        Ok(true)
    }
}

/// A team store's URL as the app keeps it: PostgreSQL's, naming its role, without a
/// password (in its user part or as a parameter: `aas_snapshot::url_role` looks at
/// both, as the driver reads both).
fn check_team_url(url: &str) -> Result<()> {
    check_name(url)?;
    let refused = |why: &str| Err(Error::BadRequest(format!("the team store {why}")));
    if !aas_snapshot::is_url(url) {
        return refused(
            "is a PostgreSQL URL: postgres://ROLE@HOST/DATABASE (its administrator gives it)",
        );
    }
    match aas_snapshot::url_role(url) {
        None => refused("URL must name the role it logs in as: postgres://ROLE@HOST/DATABASE"),
        Some((_, true)) => refused(
            "URL must not hold the password (neither as ROLE:PASSWORD@ nor as ?password=): type it in the password box, which keeps it in the OS keychain",
        ),
        Some((_, false)) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_of_the_wrong_shape_fall_back_to_defaults_and_the_rest_is_kept() {
        let stored = json!({
            "theme": "purple",
            "last_profile": "Plant Nord",
            "views": "not a map",
            "export_format": "exe",
            "keep_snapshots": 0,
            "web_storage_cleared": true
        });
        let prefs = Preferences::read(|k| stored.get(k).cloned());
        assert_eq!(
            prefs,
            Preferences {
                last_profile: Some("Plant Nord".into()),
                web_storage_cleared: true,
                ..Preferences::default()
            }
        );
        let read_back = Preferences::read(|k| {
            prefs
                .entries()
                .into_iter()
                .find(|(key, _)| *key == k)
                .map(|(_, v)| v)
        });
        assert_eq!(read_back, prefs);
    }

    #[test]
    fn a_profile_keeps_its_own_export_format_and_a_nonsense_one_is_dropped() {
        let stored = json!({
            "export_format": "csv",
            "views": {
                "Vendors": {"plant": "P", "export_format": "v3.1-aasx"},
                "Old": {"plant": "Q", "export_format": "exe"}
            }
        });
        let prefs = Preferences::read(|key| stored.get(key).cloned());
        assert_eq!(prefs.export_format.as_deref(), Some("csv"));
        assert_eq!(
            prefs.views["Vendors"].export_format.as_deref(),
            Some("v3.1-aasx")
        );
        assert_eq!(prefs.views["Old"].export_format, None);
        assert_eq!(
            prefs.views["Old"].plant.as_deref(),
            Some("Q"),
            "the rest is kept"
        );
    }

    #[test]
    fn recent_files_are_the_newest_first_once_each_and_absolute() {
        let mut prefs = Preferences::default();
        for name in ["/a.aasx", "/b.aasx", "/a.aasx"] {
            prefs.opened(std::path::Path::new(name));
        }
        assert_eq!(
            prefs.recent_files,
            ["/a.aasx", "/b.aasx"].map(std::path::PathBuf::from)
        );
        for i in 0..20 {
            prefs.opened(std::path::Path::new(&format!("/f{i}.json")));
        }
        assert_eq!(prefs.recent_files.len(), RECENT_FILES);
        assert_eq!(prefs.recent_files[0], std::path::PathBuf::from("/f19.json"));
        let stored = json!({"recent_files": ["relative.aasx", "/ok.aasx", 7]});
        assert!(
            Preferences::read(|k| stored.get(k).cloned())
                .recent_files
                .is_empty(),
            "not a list of paths"
        );
        let stored = json!({"recent_files": ["relative.aasx", "/ok.aasx"]});
        assert_eq!(
            Preferences::read(|k| stored.get(k).cloned()).recent_files,
            [std::path::PathBuf::from("/ok.aasx")]
        );
    }

    #[test]
    fn changes_merge_and_nonsense_is_refused() {
        let mut prefs = Preferences::default();
        let change = |v: Value| serde_json::from_value::<PreferenceChange>(v).expect("change");
        prefs
            .apply(change(json!({"theme": "dark"})))
            .expect("theme");
        prefs
            .apply(change(
                json!({"view": {"profile": "P", "plant": "DEMO-01"}}),
            ))
            .expect("view");
        prefs
            .apply(change(
                json!({"view": {"profile": "P", "asset_type": "tool"}}),
            ))
            .expect("view");
        prefs
            .apply(change(
                json!({"view": {"profile": "P", "export_format": "v3.1-aasx"}}),
            ))
            .expect("the profile's format");
        assert_eq!(
            prefs.views["P"],
            View {
                plant: Some("DEMO-01".into()),
                asset_type: Some("tool".into()),
                export_format: Some("v3.1-aasx".into()),
            }
        );
        assert!(prefs
            .apply(change(
                json!({"view": {"profile": "P", "export_format": "exe"}})
            ))
            .is_err());
        assert!(prefs
            .apply(change(json!({"export_format": "exe"})))
            .is_err());
        prefs
            .apply(change(json!({"export_format": "csv"})))
            .expect("csv");
        assert!(serde_json::from_value::<PreferenceChange>(json!({"theme": "purple"})).is_err());
        assert!(prefs.apply(change(json!({"keep_snapshots": 0}))).is_err());
        prefs
            .apply(change(json!({"keep_snapshots": 3})))
            .expect("keep 3");
        assert_eq!(prefs.keep_snapshots, 3);
        prefs
            .apply(change(json!({"table_full_width": true})))
            .expect("full width");
        assert!(prefs.table_full_width);
    }

    #[test]
    fn a_team_store_url_names_its_role_and_never_holds_a_password() {
        let mut prefs = Preferences::default();
        let team = |url: &str| {
            serde_json::from_value::<PreferenceChange>(
                json!({"team_store": {"url": url, "password": "pw"}}),
            )
            .expect("change")
        };
        for refused in [
            "/home/me/x.sqlite3",
            "postgres://db/plants",
            "postgres://team:pw@db/plants",
            // Issue 43: a password the driver reads from a parameter, or from a user
            // part with an unencoded `/`, was kept in preferences.json.
            "postgres://team@db/plants?password=pw",
            "postgres://team@db/plants?sslmode=require&pass%77ord=pw",
            "postgres://team:p/w@db/plants",
        ] {
            let e = prefs.apply(team(refused)).expect_err(refused);
            assert!(!e.to_string().contains("pw@"), "{e}");
            assert!(!e.to_string().contains("=pw"), "{e}");
            assert_eq!(prefs.team_store, None, "{refused}");
        }
        prefs
            .apply(team(" postgres://team@db/plants "))
            .expect("kept");
        assert_eq!(
            prefs.team_store.as_deref(),
            Some("postgres://team@db/plants")
        );
        let stored: BTreeMap<_, _> = prefs.entries().into_iter().collect();
        assert_eq!(stored["team_store"], json!("postgres://team@db/plants"));
        for forged in [
            "postgres://team:pw@db/plants",
            "postgres://team@db/plants?password=pw",
        ] {
            let forged = json!({ "team_store": forged });
            assert_eq!(
                Preferences::read(|k| forged.get(k).cloned()).team_store,
                None
            );
        }
        prefs.apply(team("")).expect("none");
        assert_eq!(prefs.team_store, None);
    }
}
