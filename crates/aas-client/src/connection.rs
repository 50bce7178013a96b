use serde::Deserialize;

use crate::Secret;

/// Where the service is and who we are. Field names are those of the sandbox's
/// start-up line, so that line (or a file holding it) is a valid connection.
#[derive(Debug, Clone, Deserialize)]
pub struct Connection {
    pub registry_url: String,
    pub gateway_url: String,
    pub auth_url: String,
    pub realm: String,
    pub client_id: String,
    pub client_secret: Secret,
    pub user_token: Secret,
    /// How the client authenticates at the token endpoint; form fields unless set.
    #[serde(default)]
    pub client_auth: ClientAuth,
}

/// Client authentication at the token endpoint (RFC 6749 §2.3.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ClientAuth {
    /// `client_id` and `client_secret` in the form body, as the platform documents.
    #[default]
    Form,
    /// `Authorization: Basic`, which some servers require.
    Basic,
}

impl Connection {
    pub(crate) fn token_url(&self) -> String {
        format!(
            "{}/auth/realms/{}/protocol/openid-connect/token",
            self.auth_url.trim_end_matches('/'),
            aas_model::encode_segment(&self.realm)
        )
    }

    pub fn registry_list_url(&self) -> String {
        format!(
            "{}/api/v1/registry",
            self.registry_url.trim_end_matches('/')
        )
    }

    /// `{gateway_url}/aasList` followed by already-encoded path segments.
    pub(crate) fn gateway(&self, segments: &[&str]) -> String {
        let mut url = format!("{}/aasList", self.gateway_url.trim_end_matches('/'));
        for s in segments {
            url.push('/');
            url.push_str(s);
        }
        url
    }
}
