//! Connection profiles: the settings in the app's settings file, the client secret and
//! the user token in the OS keychain (never in the file, the logs or the webview).

use aas_client::{check_url, Keychain, Profile, ProfileStore, Secret, SecretKind};
use serde::Serialize;
use tauri::State;

use crate::error::IpcError;
use crate::state::{AppState, ProfileView, Session, DEMO_PROFILE};

type Reply<T> = Result<T, IpcError>;

/// Longest name or URL accepted from the form.
const MAX_FIELD: usize = 2048;

#[derive(Debug, Serialize)]
pub struct ProfileList {
    pub builtin: String,
    pub saved: Vec<Profile>,
    pub active: String,
    /// The profile used when the app was last closed, to start on it again.
    pub last: Option<String>,
}

#[tauri::command]
pub fn list_profiles(state: State<'_, AppState>) -> Reply<ProfileList> {
    let store = ProfileStore::app_default()?;
    Ok(ProfileList {
        builtin: DEMO_PROFILE.into(),
        saved: store.load()?,
        active: state.session().profile.name,
        last: store.last_used()?,
    })
}

/// Saves `profile`; a secret left empty keeps the one already in the keychain.
#[tauri::command]
pub fn save_profile(profile: Profile, client_secret: String, user_token: String) -> Reply<()> {
    validate(&profile)?;
    let store = ProfileStore::app_default()?;
    let mut saved = store.load()?;
    match saved.iter_mut().find(|p| p.name == profile.name) {
        Some(existing) => *existing = profile.clone(),
        None => saved.push(profile.clone()),
    }
    for (kind, secret) in [
        (SecretKind::ClientSecret, client_secret),
        (SecretKind::UserToken, user_token),
    ] {
        let secret = secret.trim();
        if !secret.is_empty() {
            Keychain.set(&profile.name, kind, &Secret::new(secret))?;
        }
    }
    store.save(&saved)?;
    Ok(())
}

#[tauri::command]
pub fn delete_profile(name: String) -> Reply<()> {
    let store = ProfileStore::app_default()?;
    let mut saved = store.load()?;
    saved.retain(|p| p.name != name);
    store.save(&saved)?;
    Keychain.delete(&name, SecretKind::ClientSecret)?;
    Keychain.delete(&name, SecretKind::UserToken)?;
    Ok(())
}

/// Connects to a saved profile (its secrets from the keychain), or back to the demo.
#[tauri::command]
pub fn use_profile(state: State<'_, AppState>, name: String) -> Reply<ProfileView> {
    let session = if name == DEMO_PROFILE {
        state.demo_session()
    } else {
        let profile = ProfileStore::app_default()?.find(&name)?;
        let conn = Keychain.connection(&profile)?;
        Session::new(&profile.name, false, conn, profile.plants.clone())?
    };
    let view = session.profile.clone();
    state.switch(session);
    ProfileStore::app_default()?.set_last_used(&name)?;
    Ok(view)
}

fn validate(p: &Profile) -> Reply<()> {
    let fields = [
        &p.name,
        &p.registry_url,
        &p.gateway_url,
        &p.auth_url,
        &p.realm,
        &p.client_id,
    ];
    if fields
        .iter()
        .any(|f| f.trim().is_empty() || f.len() > MAX_FIELD)
    {
        return Err(IpcError::bad_request(
            "every field is needed, each shorter than 2048 characters",
        ));
    }
    if p.name == DEMO_PROFILE {
        return Err(IpcError::bad_request(
            "that name belongs to the built-in demo profile",
        ));
    }
    check_url("registry URL", &p.registry_url)?;
    check_url("gateway URL", &p.gateway_url)?;
    check_url("token server URL", &p.auth_url)?;
    Ok(())
}
