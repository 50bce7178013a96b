use serde::Deserialize;

use crate::{Secret, Transport};

/// Where the service is and who we are. Field names are those of the demo service's
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
    /// The token endpoint itself; unset, it is found from `auth_url` by OpenID Connect
    /// discovery (see [`crate::TokenProvider`]).
    #[serde(default)]
    pub token_url: Option<String>,
    #[serde(flatten)]
    pub transport: Transport,
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

/// Accepts `https` URLs, and `http` only to this machine (loopback) unless
/// `allow_plain_http`, so tokens never cross a network in clear text by accident.
pub fn check_url(what: &str, url: &str, allow_plain_http: bool) -> crate::Result<()> {
    let bad = |why: &str| Err(crate::Error::Settings(format!("{what} {url:?}: {why}")));
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return bad("not a URL");
    };
    let host = match parsed.host_str() {
        Some(h) if !h.is_empty() => h.trim_start_matches('[').trim_end_matches(']'),
        _ => return bad("has no host"),
    };
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    match parsed.scheme() {
        "https" => Ok(()),
        "http" if loopback || allow_plain_http => Ok(()),
        "http" => bad(
            "plain http is only allowed to this machine; use https, or allow plain http in the profile (--allow-plain-http)",
        ),
        _ => bad("must be an https URL"),
    }
}

impl Connection {
    /// What the server at `origin` (`scheme://host:port`) is to this connection, in the
    /// words the app names it with: the token server, the registry, the gateway, or
    /// the service where they share one origin.
    pub fn server_at(&self, origin: &str) -> &'static str {
        let token = self.token_url.as_deref().unwrap_or(&self.auth_url);
        let roles = [
            (token, "the token server"),
            (self.registry_url.as_str(), "the registry"),
            (self.gateway_url.as_str(), "the gateway"),
        ];
        let named: Vec<&'static str> = (roles.iter())
            .filter(|(url, _)| crate::waiting::origin(url) == origin)
            .map(|(_, role)| *role)
            .collect();
        match named.as_slice() {
            [one] => one,
            [] => "a server",
            _ => "the service",
        }
    }

    /// Every URL passes [`check_url`].
    pub fn check(&self) -> crate::Result<()> {
        let plain = self.transport.allow_plain_http;
        check_url("registry URL", &self.registry_url, plain)?;
        check_url("gateway URL", &self.gateway_url, plain)?;
        check_url("token server URL", &self.auth_url, plain)?;
        match &self.token_url {
            Some(url) => check_url("token endpoint", url, plain),
            None => Ok(()),
        }
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

#[cfg(test)]
mod tests {
    use super::check_url;

    #[test]
    fn https_anywhere_http_only_on_loopback() {
        for ok in [
            "https://gw.example.com/x",
            "http://127.0.0.1:8080",
            "http://localhost",
            "http://[::1]:9/",
        ] {
            assert!(check_url("u", ok, false).is_ok(), "{ok}");
        }
        for bad in [
            "http://gw.example.com",
            "ftp://127.0.0.1",
            "not a url",
            "https://",
        ] {
            assert!(check_url("u", bad, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn plain_http_elsewhere_only_when_the_profile_allows_it() {
        let err = check_url("u", "http://gw.example.com", false).expect_err("refused");
        assert!(err.to_string().contains("--allow-plain-http"), "{err}");
        assert!(check_url("u", "http://gw.example.com", true).is_ok());
        assert!(check_url("u", "ftp://gw.example.com", true).is_err());
    }
}
