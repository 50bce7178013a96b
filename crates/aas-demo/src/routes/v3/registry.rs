//! The AAS Registry's read routes (Part 2 API V3.0, AssetAdministrationShellRegistry
//! ServiceSpecification SSP-002's reads): a descriptor per shell served, its endpoints
//! the shell and its submodels at this server's own routes, so that a client can find
//! the plant through a registry as it would a BaSyx or Mnestix deployment.

use axum::extract::{RawQuery, State};
use serde_json::{json, Value};

use super::items::Items;
use super::query::{decode_id, encode_id, Params};
use super::{answer, paged, paged_lazily, param, Answer, Path, Shared, V3Error};

/// `/shell-descriptors`, filtered by `assetKind` and `assetType` (base64url) as asked.
pub(super) async fn descriptors(State(s): Shared, RawQuery(q): RawQuery) -> Answer {
    let params = Params::parse(q.as_deref())?;
    let kind = params.one("assetKind");
    let asset_type = params.one("assetType").map(decode_id).transpose()?;
    let base = s.v3_url.clone();
    let items = Items::new(&s);
    if kind.is_none() && asset_type.is_none() {
        return paged_lazily(items.shell_sources(), &params, |source| {
            Ok(descriptor(&source.v3()?, &base))
        });
    }
    let mut wanted = Vec::new();
    for shell in items.shells() {
        let shell = shell?;
        let information = &shell["assetInformation"];
        if kind.is_none_or(|kind| information["assetKind"] == kind)
            && (asset_type.as_deref()).is_none_or(|t| information["assetType"] == t)
        {
            wanted.push(descriptor(&shell, &base));
        }
    }
    paged(wanted, &params)
}

pub(super) async fn shell_descriptor(State(s): Shared, path: Path) -> Answer {
    let shell = Items::new(&s).shell(param(&path, "aas")?.unwrap_or_default())?;
    answer(descriptor(&shell, &s.v3_url))
}

pub(super) async fn submodel_descriptors(
    State(s): Shared,
    path: Path,
    RawQuery(q): RawQuery,
) -> Answer {
    let params = Params::parse(q.as_deref())?;
    let shell = Items::new(&s).shell(param(&path, "aas")?.unwrap_or_default())?;
    paged(submodel_descriptors_of(&shell, &s.v3_url), &params)
}

pub(super) async fn submodel_descriptor(State(s): Shared, path: Path) -> Answer {
    let shell = Items::new(&s).shell(param(&path, "aas")?.unwrap_or_default())?;
    let id = decode_id(param(&path, "sm")?.unwrap_or_default())?;
    (submodel_descriptors_of(&shell, &s.v3_url).into_iter())
        .find(|d| d["id"] == id.as_str())
        .map_or_else(
            || {
                Err(V3Error::not_found(format!(
                    "the shell refers to no submodel {id}"
                )))
            },
            answer,
        )
}

/// The descriptor of `shell`, served under `base` (`http://HOST/api/v3.0`).
fn descriptor(shell: &Value, base: &str) -> Value {
    let id = shell["id"].as_str().unwrap_or_default();
    let information = &shell["assetInformation"];
    let mut descriptor = json!({
        "id": id,
        "endpoints": [endpoint("AAS-3.0", &format!("{base}/shells/{}", encode_id(id)))],
        "submodelDescriptors": submodel_descriptors_of(shell, base),
    });
    for (field, value) in [
        ("idShort", &shell["idShort"]),
        ("assetKind", &information["assetKind"]),
        ("assetType", &information["assetType"]),
        ("globalAssetId", &information["globalAssetId"]),
        ("specificAssetIds", &information["specificAssetIds"]),
    ] {
        if !value.is_null() {
            descriptor[field] = value.clone();
        }
    }
    descriptor
}

/// A descriptor of each submodel `shell` refers to, at this server's `/submodels`.
fn submodel_descriptors_of(shell: &Value, base: &str) -> Vec<Value> {
    let refs = shell["submodels"].as_array().map_or(&[][..], Vec::as_slice);
    (refs.iter())
        .filter_map(|r| r["keys"].as_array()?.last()?["value"].as_str())
        .map(|id| {
            let href = format!("{base}/submodels/{}", encode_id(id));
            json!({"id": id, "endpoints": [endpoint("SUBMODEL-3.0", &href)]})
        })
        .collect()
}

fn endpoint(interface: &str, href: &str) -> Value {
    json!({"interface": interface,
           "protocolInformation": {"href": href, "endpointProtocol": "HTTP", "endpointProtocolVersion": ["1.1"]}})
}
