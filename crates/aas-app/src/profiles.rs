//! Connection profiles, shared by the desktop app and `aasmd`: the non-secret part in
//! the app's settings file (tauri-plugin-store's JSON object, key `profiles`), the
//! client secret and the user token (a V3 server's bearer token or API key) in the OS
//! keychain (service `aas-browser`, accounts `<profile>/client_secret`,
//! `<profile>/user_token`, `<profile>/bearer_token`, `<profile>/api_key`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use aas_client::{ClientAuth, Connection, Secret, Transport};
use aas_output::write_atomically;

use crate::{app_data_dir, Error, ProfileKind, Result, V3Settings};
use aas_model::FileError;

const SETTINGS_FILE: &str = "settings.json";
const PROFILES_KEY: &str = "profiles";
const LAST_USED_KEY: &str = "last_profile";
const KEYCHAIN_SERVICE: &str = "aas-browser";

/// Where and as whom to connect; no secrets. The platform's fields are empty in a V3
/// server's profile (which has `v3`), but its client ID and client authentication,
/// which OAuth 2 client credentials use there too.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    pub name: String,
    /// The platform (every profile before V3 servers, so unwritten), or a V3 server.
    #[serde(default, skip_serializing_if = "ProfileKind::is_platform")]
    pub kind: ProfileKind,
    #[serde(default)]
    pub registry_url: String,
    #[serde(default)]
    pub gateway_url: String,
    #[serde(default)]
    pub auth_url: String,
    #[serde(default)]
    pub realm: String,
    #[serde(default)]
    pub client_id: String,
    #[serde(default)]
    pub client_auth: ClientAuth,
    /// The token endpoint itself, when discovery from `auth_url` cannot find it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_url: Option<String>,
    #[serde(default)]
    pub plants: Vec<String>,
    /// The asset types the profile's application requested: only those are queried and
    /// shown. Empty (the default): all eight.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "platform_types"
    )]
    pub asset_types: Vec<aas_model::AssetType>,
    /// A V3 server's address and how it is asked (kind `v3_server`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub v3: Option<V3Settings>,
    #[serde(flatten)]
    pub transport: Transport,
}

/// A profile's asset types are the platform's: its gateway lists no other.
fn platform_types<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Vec<aas_model::AssetType>, D::Error> {
    let codes = Vec::<String>::deserialize(d)?;
    (codes.iter())
        .map(|code| aas_model::AssetType::platform(code).map_err(serde::de::Error::custom))
        .collect()
}

impl Profile {
    /// The asset types to query: the requested ones, or all eight.
    pub fn requested_types(&self) -> Vec<aas_model::AssetType> {
        if self.asset_types.is_empty() {
            aas_model::AssetType::PLATFORM.to_vec()
        } else {
            self.asset_types.clone()
        }
    }

    /// The connection of this profile, with the secrets `lookup` finds for it.
    pub fn connection(
        &self,
        lookup: impl Fn(SecretKind) -> Result<Option<Secret>>,
    ) -> Result<Connection> {
        if self.kind == ProfileKind::V3Server {
            return Err(Error::BadRequest(format!(
                "{} is a V3 server's profile, not the platform's: it is read whole (aasmd: search, diff, table, audit, export and snapshot take read it)",
                self.name
            )));
        }
        let secret = |kind: SecretKind| {
            lookup(kind)?.ok_or_else(|| Error::NoSecret {
                profile: self.name.clone(),
                secret: kind.name(),
            })
        };
        let mut transport = self.transport.clone();
        if transport.proxy_user.is_some() {
            transport.proxy_password = lookup(SecretKind::ProxyPassword)?;
        }
        Ok(Connection {
            registry_url: self.registry_url.clone(),
            gateway_url: self.gateway_url.clone(),
            auth_url: self.auth_url.clone(),
            realm: self.realm.clone(),
            client_id: self.client_id.clone(),
            client_secret: secret(SecretKind::ClientSecret)?,
            user_token: secret(SecretKind::UserToken)?,
            client_auth: self.client_auth,
            token_url: self.token_url.clone(),
            transport,
        })
    }
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

