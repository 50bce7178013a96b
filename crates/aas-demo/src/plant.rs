//! The data the demo service serves, as generated or loaded: plants and their assets.
//! `answers` serialises them once for the routes.

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
