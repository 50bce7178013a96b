//! The application's state, shared by every command of a front end: the active session,
//! the snapshot store, the preferences, the job slot, and the built-in demo service when
//! the app started with it (it lives as long as the app, so the demo profile can always
//! be switched back to).

use std::path::PathBuf;
use std::sync::{Mutex, RwLock};

use aas_client::{ClientAuth, Connection, Secret};
use aas_demo::{Config, DemoService};
use aas_model::AssetType;
use serde::Serialize;

use crate::jobs::{FileReadings, Jobs};
use crate::open_table::TableState;
use crate::preferences::{InMemory, PreferenceStore};
use crate::session::{Session, DEMO_PROFILE};
use crate::stores::Stores;
use crate::{
    lock, Error, PreferenceChange, Preferences, ProfileStore, Result, SecretStore, SnapshotStore,
};

#[derive(Debug)]
pub struct App {
    session: RwLock<Session>,
    demo: Option<Demo>,
    /// Secrets of saved profiles: the keychain, or memory for session-only ones.
    pub(crate) secrets: SecretStore,
    pub(crate) jobs: Jobs,
    /// The file being opened (source/file.rs).
    pub(crate) file_readings: FileReadings,
    /// This computer's snapshot file and the team store (stores.rs).
    pub(crate) stores: Stores,
    pub(crate) preferences: Box<dyn PreferenceStore>,
    /// The file the last export wrote, for "Show in folder".
    pub(crate) last_export: Mutex<Option<PathBuf>>,
    /// The Table tab's (open_table.rs).
    pub(crate) table: TableState,
    /// The audit the Quality view shows, kept so its groups open without auditing again.
    pub(crate) audit: Mutex<Option<crate::plant_audit::PlantAudit>>,
    /// The AAS file the tree browses, if one was opened.
    pub(crate) opened_file: Mutex<Option<std::sync::Arc<crate::opened_file::OpenedFile>>>,
    /// Where contents opened in the system's viewer are written: this run's own
    /// temporary folder, removed when the app ends (view_content.rs).
    pub(crate) viewed: Mutex<Option<crate::viewed_folder::ViewedFolder>>,
}

/// The built-in demo service and its session.
#[derive(Debug)]
struct Demo {
    session: Session,
    /// The same plant as an AAS V3 server (the demo service's Part 2 routes).
    v3_url: Option<String>,
    _demo_service: DemoService,
}

impl App {
    /// An app connected to `session`, keeping snapshots in `store`, its preferences in
    /// memory until [`App::with_preferences`] names where they live.
    pub fn new(session: Session, store: SnapshotStore) -> Self {
        App {
            session: RwLock::new(session),
            demo: None,
            secrets: SecretStore::default(),
            jobs: Jobs::default(),
            file_readings: FileReadings::default(),
            stores: Stores::new(store),
            preferences: Box::<InMemory>::default(),
            last_export: Mutex::new(None),
            table: TableState::default(),
            audit: Mutex::new(None),
            opened_file: Mutex::new(None),
            viewed: Mutex::new(None),
        }
    }

    /// Starts on the built-in demo profile (a service in this process on a random
    /// loopback port), with the store in the app's local data folder.
    pub async fn start_with_demo() -> Result<Self> {
        let demo_service = DemoService::start(Config::default()).await?;
        let info = demo_service.info();
        let conn = Connection {
            registry_url: info.registry_url.clone(),
            gateway_url: info.gateway_url.clone(),
            auth_url: info.auth_url.clone(),
            realm: info.realm.clone(),
            client_id: info.client_id.clone(),
            client_secret: Secret::new(info.client_secret.clone()),
            user_token: Secret::new(info.user_token.clone()),
            client_auth: ClientAuth::Form,
            token_url: None,
            transport: Default::default(),
        };
        let session = Session::new(
            DEMO_PROFILE,
            true,
            conn,
            info.plants.clone(),
            &AssetType::PLATFORM,
        )?;
        let mut app = App::new(session.clone(), SnapshotStore::app_default()?);
        app.demo = Some(Demo {
            session,
            v3_url: info.v3_url.clone(),
            _demo_service: demo_service,
        });
        Ok(app)
    }

    /// The same app over another snapshot store.
    pub fn with_store(mut self, store: SnapshotStore) -> Self {
        self.stores = Stores::new(store);
        self
    }

    /// The same app keeping its preferences in `store` (the desktop shell's file).
    pub fn with_preferences(mut self, store: impl PreferenceStore + 'static) -> Self {
        self.preferences = Box::new(store);
        self
    }

