//! The status bar's one question: what the active connection has done so far.

use serde::Serialize;
use tauri::State;

use crate::error::IpcError;
use crate::state::AppState;

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

#[tauri::command]
pub async fn status(state: State<'_, AppState>) -> Result<StatusView, IpcError> {
    let session = state.session();
    let client = &session.client;
    let activity = client.activity();
    Ok(StatusView {
        profile: session.profile.name.clone(),
        token_expires_in: client.token_expires_in().await.map(|d| d.as_secs()),
        user_token_expiry: client.user_token_expiry(),
        requests: activity.requests,
        errors: activity.errors,
    })
}
