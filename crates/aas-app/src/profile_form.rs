//! What the Profiles dialog does with a profile: list, save (secrets to the keychain,
//! or to memory when the user chose so), remove, duplicate, connect to, and try one
//! as filled in. The form never sets the transport (see [`with_what_the_form_cannot_edit`]).

use aas_client::{check_url, CheckStep, Client, Secret};
use serde::{Deserialize, Serialize};

use crate::session::{ProfileView, Session, DEMO_PROFILE};
use crate::v3_profile::{v3_fields, v3_urls};
use crate::{App, Error, Profile, ProfileKind, ProfileStore, Result, SecretKind};

/// Longest name or URL accepted from the form.
const MAX_FIELD: usize = 2048;

#[derive(Debug, Serialize)]
pub struct ProfileList {
    pub builtin: String,
    pub saved: Vec<Profile>,
    pub active: String,
    /// The profile used when the app was last closed, to start on it again.
    pub last: Option<String>,
    /// The V3 server's profile read last, to read again over it.
    pub last_v3: Option<String>,
    /// Saved profiles whose secrets are kept in memory, for this session only.
    pub session_only: Vec<String>,
}

/// A profile as the form sends it; a secret left empty keeps the stored one.
#[derive(Debug, Deserialize)]
pub struct ProfileForm {
    pub profile: Profile,
    pub client_secret: Secret,
    pub user_token: Secret,
    /// For a proxy (set in the settings file) that wants a user and password.
    #[serde(default)]
    pub proxy_password: Option<Secret>,
    /// A V3 server's bearer token, or its API key.
    #[serde(default)]
    pub bearer_token: Option<Secret>,
    #[serde(default)]
    pub api_key: Option<Secret>,
}

impl ProfileForm {
    /// What was typed for `kind`, if anything.
    fn typed(&self, kind: SecretKind) -> Option<Secret> {
        let secret = match kind {
            SecretKind::ClientSecret => &self.client_secret,
            SecretKind::UserToken => &self.user_token,
            SecretKind::ProxyPassword => self.proxy_password.as_ref()?,
            SecretKind::BearerToken => self.bearer_token.as_ref()?,
            SecretKind::ApiKey => self.api_key.as_ref()?,
        };
        let text = secret.expose().trim();
        (!text.is_empty()).then(|| Secret::new(text))
    }
}

/// What the Profiles dialog asks, through one command (`{"what": "save", …}`): the
/// desktop shell passes it on.
#[derive(Debug, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum ProfileAsk {
    List,
    /// `session_only`: its secrets kept in memory, not the keychain.
    Save {
        form: Box<ProfileForm>,
        session_only: bool,
    },
    Delete {
        name: String,
    },
    Duplicate {
        name: String,
    },
    Use {
        name: String,
    },
}

/// The answer to a [`ProfileAsk`]; `Done` is JSON's null.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ProfileReply {
    List(ProfileList),
    Copy(Box<Profile>),
    Used(ProfileView),
    Done,
}

impl App {
    /// What the Profiles dialog asks, answered.
    pub fn profile(&self, ask: ProfileAsk) -> Result<ProfileReply> {
        Ok(match ask {
            ProfileAsk::List => ProfileReply::List(self.profiles()?),
            ProfileAsk::Save { form, session_only } => {
                self.save_profile(*form, session_only)?;
                ProfileReply::Done
            }
            ProfileAsk::Delete { name } => {
                self.delete_profile(&name)?;
                ProfileReply::Done
            }
            ProfileAsk::Duplicate { name } => {
                ProfileReply::Copy(Box::new(self.duplicate_profile(&name)?))
            }
            ProfileAsk::Use { name } => ProfileReply::Used(self.use_profile(&name)?),
        })
    }

    /// The saved profiles, and the one used last.
    pub fn profiles(&self) -> Result<ProfileList> {
        let store = ProfileStore::app_default()?;
        let saved = store.load()?;
        let session_only = saved
            .iter()
            .filter(|p| self.secrets.is_session_only(&p.name))
            .map(|p| p.name.clone())
            .collect();
        Ok(ProfileList {
            builtin: DEMO_PROFILE.into(),
            saved,
            active: self.session().profile.name,
            last: self.preferences().last_profile,
            last_v3: self.preferences().last_v3_profile,
            session_only,
        })
    }

