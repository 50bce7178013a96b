//! A connection from a saved profile or a connection file, with fields replaced from
//! the command line: one typed path for `aasmd` and anything else that connects.

use std::path::PathBuf;

use aas_client::{ClientAuth, Connection, Secret, Transport};
use aas_model::{AssetType, FileError};
use serde::Deserialize;

use crate::{Error, Keychain, ProfileStore, Result, SecretKind};

/// Where a connection's settings start from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsFrom {
    /// A profile saved by the desktop app: its settings, its secrets from the keychain.
    Profile(String),
    /// A JSON file with the fields of the demo service's start-up line.
    File(PathBuf),
    /// Nothing: every field comes from the overrides.
    Nothing,
}

/// Fields that replace the source's, one by one (command-line flags, and the secrets
/// from the environment).
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub registry_url: Option<String>,
    pub gateway_url: Option<String>,
    pub auth_url: Option<String>,
    pub realm: Option<String>,
    pub client_id: Option<String>,
    pub client_secret: Option<Secret>,
    pub user_token: Option<Secret>,
    pub client_auth: Option<ClientAuth>,
    pub token_url: Option<String>,
    /// Only turns plain http on: a source that allows it keeps it.
    pub allow_plain_http: bool,
    pub ca_file: Option<PathBuf>,
    /// A proxy replacing the source's (and the environment's), its user and password.
    pub proxy: Option<String>,
    pub proxy_user: Option<String>,
    pub proxy_password: Option<Secret>,
}

/// A connection whose fields may still be missing.
#[derive(Debug, Default, Deserialize)]
struct Partial {
    registry_url: Option<String>,
    gateway_url: Option<String>,
    auth_url: Option<String>,
    realm: Option<String>,
    client_id: Option<String>,
    client_secret: Option<Secret>,
    user_token: Option<Secret>,
    client_auth: Option<ClientAuth>,
    token_url: Option<String>,
    #[serde(flatten)]
    transport: Transport,
}

impl SettingsFrom {
    /// The connection of this source with `overrides` applied; a missing field is an
    /// error that names it and says how to give it.
    pub fn connection(&self, overrides: Overrides) -> Result<Connection> {
        let mut c = self.partial(&overrides)?;
        let o = overrides;
        replace(&mut c.registry_url, o.registry_url);
        replace(&mut c.gateway_url, o.gateway_url);
        replace(&mut c.auth_url, o.auth_url);
        replace(&mut c.realm, o.realm);
        replace(&mut c.client_id, o.client_id);
        replace(&mut c.client_secret, o.client_secret);
        replace(&mut c.user_token, o.user_token);
        replace(&mut c.client_auth, o.client_auth);
        replace(&mut c.token_url, o.token_url);
        replace(&mut c.transport.ca_file, o.ca_file);
        replace(&mut c.transport.proxy, o.proxy);
        replace(&mut c.transport.proxy_user, o.proxy_user);
        replace(&mut c.transport.proxy_password, o.proxy_password);
        c.transport.allow_plain_http |= o.allow_plain_http;
        let missing: Vec<&str> = [
            ("registry_url", c.registry_url.is_none()),
            ("gateway_url", c.gateway_url.is_none()),
            ("auth_url", c.auth_url.is_none()),
            ("realm", c.realm.is_none()),
            ("client_id", c.client_id.is_none()),
            ("client_secret", c.client_secret.is_none()),
            ("user_token", c.user_token.is_none()),
        ]
        .into_iter()
        .filter_map(|(name, absent)| absent.then_some(name))
        .collect();
        let (
            Some(registry_url),
            Some(gateway_url),
            Some(auth_url),
            Some(realm),
            Some(client_id),
            Some(client_secret),
            Some(user_token),
        ) = (
            c.registry_url,
            c.gateway_url,
            c.auth_url,
            c.realm,
            c.client_id,
            c.client_secret,
            c.user_token,
        )
        else {
            return Err(Error::IncompleteConnection { missing });
        };
        Ok(Connection {
            registry_url,
            gateway_url,
            auth_url,
            realm,
            client_id,
            client_secret,
            user_token,
            client_auth: c.client_auth.unwrap_or_default(),
            token_url: c.token_url,
            transport: c.transport,
        })
    }

