//! The access model: applications (with hashed secrets and the asset types they
//! requested), customers and their plants, and one grant per (application, asset) that
//! the customer sets to allowed or denied.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, RwLock};

use aas_model::AssetType;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::keys::KeyPair;

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
    /// The state file and the identity saved beside the grants.
    state: Option<(PathBuf, Identity)>,
    /// Held from a save's snapshot to its rename, so saves never overlap: the one that
    /// renames last took its snapshot last, and no two write one temporary file.
    saving: Mutex<()>,
}

#[derive(Serialize, Deserialize)]
struct StateFile {
    grants: Vec<StoredGrant>,
    #[serde(default)]
    identity: Option<Identity>,
}

/// What a restarted demo service keeps so that its clients carry on: the signing key (the
/// tokens it issued stay valid) and the applications' client secrets. Server-side
/// secrets, kept as a real platform keeps them in its own store: in the state file,
/// readable by its owner only.
#[derive(Clone, Serialize, Deserialize)]
pub struct Identity {
    /// PKCS#1 DER of the RSA private key, base64.
    signing_key: String,
    client_secrets: BTreeMap<String, String>,
}

impl std::fmt::Debug for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Identity")
            .field("clients", &self.client_secrets.keys())
            .finish_non_exhaustive()
    }
}

impl Identity {
    /// The identity saved in `path`, or `key` when there is none yet; each of `apps`
    /// gets its saved secret (a new one is added to the identity).
    pub fn restore(
        path: &Path,
        key: &KeyPair,
        apps: &mut [crate::AppSpec],
    ) -> Result<Identity, StateError> {
        let saved = match path.exists() {
            true => read_state(path)?.identity,
            false => None,
        };
        let mut identity = saved.unwrap_or_else(|| Identity {
            signing_key: STANDARD.encode(key.der()),
            client_secrets: BTreeMap::new(),
        });
        for app in apps {
            let secret = identity
                .client_secrets
                .entry(app.client_id.clone())
                .or_insert_with(|| app.client_secret.clone());
            app.client_secret.clone_from(secret);
        }
        Ok(identity)
    }

    pub fn keys(&self, path: &Path) -> Result<KeyPair, StateError> {
        STANDARD
            .decode(&self.signing_key)
            .map_err(|e| e.to_string())
            .and_then(|der| KeyPair::from_der(&der))
            .map_err(|reason| StateError::Read {
                path: path.to_owned(),
                reason: format!("signing key: {reason}"),
            })
    }
}

#[derive(Serialize, Deserialize)]
struct StoredGrant {
    client_id: String,
    aas_id: String,
    grant: Grant,
}

impl Grants {
    /// Grants for `assets` (pairs of aasId and type) of every application: from the state
    /// file when it exists, else from `seed`. The state file is written at once, so the
    /// identity is kept even if no grant ever changes.
    pub fn new(
        apps: &[Application],
        assets: &[(String, AssetType)],
        seed: &GrantSeed,
        state: Option<(PathBuf, Identity)>,
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
        if let Some((path, _)) = state.as_ref().filter(|(p, _)| p.exists()) {
            for g in read_state(path)?.grants {
                // Grants of assets or applications that no longer exist are dropped.
                if let Some(slot) = map.get_mut(&(g.client_id, g.aas_id)) {
                    *slot = g.grant;
                }
            }
        }
        let grants = Grants {
            map: RwLock::new(map),
            state,
            saving: Mutex::new(()),
        };
        grants.save()?;
        Ok(grants)
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
        {
            let mut map = self.map.write().unwrap_or_else(|e| e.into_inner());
            match map.get_mut(&(client_id.to_owned(), aas_id.to_owned())) {
                Some(slot) => *slot = grant,
                None => return Ok(None),
            }
        }
        self.save()?;
        Ok(Some(grant))
    }

