//! Client of the AAS Master Data Access Service: gets and caches the access token,
//! reads the registry and the gateway, and hands back every node with the exact JSON
//! the server sent (see [`aas_model::Parsed`]); and reads AAS V3 servers (Part 2 API)
//! whole ([`V3Server`]).

mod address;
mod as_sent;
mod check;
mod client;
mod connection;
mod crawl;
mod curl;
mod discovery;
mod endpoints;
mod error;
mod retry;
mod secret;
mod token;
mod transport;
mod v3;
mod waiting;

pub use address::ElementAddress;
pub use as_sent::Request;
pub use check::{CheckStep, Outcome};
pub use client::{Activity, Client, DEFAULT_MAX_BODY};
pub use connection::{check_url, ClientAuth, Connection};
pub use crawl::{
    Crawl, CrawlPlan, Progress, DEFAULT_CONCURRENCY, DEFAULT_MAX_NODES, DEFAULT_OFFLINE_WAIT,
};
pub use curl::curl_command;
pub use discovery::MAX_TOKEN_BODY;
pub use endpoints::NamedEndpoint;
pub use error::{Error, Result, MAX_ERROR_BODY};
pub use retry::RetryPolicy;
pub use secret::Secret;
pub use token::{read_token_response, TokenProvider};
pub use transport::{Transport, DEFAULT_IDLE_TIMEOUT, DEFAULT_MIN_RATE};
pub use v3::{
    EachStep, GatheredShell, Item, ReadStep, Reading, Repository, RepositoryPlan,
    RepositoryProgress, ShellsRead, V3Auth, V3Server, DEFAULT_MAX_ITEMS, DEFAULT_PAGE_SIZE,
};
