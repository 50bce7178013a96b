use serde::Deserialize;

use crate::tolerant::null_as_default;
use serde_json::value::RawValue;

use crate::{Identifier, LangString, ModelType, Parsed, Reference, SubmodelElement};

/// An Asset Administration Shell as the gateway returns it (`GET aasList/{aasId}`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssetAdministrationShell {
    pub id_short: String,
    pub identification: Identifier,
    #[serde(default)]
    pub model_type: Option<ModelType>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub description: Vec<LangString>,
    #[serde(default)]
    pub asset: Option<Reference>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub submodels: Vec<Reference>,
}

/// A submodel; its elements stay raw until they are looked at.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Submodel {
    pub id_short: String,
    #[serde(default)]
    pub identification: Option<Identifier>,
    #[serde(default)]
    pub model_type: Option<ModelType>,
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub semantic_id: Option<Reference>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub description: Vec<LangString>,
    #[serde(default, deserialize_with = "null_as_default")]
    submodel_elements: Vec<Box<RawValue>>,
}

impl Submodel {
    pub fn elements(&self) -> Vec<Parsed<SubmodelElement>> {
        self.submodel_elements
            .iter()
            .map(|raw| Parsed::new(raw.clone()))
            .collect()
    }
}

/// One entry of the registry (`GET /api/v1/registry`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AasDescriptor {
    pub id_short: String,
    pub identification: Identifier,
    #[serde(default, deserialize_with = "null_as_default")]
    pub description: Vec<LangString>,
    /// The platform's `submodelDescriptors`; BaSyx V1 registries call it `submodels`.
    #[serde(default, alias = "submodels", deserialize_with = "null_as_default")]
    pub submodel_descriptors: Vec<SubmodelDescriptor>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubmodelDescriptor {
    pub id_short: String,
    #[serde(default)]
    pub identification: Option<Identifier>,
    #[serde(default)]
    pub semantic_id: Option<Reference>,
}
