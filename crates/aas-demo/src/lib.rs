//! A local, faithful implementation of the AAS Master Data Access Service: token
//! endpoint, registry and gateway on one loopback port, serving generated demo plants.
//!
//! Base URLs of a running demo service on `http://HOST:PORT`:
//! - `auth_url` = `http://HOST:PORT` (token at `/auth/realms/{realm}/protocol/openid-connect/token`)
//! - `registry_url` = `http://HOST:PORT` (registry at `/api/v1/registry`)
//! - `gateway_url` = `http://HOST:PORT/gateway` (routes at `/aasList...`)
//! - admin surface at `/demo-service/admin/...` (admin token), counters at `/demo-service/stats`

mod access;
mod answers;
mod demo;
mod environment;
mod faults;
mod keys;
mod listen;
mod plant;
mod routes;
mod stats;
mod tls;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use aas_model::AssetType;
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

pub use access::{Customer, Grant, GrantSeed, StateError};
pub use demo::{demo_plant, elements, DEMO_PLANT};
pub use environment::{environment, load_environment};
pub use faults::FaultSpec;
pub use plant::{Asset, Plant};
pub use tls::TlsFiles;

/// Why the demo service could not start.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error(transparent)]
    State(#[from] StateError),
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The certificate or key for https cannot be used.
    #[error("TLS: {}: {reason}", path.display())]
    Tls { path: PathBuf, reason: String },
    /// A plant file that holds no usable AAS data.
    #[error("{}: {reason}", path.display())]
    Data { path: PathBuf, reason: String },
    /// A setting that cannot be served.
    #[error("{0}")]
    Config(String),
}

pub type Result<T> = std::result::Result<T, Error>;

/// An application registered on the platform: its credentials and the asset types it
/// requested access to.
#[derive(Clone)]
pub struct AppSpec {
    pub client_id: String,
    pub client_secret: String,
    pub requested: Vec<AssetType>,
}

impl std::fmt::Debug for AppSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppSpec")
            .field("client_id", &self.client_id)
            .field("requested", &self.requested)
            .finish_non_exhaustive()
    }
}

impl AppSpec {
    /// The demo application: requests every asset type; a fresh secret each start.
    pub fn demo() -> Self {
        AppSpec {
            client_id: "aas-browser-demo".into(),
            client_secret: random_text(),
            requested: AssetType::PLATFORM.to_vec(),
        }
    }
}

/// The demo customer, which owns every plant not given to another customer.
pub const DEMO_TENANT: &str = "acme";

#[derive(Debug, Clone)]
pub struct Config {
    pub addr: SocketAddr,
    pub plants: Vec<Plant>,
    /// Customers and the plants they own; plants no customer lists belong to [`DEMO_TENANT`].
    pub customers: Vec<Customer>,
    /// Registered applications; the first one is announced in the [`StartupInfo`].
    pub applications: Vec<AppSpec>,
    pub grants: GrantSeed,
    /// Where grants, the signing key and the client secrets are kept across restarts
    /// (written atomically at start and on every change).
    pub state_file: Option<PathBuf>,
    pub token_ttl: Duration,
    /// Where the token server's realms are: `/auth` (the spec's layout, Keycloak up to
    /// 16) or `""` (Keycloak 17 and later). The start-up line's `auth_url` is the bare
    /// `http://HOST:PORT` either way: clients find the layout by OpenID Connect discovery.
    pub auth_path_prefix: String,
    pub faults: Option<FaultSpec>,
    /// Serve https with this certificate and key instead of plain http.
    pub tls: Option<TlsFiles>,
    /// How long a client has to send a request's head (from connecting, or from the
    /// previous answer on a kept-alive connection) before its connection is closed.
    pub head_timeout: Duration,
    /// Also serve the plants as an AAS V3 server (the Part 2 API's read routes at
    /// `/api/v3.0`, without sign-in): what the customers share with the first
    /// application.
    pub v3_server: bool,
    /// The V3 server wants an access token of that application (OAuth 2 client
    /// credentials at the token endpoint), as a secured V3 server does.
    pub v3_sign_in: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            plants: vec![demo_plant(DEMO_PLANT, 24, 1)],
            customers: Vec::new(),
            applications: vec![AppSpec::demo()],
            // The demo customer shares everything but its people (asset type `user`).
            grants: GrantSeed::AllowedExcept(vec![AssetType::USER]),
            state_file: None,
            token_ttl: Duration::from_secs(300),
            auth_path_prefix: "/auth".into(),
            faults: None,
            tls: None,
            head_timeout: Duration::from_secs(10),
            v3_server: true,
            v3_sign_in: false,
        }
    }
}