    /// Writes the grants and the identity to the state file, if there is one.
    fn save(&self) -> Result<(), StateError> {
        let Some((path, identity)) = &self.state else {
            return Ok(());
        };
        let _saving = self.saving.lock().unwrap_or_else(|e| e.into_inner());
        let snapshot = StateFile {
            grants: self
                .list()
                .into_iter()
                .map(|(client_id, aas_id, grant)| StoredGrant {
                    client_id,
                    aas_id,
                    grant,
                })
                .collect(),
            identity: Some(identity.clone()),
        };
        write_atomically(path, &snapshot)
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

/// Writes a new file beside `path` (created exclusively under a name nobody can guess:
/// [`aas_model::NewFile`]), syncs it, then renames it over `path`: a crash at any point
/// leaves either the old file or the new one, never half of one.
fn write_atomically(path: &Path, state: &StateFile) -> Result<(), StateError> {
    let fail = |source| StateError::Write {
        path: path.to_owned(),
        source,
    };
    let json = serde_json::to_vec_pretty(state).map_err(|e| fail(std::io::Error::other(e)))?;
    let write = || -> std::io::Result<()> {
        use std::io::Write;
        // It holds the signing key and the client secrets: for its owner only.
        let mut file = aas_model::NewFile::beside(path, aas_model::Access::Owner)?;
        file.write_all(&json)?;
        file.put_in_place()
    };
    write().map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_checked_against_their_hash() {
        let app = Application::new("a", "s3cret", [AssetType::TOOL]);
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
            [AssetType::TOOL, AssetType::USER],
        )];
        let assets = [
            ("t1".to_owned(), AssetType::TOOL),
            ("u1".to_owned(), AssetType::USER),
            ("m1".to_owned(), AssetType::MACHINE),
        ];
        let seed = GrantSeed::AllowedExcept(vec![AssetType::USER]);
        let mut specs = [crate::AppSpec::demo()];
        let identity = Identity::restore(&path, &crate::keys::key_pair(), &mut specs).expect("new");
        let state = Some((path.clone(), identity));
        let grants = Grants::new(&apps, &assets, &seed, state).expect("grants");
        assert!(grants.is_allowed("a", "t1"));
        assert_eq!(grants.get("a", "u1"), Some(Grant::Denied));
        assert_eq!(grants.get("a", "m1"), None, "machine was not requested");

        assert_eq!(
            grants.set("a", "t1", Grant::Denied).expect("saved"),
            Some(Grant::Denied)
        );
        assert_eq!(grants.set("a", "m1", Grant::Allowed).expect("no-op"), None);
        let mut restarted = [crate::AppSpec::demo()];
        let identity =
            Identity::restore(&path, &crate::keys::key_pair(), &mut restarted).expect("restored");
        assert_eq!(restarted[0].client_secret, specs[0].client_secret);
        let reloaded =
            Grants::new(&apps, &assets, &seed, Some((path.clone(), identity))).expect("reloaded");
        assert_eq!(reloaded.get("a", "t1"), Some(Grant::Denied));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o077, 0, "only the owner may read the state file");
        }
        let leftovers: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn concurrent_grant_changes_leave_a_state_file_that_matches_the_grants() {
        let dir = std::env::temp_dir().join(format!("aas-grants-{}", rand::random::<u64>()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("state.json");
        let apps = [Application::new("a", "s", [AssetType::TOOL])];
        let assets: Vec<(String, AssetType)> = (0..50)
            .map(|i| (format!("t{i}"), AssetType::TOOL))
            .collect();
        let mut specs = [crate::AppSpec::demo()];
        let identity = Identity::restore(&path, &crate::keys::key_pair(), &mut specs).expect("new");
        let grants = Grants::new(
            &apps,
            &assets,
            &GrantSeed::AllDenied,
            Some((path.clone(), identity)),
        )
        .expect("grants");
        std::thread::scope(|scope| {
            for (aas_id, _) in &assets {
                let grants = &grants;
                scope.spawn(move || grants.set("a", aas_id, Grant::Allowed).expect("saved"));
            }
        });
        let saved: BTreeMap<(String, String), Grant> = read_state(&path)
            .expect("the state file parses")
            .grants
            .into_iter()
            .map(|g| ((g.client_id, g.aas_id), g.grant))
            .collect();
        let now: BTreeMap<(String, String), Grant> = grants
            .list()
            .into_iter()
            .map(|(c, a, g)| ((c, a), g))
            .collect();
        assert_eq!(saved, now, "the file holds every change");
        assert!(saved.values().all(|g| *g == Grant::Allowed));
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
