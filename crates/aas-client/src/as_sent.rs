//! One answer of the service exactly as it came, for printing it unchanged (`aasmd
//! list`, `aasmd elements`…): held in a temporary file past the spool size and read
//! from there, so a 200 MB answer costs a file, not memory many times its size. It is
//! checked as JSON and for its shape (a list or an object), not typed.

use std::io::Read;

use aas_model::AssetType;
use serde::de::Error as _;

use crate::client::Service;
use crate::{Client, Result};
use aas_source::{check_json, Body};

/// What one of the command line's data commands asks for.
#[derive(Debug, Clone)]
pub enum Request<'a> {
    Registry,
    AasList {
        asset_type: AssetType,
        plant: &'a str,
    },
    Aas {
        aas_id: &'a str,
    },
    Submodels {
        aas_id: &'a str,
    },
    Submodel {
        aas_id: &'a str,
        submodel: &'a str,
    },
    Elements {
        aas_id: &'a str,
        submodel: &'a str,
    },
    /// A nested element, by the idShorts from the submodel down.
    Element {
        aas_id: &'a str,
        submodel: &'a str,
        path: &'a [&'a str],
    },
}

impl Request<'_> {
    /// Whether the answer is a list (else an object).
    fn is_list(&self) -> bool {
        matches!(
            self,
            Request::Registry
                | Request::AasList { .. }
                | Request::Submodels { .. }
                | Request::Elements { .. }
        )
    }
}

impl Client {
    /// The answer to `request` as the server sent it: valid JSON of the request's
    /// shape, retried as every request is.
    pub async fn as_sent(&self, request: &Request<'_>) -> Result<Body> {
        let (url, service) = match request {
            Request::Registry => (self.connection().registry_list_url(), Service::Registry),
            Request::AasList { asset_type, plant } => {
                (self.aas_list_url(asset_type, plant)?, Service::Gateway)
            }
            Request::Aas { aas_id } => (self.aas_url(aas_id), Service::Gateway),
            Request::Submodels { aas_id } => (self.submodels_url(aas_id), Service::Gateway),
            Request::Submodel { aas_id, submodel } => {
                (self.submodel_url(aas_id, submodel), Service::Gateway)
            }
            Request::Elements { aas_id, submodel } => {
                (self.elements_url(aas_id, submodel, &[]), Service::Gateway)
            }
            Request::Element {
                aas_id,
                submodel,
                path,
            } => (self.elements_url(aas_id, submodel, path), Service::Gateway),
        };
        let list = request.is_list();
        let (got, _) = self
            .get_reading(&url, service, true, |body| {
                check_json(body)?;
                check_shape(body, list)
            })
            .await;
        Ok(got?.0)
    }
}

/// Whether `body` (valid JSON) is a list, or an object, as `list` says.
fn check_shape(body: &Body, list: bool) -> serde_json::Result<()> {
    let mut first = None;
    let mut reader = body.reader().map_err(serde_json::Error::io)?;
    let mut byte = [0];
    while reader.read(&mut byte).map_err(serde_json::Error::io)? == 1 {
        if !byte[0].is_ascii_whitespace() {
            first = Some(byte[0]);
            break;
        }
    }
    let (wanted, name) = if list {
        (b'[', "a list")
    } else {
        (b'{', "an object")
    };
    match first {
        Some(b) if b == wanted => Ok(()),
        _ => Err(serde_json::Error::custom(format_args!(
            "the answer is not {name}"
        ))),
    }
}
