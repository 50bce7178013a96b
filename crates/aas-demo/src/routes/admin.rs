//! The admin surface (loopback, admin token): list and change grants as the customer
//! would, mint user tokens as the platform's web page would, and change the plant (an
//! element's value, an asset removed) so that snapshots have something to compare.
//! Tests and the demo drive it.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::Path;
use axum::extract::State;
use axum::http::StatusCode;
use axum::middleware::from_fn_with_state;
use axum::routing::{delete, get, patch, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::middleware::admin_token;
use super::{ApiError, AppState};
use crate::access::Grant;
use crate::answers::EditRefused;

type Shared = State<Arc<AppState>>;

pub(super) fn routes(state: Arc<AppState>) -> Router<Arc<AppState>> {
    Router::new()
        .route("/grants", get(list_grants).put(set_grant))
        .route("/user-tokens", post(mint_user_token))
        .route("/access-tokens", get(issued_access_tokens))
        .route("/elements", patch(set_element_value))
        .route("/assets/{aas_id}", delete(remove_asset))
        .route_layer(from_fn_with_state(state, admin_token))
}

async fn list_grants(State(s): Shared) -> Json<Value> {
    let grants: Vec<Value> = s
        .grants
        .list()
        .into_iter()
        .map(|(client_id, aas_id, grant)| {
            let (plant, asset) = s
                .asset(&aas_id)
                .map_or((None, None), |(p, a)| (Some(&p.code), Some(a)));
            json!({
                "client_id": client_id,
                "aas_id": aas_id,
                "tenant": plant.and_then(|p| s.owner(p)),
                "plant": plant,
                "asset_type": asset.map(|a| a.asset_type.clone()),
                "grant": grant,
            })
        })
        .collect();
    Json(Value::from(grants))
}

#[derive(Deserialize)]
struct GrantChange {
    client_id: String,
    aas_id: String,
    grant: Grant,
}

fn json_body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(b)| b)
        .map_err(|e| ApiError::bad_request(e.body_text()))
}

async fn set_grant(
    State(s): Shared,
    body: Result<Json<GrantChange>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let change = json_body(body)?;
    let saved = s
        .grants
        .set(&change.client_id, &change.aas_id, change.grant)
        .map_err(|e| {
            ApiError::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                "server_error",
                e.to_string(),
            )
        })?;
    match saved {
        Some(grant) => Ok(Json(
            json!({"client_id": change.client_id, "aas_id": change.aas_id, "grant": grant}),
        )),
        None => Err(ApiError::not_found()),
    }
}

#[derive(Deserialize)]
struct UserTokenRequest {
    tenant: String,
    user: String,
    plants: Vec<String>,
    #[serde(default = "default_user_ttl")]
    ttl_secs: u64,
}

fn default_user_ttl() -> u64 {
    8 * 3600
}

async fn mint_user_token(
    State(s): Shared,
    body: Result<Json<UserTokenRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let req = json_body(body)?;
    let token = s.issuer.mint_user(
        &req.tenant,
        &req.user,
        &req.plants,
        Duration::from_secs(req.ttl_secs),
    );
    Ok(Json(json!({"user_token": token})))
}

/// The access tokens the service issued last (at most 256), oldest first.
async fn issued_access_tokens(State(s): Shared) -> Json<Value> {
    Json(json!({"access_tokens": s.issued.list()}))
}

#[derive(Deserialize)]
struct ValueChange {
    aas_id: String,
    submodel: String,
    path: Vec<String>,
    /// A Property's value (a string) or a MultiLanguageProperty's `[{language, text}]`.
    value: Value,
}

/// `PATCH /demo-service/admin/elements`: sets one element's value; 204, 404 when unknown,
/// 400 for other element types. Only that asset's answers are serialised again.
async fn set_element_value(
    State(s): Shared,
    body: Result<Json<ValueChange>, JsonRejection>,
) -> Result<StatusCode, ApiError> {
    let change = json_body(body)?;
    let _one_at_a_time = s.editing.lock().unwrap_or_else(|e| e.into_inner());
    let (_, slot) = s.slot(&change.aas_id).ok_or_else(ApiError::not_found)?;
    let current = slot.load_full().ok_or_else(ApiError::not_found)?;
    let changed = current
        .with_value(&change.submodel, &change.path, change.value)
        .map_err(|refused| match refused {
            EditRefused::NotFound => ApiError::not_found(),
            EditRefused::WrongType(why) => ApiError::bad_request(why),
        })?;
    slot.store(Some(Arc::new(changed)));
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /demo-service/admin/assets/{aasId}`: the asset is gone from every list and
/// answer; 204, 404 when unknown.
async fn remove_asset(
    State(s): Shared,
    Path(aas_id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let _one_at_a_time = s.editing.lock().unwrap_or_else(|e| e.into_inner());
    let (_, slot) = s.slot(&aas_id).ok_or_else(ApiError::not_found)?;
    slot.swap(None).ok_or_else(ApiError::not_found)?;
    Ok(StatusCode::NO_CONTENT)
}
