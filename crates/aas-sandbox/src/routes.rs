//! The HTTP surface: token endpoint, registry and the six gateway routes, on one router.

use std::collections::HashMap;
use std::sync::Arc;

use aas_model::AssetType;
use axum::extract::rejection::FormRejection;
use axum::extract::{OriginalUri, Query, RawPathParams, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use serde_json::{json, Value};

use crate::auth::{Credentials, Tokens};
use crate::plant::{Asset, Plant};

#[derive(Debug)]
pub(crate) struct AppState {
    pub creds: Credentials,
    pub tokens: Tokens,
    pub plants: Vec<Plant>,
    pub gateway_url: String,
}

type Shared = State<Arc<AppState>>;

/// Gateway routes sit under this prefix of the one port; see `gateway_url`.
pub(crate) const GATEWAY_PREFIX: &str = "/gateway";

pub(crate) fn router(state: Arc<AppState>) -> Router {
    let aas = "/aasList/{aas_id}";
    let sm = "/aasList/{aas_id}/aas/submodels/{sm}";
    let gateway = Router::new()
        .route("/aasList", get(aas_list))
        .route(aas, get(shell))
        .route(&format!("{aas}/aas/submodels"), get(submodels))
        .route(sm, get(submodel))
        .route(&format!("{sm}/submodel/submodelElements"), get(elements))
        .route(
            &format!("{sm}/submodel/submodelElements/{{*path}}"),
            get(element),
        )
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            require_user_token,
        ))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            require_access_token,
        ));
    let registry = Router::new()
        .route("/api/v1/registry", get(registry))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            require_access_token,
        ));
    Router::new()
        .route(
            "/auth/realms/{realm}/protocol/openid-connect/token",
            post(token),
        )
        .merge(registry)
        .nest(GATEWAY_PREFIX, gateway)
        .with_state(state)
}

/// An error answer: status and the `{error, error_description}` body.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    error: &'static str,
    description: String,
}

impl ApiError {
    fn new(status: StatusCode, error: &'static str, description: impl Into<String>) -> Self {
        ApiError {
            status,
            error,
            description: description.into(),
        }
    }

    /// Deliberately the same for "does not exist" and "not allowed", so ids cannot be probed.
    fn not_found() -> Self {
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

type ApiResult = Result<Json<Value>, ApiError>;

async fn token(
    State(s): Shared,
    axum::extract::Path(realm): axum::extract::Path<String>,
    form: Result<Form<HashMap<String, String>>, FormRejection>,
) -> Result<Response, ApiError> {
    if realm != s.creds.realm {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "realm not found",
        ));
    }
    let Form(form) =
        form.map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "invalid_request", e.body_text()))?;
    let field = |name: &'static str| {
        form.get(name).ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                format!("missing form field {name}"),
            )
        })
    };
    if field("grant_type")? != "client_credentials" {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "only the client_credentials grant is supported",
        ));
    }
    if *field("client_id")? != s.creds.client_id
        || *field("client_secret")? != s.creds.client_secret
    {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized_client",
            "invalid client or invalid client credentials",
        ));
    }
    Ok(Json(json!({
        "access_token": s.tokens.issue(),
        "expires_in": s.tokens.ttl().as_secs(),
        "refresh_expires_in": 0,
        "token_type": "Bearer",
        "not-before-policy": 0,
        "scope": "profile email",
    }))
    .into_response())
}

fn bearer<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    let value = headers.get(name)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

async fn require_access_token(
    State(s): Shared,
    req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    match bearer(req.headers(), header::AUTHORIZATION.as_str()) {
        Some(t) if s.tokens.is_valid(t) => Ok(next.run(req).await),
        Some(_) => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "invalid_token",
            "the access token is invalid or expired",
        )),
        None => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "invalid_token",
            "missing Authorization: Bearer header",
        )),
    }
}

async fn require_user_token(
    State(s): Shared,
    req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    match bearer(req.headers(), "UserToken") {
        Some(t) if t == s.creds.user_token => Ok(next.run(req).await),
        _ => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "invalid_user_token",
            "missing or invalid UserToken: Bearer header",
        )),
    }
}