    /// The app's own settings file (where tauri-plugin-store keeps its stores).
    pub fn app_default() -> Result<Self> {
        Ok(Self::at(app_data_dir()?.join(SETTINGS_FILE)))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn load(&self) -> Result<Vec<Profile>> {
        let settings = self.settings()?;
        match settings.get(PROFILES_KEY) {
            None => Ok(Vec::new()),
            Some(list) => {
                serde_json::from_value(list.clone()).map_err(|source| Error::NotSettings {
                    what: "a list of profiles",
                    path: self.path.clone(),
                    source,
                })
            }
        }
    }

    pub fn find(&self, name: &str) -> Result<Profile> {
        let profiles = self.load()?;
        if let Some(found) = profiles.iter().find(|p| p.name == name) {
            return Ok(found.clone());
        }
        Err(Error::NoProfile {
            name: name.to_owned(),
            path: self.path.clone(),
            known: profiles.into_iter().map(|p| p.name).collect(),
        })
    }

    /// Saves `profiles`, keeping the file's other settings, atomically.
    pub fn save(&self, profiles: &[Profile]) -> Result<()> {
        let list = serde_json::to_value(profiles)
            .map_err(|e| Error::internal("the profiles could not be written as JSON", e))?;
        self.set(PROFILES_KEY, list)
    }

    /// Saves a copy of profile `name` under a free name ("Plant (copy)", "Plant (copy 2)"…)
    /// and returns it. Secrets are the caller's to copy (see [`SecretStore::copy`]).
    pub fn duplicate(&self, name: &str) -> Result<Profile> {
        let mut profiles = self.load()?;
        let mut copy = self.find(name)?;
        let taken = |candidate: &str| profiles.iter().any(|p| p.name == candidate);
        copy.name = (1..)
            .map(|n| match n {
                1 => format!("{name} (copy)"),
                n => format!("{name} (copy {n})"),
            })
            .find(|candidate| !taken(candidate))
            .unwrap_or_default();
        profiles.push(copy.clone());
        self.save(&profiles)?;
        Ok(copy)
    }

    /// Removes and returns the last profile used, which versions before the
    /// preferences store kept here (see `Preferences::take_last_profile_from`).
    pub fn take_last_used(&self) -> Result<Option<String>> {
        let mut settings = self.settings()?;
        let Some(last) = settings.remove(LAST_USED_KEY) else {
            return Ok(None);
        };
        self.write(&settings)?;
        Ok(last.as_str().map(str::to_owned))
    }

    /// Sets one setting, keeping the others, and writes the file atomically.
    fn set(&self, key: &str, value: Value) -> Result<()> {
        let mut settings = self.settings()?;
        settings.insert(key.into(), value);
        self.write(&settings)
    }

    fn write(&self, settings: &Map<String, Value>) -> Result<()> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| {
                aas_client::Error::File(FileError {
                    action: "create the folder",
                    path: dir.to_owned(),
                    source,
                })
            })?;
        }
        let bytes = serde_json::to_vec_pretty(settings)
            .map_err(|e| Error::internal("the settings could not be written as JSON", e))?;
        Ok(write_atomically(&self.path, &bytes)?)
    }

    fn settings(&self) -> Result<Map<String, Value>> {
        match std::fs::read(&self.path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|source| Error::NotSettings {
                what: "a settings file",
                path: self.path.clone(),
                source,
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Map::new()),
            Err(source) => Err(aas_client::Error::File(FileError {
                action: "read",
                path: self.path.clone(),
                source,
            })
            .into()),
        }
    }
}

/// The secrets a profile may have: a platform's needs the first two, a V3 server's
/// the one its authentication takes; the proxy password only when its proxy wants one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretKind {
    ClientSecret,
    UserToken,
    ProxyPassword,
    /// A V3 server's bearer token.
    BearerToken,
    /// A V3 server's API key.
    ApiKey,
}

impl SecretKind {
    pub const ALL: [SecretKind; 5] = [
        SecretKind::ClientSecret,
        SecretKind::UserToken,
        SecretKind::ProxyPassword,
        SecretKind::BearerToken,
        SecretKind::ApiKey,
    ];

    /// The secret as the keychain's account and the messages name it.
    pub fn name(self) -> &'static str {
        match self {
            SecretKind::ClientSecret => "client_secret",
            SecretKind::UserToken => "user_token",
            SecretKind::ProxyPassword => "proxy_password",
            SecretKind::BearerToken => "bearer_token",
            SecretKind::ApiKey => "api_key",
        }
    }

    fn account(self, profile: &str) -> String {
        format!("{profile}/{}", self.name())
    }
}

/// The OS keychain (Secret Service on Linux, Keychain on macOS, Credential Manager on
/// Windows). Unreachable keychains are reported as such, never replaced by a file.
#[derive(Debug, Clone, Copy, Default)]
pub struct Keychain;

impl Keychain {
    fn entry(account: &str) -> Result<keyring::Entry> {
        keyring::Entry::new(KEYCHAIN_SERVICE, account).map_err(keychain_error)
    }

    /// The stored secret, or `None` when none is stored.
    pub fn get(&self, profile: &str, kind: SecretKind) -> Result<Option<Secret>> {
        Self::get_account(&kind.account(profile))
    }

    pub fn set(&self, profile: &str, kind: SecretKind, secret: &Secret) -> Result<()> {
        Self::set_account(&kind.account(profile), secret)
    }

    pub fn delete(&self, profile: &str, kind: SecretKind) -> Result<()> {
        Self::delete_account(&kind.account(profile))
    }

