//! One connected profile: its client and what the page may know of it. The built-in
//! demo is one way to make a session (see `App::start_with_demo`).

use std::sync::Arc;

use aas_client::{Client, Connection};
use aas_model::AssetType;
use serde::Serialize;

use crate::Result;

/// The name under which the built-in demo profile appears.
pub const DEMO_PROFILE: &str = "Demo platform (built in)";

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
    pub asset_types: Vec<String>,
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
            asset_types: asset_types.iter().map(|t| t.code().to_owned()).collect(),
        };
        Ok(Session {
            client: Arc::new(Client::new(conn)?),
            profile,
        })
    }

    /// The name its snapshots are recorded under: the profile's.
    pub fn snapshot_source(&self) -> &str {
        &self.profile.name
    }
}
