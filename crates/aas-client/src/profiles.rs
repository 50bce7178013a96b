//! Connection profiles, shared by the desktop app and `aasmd`: the non-secret part in
//! the app's settings file (tauri-plugin-store's JSON object, key `profiles`), the
//! client secret and the user token in the OS keychain (service `aas-browser`,
//! accounts `<profile>/client_secret` and `<profile>/user_token`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{write_atomically, ClientAuth, Connection, Error, Result, Secret};

/// The app's bundle identifier: its settings live in `<data dir>/<identifier>/`.
pub const APP_IDENTIFIER: &str = "org.aasbrowser.desktop";
const SETTINGS_FILE: &str = "settings.json";
const PROFILES_KEY: &str = "profiles";
const LAST_USED_KEY: &str = "last_profile";
const KEYCHAIN_SERVICE: &str = "aas-browser";

/// Where and as whom to connect; no secrets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    pub name: String,
    pub registry_url: String,
    pub gateway_url: String,
    pub auth_url: String,
    pub realm: String,
    pub client_id: String,
    #[serde(default)]
    pub client_auth: ClientAuth,
    #[serde(default)]
    pub plants: Vec<String>,
}

/// The settings file holding the profiles.
#[derive(Debug, Clone)]
pub struct ProfileStore {
    path: PathBuf,
}

impl ProfileStore {
    pub fn at(path: impl Into<PathBuf>) -> Self {
        ProfileStore { path: path.into() }
    }

    /// The app's own settings file (where tauri-plugin-store keeps it).
    pub fn app_default() -> Result<Self> {
        let dir = dirs::data_dir()
            .ok_or_else(|| Error::Config("no user data folder (is HOME set?)".into()))?;
        Ok(Self::at(dir.join(APP_IDENTIFIER).join(SETTINGS_FILE)))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn load(&self) -> Result<Vec<Profile>> {
        let settings = self.settings()?;
        match settings.get(PROFILES_KEY) {
            None => Ok(Vec::new()),
            Some(list) => serde_json::from_value(list.clone())
                .map_err(|e| Error::Config(format!("profiles in {}: {e}", self.path.display()))),
        }
    }

    pub fn find(&self, name: &str) -> Result<Profile> {
        let profiles = self.load()?;
        let known: Vec<&str> = profiles.iter().map(|p| p.name.as_str()).collect();
        let message = format!(
            "no profile {name:?} in {} (known: {known:?})",
            self.path.display()
        );
        profiles
            .iter()
            .find(|p| p.name == name)
            .cloned()
            .ok_or(Error::Config(message))
    }

    /// Saves `profiles`, keeping the file's other settings, atomically.
    pub fn save(&self, profiles: &[Profile]) -> Result<()> {
        let list = serde_json::to_value(profiles).map_err(|e| Error::Config(e.to_string()))?;
        self.set(PROFILES_KEY, list)
    }

    /// The profile the app used last, so it can start there again.
    pub fn last_used(&self) -> Result<Option<String>> {
        Ok(self
            .settings()?
            .get(LAST_USED_KEY)
            .and_then(Value::as_str)
            .map(str::to_owned))
    }

    pub fn set_last_used(&self, name: &str) -> Result<()> {
        self.set(LAST_USED_KEY, Value::String(name.to_owned()))
    }

    /// Sets one setting, keeping the others, and writes the file atomically.
    fn set(&self, key: &str, value: Value) -> Result<()> {
        let mut settings = self.settings()?;
        settings.insert(key.into(), value);
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::Config(format!("{}: {e}", dir.display())))?;
        }
        let bytes =
            serde_json::to_vec_pretty(&settings).map_err(|e| Error::Config(e.to_string()))?;
        write_atomically(&self.path, &bytes)
    }

    fn settings(&self) -> Result<Map<String, Value>> {
        match std::fs::read(&self.path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
                Error::Config(format!(
                    "{} is not a settings file: {e}",
                    self.path.display()
                ))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Map::new()),
            Err(e) => Err(Error::Config(format!(
                "cannot read {}: {e}",
                self.path.display()
            ))),
        }
    }
}