    /// The active session.
    pub fn session(&self) -> Session {
        self.session
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The address of the built-in demo's V3 server, when the app started with it: a V3
    /// source to try with no account.
    pub fn demo_v3_server(&self) -> Option<&str> {
        self.demo.as_ref()?.v3_url.as_deref()
    }

    /// The built-in demo's session, when the app started with it.
    pub(crate) fn demo_session(&self) -> Option<Session> {
        self.demo.as_ref().map(|demo| demo.session.clone())
    }

    /// Makes `session` the active one.
    pub(crate) fn switch(&self, session: Session) {
        *self.session.write().unwrap_or_else(|e| e.into_inner()) = session;
    }

    /// Cancels the snapshot or export running, if one is.
    pub fn cancel_job(&self) {
        self.jobs.cancel();
    }

    /// The file the last export wrote, for "Show in folder".
    pub fn last_export(&self) -> Result<PathBuf> {
        lock(&self.last_export)
            .clone()
            .ok_or_else(|| Error::BadRequest("nothing was exported yet".into()))
    }

    pub(crate) fn exported(&self, path: PathBuf) {
        *lock(&self.last_export) = Some(path);
    }
}

impl App {
    /// The stored preferences: what is valid of them, defaults for the rest.
    pub fn preferences(&self) -> Preferences {
        Preferences::read(|key| self.preferences.get(key))
    }

    /// Applies a change the page asks for, and keeps it.
    pub fn set_preference(&self, change: PreferenceChange) -> Result<()> {
        let mut preferences = self.preferences();
        let team_before = preferences.team_store.clone();
        let team_password = match &change {
            PreferenceChange::TeamStore { password, .. } => Some(password.clone()),
            _ => None,
        };
        preferences.apply(change)?;
        if let Some(password) = team_password {
            self.keep_team_password(
                team_before.as_deref(),
                preferences.team_store.as_deref(),
                password.as_ref(),
            )?;
        }
        self.keep_preferences(&preferences)
    }

    pub(crate) fn keep_preferences(&self, preferences: &Preferences) -> Result<()> {
        for (key, value) in preferences.entries() {
            self.preferences.set(key, value);
        }
        self.preferences.save().map_err(Error::PreferencesNotSaved)
    }

    /// At start, what earlier versions kept elsewhere: the last profile moves out of the
    /// profiles' settings file; `empty_web_storage` empties the webview's own storage
    /// once (their theme and views were there; the page never reads it now), or says
    /// why it could not.
    pub fn move_old_preferences(
        &self,
        empty_web_storage: impl FnOnce() -> std::result::Result<(), crate::error::Cause>,
    ) -> Result<()> {
        let mut preferences = self.preferences();
        let mut changed = preferences.take_last_profile_from(&ProfileStore::app_default()?)?;
        if !preferences.web_storage_cleared {
            empty_web_storage()
                .map_err(|e| Error::internal("cannot empty the webview's storage", e))?;
            preferences.web_storage_cleared = true;
            changed = true;
        }
        match changed {
            true => self.keep_preferences(&preferences),
            false => Ok(()),
        }
    }
}

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
    /// A server waited on for an answer for [`SILENCE_WORTH_SAYING`] or longer.
    pub waiting: Option<Waited>,
}

/// How long a server may be silent before the status bar says which one it waits for
/// (a dropped address is otherwise heard of only when the connect timeout has run out).
pub const SILENCE_WORTH_SAYING: std::time::Duration = std::time::Duration::from_secs(2);

/// The server a request waits on: what it is to the connection, its origin, how long.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Waited {
    pub server: &'static str,
    pub origin: String,
    pub seconds: u64,
}

impl App {
    /// What the active connection has done so far.
    pub async fn status(&self) -> StatusView {
        let session = self.session();
        let client = &session.client;
        let activity = client.activity();
        StatusView {
            profile: session.profile.name.clone(),
            token_expires_in: client.token_expires_in().await.map(|d| d.as_secs()),
            user_token_expiry: client.user_token_expiry(),
            requests: activity.requests,
            errors: activity.errors,
            waiting: (client.waiting_on())
                .filter(|(_, waited)| *waited >= SILENCE_WORTH_SAYING)
                .map(|(origin, waited)| Waited {
                    server: client.connection().server_at(&origin),
                    origin,
                    seconds: waited.as_secs(),
                }),
        }
    }
}