    /// Saves the form's profile. Secrets go to the keychain, or to memory when
    /// `session_only` (the user's answer to "no keychain").
    pub fn save_profile(&self, form: ProfileForm, session_only: bool) -> Result<()> {
        let store = ProfileStore::app_default()?;
        let mut saved = store.load()?;
        let profile = with_what_the_form_cannot_edit(form.profile.clone(), &saved);
        validate(&profile)?;
        match saved.iter_mut().find(|p| p.name == profile.name) {
            Some(existing) => *existing = profile.clone(),
            None => saved.push(profile.clone()),
        }
        for kind in SecretKind::ALL {
            if let Some(secret) = form.typed(kind) {
                self.secrets
                    .set(&profile.name, kind, &secret, session_only)?;
            }
        }
        store.save(&saved)
    }

    pub fn delete_profile(&self, name: &str) -> Result<()> {
        let store = ProfileStore::app_default()?;
        let mut saved = store.load()?;
        saved.retain(|p| p.name != name);
        store.save(&saved)?;
        self.secrets.delete(name)
    }

    /// Saves a copy of profile `name`, its secrets included, and returns the copy.
    pub fn duplicate_profile(&self, name: &str) -> Result<Profile> {
        let copy = ProfileStore::app_default()?.duplicate(name)?;
        self.secrets.copy(name, &copy.name)?;
        Ok(copy)
    }

    /// Tries the form's profile (token, registry, one gateway call; of a V3 server:
    /// token, description, shells) without saving it; a secret left empty is the one
    /// stored for that profile name.
    pub async fn test_profile(&self, form: ProfileForm) -> Result<Vec<CheckStep>> {
        let saved = ProfileStore::app_default()?.load()?;
        let profile = with_what_the_form_cannot_edit(form.profile.clone(), &saved);
        validate(&profile)?;
        let lookup = |kind| match form.typed(kind) {
            Some(secret) => Ok(Some(secret)),
            None => self.secrets.get(&profile.name, kind),
        };
        if profile.kind == ProfileKind::V3Server {
            return Ok(profile.v3_server(lookup)?.check().await);
        }
        let conn = profile.connection(lookup)?;
        let client = Client::new(conn)?;
        Ok(client
            .check(profile.plants.first().map(String::as_str))
            .await)
    }

    /// Connects to a saved profile (its stored secrets), or back to the demo, and
    /// remembers it as the one used last.
    pub fn use_profile(&self, name: &str) -> Result<ProfileView> {
        let session = if name == DEMO_PROFILE {
            self.demo_session().ok_or_else(|| {
                Error::BadRequest("the built-in demo is not running in this program".into())
            })?
        } else {
            let profile = ProfileStore::app_default()?.find(name)?;
            if profile.kind == ProfileKind::V3Server {
                return Err(Error::BadRequest(format!(
                    "{name} is a V3 server's profile: it is read whole, not connected to"
                )));
            }
            let conn = self.secrets.connection(&profile)?;
            let types = profile.requested_types();
            Session::new(&profile.name, false, conn, profile.plants.clone(), &types)?
        };
        let view = session.profile.clone();
        self.switch(session);
        let mut preferences = self.preferences();
        preferences.last_profile = Some(name.to_owned());
        self.keep_preferences(&preferences)?;
        Ok(view)
    }
}

/// `profile` as the form sent it, with the transport settings (plain http to other
/// hosts, a company CA file) of the saved profile of that name (none for a new one), and
/// its requested asset types and token endpoint.
/// The page never sets them: they are edited in the settings file or through `aasmd`,
/// so a page cannot turn on clear-text tokens or make the app read a file it names.
fn with_what_the_form_cannot_edit(mut profile: Profile, saved: &[Profile]) -> Profile {
    let before = saved.iter().find(|p| p.name == profile.name);
    profile.transport = before.map(|p| p.transport.clone()).unwrap_or_default();
    // Nor does it edit the requested asset types or the token endpoint: kept as saved.
    if let Some(before) = before {
        profile.asset_types.clone_from(&before.asset_types);
        profile.token_url = profile.token_url.or_else(|| before.token_url.clone());
    }
    profile
}