    /// The name snapshots taken through `conn` are recorded under: the profile's, else
    /// the client and the registry's host, so that two platforms (or two runs of the
    /// demo) never mix.
    pub fn snapshot_source(&self, conn: &Connection) -> String {
        match self {
            SettingsFrom::Profile(name) => name.clone(),
            _ => {
                let url = conn.registry_url.as_str();
                let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
                let host = rest.split('/').next().unwrap_or(rest);
                format!("{}@{} ({host})", conn.client_id, conn.realm)
            }
        }
    }

    /// The asset types to query: those a profile's application requested, else all.
    pub fn requested_types(&self) -> Result<Vec<AssetType>> {
        match self {
            SettingsFrom::Profile(name) => {
                Ok(ProfileStore::app_default()?.find(name)?.requested_types())
            }
            _ => Ok(AssetType::PLATFORM.to_vec()),
        }
    }

    /// The source's fields; a profile's secrets from the keychain, but for those
    /// `overrides` replaces: a scheduled take on a server without a keychain gives them
    /// in the environment.
    fn partial(&self, overrides: &Overrides) -> Result<Partial> {
        match self {
            SettingsFrom::Nothing => Ok(Partial::default()),
            SettingsFrom::File(path) => {
                let text = std::fs::read_to_string(path).map_err(|source| FileError {
                    action: "read",
                    path: path.clone(),
                    source,
                })?;
                serde_json::from_str(&text).map_err(|source| Error::NotSettings {
                    what: "a connection file",
                    path: path.clone(),
                    source,
                })
            }
            SettingsFrom::Profile(name) => {
                let mut p = ProfileStore::app_default()?.find(name)?;
                let keychain = |given: &Option<Secret>, kind| match given {
                    Some(_) => Ok(None),
                    None => Keychain.get(name, kind),
                };
                if p.transport.proxy_user.is_some() {
                    p.transport.proxy_password =
                        keychain(&overrides.proxy_password, SecretKind::ProxyPassword)?;
                }
                Ok(Partial {
                    client_secret: keychain(&overrides.client_secret, SecretKind::ClientSecret)?,
                    user_token: keychain(&overrides.user_token, SecretKind::UserToken)?,
                    registry_url: Some(p.registry_url),
                    gateway_url: Some(p.gateway_url),
                    auth_url: Some(p.auth_url),
                    realm: Some(p.realm),
                    client_id: Some(p.client_id),
                    client_auth: Some(p.client_auth),
                    token_url: p.token_url,
                    transport: p.transport,
                })
            }
        }
    }
}

fn replace<T>(field: &mut Option<T>, with: Option<T>) {
    if with.is_some() {
        *field = with;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dir: &tempfile::TempDir, json: &str) -> SettingsFrom {
        let path = dir.path().join("connection.json");
        std::fs::write(&path, json).expect("write");
        SettingsFrom::File(path)
    }

    #[test]
    fn flags_replace_the_files_fields_and_missing_ones_are_named() {
        let dir = tempfile::tempdir().expect("a folder");
        let source = file(
            &dir,
            r#"{"registry_url":"http://127.0.0.1:1","gateway_url":"http://127.0.0.1:1/g","auth_url":"http://127.0.0.1:1","realm":"r","client_id":"c","client_secret":"s","user_token":"u","plants":["P"]}"#,
        );
        let conn = source
            .connection(Overrides {
                realm: Some("other".into()),
                user_token: Some(Secret::new("from-env")),
                client_auth: Some(ClientAuth::Basic),
                ..Overrides::default()
            })
            .expect("complete");
        assert_eq!(conn.realm, "other");
        assert_eq!(conn.client_id, "c");
        assert_eq!(conn.user_token.expose(), "from-env");
        assert_eq!(conn.client_auth, ClientAuth::Basic);

        let err = SettingsFrom::Nothing
            .connection(Overrides {
                realm: Some("r".into()),
                ..Overrides::default()
            })
            .expect_err("incomplete")
            .to_string();
        assert!(
            err.contains(
                "missing registry_url, gateway_url, auth_url, client_id, client_secret, user_token"
            ),
            "{err}"
        );
    }
}
