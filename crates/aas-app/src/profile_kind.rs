//! What a profile connects to, and how a V3 server's is asked: the settings a profile
//! keeps (see v3_profile.rs for what is done with them).

use serde::{Deserialize, Serialize};

/// What a profile connects to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProfileKind {
    /// The platform's registry and gateway (every profile before V3 servers).
    #[default]
    Platform,
    /// A server of the AAS Part 2 API, V3.0 or V3.1.
    V3Server,
}

impl ProfileKind {
    pub fn is_platform(&self) -> bool {
        *self == ProfileKind::Platform
    }
}

/// How a V3 server is asked, as the form offers it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum V3AuthKind {
    #[default]
    None,
    /// A bearer token the user was given (kept in the keychain).
    Bearer,
    /// An API key in the header `api_key_header`.
    ApiKey,
    /// OAuth 2 client credentials: the profile's client id and client secret at
    /// `token_url`.
    Oauth,
}

/// The V3 server of a profile of that kind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct V3Settings {
    /// `https://HOST/api/v3.0`: where `/shells` and `/submodels` are (may be empty
    /// when `registry` is given).
    #[serde(default)]
    pub address: String,
    /// Where `/shell-descriptors` are: when given, the shells are read at the endpoints
    /// its descriptors name (at its origin or `address`'s only).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub registry: String,
    #[serde(default)]
    pub auth: V3AuthKind,
    /// The header an API key goes in (`X-API-Key` for most servers).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_key_header: String,
    /// The token endpoint, for OAuth 2.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub token_url: String,
}