fn validate(p: &Profile) -> Result<()> {
    // Named as the form labels them, so the user knows which to fill in.
    let mut fields = vec![("Name", p.name.as_str())];
    let urls = match p.kind {
        ProfileKind::Platform => {
            fields.extend([
                ("Registry URL", p.registry_url.as_str()),
                ("Gateway URL", &p.gateway_url),
                ("Token server URL", &p.auth_url),
                ("Realm", &p.realm),
                ("Client ID", &p.client_id),
            ]);
            vec![
                ("registry URL", p.registry_url.as_str()),
                ("gateway URL", &p.gateway_url),
                ("token server URL", &p.auth_url),
            ]
        }
        ProfileKind::V3Server => {
            fields.extend(v3_fields(p));
            v3_urls(p)
        }
    };
    let named = |test: fn(&str) -> bool| -> Vec<&str> {
        fields
            .iter()
            .filter(|(_, value)| test(value))
            .map(|(label, _)| *label)
            .collect()
    };
    let empty = named(|v| v.trim().is_empty());
    if !empty.is_empty() {
        return Err(Error::BadRequest(format!(
            "fill in {}: each is needed",
            empty.join(", ")
        )));
    }
    let long = named(|v| v.len() > MAX_FIELD);
    if !long.is_empty() {
        return Err(Error::BadRequest(format!(
            "{} must be at most {MAX_FIELD} characters long",
            long.join(", ")
        )));
    }
    if p.name == DEMO_PROFILE {
        return Err(Error::BadRequest(
            "that name belongs to the built-in demo profile".into(),
        ));
    }
    for (what, url) in urls {
        check_url(what, url, p.transport.allow_plain_http)?;
    }
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
            token_url: None,
            plants: vec![],
            asset_types: vec![],
            transport: aas_client::Transport {
                allow_plain_http,
                ca_file: ca_file.map(Into::into),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    #[test]
    fn saving_from_the_form_keeps_the_transport_of_the_settings_file() {
        let saved = [profile("Plant", true, Some("/etc/company-ca.pem"))];
        // The form has no such fields: what it sends has the defaults.
        let kept = with_what_the_form_cannot_edit(profile("Plant", false, None), &saved);
        assert_eq!(kept.transport, saved[0].transport);
        assert!(
            validate(&kept).is_ok(),
            "plain http stays allowed for this profile"
        );
    }

    #[test]
    fn missing_fields_are_named_as_the_form_labels_them() {
        let mut form = profile("Plant", true, None);
        form.gateway_url.clear();
        form.realm = "  ".into();
        let why = validate(&form).expect_err("two fields missing").to_string();
        assert_eq!(why, "fill in Gateway URL, Realm: each is needed");
        let mut form = profile("Plant", true, None);
        form.client_id = "c".repeat(MAX_FIELD + 1);
        let why = validate(&form).expect_err("too long").to_string();
        assert!(why.starts_with("Client ID must be at most 2048"), "{why}");
    }

    #[test]
    fn a_v3_servers_profile_needs_the_fields_of_its_authentication() {
        let mut form = Profile {
            name: "Server".into(),
            kind: ProfileKind::V3Server,
            v3: Some(crate::V3Settings {
                auth: crate::V3AuthKind::Oauth,
                ..Default::default()
            }),
            ..Default::default()
        };
        let why = validate(&form).expect_err("empty").to_string();
        assert_eq!(
            why,
            "fill in Server address or Registry address, Token URL, Client ID: each is needed"
        );
        form.v3 = Some(crate::V3Settings {
            address: "http://aas.example/api/v3.0".into(),
            auth: crate::V3AuthKind::ApiKey,
            api_key_header: "X-API-Key".into(),
            ..Default::default()
        });
        let why = validate(&form).expect_err("plain http").to_string();
        assert!(why.contains("server address"), "{why}");
        form.transport.allow_plain_http = true;
        validate(&form).expect("a keyed server over plain http where allowed");
    }

    #[test]
    fn the_page_cannot_set_the_transport() {
        let sent = with_what_the_form_cannot_edit(profile("New", true, Some("/etc/shadow")), &[]);
        assert_eq!(sent.transport, aas_client::Transport::default());
        assert!(
            validate(&sent).is_err(),
            "plain http to another host is refused"
        );
    }

    #[test]
    fn the_page_asks_as_api_js_writes() {
        let save = r#"{"what": "save", "session_only": true, "form": {"profile": {"name": "P",
            "registry_url": "https://r", "gateway_url": "https://g", "auth_url": "https://a",
            "realm": "x", "client_id": "c"}, "client_secret": "s", "user_token": ""}}"#;
        let asked: ProfileAsk = serde_json::from_str(save).expect("a save");
        assert!(
            matches!(&asked, ProfileAsk::Save { form, session_only: true } if form.profile.name == "P"),
            "{asked:?}"
        );
        let used: ProfileAsk =
            serde_json::from_str(r#"{"what": "use", "name": "P"}"#).expect("use");
        assert!(matches!(used, ProfileAsk::Use { name } if name == "P"));
        let done = serde_json::to_value(ProfileReply::Done).expect("json");
        assert_eq!(done, serde_json::Value::Null);
    }
}