/// The two secrets a profile needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretKind {
    ClientSecret,
    UserToken,
}

impl SecretKind {
    fn account(self, profile: &str) -> String {
        match self {
            SecretKind::ClientSecret => format!("{profile}/client_secret"),
            SecretKind::UserToken => format!("{profile}/user_token"),
        }
    }
}

/// The OS keychain (Secret Service on Linux, Keychain on macOS, Credential Manager on
/// Windows). Unreachable keychains are reported as such, never replaced by a file.
#[derive(Debug, Clone, Copy, Default)]
pub struct Keychain;

impl Keychain {
    fn entry(profile: &str, kind: SecretKind) -> Result<keyring::Entry> {
        keyring::Entry::new(KEYCHAIN_SERVICE, &kind.account(profile)).map_err(keychain_error)
    }

    /// The stored secret, or `None` when none is stored.
    pub fn get(&self, profile: &str, kind: SecretKind) -> Result<Option<Secret>> {
        match Self::entry(profile, kind)?.get_password() {
            Ok(text) => Ok(Some(Secret::new(text))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(keychain_error(e)),
        }
    }

    pub fn set(&self, profile: &str, kind: SecretKind, secret: &Secret) -> Result<()> {
        Self::entry(profile, kind)?
            .set_password(secret.expose())
            .map_err(keychain_error)
    }

    pub fn delete(&self, profile: &str, kind: SecretKind) -> Result<()> {
        match Self::entry(profile, kind)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(keychain_error(e)),
        }
    }

    /// The connection of `profile`, with its secrets from the keychain.
    pub fn connection(&self, profile: &Profile) -> Result<Connection> {
        let secret = |kind| {
            self.get(&profile.name, kind)?.ok_or_else(|| {
                Error::Config(format!(
                    "profile {:?} has no {} in the keychain",
                    profile.name,
                    kind.account("").trim_start_matches('/')
                ))
            })
        };
        Ok(Connection {
            registry_url: profile.registry_url.clone(),
            gateway_url: profile.gateway_url.clone(),
            auth_url: profile.auth_url.clone(),
            realm: profile.realm.clone(),
            client_id: profile.client_id.clone(),
            client_secret: secret(SecretKind::ClientSecret)?,
            user_token: secret(SecretKind::UserToken)?,
            client_auth: profile.client_auth,
        })
    }
}

/// Keyring errors hold no secret; "unavailable" ones say what to do.
fn keychain_error(e: keyring::Error) -> Error {
    match e {
        keyring::Error::NoStorageAccess(_) | keyring::Error::PlatformFailure(_) => Error::Keychain(format!(
            "the OS keychain is not available ({e}); on Linux a Secret Service (GNOME Keyring, KWallet) must be running and unlocked"
        )),
        other => Error::Keychain(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(name: &str) -> Profile {
        Profile {
            name: name.into(),
            registry_url: "https://r".into(),
            gateway_url: "https://g".into(),
            auth_url: "https://a".into(),
            realm: "realm".into(),
            client_id: "client".into(),
            client_auth: ClientAuth::Basic,
            plants: vec!["P1".into()],
        }
    }

    #[test]
    fn profiles_are_saved_beside_other_settings_and_read_back() {
        let dir = std::env::temp_dir().join(format!("aas-profiles-{}", std::process::id()));
        let store = ProfileStore::at(dir.join("settings.json"));
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(store.path(), br#"{"theme":"dark"}"#).expect("write");
        store
            .save(&[profile("Plant A"), profile("Plant B")])
            .expect("save");
        assert_eq!(store.find("Plant B").expect("found"), profile("Plant B"));
        assert_eq!(store.last_used().expect("read"), None);
        store.set_last_used("Plant B").expect("saved");
        assert_eq!(store.last_used().expect("read").as_deref(), Some("Plant B"));
        assert_eq!(store.load().expect("profiles kept").len(), 2);
        assert!(store.find("Nope").is_err());
        let text = std::fs::read_to_string(store.path()).expect("read");
        assert!(
            text.contains("\"theme\": \"dark\""),
            "other settings kept: {text}"
        );
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
