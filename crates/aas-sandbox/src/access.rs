//! The access model: applications (with hashed secrets and the asset types they
//! requested), customers and their plants, and one grant per (application, asset) that
//! the customer sets to allowed or denied.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::RwLock;

use aas_model::AssetType;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// An application registered on the platform. Its secret is kept only as a salted hash.
#[derive(Clone)]
pub struct Application {
    pub client_id: String,
    salt: [u8; 16],
    secret_hash: [u8; 32],
    pub requested: BTreeSet<AssetType>,
}

impl std::fmt::Debug for Application {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Application")
            .field("client_id", &self.client_id)
            .field("requested", &self.requested)
            .finish_non_exhaustive()
    }
}

fn hash(salt: &[u8], secret: &str) -> [u8; 32] {
    Sha256::new()
        .chain_update(salt)
        .chain_update(secret.as_bytes())
        .finalize()
        .into()
}

impl Application {
    pub fn new(
        client_id: &str,
        secret: &str,
        requested: impl IntoIterator<Item = AssetType>,
    ) -> Self {
        let salt: [u8; 16] = rand::random();
        Application {
            client_id: client_id.to_owned(),
            salt,
            secret_hash: hash(&salt, secret),
            requested: requested.into_iter().collect(),
        }
    }

    /// Compares in constant time, so response timing does not leak the secret.
    pub fn secret_matches(&self, candidate: &str) -> bool {
        hash(&self.salt, candidate).ct_eq(&self.secret_hash).into()
    }
}

/// A customer (tenant) of the platform and the plants it owns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Customer {
    pub tenant: String,
    pub plants: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Grant {
    Allowed,
    Denied,
}

/// How grants start when no state file holds them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrantSeed {
    /// As on the real platform: every requested asset starts denied.
    AllDenied,
    /// The demo customer's choice: everything allowed except these asset types.
    AllowedExcept(Vec<AssetType>),
}

/// Why the grants could not be read or saved.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("cannot read the state file {path}: {reason}")]
    Read { path: PathBuf, reason: String },
    #[error("cannot write the state file {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The grants, keyed by (client id, aasId), optionally persisted to a state file.
#[derive(Debug)]
pub struct Grants {
    map: RwLock<BTreeMap<(String, String), Grant>>,
    state_file: Option<PathBuf>,
}

#[derive(Serialize, Deserialize)]
struct StateFile {
    grants: Vec<StoredGrant>,
}

#[derive(Serialize, Deserialize)]
struct StoredGrant {
    client_id: String,
    aas_id: String,
    grant: Grant,
}

impl Grants {
    /// Grants for `assets` (pairs of aasId and type) of every application: from the state
    /// file when it exists, else from `seed`.
    pub fn new(
        apps: &[Application],
        assets: &[(String, AssetType)],
        seed: &GrantSeed,
        state_file: Option<PathBuf>,
    ) -> Result<Self, StateError> {
        let mut map = BTreeMap::new();
        for app in apps {
            for (aas_id, asset_type) in assets.iter().filter(|(_, t)| app.requested.contains(t)) {
                let grant = match seed {
                    GrantSeed::AllDenied => Grant::Denied,
                    GrantSeed::AllowedExcept(types) if types.contains(asset_type) => Grant::Denied,
                    GrantSeed::AllowedExcept(_) => Grant::Allowed,
                };
                map.insert((app.client_id.clone(), aas_id.clone()), grant);
            }
        }
        if let Some(path) = state_file.as_deref().filter(|p| p.exists()) {
            for g in read_state(path)?.grants {
                // Grants of assets or applications that no longer exist are dropped.
                if let Some(slot) = map.get_mut(&(g.client_id, g.aas_id)) {
                    *slot = g.grant;
                }
            }
        }
        Ok(Grants {
            map: RwLock::new(map),
            state_file,
        })
    }

