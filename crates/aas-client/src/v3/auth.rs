//! As whom a V3 server is asked: no credentials, a bearer token the user was given, an
//! API key in the header the server names, or OAuth 2 client credentials (a token from
//! the token endpoint the profile names, fetched again before it lapses).

use reqwest::header::{HeaderName, HeaderValue, AUTHORIZATION};
use reqwest::RequestBuilder;

use crate::{check_url, ClientAuth, Error, Result, Secret, TokenProvider, Transport};

/// How requests to a V3 server are authorised.
#[derive(Debug, Clone)]
pub enum V3Auth {
    /// No credentials (a server open to its network, or the demo's).
    None,
    /// `Authorization: Bearer …` with a token the user was given.
    Bearer(Secret),
    /// The key in a header of the server's naming (`X-API-Key` for most).
    ApiKey { header: String, key: Secret },
    /// OAuth 2 client credentials at `token_url` (RFC 6749 §4.4).
    ClientCredentials {
        token_url: String,
        client_id: String,
        client_secret: Secret,
        client_auth: ClientAuth,
    },
}

/// A [`V3Auth`] checked and ready: the header name parsed, the token provider made.
#[derive(Debug)]
pub(super) enum Credentials {
    None,
    /// The header sent every time (the secret in it, to keep out of what is shown).
    Fixed {
        header: HeaderName,
        value: HeaderValue,
        secret: Secret,
        words: String,
    },
    Tokens(Box<TokenProvider>),
}

impl Credentials {
    pub(super) fn new(auth: V3Auth, transport: &Transport) -> Result<Self> {
        Ok(match auth {
            V3Auth::None => Credentials::None,
            V3Auth::Bearer(token) => Credentials::Fixed {
                header: AUTHORIZATION,
                value: sensitive("bearer token", &format!("Bearer {}", token.expose()))?,
                secret: token,
                words: "with the bearer token".into(),
            },
            V3Auth::ApiKey { header, key } => {
                let header = HeaderName::from_bytes(header.trim().as_bytes()).map_err(|_| {
                    Error::Settings(format!(
                        "the API key header {header:?} is not a header name (X-API-Key, for one)"
                    ))
                })?;
                Credentials::Fixed {
                    value: sensitive("API key", key.expose())?,
                    secret: key,
                    words: format!("with the API key in {header}"),
                    header,
                }
            }
            V3Auth::ClientCredentials {
                token_url,
                client_id,
                client_secret,
                client_auth,
            } => {
                check_url("the token URL", &token_url, transport.allow_plain_http)?;
                let http = crate::transport::http_client(transport, crate::DEFAULT_IDLE_TIMEOUT)?;
                Credentials::Tokens(Box::new(TokenProvider::at_endpoint(
                    http,
                    &token_url,
                    &client_id,
                    client_secret,
                    client_auth,
                )))
            }
        })
    }

    /// `request` carrying the credentials, and the secret it carries (to forget a token
    /// the server refused, and to keep out of what is shown).
    pub(super) async fn apply(
        &self,
        request: RequestBuilder,
    ) -> Result<(RequestBuilder, Option<Secret>)> {
        Ok(match self {
            Credentials::None => (request, None),
            Credentials::Fixed {
                header,
                value,
                secret,
                ..
            } => (
                request.header(header.clone(), value.clone()),
                Some(secret.clone()),
            ),
            Credentials::Tokens(tokens) => {
                let token = tokens.token().await?;
                let value = sensitive("access token", &format!("Bearer {}", token.expose()))?;
                (request.header(AUTHORIZATION, value), Some(token))
            }
        })
    }

    /// The server refused `used` (401): a token of the token server is fetched anew
    /// next time; the user's own cannot be.
    pub(super) async fn refused(&self, used: &Secret) {
        if let Credentials::Tokens(tokens) = self {
            tokens.invalidate(used).await;
        }
    }

    /// What is sent, in words, for Test connection.
    pub(super) fn words(&self) -> String {
        match self {
            Credentials::None => "no credentials sent".into(),
            Credentials::Fixed { words, .. } => words.clone(),
            // The token step before names the endpoint.
            Credentials::Tokens(_) => "with an OAuth 2 access token".into(),
        }
    }

    /// The token provider, when the credentials are OAuth 2 client credentials.
    pub(super) fn tokens(&self) -> Option<&TokenProvider> {
        match self {
            Credentials::Tokens(tokens) => Some(tokens),
            _ => None,
        }
    }
}

/// A header value never written to logs (reqwest's `Debug` leaves it out). The secret
/// named `what` is not repeated in the error.
fn sensitive(what: &str, text: &str) -> Result<HeaderValue> {
    let mut value = HeaderValue::from_str(text).map_err(|_| {
        Error::Settings(format!(
            "the {what} has characters no HTTP header can carry (a line break, or a non-ASCII letter): paste it again"
        ))
    })?;
    value.set_sensitive(true);
    Ok(value)
}