    /// The password of the team store at `url` (its URL without one), if one is kept.
    pub fn team_password(&self, url: &str) -> Result<Option<Secret>> {
        Self::get_account(&team_account(url))
    }

    /// Keeps `password` for the team store at `url`; `None` forgets it.
    pub fn set_team_password(&self, url: &str, password: Option<&Secret>) -> Result<()> {
        match password {
            Some(password) => Self::set_account(&team_account(url), password),
            None => Self::delete_account(&team_account(url)),
        }
    }

    fn get_account(account: &str) -> Result<Option<Secret>> {
        match Self::entry(account)?.get_password() {
            Ok(text) => Ok(Some(Secret::new(text))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(keychain_error(e)),
        }
    }

    fn set_account(account: &str, secret: &Secret) -> Result<()> {
        Self::entry(account)?
            .set_password(secret.expose())
            .map_err(keychain_error)
    }

    /// Deletes `account`'s secret; nothing to delete is no error, and neither is a
    /// keychain that cannot be reached: it holds nothing this app could have kept there.
    fn delete_account(account: &str) -> Result<()> {
        let deleted = Self::entry(account).and_then(|entry| match entry.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(keychain_error(e)),
        });
        match deleted {
            Err(Error::KeychainUnavailable(_)) => Ok(()),
            other => other,
        }
    }

    /// The connection of `profile`, with its secrets from the keychain.
    pub fn connection(&self, profile: &Profile) -> Result<Connection> {
        profile.connection(|kind| self.get(&profile.name, kind))
    }
}

/// The keychain account of a team store's password: by its URL, so that another store
/// never gets it (a profile's accounts are `PROFILE/kind`, a URL has `://`).
fn team_account(url: &str) -> String {
    format!("team_store {url}")
}

/// Where the app keeps secrets: the OS keychain, and, only for profiles whose secrets
/// the user chose to keep for this session because no keychain was reachable, this
/// process's memory (gone when the app closes).
#[derive(Debug, Default)]
pub struct SecretStore {
    session: Mutex<HashMap<String, Secret>>,
}

impl SecretStore {
    /// The secret kept for this session, else the one in the keychain.
    pub fn get(&self, profile: &str, kind: SecretKind) -> Result<Option<Secret>> {
        let kept = self.session().get(&kind.account(profile)).cloned();
        match kept {
            Some(secret) => Ok(Some(secret)),
            None => Keychain.get(profile, kind),
        }
    }

    /// Stores in the keychain, or in memory when `session_only` (the user's choice).
    pub fn set(
        &self,
        profile: &str,
        kind: SecretKind,
        secret: &Secret,
        session_only: bool,
    ) -> Result<()> {
        let account = kind.account(profile);
        if session_only {
            self.session().insert(account, secret.clone());
            return Ok(());
        }
        Keychain.set(profile, kind, secret)?;
        self.session().remove(&account);
        Ok(())
    }

    /// Whether `profile`'s secrets are kept in memory only, for this session.
    pub fn is_session_only(&self, profile: &str) -> bool {
        let session = self.session();
        SecretKind::ALL
            .iter()
            .any(|kind| session.contains_key(&kind.account(profile)))
    }

    /// Forgets `profile`'s secrets in memory and in the keychain.
    pub fn delete(&self, profile: &str) -> Result<()> {
        for kind in SecretKind::ALL {
            self.session().remove(&kind.account(profile));
            Keychain.delete(profile, kind)?;
        }
        Ok(())
    }

    /// Gives profile `to` the secrets of `from`, kept where those are.
    pub fn copy(&self, from: &str, to: &str) -> Result<()> {
        let session_only = self.is_session_only(from);
        for kind in SecretKind::ALL {
            // A session-only profile's secrets are all in memory: no keychain to ask.
            let secret = if session_only {
                self.session().get(&kind.account(from)).cloned()
            } else {
                self.get(from, kind)?
            };
            if let Some(secret) = secret {
                self.set(to, kind, &secret, session_only)?;
            }
        }
        Ok(())
    }

    /// The connection of `profile`, with its secrets from this store.
    pub fn connection(&self, profile: &Profile) -> Result<Connection> {
        profile.connection(|kind| self.get(&profile.name, kind))
    }

