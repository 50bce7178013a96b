//! The data the sandbox serves: plants, their assets, and the lookups the routes need.

use aas_model::{encode_segment as encode, AssetType};
use serde_json::{json, Value};

#[derive(Debug, Clone)]
pub struct Plant {
    pub code: String,
    pub assets: Vec<Asset>,
}

/// One asset and its AAS, kept as the AAS V2.0.1 JSON that is served.
#[derive(Debug, Clone)]
pub struct Asset {
    pub asset_type: AssetType,
    pub code: String,
    pub aas_id: String,
    pub asset: Value,
    pub shell: Value,
    pub submodels: Vec<Value>,
}

impl Asset {
    pub fn submodel(&self, id_short: &str) -> Option<&Value> {
        self.submodels.iter().find(|sm| sm["idShort"] == id_short)
    }

    /// The element at `path` (idShorts, outermost first) inside submodel `sm`: a
    /// collection's children are its `value`, an entity's its `statements`.
    pub fn element(&self, sm: &str, path: &[String]) -> Option<&Value> {
        let (first, rest) = path.split_first()?;
        let mut found = child(self.submodel(sm)?.get("submodelElements")?, first)?;
        for id_short in rest {
            let nested = found.get("value").or_else(|| found.get("statements"))?;
            found = child(nested, id_short)?;
        }
        Some(found)
    }

    /// The registry's descriptor of this AAS, with endpoints on `gateway_url`.
    pub fn descriptor(&self, gateway_url: &str) -> Value {
        let aas_url = format!("{gateway_url}/aasList/{}", encode(&self.aas_id));
        let submodels: Vec<Value> = self
            .submodels
            .iter()
            .map(|sm| {
                let id_short = sm["idShort"].as_str().unwrap_or_default();
                json!({
                    "idShort": id_short,
                    "identification": sm["identification"],
                    "administration": sm.get("administration").cloned().unwrap_or(json!({"version": "1", "revision": "0"})),
                    "description": sm.get("description").cloned().unwrap_or(json!([])),
                    "semanticId": sm.get("semanticId").cloned().unwrap_or(json!({"keys": []})),
                    "endpoints": [{"address": format!("{aas_url}/aas/submodels/{}/submodel", encode(id_short)), "type": "http", "parameters": {}}],
                })
            })
            .collect();
        json!({
            "idShort": self.shell["idShort"],
            "identification": self.shell["identification"],
            "administration": self.shell.get("administration").cloned().unwrap_or(json!({"version": "1", "revision": "0"})),
            "description": self.shell.get("description").cloned().unwrap_or(json!([])),
            "asset": self.asset,
            "endpoints": [{"address": format!("{aas_url}/aas"), "type": "http", "parameters": {}}],
            "submodelDescriptors": submodels,
        })
    }
}

fn child<'a>(list: &'a Value, id_short: &str) -> Option<&'a Value> {
    list.as_array()?.iter().find(|e| e["idShort"] == id_short)
}

#[cfg(test)]
mod tests {
    use crate::demo::demo_plant;

    #[test]
    fn nested_elements_are_found_through_collections() {
        let plant = demo_plant("P", 1, 1);
        let asset = &plant.assets[0];
        let path = ["Address".to_owned(), "CityTown".to_owned()];
        let el = asset.element("Nameplate", &path).expect("nested element");
        assert_eq!(el["value"], "Stuttgart");
        assert!(asset.element("Nameplate", &["Nope".to_owned()]).is_none());
        assert!(asset.element("Nope", &path).is_none());
    }
}