/// Everything a client needs to talk to a running demo service; `aasmd demo-service` prints it
/// as one JSON line. It holds the run's secrets: it is for local demos and tests.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartupInfo {
    pub registry_url: String,
    pub gateway_url: String,
    pub auth_url: String,
    pub realm: String,
    pub client_id: String,
    pub client_secret: String,
    /// The demo user's token: customer [`DEMO_TENANT`], all of its plants.
    pub user_token: String,
    pub plants: Vec<String>,
    /// The V3 server's address (`http://HOST:PORT/api/v3.0`), when it serves one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub v3_url: Option<String>,
    /// The token endpoint the V3 server's access tokens come from (client credentials:
    /// client_id, client_secret), when it wants one (`Config::v3_sign_in`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub v3_token_url: Option<String>,
    /// Only present when asked for (`aasmd demo-service --admin-token`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin_token: Option<String>,
}

impl std::fmt::Debug for StartupInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StartupInfo")
            .field("registry_url", &self.registry_url)
            .field("gateway_url", &self.gateway_url)
            .field("plants", &self.plants)
            .finish_non_exhaustive()
    }
}

/// A running demo service; it stops when dropped. Its Debug shows no secret.
pub struct DemoService {
    info: StartupInfo,
    admin_token: String,
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
}

impl std::fmt::Debug for DemoService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DemoService")
            .field("info", &self.info)
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

/// How long the demo user's token lives.
const DEMO_USER_TTL: Duration = Duration::from_secs(24 * 3600);

impl DemoService {
    /// Binds `config.addr` and serves on the current tokio runtime.
    pub async fn start(config: Config) -> Result<DemoService> {
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|source| Error::Bind {
                addr: config.addr,
                source,
            })?;
        let addr = listener.local_addr().map_err(|source| Error::Bind {
            addr: config.addr,
            source,
        })?;
        let tls = config.tls.as_ref().map(tls::server_config).transpose()?;
        let head_timeout = config.head_timeout;
        let scheme = if tls.is_some() { "https" } else { "http" };
        let Service {
            router,
            info,
            admin_token,
        } = Service::new(config, &format!("{scheme}://{addr}"))?;
        let (stop, stopped) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let served = listen::serve(listener, router, tls, head_timeout, stopped).await;
            if let Err(e) = served {
                tracing::error!(error = %e, "demo service server stopped");
            }
        });
        tracing::info!(%addr, "demo service listening");
        Ok(DemoService {
            info,
            admin_token,
            addr,
            stop: Some(stop),
        })
    }

    pub fn info(&self) -> &StartupInfo {
        &self.info
    }

    /// The token of the admin surface (`/demo-service/admin/...`).
    pub fn admin_token(&self) -> &str {
        &self.admin_token
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

/// The demo service's whole HTTP surface without a listener: [`DemoService::start`] serves it,
/// the fuzz target sends it requests in-process. Its Debug shows no secret.
pub struct Service {
    pub router: axum::Router,
    pub info: StartupInfo,
    /// The token of the admin surface (`/demo-service/admin/...`).
    pub admin_token: String,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service")
            .field("info", &self.info)
            .finish_non_exhaustive()
    }
}

