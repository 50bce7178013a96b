use std::sync::{Arc, Mutex};

use aas_client::{Client, ClientAuth, Connection, Crawl, Secret};
use aas_sandbox::{Config, Sandbox};
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::error::StartError;

/// What the app is connected to. The demo sandbox lives here so it runs as long as
/// the app does.
#[derive(Debug)]
pub struct AppState {
    pub client: Arc<Client>,
    pub profile: ProfileView,
    /// Cancels the "load everything" crawl that is running, if one is.
    pub loading: Mutex<Option<CancellationToken>>,
    /// What the last "load everything" fetched, for export.
    pub loaded: Mutex<Option<Crawl>>,
    _sandbox: Sandbox,
}

/// The non-secret part of the active profile, for the UI.
#[derive(Debug, Clone, Serialize)]
pub struct ProfileView {
    pub name: String,
    pub gateway_url: String,
    pub plants: Vec<String>,
    pub asset_types: Vec<&'static str>,
}

impl AppState {
    /// The built-in demo profile: a sandbox in this process on a random loopback port.
    pub async fn demo() -> Result<Self, StartError> {
        let sandbox = Sandbox::start(Config::default()).await?;
        let info = sandbox.info();
        let client = Client::new(Connection {
            registry_url: info.registry_url.clone(),
            gateway_url: info.gateway_url.clone(),
            auth_url: info.auth_url.clone(),
            realm: info.realm.clone(),
            client_id: info.client_id.clone(),
            client_secret: Secret::new(info.client_secret.clone()),
            user_token: Secret::new(info.user_token.clone()),
            client_auth: ClientAuth::Form,
        })?;
        let profile = ProfileView {
            name: "Demo platform (built in)".into(),
            gateway_url: info.gateway_url.clone(),
            plants: info.plants.clone(),
            asset_types: aas_model::AssetType::ALL.iter().map(|t| t.code()).collect(),
        };
        Ok(AppState {
            client: Arc::new(client),
            profile,
            loading: Mutex::new(None),
            loaded: Mutex::new(None),
            _sandbox: sandbox,
        })
    }
}