async fn registry(State(s): Shared) -> ApiResult {
    let all = s.plants.iter().flat_map(|p| &p.assets);
    Ok(Json(all.map(|a| a.descriptor(&s.gateway_url)).collect()))
}

async fn aas_list(State(s): Shared, Query(q): Query<HashMap<String, String>>) -> ApiResult {
    let param = |name: &'static str| {
        q.get(name).filter(|v| !v.is_empty()).ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                format!("query parameter {name} is required"),
            )
        })
    };
    let asset_type: AssetType =
        param("AssetType")?
            .parse()
            .map_err(|e: aas_model::UnknownAssetType| {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_request",
                    format!("AssetType: {e}"),
                )
            })?;
    let plant_code = param("PlantCode")?;
    let plant = s
        .plants
        .iter()
        .find(|p| &p.code == plant_code)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::FORBIDDEN,
                "forbidden",
                "the user token does not grant this plant",
            )
        })?;
    let shells = plant.assets.iter().filter(|a| a.asset_type == asset_type);
    Ok(Json(shells.map(|a| a.shell.clone()).collect()))
}

/// Path parameters. Axum has percent-decoded them once already (`+` stays a plus):
/// they must not be decoded again.
struct Params(HashMap<String, String>);

impl Params {
    fn read(raw: &RawPathParams) -> Self {
        Params(
            raw.iter()
                .map(|(name, value)| (name.to_owned(), value.to_owned()))
                .collect(),
        )
    }

    fn get(&self, name: &str) -> &str {
        self.0.get(name).map(String::as_str).unwrap_or_default()
    }

    fn asset<'s>(&self, s: &'s AppState) -> Result<&'s Asset, ApiError> {
        let id = self.get("aas_id");
        s.plants
            .iter()
            .flat_map(|p| &p.assets)
            .find(|a| a.aas_id == id)
            .ok_or_else(ApiError::not_found)
    }

    fn submodel<'s>(&self, s: &'s AppState) -> Result<(&'s Asset, &'s Value), ApiError> {
        let asset = self.asset(s)?;
        let sm = asset
            .submodel(self.get("sm"))
            .ok_or_else(ApiError::not_found)?;
        Ok((asset, sm))
    }
}

fn decode(segment: &str) -> Result<String, ApiError> {
    percent_encoding::percent_decode_str(segment)
        .decode_utf8()
        .map(|s| s.into_owned())
        .map_err(|_| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "path is not UTF-8 once decoded",
            )
        })
}

async fn shell(State(s): Shared, raw: RawPathParams) -> ApiResult {
    Ok(Json(Params::read(&raw).asset(&s)?.shell.clone()))
}

async fn submodels(State(s): Shared, raw: RawPathParams) -> ApiResult {
    Ok(Json(Value::from(
        Params::read(&raw).asset(&s)?.submodels.clone(),
    )))
}

async fn submodel(State(s): Shared, raw: RawPathParams) -> ApiResult {
    Ok(Json(Params::read(&raw).submodel(&s)?.1.clone()))
}

async fn elements(State(s): Shared, raw: RawPathParams) -> ApiResult {
    let (_, sm) = Params::read(&raw).submodel(&s)?;
    Ok(Json(
        sm.get("submodelElements").cloned().unwrap_or(json!([])),
    ))
}

async fn element(State(s): Shared, raw: RawPathParams, uri: OriginalUri) -> ApiResult {
    // The nested element path is split on the `/` of the raw URI and each segment is
    // decoded once, so an idShort holding an encoded `%2F` stays one segment.
    const MARK: &str = "/submodel/submodelElements/";
    let rest = uri
        .path()
        .split_once(MARK)
        .map(|(_, rest)| rest)
        .unwrap_or_default();
    let path = rest.split('/').map(decode).collect::<Result<Vec<_>, _>>()?;
    let params = Params::read(&raw);
    let (asset, _) = params.submodel(&s)?;
    let found = asset
        .element(params.get("sm"), &path)
        .ok_or_else(ApiError::not_found)?;
    Ok(Json(found.clone()))
}
