use std::sync::{Arc, Mutex, RwLock};

use aas_client::{Client, ClientAuth, Connection, Crawl, Secret};
use aas_sandbox::{Config, Sandbox};
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::error::StartError;

/// The name under which the built-in demo profile appears.
pub const DEMO_PROFILE: &str = "Demo platform (built in)";

/// What the app is connected to. The demo sandbox lives here so it runs as long as
/// the app does, and the demo profile can always be switched back to.
#[derive(Debug)]
pub struct AppState {
    session: RwLock<Session>,
    demo: Session,
    /// Cancels the "load everything" crawl that is running, if one is.
    pub loading: Mutex<Option<CancellationToken>>,
    /// What the last "load everything" fetched, for export.
    pub loaded: Mutex<Option<Crawl>>,
    /// The file the last export wrote, for "Show in folder".
    pub last_export: Mutex<Option<std::path::PathBuf>>,
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
    pub fn new(
        name: &str,
        builtin: bool,
        conn: Connection,
        plants: Vec<String>,
    ) -> Result<Self, aas_client::Error> {
        let profile = ProfileView {
            name: name.to_owned(),
            builtin,
            gateway_url: conn.gateway_url.clone(),
            plants,
            asset_types: aas_model::AssetType::ALL.iter().map(|t| t.code()).collect(),
        };
        Ok(Session {
            client: Arc::new(Client::new(conn)?),
            profile,
        })
    }
}

impl AppState {
    /// Starts on the built-in demo profile: a sandbox in this process on a random
    /// loopback port.
    pub async fn demo() -> Result<Self, StartError> {
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
            transport: Default::default(),
        };
        let demo = Session::new(DEMO_PROFILE, true, conn, info.plants.clone())?;
        Ok(AppState {
            session: RwLock::new(demo.clone()),
            demo,
            loading: Mutex::new(None),
            loaded: Mutex::new(None),
            last_export: Mutex::new(None),
            _sandbox: sandbox,
        })
    }

    pub fn session(&self) -> Session {
        self.session
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn demo_session(&self) -> Session {
        self.demo.clone()
    }

    /// Makes `session` the active one; what was loaded for the previous one is dropped.
    pub fn switch(&self, session: Session) {
        *self.session.write().unwrap_or_else(|e| e.into_inner()) = session;
        *self.loaded.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}
