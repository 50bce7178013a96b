//! What the data routes send, serialised once when the demo service starts: answering is
//! then copying bytes instead of walking `serde_json::Value` trees on every request,
//! and the store is the size of its JSON (Values with ordered maps take ~4× that).
//! An admin's change replaces one asset's answers whole ([`ArcSwapOption`]): readers
//! take no lock and see the asset before or after, never half of it.

use std::ops::Range;
use std::sync::Arc;

use arc_swap::ArcSwapOption;

use aas_model::AssetType;
use axum::body::Bytes;
use serde_json::Value;

use crate::plant::{Asset, Plant};

#[derive(Debug)]
pub(crate) struct ServedPlant {
    pub code: String,
    /// Each asset's answers; empty once the asset was removed.
    pub assets: Vec<ArcSwapOption<ServedAsset>>,
}

/// One asset's answers: its AAS, its registry descriptor and its submodels.
#[derive(Debug, Clone)]
pub(crate) struct ServedAsset {
    pub asset_type: AssetType,
    pub aas_id: String,
    pub shell: Bytes,
    /// The V2 Asset the shell names (the V3 server's `assetInformation`).
    pub asset: Bytes,
    pub descriptor: Bytes,
    pub submodels: Vec<ServedSubmodel>,
}

#[derive(Debug, Clone)]
pub(crate) struct ServedSubmodel {
    pub id_short: String,
    /// `identification.id`.
    pub id: String,
    pub json: Bytes,
    /// Where the `submodelElements` array lies in `json`, if it has one.
    elements: Option<Range<usize>>,
}

impl ServedPlant {
    /// Serialises `plant`, dropping each asset's Values once its bytes are made, so
    /// that a big plant is not held twice.
    pub fn new(plant: Plant, gateway_url: &str) -> Self {
        let assets = plant
            .assets
            .into_iter()
            .map(|asset| ArcSwapOption::from_pointee(ServedAsset::new(&asset, gateway_url)))
            .collect();
        ServedPlant {
            code: plant.code,
            assets,
        }
    }

    /// The assets as they are now (removed ones left out).
    pub fn current(&self) -> impl Iterator<Item = Arc<ServedAsset>> + '_ {
        self.assets.iter().filter_map(ArcSwapOption::load_full)
    }
}

/// Why an element's value cannot be set.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum EditRefused {
    NotFound,
    /// Only a Property (a string) or a MultiLanguageProperty (`[{language, text}]`).
    WrongType(String),
}

impl ServedAsset {
    fn new(asset: &Asset, gateway_url: &str) -> Self {
        ServedAsset {
            asset_type: asset.asset_type.clone(),
            aas_id: asset.aas_id.clone(),
            shell: asset.shell.to_string().into(),
            asset: asset.asset.to_string().into(),
            descriptor: asset.descriptor(gateway_url).to_string().into(),
            submodels: asset.submodels.iter().map(ServedSubmodel::new).collect(),
        }
    }

    pub fn submodel(&self, id_short: &str) -> Option<&ServedSubmodel> {
        self.submodels.iter().find(|sm| sm.id_short == id_short)
    }

    /// This asset with the value of the element at `path` in `submodel` set to `value`;
    /// only that submodel is serialised again.
    pub fn with_value(
        &self,
        submodel: &str,
        path: &[String],
        value: Value,
    ) -> Result<ServedAsset, EditRefused> {
        let index = (self.submodels.iter())
            .position(|sm| sm.id_short == submodel)
            .ok_or(EditRefused::NotFound)?;
        let mut json: Value = serde_json::from_slice(&self.submodels[index].json)
            .map_err(|_| EditRefused::NotFound)?;
        let element = find_mut(&mut json["submodelElements"], path).ok_or(EditRefused::NotFound)?;
        let model_type = element["modelType"]["name"].as_str().unwrap_or_default();
        let fits = match model_type {
            "Property" => value.is_string(),
            "MultiLanguageProperty" => value.as_array().is_some_and(|texts| {
                texts
                    .iter()
                    .all(|t| t["language"].is_string() && t["text"].is_string())
            }),
            other => {
                return Err(EditRefused::WrongType(format!(
                "only a Property's or a MultiLanguageProperty's value can be set, not a {other}'s"
            )))
            }
        };
        if !fits {
            return Err(EditRefused::WrongType(format!(
                "a {model_type}'s value is {}",
                if model_type == "Property" {
                    "a string"
                } else {
                    "a list of {language, text}"
                }
            )));
        }
        element["value"] = value;
        let mut changed = self.clone();
        changed.submodels[index] = ServedSubmodel::new(&json);
        Ok(changed)
    }
}

