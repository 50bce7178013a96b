//! AAS V2.0.1 environments (`{assetAdministrationShells, assets, submodels,
//! conceptDescriptions}`): a plant written as one, and plants read from environment
//! JSON files and AASX packages, keeping every object exactly as the file has it.

use std::collections::HashMap;
use std::path::Path;

use aas_model::AssetType;
use serde::Deserialize;
use serde_json::value::RawValue;
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
    // The lists as slices of the file; each object the plant keeps is read on its own,
    // and a field of the environment that is none of them is passed over unread.
    let env: HashMap<String, &RawValue> =
        serde_json::from_slice(&json).map_err(|e| bad(format!("not valid JSON: {e}")))?;
    assets(&env, asset_type).map_err(bad)
}

/// The items of the environment's list `name`, each as its JSON text; none if it has
/// no such list.
fn list<'a>(env: &HashMap<String, &'a RawValue>, name: &str) -> Option<Vec<&'a RawValue>> {
    serde_json::from_str(env.get(name)?.get()).ok()
}

/// An object's `identification.id`, read past everything else.
#[derive(Deserialize)]
struct Identified {
    identification: Option<Identification>,
}

#[derive(Deserialize)]
struct Identification {
    id: Option<String>,
}

/// The items of list `name` by their id; of objects sharing an id the first one wins.
fn by_id<'a>(env: &HashMap<String, &'a RawValue>, name: &str) -> HashMap<String, &'a RawValue> {
    let items = list(env, name).unwrap_or_default();
    items
        .into_iter()
        .rev()
        .filter_map(|raw| {
            let probe: Identified = serde_json::from_str(raw.get()).ok()?;
            Some((probe.identification?.id?, raw))
        })
        .collect()
}

fn assets(
    env: &HashMap<String, &RawValue>,
    asset_type: AssetType,
) -> std::result::Result<Vec<Asset>, String> {
    let shells = list(env, "assetAdministrationShells")
        .ok_or("no assetAdministrationShells array: not an AAS V2.0.1 environment".to_owned())?;
    let (all_assets, submodels) = (by_id(env, "assets"), by_id(env, "submodels"));
    let kept = std::cell::Cell::new(0usize);
    let value = |raw: &RawValue| -> std::result::Result<Value, String> {
        kept.set(kept.get() + values_in(raw.get()));
        if kept.get() > MAX_VALUES {
            return Err(format!(
                "what the demo service would serve holds more than {MAX_VALUES} JSON values \
                 (it keeps them in memory, about 100 bytes each): serve a smaller file"
            ));
        }
        serde_json::from_str(raw.get()).map_err(|e| format!("not valid JSON: {e}"))
    };
    shells
        .into_iter()
        .enumerate()
        .map(|(i, raw)| {
            let shell = value(raw)?;
            let aas_id = id(&shell)
                .ok_or(format!("AAS #{i} has no identification.id"))?
                .to_owned();
            let code = shell["idShort"].as_str().unwrap_or_default().to_owned();
            let asset_key = target(&shell["asset"]);
            let asset = match asset_key.and_then(|k| all_assets.get(k["value"].as_str()?)) {
                Some(asset) => value(asset)?,
                None => synthesized_asset(&code, asset_key, &shell["identification"]),
            };
            // A reference to a submodel the file does not hold is skipped: it lives elsewhere.
            let referenced = shell["submodels"].as_array().map(Vec::as_slice);
            let submodels = (referenced.unwrap_or_default().iter())
                .filter_map(|r| submodels.get(target(r)?["value"].as_str()?))
                .map(|sm| value(sm))
                .collect::<std::result::Result<_, _>>()?;
            Ok(Asset {
                asset_type: asset_type.clone(),
                code,
                aas_id,
                asset,
                shell,
                submodels,
            })
        })
        .collect()
}

/// The most JSON values the shells, assets and submodels served from a file may hold:
/// each is kept as a `serde_json::Value` of about 100 bytes, so this bounds the service's
/// memory near 400 MB (a 50 MB file of `[0,0,…]` in one submodel holds 25 million).
const MAX_VALUES: usize = 4_000_000;

/// About how many values the JSON text `json` holds: its containers, and one more for
/// each comma between items or members (strings skipped).
fn values_in(json: &str) -> usize {
    let (mut count, mut in_string, mut escaped) = (0, false, false);
    for b in json.bytes() {
        match (in_string, b) {
            (true, _) if escaped => escaped = false,
            (true, b'\\') => escaped = true,
            (true, b'"') => in_string = false,
            (true, _) => {}
            (false, b'"') => in_string = true,
            (false, b'[' | b'{' | b',') => count += 1,
            (false, _) => {}
        }
    }
    count + 1
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_counted_past_strings() {
        assert_eq!(values_in("0"), 1);
        assert_eq!(values_in("[0,0,0]"), 4);
        assert_eq!(values_in(r#"{"a":[1,2],"b":"x,[{\",y"}"#), 5);
    }
}
