//! Request checks shared by several routes: counting, tokens, injected faults.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq;

use super::{ApiError, AppState};
use crate::faults::Fault;

type Shared = State<Arc<AppState>>;

/// Answers above this size are not cut by the `truncate` fault into a useful half.
const MAX_BODY: usize = 64 * 1024 * 1024;

pub(super) fn bearer(headers: &HeaderMap, name: impl header::AsHeaderName) -> Option<&str> {
    let value = headers.get(name)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

/// Counts every answer by route pattern and status, for `/demo-service/stats`.
pub(super) async fn count(State(s): Shared, req: Request, next: Next) -> Response {
    let route = match req.extensions().get::<MatchedPath>() {
        Some(p) => format!("{} {}", req.method(), p.as_str()),
        None => format!("{} (no route)", req.method()),
    };
    let response = next.run(req).await;
    let status = response.status().as_u16();
    // Route patterns only: paths hold ids, headers hold tokens; neither is logged.
    tracing::debug!(%route, status, "answered");
    s.stats.request(route, status);
    response
}

/// Needs a valid access token; passes its claims on to the handler.
pub(super) async fn access_token(
    State(s): Shared,
    mut req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let invalid = |why: String| ApiError::new(StatusCode::UNAUTHORIZED, "invalid_token", why);
    let token = bearer(req.headers(), header::AUTHORIZATION)
        .ok_or_else(|| invalid("missing Authorization: Bearer header".into()))?;
    let claims = s.issuer.verify_access(token).map_err(|e| invalid(e.0))?;
    req.extensions_mut().insert(claims);
    Ok(next.run(req).await)
}

/// Needs a valid user token; passes its claims on to the handler.
pub(super) async fn user_token(
    State(s): Shared,
    mut req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let invalid = |why: String| ApiError::new(StatusCode::UNAUTHORIZED, "invalid_user_token", why);
    let token = bearer(req.headers(), "UserToken")
        .ok_or_else(|| invalid("missing UserToken: Bearer header".into()))?;
    let claims = s.issuer.verify_user(token).map_err(|e| invalid(e.0))?;
    req.extensions_mut().insert(claims);
    Ok(next.run(req).await)
}

/// Needs the admin token.
pub(super) async fn admin_token(
    State(s): Shared,
    req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let given = bearer(req.headers(), header::AUTHORIZATION).unwrap_or_default();
    if bool::from(given.as_bytes().ct_eq(s.admin_token.as_bytes())) {
        Ok(next.run(req).await)
    } else {
        Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "invalid_token",
            "the admin surface needs the admin token",
        ))
    }
}

/// Injects the configured faults in front of the data routes.
pub(super) async fn faults(State(s): Shared, req: Request, next: Next) -> Response {
    let Some(faults) = &s.faults else {
        return next.run(req).await;
    };
    let (delay, fault) = faults.draw();
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    let Some(fault) = fault else {
        return next.run(req).await;
    };
    s.stats.fault(fault.name());
    match fault {
        Fault::Error(code) => {
            let status = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            ApiError::new(status, "server_error", "injected fault").into_response()
        }
        Fault::Throttle => {
            let mut r = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                "injected fault",
            )
            .into_response();
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(faults.retry_after()));
            r
        }
        Fault::Drop => cut_off(Bytes::new()),
        Fault::Truncate => {
            let full = axum::body::to_bytes(next.run(req).await.into_body(), MAX_BODY)
                .await
                .unwrap_or_default();
            cut_off(full.slice(..full.len() / 2))
        }
        Fault::Garbage => {
            let _ = next.run(req).await;
            (
                [(header::CONTENT_TYPE, "application/json")],
                "{\"idShort\": \"trunc",
            )
                .into_response()
        }
    }
}

/// A 200 whose body sends `head` and then fails, so the connection is cut mid-answer.
fn cut_off(head: Bytes) -> Response {
    let chunks: Vec<Result<Bytes, std::io::Error>> = vec![
        Ok(head),
        Err(std::io::Error::other("injected fault: connection cut")),
    ];
    let body = Body::from_stream(futures_util::stream::iter(chunks));
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}