/// The element at `path` in a list of elements (a collection's children are its
/// `value`, an entity's its `statements`).
fn find_mut<'v>(list: &'v mut Value, path: &[String]) -> Option<&'v mut Value> {
    let (first, rest) = path.split_first()?;
    let element = list
        .as_array_mut()?
        .iter_mut()
        .find(|e| e["idShort"] == first.as_str())?;
    if rest.is_empty() {
        return Some(element);
    }
    let children = if element.get("statements").is_some() {
        "statements"
    } else {
        "value"
    };
    find_mut(&mut element[children], rest)
}

impl ServedSubmodel {
    /// The submodel as compact JSON (what `Value::to_string` writes), noting where
    /// its elements are so that the elements route can answer with a slice of it.
    fn new(submodel: &Value) -> Self {
        let id_short = submodel["idShort"].as_str().unwrap_or_default().to_owned();
        let id = (submodel["identification"]["id"].as_str())
            .unwrap_or_default()
            .to_owned();
        let Some(fields) = submodel.as_object() else {
            return ServedSubmodel {
                id_short,
                id,
                json: submodel.to_string().into(),
                elements: None,
            };
        };
        let mut json = String::from("{");
        let mut elements = None;
        for (i, (key, value)) in fields.iter().enumerate() {
            if i > 0 {
                json.push(',');
            }
            json.push_str(&Value::from(key.as_str()).to_string());
            json.push(':');
            let start = json.len();
            json.push_str(&value.to_string());
            if key == "submodelElements" && value.is_array() {
                elements = Some(start..json.len());
            }
        }
        json.push('}');
        ServedSubmodel {
            id_short,
            id,
            json: json.into(),
            elements,
        }
    }

    /// The `submodelElements` array; `[]` for a submodel without one.
    pub fn elements(&self) -> Bytes {
        match &self.elements {
            Some(range) => self.json.slice(range.clone()),
            None => Bytes::from_static(b"[]"),
        }
    }

    /// The element at `path` (idShorts, outermost first): a collection's children are
    /// its `value`, an entity's its `statements`. Read from the bytes on demand: the
    /// route is rare, and keeping a parsed copy would double the store.
    pub fn element(&self, path: &[String]) -> Option<Bytes> {
        let mut list: Value = serde_json::from_slice(&self.elements()).ok()?;
        let (last, outer) = path.split_last()?;
        for id_short in outer {
            let found = take_child(list, id_short)?;
            list = match found {
                Value::Object(mut fields) => fields
                    .remove("value")
                    .or_else(|| fields.remove("statements"))?,
                _ => return None,
            };
        }
        Some(take_child(list, last)?.to_string().into())
    }
}

fn take_child(list: Value, id_short: &str) -> Option<Value> {
    match list {
        Value::Array(items) => items.into_iter().find(|e| e["idShort"] == id_short),
        _ => None,
    }
}

/// A JSON array of serialised items.
pub(crate) fn json_list<'b>(items: impl Iterator<Item = &'b Bytes>) -> Vec<u8> {
    let mut out = b"[".to_vec();
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(item);
    }
    out.push(b']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::demo_plant;

    #[test]
    fn answers_are_the_values_serialised() {
        let plant = demo_plant("P", 3, 5);
        let served = ServedPlant::new(plant.clone(), "http://gw");
        for (asset, answers) in plant.assets.iter().zip(served.current()) {
            assert_eq!(answers.shell, asset.shell.to_string());
            assert_eq!(
                answers.descriptor,
                asset.descriptor("http://gw").to_string()
            );
            for (sm, answer) in asset.submodels.iter().zip(&answers.submodels) {
                assert_eq!(answer.json, sm.to_string());
                assert_eq!(answer.elements(), sm["submodelElements"].to_string());
            }
        }
    }

    #[test]
    fn a_submodel_without_elements_answers_an_empty_list() {
        let served = ServedSubmodel::new(&serde_json::json!({"idShort": "S"}));
        assert_eq!(served.elements(), "[]");
        assert!(served.element(&["x".to_owned()]).is_none());
    }

    #[test]
    fn nested_elements_are_found_through_collections() {
        let plant = ServedPlant::new(demo_plant("P", 1, 1), "http://gw");
        let asset = plant.current().next().expect("an asset");
        let nameplate = asset.submodel("Nameplate").expect("Nameplate");
        let path = ["Address".to_owned(), "CityTown".to_owned()];
        let el: Value = serde_json::from_slice(&nameplate.element(&path).expect("nested element"))
            .expect("JSON");
        assert_eq!(el["value"], "Stuttgart");
        assert!(nameplate.element(&["Nope".to_owned()]).is_none());
        assert!(nameplate.element(&[]).is_none());
    }
}
