//! The endpoints the registry names for a shell and its submodels, to show in its
//! details. Real registries name internal hosts (`http://basyx-aas-server:4001/…`):
//! the client never sends a request, let alone a token, to any of them; every request
//! goes to the profile's gateway. Each is marked when it is on another host.

use aas_model::{AasDescriptor, Endpoint};
use serde::Serialize;
use serde_json::value::RawValue;

use crate::{Client, Error, Result};

/// One endpoint as the details show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NamedEndpoint {
    /// Whose endpoint: `None` for the shell, else the submodel's idShort.
    pub submodel: Option<String>,
    pub address: String,
    /// `http`, `opc.tcp`, … as the registry says.
    pub kind: Option<String>,
    /// Not on the gateway's or the registry's host (scheme, host and port).
    pub elsewhere: bool,
}

impl Client {
    /// The endpoints the registry (as read for the session) names for shell `aas_id`;
    /// none when the registry does not list it.
    pub async fn endpoints(&self, aas_id: &str) -> Result<Vec<NamedEndpoint>> {
        let registry = self.registry_for_session().await?;
        let Some(shell) = descriptor_of(&registry, aas_id)? else {
            return Ok(Vec::new());
        };
        let conn = self.connection();
        let known = [origin(&conn.gateway_url), origin(&conn.registry_url)];
        let named = |submodel: Option<&str>, endpoints: &[Endpoint]| {
            endpoints
                .iter()
                .filter_map(|e| {
                    let address = e.address.as_ref()?.clone();
                    let elsewhere = !known.contains(&origin(&address));
                    Some(NamedEndpoint {
                        submodel: submodel.map(str::to_owned),
                        address,
                        kind: e.endpoint_type.as_ref().cloned(),
                        elsewhere,
                    })
                })
                .collect()
        };
        let mut found: Vec<NamedEndpoint> = named(None, &shell.endpoints);
        for submodel in shell.submodel_list() {
            found.extend(named(Some(&submodel.id_short), &submodel.endpoints));
        }
        Ok(found)
    }
}

/// The descriptor of `aas_id` in a registry answer. Only that one is read whole: this
/// runs on every shell selected, and a large plant's registry is tens of megabytes.
fn descriptor_of(registry: &str, aas_id: &str) -> Result<Option<AasDescriptor>> {
    #[derive(serde::Deserialize)]
    struct Named {
        identification: Id,
    }
    #[derive(serde::Deserialize)]
    struct Id {
        id: String,
    }
    let items: Vec<&RawValue> = serde_json::from_str(registry).map_err(unreadable)?;
    let Some(item) = items.into_iter().find(|raw| {
        serde_json::from_str::<Named>(raw.get()).is_ok_and(|d| d.identification.id == aas_id)
    }) else {
        return Ok(None);
    };
    Ok(aas_model::parse(item.get()).ok())
}

/// `scheme://host:port` of `url` (`None` when it is not a URL).
fn origin(url: &str) -> Option<String> {
    reqwest::Url::parse(url)
        .ok()
        .map(|u| u.origin().ascii_serialization())
}

/// A registry answer that no longer reads as the list it was read as.
fn unreadable(e: serde_json::Error) -> Error {
    Error::BadData(aas_model::Error::Decode {
        path: ".".into(),
        message: e.to_string(),
    })
}
