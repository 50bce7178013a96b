//! Connection profiles: the settings in the app's settings file, the client secret and
//! the user token in the OS keychain (never in the file, the logs or the webview), or,
//! where no keychain is reachable and the user chose so, in memory for this session.

use aas_client::{
    check_url, CheckStep, Client, Profile, ProfileStore, Secret, SecretKind, SecretStore,
};
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
    /// Saved profiles whose secrets are kept in memory, for this session only.
    pub session_only: Vec<String>,
}

#[tauri::command]
pub fn list_profiles(
    state: State<'_, AppState>,
    secrets: State<'_, SecretStore>,
) -> Reply<ProfileList> {
    let store = ProfileStore::app_default()?;
    let saved = store.load()?;
    let session_only = saved
        .iter()
        .filter(|p| secrets.is_session_only(&p.name))
        .map(|p| p.name.clone())
        .collect();
    Ok(ProfileList {
        builtin: DEMO_PROFILE.into(),
        saved,
        active: state.session().profile.name,
        last: store.last_used()?,
        session_only,
    })
}

/// Saves `profile`; a secret left empty keeps the one already stored. Secrets go to
/// the keychain, or to memory when `session_only` (the user's answer to "no keychain").
#[tauri::command]
pub fn save_profile(
    secrets: State<'_, SecretStore>,
    profile: Profile,
    client_secret: String,
    user_token: String,
    session_only: bool,
) -> Reply<()> {
    let store = ProfileStore::app_default()?;
    let mut saved = store.load()?;
    let profile = with_saved_transport(profile, &saved);
    validate(&profile)?;
    match saved.iter_mut().find(|p| p.name == profile.name) {
        Some(existing) => *existing = profile.clone(),
        None => saved.push(profile.clone()),
    }
    for (kind, secret) in [
        (SecretKind::ClientSecret, &client_secret),
        (SecretKind::UserToken, &user_token),
    ] {
        if let Some(secret) = typed(secret) {
            secrets.set(&profile.name, kind, &secret, session_only)?;
        }
    }
    store.save(&saved)?;
    Ok(())
}

#[tauri::command]
pub fn delete_profile(secrets: State<'_, SecretStore>, name: String) -> Reply<()> {
    let store = ProfileStore::app_default()?;
    let mut saved = store.load()?;
    saved.retain(|p| p.name != name);
    store.save(&saved)?;
    secrets.delete(&name)?;
    Ok(())
}

/// Saves a copy of profile `name`, its secrets included, and returns the copy.
#[tauri::command]
pub fn duplicate_profile(secrets: State<'_, SecretStore>, name: String) -> Reply<Profile> {
    let copy = ProfileStore::app_default()?.duplicate(&name)?;
    secrets.copy(&name, &copy.name)?;
    Ok(copy)
}

/// Tries the profile as filled in (token, registry, one gateway call) without saving
/// it; a secret left empty is the one stored for that profile name.
#[tauri::command]
pub async fn test_connection(
    secrets: State<'_, SecretStore>,
    profile: Profile,
    client_secret: String,
    user_token: String,
) -> Reply<Vec<CheckStep>> {
    let profile = with_saved_transport(profile, &ProfileStore::app_default()?.load()?);
    validate(&profile)?;
    let conn = profile.connection(|kind| {
        let form = match kind {
            SecretKind::ClientSecret => &client_secret,
            SecretKind::UserToken => &user_token,
        };
        match typed(form) {
            Some(secret) => Ok(Some(secret)),
            None => secrets.get(&profile.name, kind),
        }
    })?;
    let client = Client::new(conn)?;
    Ok(client
        .check(profile.plants.first().map(String::as_str))
        .await)
}

/// Connects to a saved profile (its stored secrets), or back to the demo.
#[tauri::command]
pub fn use_profile(
    state: State<'_, AppState>,
    secrets: State<'_, SecretStore>,
    name: String,
) -> Reply<ProfileView> {
    let session = if name == DEMO_PROFILE {
        state.demo_session()
    } else {
        let profile = ProfileStore::app_default()?.find(&name)?;
        let conn = secrets.connection(&profile)?;
        Session::new(&profile.name, false, conn, profile.plants.clone())?
    };
    let view = session.profile.clone();
    state.switch(session);
    ProfileStore::app_default()?.set_last_used(&name)?;
    Ok(view)
}

/// `profile` as the form sent it, with the transport settings (plain http to other
/// hosts, a company CA file) of the saved profile of that name, or none for a new one.
/// The page never sets them: they are edited in the settings file or through `aasmd`,
/// so a page cannot turn on clear-text tokens or make the app read a file it names.
fn with_saved_transport(mut profile: Profile, saved: &[Profile]) -> Profile {
    profile.transport = saved
        .iter()
        .find(|p| p.name == profile.name)
        .map(|p| p.transport.clone())
        .unwrap_or_default();
    profile
}

/// A secret as typed in the form; empty means "keep the stored one".
fn typed(text: &str) -> Option<Secret> {
    let text = text.trim();
    (!text.is_empty()).then(|| Secret::new(text))
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
    let plain = p.transport.allow_plain_http;
    check_url("registry URL", &p.registry_url, plain)?;
    check_url("gateway URL", &p.gateway_url, plain)?;
    check_url("token server URL", &p.auth_url, plain)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(name: &str, allow_plain_http: bool, ca_file: Option<&str>) -> Profile {
        Profile {
            name: name.into(),
            registry_url: "http://plant.example/registry".into(),
            gateway_url: "http://plant.example/gateway".into(),
            auth_url: "http://plant.example/auth".into(),
            realm: "r".into(),
            client_id: "c".into(),
            client_auth: Default::default(),
            plants: vec![],
            transport: aas_client::Transport {
                allow_plain_http,
                ca_file: ca_file.map(Into::into),
            },
        }
    }

    #[test]
    fn saving_from_the_form_keeps_the_transport_of_the_settings_file() {
        let saved = [profile("Plant", true, Some("/etc/company-ca.pem"))];
        // The form has no such fields: what it sends has the defaults.
        let kept = with_saved_transport(profile("Plant", false, None), &saved);
        assert_eq!(kept.transport, saved[0].transport);
        assert!(
            validate(&kept).is_ok(),
            "plain http stays allowed for this profile"
        );
    }

    #[test]
    fn the_page_cannot_set_the_transport() {
        let sent = with_saved_transport(profile("New", true, Some("/etc/shadow")), &[]);
        assert_eq!(sent.transport, aas_client::Transport::default());
        assert!(
            validate(&sent).is_err(),
            "plain http to another host is refused"
        );
    }
}
