//! `POST .../openid-connect/token` (client-credentials grant), `GET .../certs`, and the
//! realm's OpenID Connect discovery document.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use axum::extract::rejection::FormRejection;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::{Form, Json};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};

use super::{ApiError, AppState};

pub(super) async fn token(
    State(s): State<Arc<AppState>>,
    Path(realm): Path<String>,
    headers: HeaderMap,
    form: Result<Form<HashMap<String, String>>, FormRejection>,
) -> Result<Json<Value>, ApiError> {
    s.stats.token_request();
    known_realm(&s, &realm)?;
    let Form(form) = form.map_err(|e| {
        ApiError::bad_request(format!(
            "expected an application/x-www-form-urlencoded body: {}",
            e.body_text()
        ))
    })?;
    match form.get("grant_type").map(String::as_str) {
        Some("client_credentials") => {}
        Some(_) => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "unsupported_grant_type",
                "only the client_credentials grant is supported",
            ))
        }
        None => return Err(ApiError::bad_request("missing form field grant_type")),
    }
    let (client_id, secret) = match basic_credentials(&headers)? {
        Some(pair) => pair,
        None => {
            let field = |name: &str| {
                form.get(name)
                    .cloned()
                    .ok_or_else(|| ApiError::bad_request(format!("missing form field {name}")))
            };
            (field("client_id")?, field("client_secret")?)
        }
    };
    let app = s
        .app(&client_id)
        .filter(|app| app.secret_matches(&secret))
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "unauthorized_client",
                "invalid client or invalid client credentials",
            )
        })?;
    let access_token = s.issuer.mint_access(&app.client_id);
    s.issued.record(&access_token);
    Ok(Json(json!({
        "access_token": access_token,
        "expires_in": s.issuer.access_ttl().as_secs(),
        "refresh_expires_in": 0,
        "token_type": "Bearer",
        "not-before-policy": 0,
        "scope": "profile email",
    })))
}

/// The access tokens issued last, so that a test can search its files for the very
/// tokens a client was given (`GET /demo-service/admin/access-tokens`). Bounded; its Debug
/// shows only how many it holds.
#[derive(Default)]
pub(crate) struct IssuedTokens(Mutex<VecDeque<String>>);

impl IssuedTokens {
    const KEPT: usize = 256;

    fn record(&self, token: &str) {
        let mut tokens = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if tokens.len() == Self::KEPT {
            tokens.pop_front();
        }
        tokens.push_back(token.to_owned());
    }

    pub(super) fn list(&self) -> Vec<String> {
        let tokens = self.0.lock().unwrap_or_else(|e| e.into_inner());
        tokens.iter().cloned().collect()
    }
}

impl std::fmt::Debug for IssuedTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let held = self.0.lock().map_or(0, |t| t.len());
        write!(f, "IssuedTokens({held} held)")
    }
}

/// Client id and secret from `Authorization: Basic`, each form-urlencoded before base64
/// as RFC 6749 §2.3.1 says; `None` when the header is absent.
fn basic_credentials(headers: &HeaderMap) -> Result<Option<(String, String)>, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let bad = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized_client",
            "malformed Basic client authentication",
        )
    };
    let text = value.to_str().map_err(|_| bad())?;
    let Some(encoded) = text
        .strip_prefix("Basic ")
        .or_else(|| text.strip_prefix("basic "))
    else {
        return Ok(None);
    };
    let decoded = STANDARD.decode(encoded.trim()).map_err(|_| bad())?;
    let pair = String::from_utf8(decoded).map_err(|_| bad())?;
    let (id, secret) = pair.split_once(':').ok_or_else(bad)?;
    let unform = |s: &str| {
        percent_encoding::percent_decode_str(&s.replace('+', " "))
            .decode_utf8()
            .map(|c| c.into_owned())
            .map_err(|_| bad())
    };
    Ok(Some((unform(id)?, unform(secret)?)))
}

pub(super) async fn certs(
    State(s): State<Arc<AppState>>,
    Path(realm): Path<String>,
) -> Result<Json<Value>, ApiError> {
    known_realm(&s, &realm)?;
    Ok(Json(s.issuer.jwks()))
}

/// `GET {realm}/.well-known/openid-configuration`: where the token endpoint and the key
/// set are, as Keycloak announces them.
pub(super) async fn discovery(
    State(s): State<Arc<AppState>>,
    Path(realm): Path<String>,
) -> Result<Json<Value>, ApiError> {
    known_realm(&s, &realm)?;
    let issuer = s.issuer.access_issuer();
    Ok(Json(json!({
        "issuer": issuer,
        "token_endpoint": format!("{issuer}/protocol/openid-connect/token"),
        "jwks_uri": format!("{issuer}/protocol/openid-connect/certs"),
        "grant_types_supported": ["client_credentials"],
        "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
    })))
}

/// A realm other than the demo service's one is not found, as Keycloak answers it.
fn known_realm(s: &AppState, realm: &str) -> Result<(), ApiError> {
    if realm == s.realm {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "realm not found",
        ))
    }
}
