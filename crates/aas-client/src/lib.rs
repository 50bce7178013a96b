//! Client of the AAS Master Data Access Service: gets and caches the access token,
//! reads the registry and the gateway, and hands back every node with the exact JSON
//! the server sent (see [`aas_model::Parsed`]).

mod client;
mod connection;
mod crawl;
mod curl;
mod error;
mod export;
mod profiles;
mod retry;
mod secret;
mod token;

pub use client::{Client, DEFAULT_MAX_BODY};
pub use connection::{check_url, ClientAuth, Connection};
pub use crawl::{Crawl, CrawlPlan, Failure, Fetched, NodePath, Progress};
pub use curl::curl_command;
pub use error::{Error, ErrorKind, Result};
pub use export::{export, write_atomically, Format};
pub use profiles::{Keychain, Profile, ProfileStore, SecretKind, APP_IDENTIFIER};
pub use retry::RetryPolicy;
pub use secret::Secret;
pub use token::TokenSource;