impl Service {
    /// The service as it answers at `base` (`http://HOST:PORT`, used in token issuers
    /// and the registry's endpoints); `config.addr` is not used.
    pub fn new(mut config: Config, base: &str) -> Result<Service> {
        let base = base.to_owned();
        let realm = "demo".to_owned();
        let prefix = config.auth_path_prefix.trim_end_matches('/');
        if !(prefix.is_empty() || prefix.starts_with('/')) {
            return Err(Error::Config(format!(
                "the auth path prefix {prefix:?} must be empty or start with /"
            )));
        }
        let prefix = prefix.to_owned();
        let mut issuer = keys::Issuer::new(&base, &prefix, &realm, config.token_ttl);
        // With a state file, a restart keeps the key and the secrets: clients go on.
        let state = match config.state_file.take() {
            Some(path) => {
                let identity =
                    access::Identity::restore(&path, &keys::key_pair(), &mut config.applications)?;
                issuer = issuer.with_keys(Arc::new(identity.keys(&path)?));
                Some((path, identity))
            }
            None => None,
        };

        let mut customers = config.customers;
        let owned: Vec<&str> = customers
            .iter()
            .flat_map(|c| &c.plants)
            .map(String::as_str)
            .collect();
        let unowned: Vec<String> = config
            .plants
            .iter()
            .map(|p| p.code.clone())
            .filter(|code| !owned.contains(&code.as_str()))
            .collect();
        let demo_plants = customers
            .iter()
            .find(|c| c.tenant == DEMO_TENANT)
            .map_or_else(
                || unowned.clone(),
                |c| [c.plants.clone(), unowned.clone()].concat(),
            );
        customers.retain(|c| c.tenant != DEMO_TENANT);
        customers.push(Customer {
            tenant: DEMO_TENANT.into(),
            plants: demo_plants.clone(),
        });

        let apps: Vec<access::Application> = config
            .applications
            .iter()
            .map(|a| {
                access::Application::new(
                    &a.client_id,
                    &a.client_secret,
                    a.requested.iter().cloned(),
                )
            })
            .collect();
        let mut index = HashMap::new();
        for (p, plant) in config.plants.iter().enumerate() {
            for (a, asset) in plant.assets.iter().enumerate() {
                index.insert(asset.aas_id.clone(), (p, a));
            }
        }
        let assets: Vec<(String, AssetType)> = config
            .plants
            .iter()
            .flat_map(|p| &p.assets)
            .map(|a| (a.aas_id.clone(), a.asset_type.clone()))
            .collect();
        let grants = access::Grants::new(&apps, &assets, &config.grants, state)?;

        let first = config
            .applications
            .first()
            .cloned()
            .unwrap_or_else(AppSpec::demo);
        let v3_client = config.v3_server.then(|| first.client_id.clone());
        let admin_token = random_text();
        let info = StartupInfo {
            registry_url: base.clone(),
            v3_url: config
                .v3_server
                .then(|| format!("{base}{}", routes::V3_PREFIX)),
            v3_token_url: (config.v3_server && config.v3_sign_in)
                .then(|| format!("{base}{prefix}/realms/{realm}/protocol/openid-connect/token")),
            gateway_url: format!("{base}{}", routes::GATEWAY_PREFIX),
            auth_url: base,
            realm: realm.clone(),
            client_id: first.client_id,
            client_secret: first.client_secret,
            user_token: issuer.mint_user(DEMO_TENANT, "demo.engineer", &demo_plants, DEMO_USER_TTL),
            plants: config.plants.iter().map(|p| p.code.clone()).collect(),
            admin_token: None,
        };
        // A submodel several shells refer to is served by each of their assets.
        let mut submodel_owners: HashMap<String, Vec<String>> = HashMap::new();
        for asset in config.plants.iter().flat_map(|p| &p.assets) {
            for id in (asset.submodels.iter()).filter_map(|sm| sm["identification"]["id"].as_str())
            {
                submodel_owners
                    .entry(id.to_owned())
                    .or_default()
                    .push(asset.aas_id.clone());
            }
        }
        let state = Arc::new(routes::AppState {
            issuer,
            realm,
            apps,
            customers,
            plants: (config.plants.into_iter())
                .map(|p| answers::ServedPlant::new(p, &info.gateway_url))
                .collect(),
            index,
            grants,
            admin_token: admin_token.clone(),
            stats: stats::Stats::default(),
            issued: Default::default(),
            editing: Default::default(),
            faults: config.faults.map(faults::Faults::new),
            v3_client,
            v3_sign_in: config.v3_sign_in,
            v3_url: info.v3_url.clone().unwrap_or_default(),
            submodel_owners,
        });
        Ok(Service {
            router: routes::router(state, &prefix),
            info,
            admin_token,
        })
    }
}

impl Drop for DemoService {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

fn random_text() -> String {
    rand::random::<[u8; 24]>()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