    fn session(&self) -> std::sync::MutexGuard<'_, HashMap<String, Secret>> {
        self.session.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Keyring errors hold no secret; "unavailable" ones say what to do.
fn keychain_error(e: keyring::Error) -> Error {
    match e {
        keyring::Error::NoStorageAccess(_) | keyring::Error::PlatformFailure(_) => Error::KeychainUnavailable(format!(
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
            token_url: None,
            plants: vec!["P1".into()],
            asset_types: vec![],
            transport: Transport::default(),
            ..Default::default()
        }
    }

    #[test]
    fn profiles_are_saved_beside_other_settings_and_read_back() {
        let dir = std::env::temp_dir().join(format!("aas-profiles-{}", std::process::id()));
        let store = ProfileStore::at(dir.join("settings.json"));
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(
            store.path(),
            br#"{"theme":"dark","last_profile":"Plant B"}"#,
        )
        .expect("write");
        store
            .save(&[profile("Plant A"), profile("Plant B")])
            .expect("save");
        assert_eq!(store.find("Plant B").expect("found"), profile("Plant B"));
        assert_eq!(store.load().expect("profiles kept").len(), 2);
        assert!(store.find("Nope").is_err());
        assert_eq!(
            store.take_last_used().expect("moved").as_deref(),
            Some("Plant B")
        );
        assert_eq!(store.take_last_used().expect("gone"), None, "taken once");
        assert_eq!(store.load().expect("profiles kept").len(), 2);
        let text = std::fs::read_to_string(store.path()).expect("read");
        assert!(
            text.contains("\"theme\": \"dark\""),
            "other settings kept: {text}"
        );
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn a_profile_names_only_the_platforms_asset_types() {
        let mut json = serde_json::to_value(profile("P")).expect("JSON");
        json["asset_types"] = serde_json::json!(["tool", "site"]);
        let read: Profile = serde_json::from_value(json.clone()).expect("read");
        assert_eq!(
            read.asset_types,
            [aas_model::AssetType::TOOL, aas_model::AssetType::SITE]
        );
        json["asset_types"] = serde_json::json!(["tool", "Tools"]);
        let refused = serde_json::from_value::<Profile>(json).expect_err("refused");
        assert!(
            refused.to_string().contains("unknown asset type \"Tools\""),
            "{refused}"
        );
    }

    #[test]
    fn a_proxy_user_gets_the_password_from_the_keychain_and_the_file_never_has_it() {
        let mut with_proxy = profile("Behind a proxy");
        with_proxy.transport.proxy = Some("http://proxy.corp:3128".into());
        with_proxy.transport.proxy_user = Some("eng".into());
        let lookup = |kind| Ok(Some(Secret::new(format!("{kind:?}-value"))));
        let conn = with_proxy.connection(lookup).expect("connection");
        assert_eq!(
            conn.transport.proxy_password.as_ref().map(Secret::expose),
            Some("ProxyPassword-value")
        );
        let file = serde_json::to_string(&Profile {
            transport: conn.transport.clone(),
            ..with_proxy
        })
        .expect("json");
        assert!(
            file.contains("proxy.corp") && file.contains("\"eng\""),
            "{file}"
        );
        assert!(!file.contains("ProxyPassword-value"), "{file}");
        // No proxy user: the keychain is not asked for a proxy password.
        let asked = std::cell::Cell::new(0);
        profile("Direct")
            .connection(|kind| {
                asked.set(asked.get() + usize::from(kind == SecretKind::ProxyPassword));
                lookup(kind)
            })
            .expect("connection");
        assert_eq!(asked.get(), 0);
    }

    #[test]
    fn a_duplicate_gets_the_next_free_copy_name() {
        let dir = std::env::temp_dir().join(format!("aas-duplicate-{}", std::process::id()));
        let store = ProfileStore::at(dir.join("settings.json"));
        store.save(&[profile("Plant A")]).expect("save");
        assert_eq!(
            store.duplicate("Plant A").expect("copy").name,
            "Plant A (copy)"
        );
        let second = store.duplicate("Plant A").expect("copy");
        assert_eq!(second.name, "Plant A (copy 2)");
        assert_eq!(second.registry_url, "https://r");
        let names: Vec<String> = store
            .load()
            .expect("load")
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(names, ["Plant A", "Plant A (copy)", "Plant A (copy 2)"]);
        assert!(store.duplicate("Nope").is_err());
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn session_only_secrets_stay_in_memory_and_follow_a_copy() {
        // Only the memory side: neither call below reaches the OS keychain.
        let store = SecretStore::default();
        let name = format!("Session {}", std::process::id());
        for (kind, text) in [
            (SecretKind::ClientSecret, "s3cret"),
            (SecretKind::UserToken, "u53r"),
        ] {
            store
                .set(&name, kind, &Secret::new(text), true)
                .expect("kept in memory");
        }
        assert!(store.is_session_only(&name));
        let conn = store.connection(&profile(&name)).expect("connection");
        assert_eq!(conn.client_secret.expose(), "s3cret");
        assert_eq!(conn.user_token.expose(), "u53r");

        let copy = format!("{name} (copy)");
        store.copy(&name, &copy).expect("copied");
        assert!(store.is_session_only(&copy));
        assert_eq!(
            store.get(&copy, SecretKind::UserToken).expect("get"),
            Some(Secret::new("u53r"))
        );
    }
}
