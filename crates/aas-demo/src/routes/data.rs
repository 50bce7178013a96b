//! The registry and the six gateway routes (plus nested element paths): only what the
//! customer shared with the calling application, in plants the user may see.

use std::collections::HashMap;
use std::sync::Arc;

use aas_model::AssetType;
use axum::body::Body;
use axum::extract::{OriginalUri, Query, RawPathParams, State};
use axum::http::{header, StatusCode};
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};

use super::middleware::{access_token, faults, user_token};
use super::{ApiError, AppState, GATEWAY_PREFIX};
use crate::answers::{json_list, ServedAsset, ServedSubmodel};
use crate::keys::{AccessClaims, UserClaims};

type Shared = State<Arc<AppState>>;
type ApiResult = Result<Response, ApiError>;

fn json(body: impl Into<Body>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body.into()).into_response()
}

pub(super) fn routes(state: Arc<AppState>) -> Router<Arc<AppState>> {
    let aas = "/aasList/{aas_id}";
    let sm = "/aasList/{aas_id}/aas/submodels/{sm}";
    // Layers run outside in: faults, then the access token, then the user token.
    let gateway = Router::new()
        .route("/aasList", get(aas_list))
        .route(aas, get(shell))
        // BaSyx V1's addresses of the shell alone and the submodel alone, which the
        // registry's descriptors name as endpoints.
        .route(&format!("{aas}/aas"), get(shell))
        .route(&format!("{aas}/aas/submodels"), get(submodels))
        .route(sm, get(submodel))
        .route(&format!("{sm}/submodel"), get(submodel))
        .route(&format!("{sm}/submodel/submodelElements"), get(elements))
        .route(
            &format!("{sm}/submodel/submodelElements/{{*path}}"),
            get(element),
        )
        .route_layer(from_fn_with_state(state.clone(), user_token))
        .route_layer(from_fn_with_state(state.clone(), access_token))
        .route_layer(from_fn_with_state(state.clone(), faults));
    let registry = Router::new()
        .route("/api/v1/registry", get(registry))
        .route_layer(from_fn_with_state(state.clone(), access_token))
        .route_layer(from_fn_with_state(state, faults));
    Router::new().merge(registry).nest(GATEWAY_PREFIX, gateway)
}

async fn registry(State(s): Shared, Extension(app): Extension<AccessClaims>) -> ApiResult {
    let shared: Vec<_> = (s.plants.iter())
        .flat_map(|p| p.current())
        .filter(|a| s.shared_with(&app.azp, a))
        .collect();
    Ok(json(json_list(shared.iter().map(|a| &a.descriptor))))
}

async fn aas_list(
    State(s): Shared,
    Extension(app): Extension<AccessClaims>,
    Extension(user): Extension<UserClaims>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult {
    let param = |name: &'static str| {
        q.get(name)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| ApiError::bad_request(format!("query parameter {name} is required")))
    };
    let asset_type = AssetType::platform(param("AssetType")?)
        .map_err(|e| ApiError::bad_request(format!("AssetType: {e}")))?;
    let plant_code = param("PlantCode")?;
    if !user_may_see(&s, &user, plant_code) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            format!("the user token does not grant plant {plant_code}"),
        ));
    }
    let shells: Vec<_> = (s.plants.iter())
        .filter(|p| &p.code == plant_code)
        .flat_map(|p| p.current())
        .filter(|a| a.asset_type == asset_type && s.shared_with(&app.azp, a))
        .collect();
    Ok(json(json_list(shells.iter().map(|a| &a.shell))))
}

/// The plant belongs to the user's customer and is one of the user's plants.
fn user_may_see(s: &AppState, user: &UserClaims, plant: &str) -> bool {
    s.owner(plant) == Some(user.tenant.as_str()) && user.plants.iter().any(|p| p == plant)
}

/// The caller and the `{aas_id}`/`{sm}` of the path. Axum has percent-decoded the
/// parameters once already (`+` stays a plus): they must not be decoded again.
struct Target {
    asset: Arc<ServedAsset>,
    sm: Option<String>,
}

impl Target {
    fn find(
        s: &AppState,
        app: &AccessClaims,
        user: &UserClaims,
        raw: &RawPathParams,
    ) -> Result<Self, ApiError> {
        let param = |name: &str| {
            raw.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_owned())
        };
        let aas_id = param("aas_id").unwrap_or_default();
        let (plant, asset) = s.asset(&aas_id).ok_or_else(ApiError::not_found)?;
        if !user_may_see(s, user, &plant.code) || !s.shared_with(&app.azp, &asset) {
            return Err(ApiError::not_found());
        }
        Ok(Target {
            asset,
            sm: param("sm"),
        })
    }

    fn submodel(&self) -> Result<&ServedSubmodel, ApiError> {
        self.asset
            .submodel(self.sm.as_deref().unwrap_or_default())
            .ok_or_else(ApiError::not_found)
    }
}

type Caller = (Extension<AccessClaims>, Extension<UserClaims>);

async fn shell(
    State(s): Shared,
    (Extension(app), Extension(user)): Caller,
    raw: RawPathParams,
) -> ApiResult {
    Ok(json(
        Target::find(&s, &app, &user, &raw)?.asset.shell.clone(),
    ))
}

async fn submodels(
    State(s): Shared,
    (Extension(app), Extension(user)): Caller,
    raw: RawPathParams,
) -> ApiResult {
    let target = Target::find(&s, &app, &user, &raw)?;
    Ok(json(json_list(
        target.asset.submodels.iter().map(|sm| &sm.json),
    )))
}

async fn submodel(
    State(s): Shared,
    (Extension(app), Extension(user)): Caller,
    raw: RawPathParams,
) -> ApiResult {
    let target = Target::find(&s, &app, &user, &raw)?;
    Ok(json(target.submodel()?.json.clone()))
}

async fn elements(
    State(s): Shared,
    (Extension(app), Extension(user)): Caller,
    raw: RawPathParams,
) -> ApiResult {
    let target = Target::find(&s, &app, &user, &raw)?;
    Ok(json(target.submodel()?.elements()))
}

async fn element(
    State(s): Shared,
    (Extension(app), Extension(user)): Caller,
    raw: RawPathParams,
    uri: OriginalUri,
) -> ApiResult {
    let target = Target::find(&s, &app, &user, &raw)?;
    let submodel = target.submodel()?;
    // The nested element path is split on the `/` of the raw URI and each segment is
    // decoded once, so an idShort holding an encoded `%2F` stays one segment.
    const MARK: &str = "/submodel/submodelElements/";
    let rest = uri
        .path()
        .split_once(MARK)
        .map(|(_, rest)| rest)
        .unwrap_or_default();
    let path = rest
        .split('/')
        .map(|seg| {
            percent_encoding::percent_decode_str(seg)
                .decode_utf8()
                .map(|c| c.into_owned())
                .map_err(|_| ApiError::bad_request("path is not UTF-8 once decoded"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(json(
        submodel.element(&path).ok_or_else(ApiError::not_found)?,
    ))
}
