//! A profile of kind "AAS V3 server": the server's address (as the user knows it, base
//! path included), how it is asked (none, a bearer token, an API key, OAuth 2 client
//! credentials), the secrets of each in the keychain as the platform's are. Used, it is
//! read whole and browsed as a file opened is (see `source/file.rs`); the transport
//! options (proxy, CA file, plain http) are those of every profile.

use crate::{Error, Profile, Result, SecretKind, V3AuthKind};
use aas_client::{Secret, Transport, V3Auth, V3Server};

impl Profile {
    /// The V3 server of this profile (of kind V3 server), asked as it says, with the
    /// secrets `lookup` finds for it.
    pub fn v3_server(
        &self,
        lookup: impl Fn(SecretKind) -> Result<Option<Secret>>,
    ) -> Result<V3Server> {
        self.v3_server_over(&self.v3_transport(&lookup)?, lookup)
    }

    /// The transport of this profile, the proxy's password (if it wants one) from
    /// `lookup`.
    pub fn v3_transport(
        &self,
        lookup: &impl Fn(SecretKind) -> Result<Option<Secret>>,
    ) -> Result<Transport> {
        let mut transport = self.transport.clone();
        if transport.proxy_user.is_some() {
            transport.proxy_password = lookup(SecretKind::ProxyPassword)?;
        }
        Ok(transport)
    }

    /// [`Profile::v3_server`] over `transport` (the profile's, or the command line's
    /// over it).
    pub fn v3_server_over(
        &self,
        transport: &Transport,
        lookup: impl Fn(SecretKind) -> Result<Option<Secret>>,
    ) -> Result<V3Server> {
        let v3 = self.v3.as_ref().ok_or_else(|| {
            Error::BadRequest(format!("the profile {} is not a V3 server's", self.name))
        })?;
        let secret = |kind: SecretKind| {
            lookup(kind)?.ok_or_else(|| Error::NoSecret {
                profile: self.name.clone(),
                secret: kind.name(),
            })
        };
        let auth = match v3.auth {
            V3AuthKind::None => V3Auth::None,
            V3AuthKind::Bearer => V3Auth::Bearer(secret(SecretKind::BearerToken)?),
            V3AuthKind::ApiKey => V3Auth::ApiKey {
                header: v3.api_key_header.clone(),
                key: secret(SecretKind::ApiKey)?,
            },
            V3AuthKind::Oauth => V3Auth::ClientCredentials {
                token_url: v3.token_url.clone(),
                client_id: self.client_id.clone(),
                client_secret: secret(SecretKind::ClientSecret)?,
                client_auth: self.client_auth,
            },
        };
        let (address, registry) = (v3.address.trim(), v3.registry.trim());
        Ok(match (address, registry) {
            (address, "") => V3Server::new(address, auth, transport)?,
            ("", registry) => V3Server::registry(registry, auth, transport)?,
            (address, registry) => {
                V3Server::registry(registry, auth, transport)?.allowing(address, transport)?
            }
        })
    }
}

/// The fields a V3 server's profile needs, labelled as the form labels them: the
/// address always, the header of an API key, the token URL and client ID of OAuth 2.
pub(crate) fn v3_fields(profile: &Profile) -> Vec<(&'static str, &str)> {
    let v3 = profile.v3.as_ref();
    let address = v3.map_or("", |v3| v3.address.as_str());
    let registry = v3.map_or("", |v3| v3.registry.as_str());
    // One of the two: a registry alone leads to its repositories.
    let mut fields = match registry.trim() {
        "" => vec![("Server address or Registry address", address)],
        _ => Vec::new(),
    };
    match v3.map(|v3| v3.auth) {
        None | Some(V3AuthKind::None | V3AuthKind::Bearer) => {}
        Some(V3AuthKind::ApiKey) => {
            fields.push(("API key header", v3.map_or("", |v3| &v3.api_key_header)))
        }
        Some(V3AuthKind::Oauth) => {
            fields.push(("Token URL", v3.map_or("", |v3| &v3.token_url)));
            fields.push(("Client ID", &profile.client_id));
        }
    }
    fields
}

/// Its URLs, named as the errors name them: every one must be https (or plain http
/// where the profile allows it).
pub(crate) fn v3_urls(profile: &Profile) -> Vec<(&'static str, &str)> {
    let Some(v3) = &profile.v3 else {
        return Vec::new();
    };
    let mut urls = Vec::new();
    for (what, url) in [
        ("server address", &v3.address),
        ("registry address", &v3.registry),
    ] {
        if !url.trim().is_empty() {
            urls.push((what, url.trim()));
        }
    }
    if v3.auth == V3AuthKind::Oauth {
        urls.push(("token URL", v3.token_url.trim()));
    }
    urls
}
