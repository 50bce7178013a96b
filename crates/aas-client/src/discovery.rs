//! Where the token endpoint is. Keycloak up to 16 serves realms under `/auth`, 17 and
//! later without it, and users paste the server's address, the `/auth` one or the
//! realm's issuer URL. So the client asks the realm's OpenID Connect discovery document
//! (`…/realms/{realm}/.well-known/openid-configuration`) in each layout and takes its
//! `token_endpoint`; with no document, the spec's path. A document that names a token
//! endpoint on another origin (a Keycloak behind a proxy announcing
//! `http://keycloak:8080/…`) is refused: the client secret is not sent there.

use serde::Deserialize;

use crate::transport::{read_body, Pace};
use crate::waiting::Waiting;
use crate::{Error, Result};

const WELL_KNOWN: &str = ".well-known/openid-configuration";
const TOKEN_PATH: &str = "protocol/openid-connect/token";

/// The largest token answer read, and the largest discovery document: real ones are a
/// few kilobytes (a JWT with its claims), so anything near this is not a token server
/// talking.
pub const MAX_TOKEN_BODY: usize = 1024 * 1024;

/// The token endpoint found, and whether it is certain (a document named it, or every
/// layout answered without one): an uncertain guess is asked again next time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    pub url: String,
    pub certain: bool,
}

#[derive(Deserialize)]
struct Document {
    token_endpoint: String,
}

/// The realm's addresses to try, most likely first, for what the user gave as
/// `auth_url`: the server (`http://host`), its `/auth` address, or the realm's issuer.
fn realm_bases(auth_url: &str, realm: &str) -> Vec<String> {
    let base = auth_url.trim_end_matches('/');
    let realm_path = format!("/realms/{}", aas_model::encode_segment(realm));
    if base.ends_with(&realm_path) {
        return vec![base.to_owned()];
    }
    match base.strip_suffix("/auth") {
        Some(server) => vec![
            format!("{base}{realm_path}"),
            format!("{server}{realm_path}"),
        ],
        // The spec's layout is the fallback, so it is tried last.
        None => vec![
            format!("{base}{realm_path}"),
            format!("{base}/auth{realm_path}"),
        ],
    }
}

/// The token endpoint of the spec's layout (Keycloak up to 16) for `auth_url`, used
/// when no discovery document answers.
pub(crate) fn spec_token_url(auth_url: &str, realm: &str) -> String {
    let base = auth_url.trim_end_matches('/');
    let realm_path = format!("/realms/{}", aas_model::encode_segment(realm));
    let realm_base = if base.ends_with(&realm_path) || base.ends_with("/auth") {
        // The issuer itself, or the address the realms are under.
        let under = if base.ends_with(&realm_path) {
            ""
        } else {
            &realm_path
        };
        format!("{base}{under}")
    } else {
        format!("{base}/auth{realm_path}")
    };
    format!("{realm_base}/{TOKEN_PATH}")
}

pub(crate) async fn discover(
    http: &reqwest::Client,
    auth_url: &str,
    realm: &str,
    waiting: &Waiting,
) -> Result<Found> {
    let mut certain = true;
    for realm_base in realm_bases(auth_url, realm) {
        let doc_url = format!("{realm_base}/{WELL_KNOWN}");
        let response = match Pace::DEFAULT
            .head(&doc_url, http.get(&doc_url).send(), waiting)
            .await
        {
            Ok(r) if r.status().is_success() => r,
            Ok(_) => continue,
            Err(_) => {
                certain = false;
                continue;
            }
        };
        let Ok(body) = read_body(&doc_url, response, MAX_TOKEN_BODY).await else {
            certain = false;
            continue;
        };
        let Ok(doc) = serde_json::from_str::<Document>(&body) else {
            continue;
        };
        same_origin(&doc_url, &doc.token_endpoint)?;
        tracing::debug!(%doc_url, "token endpoint discovered");
        return Ok(Found {
            url: doc.token_endpoint,
            certain: true,
        });
    }
    Ok(Found {
        url: spec_token_url(auth_url, realm),
        certain,
    })
}

fn same_origin(doc_url: &str, endpoint: &str) -> Result<()> {
    let origin = |u: &str| reqwest::Url::parse(u).map(|u| u.origin().ascii_serialization());
    let (Ok(here), Ok(there)) = (origin(doc_url), origin(endpoint)) else {
        return Err(Error::Settings(format!(
            "the discovery document at {doc_url} names no usable token endpoint"
        )));
    };
    if here == there {
        return Ok(());
    }
    Err(Error::Settings(format!(
        "the token server at {here} announces its token endpoint at another address ({there}), often an internal one behind a proxy; the client secret is not sent there. Set the profile's token_url (aasmd --token-url) to the token endpoint as this machine reaches it"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_way_of_giving_the_token_server_has_its_layouts() {
        assert_eq!(
            realm_bases("http://h:8080/", "demo"),
            [
                "http://h:8080/realms/demo",
                "http://h:8080/auth/realms/demo"
            ]
        );
        assert_eq!(
            realm_bases("http://h/auth", "demo"),
            ["http://h/auth/realms/demo", "http://h/realms/demo"]
        );
        assert_eq!(
            realm_bases("https://h/realms/my%20realm", "my realm"),
            ["https://h/realms/my%20realm"]
        );
        assert_eq!(
            spec_token_url("http://h", "demo"),
            "http://h/auth/realms/demo/protocol/openid-connect/token"
        );
        assert_eq!(
            spec_token_url("http://h/auth/", "demo"),
            "http://h/auth/realms/demo/protocol/openid-connect/token"
        );
        assert_eq!(
            spec_token_url("http://h/realms/demo", "demo"),
            "http://h/realms/demo/protocol/openid-connect/token"
        );
    }

    #[test]
    fn a_token_endpoint_on_another_origin_is_refused() {
        assert!(same_origin("https://id.example/realms/r/x", "https://id.example/t").is_ok());
        let err = same_origin(
            "https://id.example/realms/r/x",
            "http://keycloak:8080/realms/r/protocol/openid-connect/token",
        )
        .expect_err("another origin")
        .to_string();
        assert!(
            err.contains("http://keycloak:8080") && err.contains("token_url"),
            "{err}"
        );
    }
}
