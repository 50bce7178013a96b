//! The HTTP surface on one router: token endpoint and key set, registry, gateway,
//! admin surface and stats. The handlers live in the submodules.

mod admin;
mod data;
mod middleware;
mod token;
mod v3;

use std::collections::HashMap;
use std::sync::Arc;

use arc_swap::ArcSwapOption;

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;

use crate::access::{Application, Customer, Grants};
use crate::answers::{ServedAsset, ServedPlant};
use crate::faults::Faults;
use crate::keys::Issuer;
use crate::stats::Stats;

/// Everything the handlers share. Its Debug shows no secret.
pub(crate) struct AppState {
    pub issuer: Issuer,
    pub realm: String,
    pub apps: Vec<Application>,
    pub customers: Vec<Customer>,
    pub plants: Vec<ServedPlant>,
    /// aasId -> (plant index, asset index), so lookups do not scan every plant.
    pub index: HashMap<String, (usize, usize)>,
    pub grants: Grants,
    pub admin_token: String,
    pub stats: Stats,
    pub issued: token::IssuedTokens,
    /// Admin changes one at a time (reads take no lock: see `answers`).
    pub editing: std::sync::Mutex<()>,
    pub faults: Option<Faults>,
    /// The application whose shares the V3 server serves; `None`: no V3 server.
    pub v3_client: Option<String>,
    /// The V3 server wants an access token of `v3_client`.
    pub v3_sign_in: bool,
    /// Its address (`http://HOST:PORT/api/v3.0`), which its registry's endpoints name.
    pub v3_url: String,
    /// Submodel id -> the aasIds of the assets that hold it, for the V3 server.
    pub submodel_owners: HashMap<String, Vec<String>>,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("issuer", &self.issuer)
            .field("realm", &self.realm)
            .field("apps", &self.apps)
            .field("plants", &self.plants.len())
            .finish_non_exhaustive()
    }
}

impl AppState {
    pub fn app(&self, client_id: &str) -> Option<&Application> {
        self.apps.iter().find(|a| a.client_id == client_id)
    }

    pub fn owner(&self, plant: &str) -> Option<&str> {
        self.customers
            .iter()
            .find(|c| c.plants.iter().any(|p| p == plant))
            .map(|c| c.tenant.as_str())
    }

    /// Whether the customer allowed `asset` to the application `client_id`, for an
    /// asset type the application requested.
    pub fn shared_with(&self, client_id: &str, asset: &ServedAsset) -> bool {
        self.app(client_id)
            .is_some_and(|app| app.requested.contains(&asset.asset_type))
            && self.grants.is_allowed(client_id, &asset.aas_id)
    }

    /// The asset `aas_id` as it is now, and its plant; `None` when unknown or removed.
    pub fn asset(&self, aas_id: &str) -> Option<(&ServedPlant, Arc<ServedAsset>)> {
        let (plant, slot) = self.slot(aas_id)?;
        Some((plant, slot.load_full()?))
    }

    /// Whether the V3 server serves `asset`.
    pub fn v3_serves(&self, asset: &ServedAsset) -> bool {
        self.v3_client
            .as_deref()
            .is_some_and(|client| self.shared_with(client, asset))
    }

    /// Where the asset `aas_id`'s answers are kept, for an admin's change.
    pub fn slot(&self, aas_id: &str) -> Option<(&ServedPlant, &ArcSwapOption<ServedAsset>)> {
        let (p, a) = *self.index.get(aas_id)?;
        let plant = &self.plants[p];
        Some((plant, &plant.assets[a]))
    }
}

/// Gateway routes sit under this prefix of the one port; see `gateway_url`.
pub(crate) const GATEWAY_PREFIX: &str = "/gateway";

pub(crate) use v3::V3_PREFIX;

/// Every route; the token server's under `auth_prefix` (`/auth` or ``).
pub(crate) fn router(state: Arc<AppState>, auth_prefix: &str) -> Router {
    let realm = format!("{auth_prefix}/realms/{{realm}}");
    let token_routes = Router::new()
        .route(
            &format!("{realm}/protocol/openid-connect/token"),
            post(token::token),
        )
        .route(
            &format!("{realm}/protocol/openid-connect/certs"),
            get(token::certs),
        )
        .route(
            &format!("{realm}/.well-known/openid-configuration"),
            get(token::discovery),
        );
    let admin = admin::routes(state.clone());
    let mut router = Router::new();
    if state.v3_client.is_some() {
        // The faults (latency included) fall on the V3 server as on the gateway.
        let faults = axum::middleware::from_fn_with_state(state.clone(), middleware::faults);
        let mut v3 = v3::routes();
        if state.v3_sign_in {
            let signed_in = axum::middleware::from_fn_with_state(state.clone(), v3::signed_in);
            v3 = v3.route_layer(signed_in);
        }
        router = router.nest(V3_PREFIX, v3.route_layer(faults));
    }
    router
        .merge(token_routes)
        .merge(data::routes(state.clone()))
        .nest("/demo-service/admin", admin)
        .route("/demo-service/stats", get(stats))
        .fallback(|| async { ApiError::not_found() })
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            middleware::count,
        ))
        .with_state(state)
}

async fn stats(
    axum::extract::State(s): axum::extract::State<Arc<AppState>>,
) -> Json<serde_json::Value> {
    Json(s.stats.snapshot())
}

/// An error answer: status and the `{error, error_description}` body.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    error: &'static str,
    description: String,
}

impl ApiError {
    pub fn new(status: StatusCode, error: &'static str, description: impl Into<String>) -> Self {
        ApiError {
            status,
            error,
            description: description.into(),
        }
    }

    pub fn bad_request(description: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_request", description)
    }

    /// Deliberately the same for "does not exist" and "not shared", so ids cannot be probed.
    pub fn not_found() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "no such resource, or it is not shared with this application",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Json(json!({"error": self.error, "error_description": self.description}));
        if self.error == "invalid_token" {
            let challenge = [(header::WWW_AUTHENTICATE, r#"Bearer error="invalid_token""#)];
            (self.status, challenge, body).into_response()
        } else {
            (self.status, body).into_response()
        }
    }
}
