//! A local, faithful implementation of the AAS Master Data Access Service: token
//! endpoint, registry and gateway on one loopback port, serving generated demo plants.
//!
//! Base URLs of a running sandbox on `http://HOST:PORT`:
//! - `auth_url` = `http://HOST:PORT` (token at `/auth/realms/{realm}/protocol/openid-connect/token`)
//! - `registry_url` = `http://HOST:PORT` (registry at `/api/v1/registry`)
//! - `gateway_url` = `http://HOST:PORT/gateway` (routes at `/aasList...`)

mod auth;
mod demo;
mod plant;
mod routes;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

pub use demo::{demo_plant, DEMO_PLANT};
pub use plant::{Asset, Plant};

/// Why the sandbox could not start.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
}

pub type Result<T> = std::result::Result<T, Error>;

#[derive(Debug, Clone)]
pub struct Config {
    pub addr: SocketAddr,
    pub plants: Vec<Plant>,
    pub token_ttl: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            plants: vec![demo_plant(DEMO_PLANT, 24)],
            token_ttl: Duration::from_secs(300),
        }
    }
}

/// Everything a client needs to talk to a running sandbox; `aasmd sandbox` prints it
/// as one JSON line. It holds the run's secrets: it is for local demos and tests.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartupInfo {
    pub registry_url: String,
    pub gateway_url: String,
    pub auth_url: String,
    pub realm: String,
    pub client_id: String,
    pub client_secret: String,
    pub user_token: String,
    pub plants: Vec<String>,
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

/// A running sandbox; it stops when dropped.
#[derive(Debug)]
pub struct Sandbox {
    info: StartupInfo,
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
}

impl Sandbox {
    /// Binds `config.addr` and serves on the current tokio runtime.
    pub async fn start(config: Config) -> Result<Sandbox> {
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
        let base = format!("http://{addr}");
        let creds = auth::Credentials::generate();
        let info = StartupInfo {
            registry_url: base.clone(),
            gateway_url: format!("{base}{}", routes::GATEWAY_PREFIX),
            auth_url: base,
            realm: creds.realm.clone(),
            client_id: creds.client_id.clone(),
            client_secret: creds.client_secret.clone(),
            user_token: creds.user_token.clone(),
            plants: config.plants.iter().map(|p| p.code.clone()).collect(),
        };
        let state = Arc::new(routes::AppState {
            creds,
            tokens: auth::Tokens::new(config.token_ttl),
            plants: config.plants,
            gateway_url: info.gateway_url.clone(),
        });
        let (stop, stopped) = oneshot::channel::<()>();
        let app = routes::router(state);
        tokio::spawn(async move {
            let serve = axum::serve(listener, app).with_graceful_shutdown(async {
                let _ = stopped.await;
            });
            if let Err(e) = serve.await {
                tracing::error!(error = %e, "sandbox server stopped");
            }
        });
        tracing::info!(%addr, "sandbox listening");
        Ok(Sandbox {
            info,
            addr,
            stop: Some(stop),
        })
    }

    pub fn info(&self) -> &StartupInfo {
        &self.info
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}
