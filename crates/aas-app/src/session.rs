//! What the app is connected to: the active profile's client, and the built-in demo
//! service, which lives as long as the app so the demo profile can always be switched
//! back to.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, RwLock};

use aas_client::{Client, ClientAuth, Connection, Secret};
use aas_model::AssetType;
use aas_sandbox::{Config, Sandbox};
use serde::Serialize;

use crate::jobs::Jobs;
use crate::snapshots::ShellTypes;
use crate::{snapshot_store_path, Result, SecretStore};

/// The name under which the built-in demo profile appears.
pub const DEMO_PROFILE: &str = "Demo platform (built in)";

/// The application's state, shared by every command of a front end.
#[derive(Debug)]
pub struct App {
    session: RwLock<Session>,
    demo: Session,
    /// Secrets of saved profiles: the keychain, or memory for session-only ones.
    pub(crate) secrets: SecretStore,
    pub(crate) jobs: Jobs,
    /// The snapshot store's file, shared with `aasmd`.
    pub(crate) store_path: PathBuf,
    pub(crate) shell_types: ShellTypes,
    /// The file the last export wrote, for "Show in folder".
    pub(crate) last_export: Mutex<Option<PathBuf>>,
    _sandbox: Sandbox,
}

/// One connected profile: its client and what the UI may know of it.
#[derive(Debug, Clone)]
pub struct Session {
    pub client: Arc<Client>,
    pub profile: ProfileView,
}

/// The non-secret part of the active profile, for the UI.
#[derive(Debug, Clone, Serialize)]
pub struct ProfileView {
    pub name: String,
    pub builtin: bool,
    pub gateway_url: String,
    pub plants: Vec<String>,
    pub asset_types: Vec<&'static str>,
}

impl Session {
    /// A session of `conn`, offering `plants` and the `asset_types` its application
    /// requested.
    pub fn new(
        name: &str,
        builtin: bool,
        conn: Connection,
        plants: Vec<String>,
        asset_types: &[AssetType],
    ) -> Result<Self> {
        let profile = ProfileView {
            name: name.to_owned(),
            builtin,
            gateway_url: conn.gateway_url.clone(),
            plants,
            asset_types: asset_types.iter().map(|t| t.code()).collect(),
        };
        Ok(Session {
            client: Arc::new(Client::new(conn)?),
            profile,
        })
    }
}

impl App {
    /// Starts on the built-in demo profile: a service in this process on a random
    /// loopback port.
    pub async fn start_with_demo() -> Result<Self> {
        let sandbox = Sandbox::start(Config::default()).await?;
        let info = sandbox.info();
        let conn = Connection {
            registry_url: info.registry_url.clone(),
            gateway_url: info.gateway_url.clone(),
            auth_url: info.auth_url.clone(),
            realm: info.realm.clone(),
            client_id: info.client_id.clone(),
            client_secret: Secret::new(info.client_secret.clone()),
            user_token: Secret::new(info.user_token.clone()),
            client_auth: ClientAuth::Form,
            token_url: None,
            transport: Default::default(),
        };
        let demo = Session::new(
            DEMO_PROFILE,
            true,
            conn,
            info.plants.clone(),
            &AssetType::ALL,
        )?;
        Ok(App {
            session: RwLock::new(demo.clone()),
            demo,
            secrets: SecretStore::default(),
            jobs: Jobs::default(),
            store_path: snapshot_store_path()?,
            shell_types: ShellTypes::default(),
            last_export: Mutex::new(None),
            _sandbox: sandbox,
        })
    }

    /// The active session.
    pub fn session(&self) -> Session {
        self.session
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub(crate) fn demo_session(&self) -> Session {
        self.demo.clone()
    }

    /// Makes `session` the active one.
    pub(crate) fn switch(&self, session: Session) {
        *self.session.write().unwrap_or_else(|e| e.into_inner()) = session;
    }
}

/// A poisoned lock only means another command panicked; the data is still usable.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the status bar shows; no secret, only lifetimes and counts.
#[derive(Debug, Serialize)]
pub struct StatusView {
    pub profile: String,
    /// Seconds the current access token has left; `None` before the first request.
    pub token_expires_in: Option<u64>,
    /// The user token's `exp` (Unix seconds) when it is a JWT.
    pub user_token_expiry: Option<u64>,
    pub requests: u64,
    pub errors: u64,
}

impl App {
    /// What the active connection has done so far.
    pub async fn status(&self) -> StatusView {
        let session = self.session();
        let client = &session.client;
        let activity = client.activity();
        StatusView {
            profile: session.profile.name.clone(),
            token_expires_in: client.token_expires_in().await.map(|d| d.as_secs()),
            user_token_expiry: client.user_token_expiry(),
            requests: activity.requests,
            errors: activity.errors,
        }
    }
}
