//! Client of the AAS Master Data Access Service: gets and caches the access token,
//! reads the registry and the gateway, and hands back every node with the exact JSON
//! the server sent (see [`aas_model::Parsed`]).

mod address;
mod as_sent;
mod body;
mod check;
mod client;
mod connection;
mod crawl;
mod curl;
mod discovery;
mod endpoints;
mod error;
mod follow;
mod retry;
mod secret;
mod selection;
mod token;
mod transport;

pub use address::ElementAddress;
pub use as_sent::Request;
pub use body::{Body, Spool, DEFAULT_MAX_STREAMED, SPOOL_AT};
pub use check::{CheckStep, Outcome};
pub use client::{Activity, Client, DEFAULT_MAX_BODY};
pub use connection::{check_url, ClientAuth, Connection};
pub use crawl::{
    Crawl, CrawlPlan, Failure, Fetched, NodeLevel, NodePath, Progress, Unreadable,
    DEFAULT_CONCURRENCY, DEFAULT_MAX_NODES, DEFAULT_OFFLINE_WAIT,
};
pub use curl::curl_command;
pub use discovery::MAX_TOKEN_BODY;
pub use endpoints::NamedEndpoint;
pub use error::{Error, ErrorKind, Result, MAX_ERROR_BODY};
pub use follow::ids_in_list;
pub use retry::RetryPolicy;
pub use secret::Secret;
pub use selection::{Pick, Selection};
pub use token::{read_token_response, TokenSource};
pub use transport::{Transport, DEFAULT_IDLE_TIMEOUT, DEFAULT_MIN_RATE};