    pub fn get(&self, client_id: &str, aas_id: &str) -> Option<Grant> {
        let map = self.map.read().unwrap_or_else(|e| e.into_inner());
        map.get(&(client_id.to_owned(), aas_id.to_owned())).copied()
    }

    pub fn is_allowed(&self, client_id: &str, aas_id: &str) -> bool {
        self.get(client_id, aas_id) == Some(Grant::Allowed)
    }

    /// Every (client id, aasId, grant), in a stable order.
    pub fn list(&self) -> Vec<(String, String, Grant)> {
        let map = self.map.read().unwrap_or_else(|e| e.into_inner());
        map.iter()
            .map(|((c, a), g)| (c.clone(), a.clone(), *g))
            .collect()
    }

    /// Sets one grant and saves the state file; `None` when there is no such
    /// (application, requested asset) pair.
    pub fn set(
        &self,
        client_id: &str,
        aas_id: &str,
        grant: Grant,
    ) -> Result<Option<Grant>, StateError> {
        let snapshot = {
            let mut map = self.map.write().unwrap_or_else(|e| e.into_inner());
            match map.get_mut(&(client_id.to_owned(), aas_id.to_owned())) {
                Some(slot) => *slot = grant,
                None => return Ok(None),
            }
            StateFile {
                grants: map
                    .iter()
                    .map(|((c, a), g)| StoredGrant {
                        client_id: c.clone(),
                        aas_id: a.clone(),
                        grant: *g,
                    })
                    .collect(),
            }
        };
        if let Some(path) = &self.state_file {
            write_atomically(path, &snapshot)?;
        }
        Ok(Some(grant))
    }
}

fn read_state(path: &Path) -> Result<StateFile, StateError> {
    let fail = |reason: String| StateError::Read {
        path: path.to_owned(),
        reason,
    };
    let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
    serde_json::from_str(&text).map_err(|e| fail(e.to_string()))
}

/// Writes a temporary file beside `path`, syncs it, then renames it over `path`: a crash
/// at any point leaves either the old file or the new one, never half of one.
fn write_atomically(path: &Path, state: &StateFile) -> Result<(), StateError> {
    let fail = |source| StateError::Write {
        path: path.to_owned(),
        source,
    };
    let json = serde_json::to_vec_pretty(state).map_err(|e| fail(std::io::Error::other(e)))?;
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    let write = || -> std::io::Result<()> {
        use std::io::Write;
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&json)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_checked_against_their_hash() {
        let app = Application::new("a", "s3cret", [AssetType::Tool]);
        assert!(app.secret_matches("s3cret"));
        assert!(!app.secret_matches("s3cret "));
        assert!(!format!("{app:?}").contains("s3cret"));
    }

    #[test]
    fn grants_start_from_the_seed_cover_only_requested_types_and_persist() {
        let dir = std::env::temp_dir().join(format!("aas-grants-{}", rand::random::<u64>()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("state.json");
        let apps = [Application::new(
            "a",
            "s",
            [AssetType::Tool, AssetType::User],
        )];
        let assets = [
            ("t1".to_owned(), AssetType::Tool),
            ("u1".to_owned(), AssetType::User),
            ("m1".to_owned(), AssetType::Machine),
        ];
        let seed = GrantSeed::AllowedExcept(vec![AssetType::User]);
        let grants = Grants::new(&apps, &assets, &seed, Some(path.clone())).expect("grants");
        assert!(grants.is_allowed("a", "t1"));
        assert_eq!(grants.get("a", "u1"), Some(Grant::Denied));
        assert_eq!(grants.get("a", "m1"), None, "machine was not requested");

        assert_eq!(
            grants.set("a", "t1", Grant::Denied).expect("saved"),
            Some(Grant::Denied)
        );
        assert_eq!(grants.set("a", "m1", Grant::Allowed).expect("no-op"), None);
        let reloaded = Grants::new(&apps, &assets, &seed, Some(path)).expect("reloaded");
        assert_eq!(reloaded.get("a", "t1"), Some(Grant::Denied));
        let leftovers: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
