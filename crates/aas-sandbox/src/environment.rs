//! AAS V2.0.1 environments (`{assetAdministrationShells, assets, submodels,
//! conceptDescriptions}`): a plant written as one, and plants read from environment
//! JSON files and AASX packages, keeping every object exactly as the file has it.

use std::collections::HashMap;
use std::path::Path;

use aas_model::AssetType;
use serde_json::{json, Map, Value};

use crate::plant::{Asset, Plant};
use crate::{Error, Result};
use aas_model::aasx;

/// The plant as one AAS V2.0.1 environment.
pub fn environment(plant: &Plant) -> Value {
    // Built from clones: `json!` would copy each object through serde, much slower.
    let assets = &plant.assets;
    let mut env = Map::new();
    let mut add = |name: &str, list: Vec<Value>| env.insert(name.to_owned(), Value::Array(list));
    add(
        "assetAdministrationShells",
        assets.iter().map(|a| a.shell.clone()).collect(),
    );
    add("assets", assets.iter().map(|a| a.asset.clone()).collect());
    add(
        "submodels",
        assets.iter().flat_map(|a| a.submodels.clone()).collect(),
    );
    add("conceptDescriptions", Vec::new());
    Value::Object(env)
}

/// Every AAS of the environment JSON file or AASX package at `path`, as an asset of
/// type `asset_type`, with the submodels it references in reference order.
pub fn load_environment(path: &Path, asset_type: AssetType) -> Result<Vec<Asset>> {
    let bad = |reason: String| Error::Data {
        path: path.to_owned(),
        reason,
    };
    let bytes = aasx::read_file(path).map_err(|source| Error::Read {
        path: path.to_owned(),
        source,
    })?;
    let json = aasx::environment_json(bytes).map_err(|e| bad(e.to_string()))?;
    let env: Value =
        serde_json::from_slice(&json).map_err(|e| bad(format!("not valid JSON: {e}")))?;
    assets(&env, asset_type).map_err(bad)
}

fn assets(env: &Value, asset_type: AssetType) -> std::result::Result<Vec<Asset>, String> {
    let shells = env["assetAdministrationShells"]
        .as_array()
        .ok_or("no assetAdministrationShells array: not an AAS V2.0.1 environment".to_owned())?;
    let by_id = |list: &str| -> HashMap<&str, &Value> {
        let items = env[list].as_array().map(Vec::as_slice).unwrap_or_default();
        // Reversed, so that of objects sharing an id the first one wins.
        items
            .iter()
            .rev()
            .filter_map(|v| Some((id(v)?, v)))
            .collect()
    };
    let (all_assets, submodels) = (by_id("assets"), by_id("submodels"));
    shells
        .iter()
        .enumerate()
        .map(|(i, shell)| {
            let aas_id = id(shell)
                .ok_or(format!("AAS #{i} has no identification.id"))?
                .to_owned();
            let code = shell["idShort"].as_str().unwrap_or_default().to_owned();
            let asset_key = target(&shell["asset"]);
            let asset = match asset_key.and_then(|k| all_assets.get(k["value"].as_str()?)) {
                Some(asset) => (*asset).clone(),
                None => synthesized_asset(&code, asset_key, &shell["identification"]),
            };
            // A reference to a submodel the file does not hold is skipped: it lives elsewhere.
            let referenced = shell["submodels"].as_array().map(Vec::as_slice);
            let submodels = (referenced.unwrap_or_default().iter())
                .filter_map(|r| submodels.get(target(r)?["value"].as_str()?))
                .map(|sm| (*sm).clone())
                .collect();
            Ok(Asset {
                asset_type,
                code,
                aas_id,
                asset,
                shell: shell.clone(),
                submodels,
            })
        })
        .collect()
}

fn id(identifiable: &Value) -> Option<&str> {
    identifiable["identification"]["id"].as_str()
}

/// The last key of a reference: it names the referenced object.
fn target(reference: &Value) -> Option<&Value> {
    reference["keys"].as_array()?.last()
}

/// A minimal Asset for an AAS whose asset the file does not hold: identified by the
/// asset reference if there is one, else by the AAS's own identification.
fn synthesized_asset(code: &str, key: Option<&Value>, shell_id: &Value) -> Value {
    let identification = match key {
        Some(key) => json!({"idType": key["idType"], "id": key["value"]}),
        None => shell_id.clone(),
    };
    json!({
        "modelType": {"name": "Asset"},
        "idShort": format!("{code}_Asset"),
        "identification": identification,
        "kind": "Instance",
    })
}
