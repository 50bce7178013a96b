//! The shells and submodels the V3 server serves, as V3 JSON: converted from the V2
//! answers the gateway serves, one object at a time.

use std::collections::HashSet;
use std::sync::Arc;

use aas_v3::{Asset, Converter, Node};
use serde_json::Value;

use super::query::decode_id;
use super::V3Error;
use crate::answers::{ServedAsset, ServedSubmodel};
use crate::routes::AppState;

/// What the V3 server shows of the service's plants.
pub(super) struct Items<'s> {
    state: &'s AppState,
}

impl<'s> Items<'s> {
    pub fn new(state: &'s AppState) -> Self {
        Items { state }
    }

    /// The assets served: those the customers share with the V3 server's application.
    fn assets(&self) -> impl Iterator<Item = Arc<ServedAsset>> + 's {
        let state = self.state;
        (state.plants.iter())
            .flat_map(|p| p.current())
            .filter(move |a| state.v3_serves(a))
    }

    pub fn shells(&self) -> impl Iterator<Item = Result<Value, V3Error>> + 's {
        self.assets().map(|a| shell_v3(&a))
    }

    pub fn submodels(&self) -> impl Iterator<Item = Result<Value, V3Error>> + 's {
        self.submodel_sources().map(|source| source.v3())
    }

    /// The shells served, not converted yet: a page converts only its own.
    pub fn shell_sources(&self) -> impl Iterator<Item = ShellSource> + 's {
        self.assets().map(ShellSource)
    }

    /// The submodels served, not converted yet; one that several shells refer to, once.
    pub fn submodel_sources(&self) -> impl Iterator<Item = SubmodelSource> + 's {
        let mut listed = HashSet::new();
        self.assets()
            .flat_map(|asset| {
                (0..asset.submodels.len()).map(move |index| SubmodelSource {
                    asset: asset.clone(),
                    index,
                })
            })
            .filter(move |source| listed.insert(source.asset.submodels[source.index].id.clone()))
    }

    /// The shell whose base64url identifier is `encoded`.
    pub fn shell(&self, encoded: &str) -> Result<Value, V3Error> {
        self.shell_by_id(&decode_id(encoded)?)
    }

    pub fn shell_by_id(&self, id: &str) -> Result<Value, V3Error> {
        let asset = (self.state.asset(id))
            .map(|(_, asset)| asset)
            .filter(|a| self.state.v3_serves(a))
            .ok_or_else(|| V3Error::not_found(format!("no shell {id} is served here")))?;
        shell_v3(&asset)
    }

    /// The submodel whose base64url identifier is `encoded`.
    pub fn submodel(&self, encoded: &str) -> Result<Value, V3Error> {
        self.submodel_by_id(&decode_id(encoded)?)
    }

    pub fn submodel_by_id(&self, id: &str) -> Result<Value, V3Error> {
        let owners = self.state.submodel_owners.get(id).into_iter().flatten();
        // The first asset served that holds it (several shells may refer to it).
        let served = owners
            .filter_map(|aas_id| self.state.asset(aas_id).map(|(_, asset)| asset))
            .filter(|asset| self.state.v3_serves(asset))
            .find_map(|asset| {
                let index = asset.submodels.iter().position(|sm| sm.id == id)?;
                Some(SubmodelSource { asset, index })
            });
        served
            .ok_or_else(|| V3Error::not_found(format!("no submodel {id} is served here")))?
            .v3()
    }

    /// The submodel `sm` of the shell `aas` (both base64url): one the shell refers to.
    pub fn shells_submodel(&self, aas: &str, sm: &str) -> Result<Value, V3Error> {
        let shell = self.shell(aas)?;
        let id = decode_id(sm)?;
        let referred = (shell["submodels"].as_array().into_iter().flatten()).any(|r| {
            r["keys"]
                .as_array()
                .and_then(|k| k.last())
                .is_some_and(|k| k["value"] == id.as_str())
        });
        if !referred {
            return Err(V3Error::not_found(format!(
                "the shell refers to no submodel {id}"
            )));
        }
        self.submodel_by_id(&id)
    }
}

/// A shell served, as the gateway holds it.
pub(super) struct ShellSource(Arc<ServedAsset>);

impl ShellSource {
    pub fn v3(&self) -> Result<Value, V3Error> {
        shell_v3(&self.0)
    }
}

/// A submodel served, as the gateway holds it.
pub(super) struct SubmodelSource {
    asset: Arc<ServedAsset>,
    index: usize,
}

impl SubmodelSource {
    pub fn v3(&self) -> Result<Value, V3Error> {
        submodel_v3(&self.asset.submodels[self.index])
    }
}

/// Whether the shell's asset is known by `name` = `value` (`globalAssetId`, or one of
/// its specific asset ids).
pub(super) fn has_asset_id(shell: &Value, name: &str, value: &str) -> bool {
    let information = &shell["assetInformation"];
    if name == "globalAssetId" {
        return information["globalAssetId"] == value;
    }
    (information["specificAssetIds"]
        .as_array()
        .into_iter()
        .flatten())
    .any(|id| id["name"] == name && id["value"] == value)
}

fn shell_v3(asset: &ServedAsset) -> Result<Value, V3Error> {
    let shell = node(&asset.shell)?;
    let value = node(&asset.asset)?;
    let asset_at = "asset".to_owned();
    let mut changes = Vec::new();
    let converted = Converter::new(&mut changes)
        .shell(
            shell,
            "",
            Some(Asset {
                value,
                at: asset_at,
            }),
        )
        .map_err(unconvertible)?;
    converted
        .map(|n| n.to_value())
        .ok_or_else(|| unconvertible("the shell has no id"))
}

fn submodel_v3(submodel: &ServedSubmodel) -> Result<Value, V3Error> {
    let mut changes = Vec::new();
    let converted = Converter::new(&mut changes)
        .submodel(node(&submodel.json)?, "")
        .map_err(unconvertible)?;
    converted
        .map(|n| n.to_value())
        .ok_or_else(|| unconvertible("the submodel has no id"))
}

fn node(bytes: &[u8]) -> Result<Node<'_>, V3Error> {
    std::str::from_utf8(bytes)
        .map_err(unconvertible)
        .and_then(|text| serde_json::from_str(text).map_err(unconvertible))
}

/// The service's own V2 JSON that does not convert: its fault, not the caller's.
fn unconvertible(reason: impl std::fmt::Display) -> V3Error {
    V3Error::new(
        axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        format!("the object could not be served as V3: {reason}"),
    )
}
