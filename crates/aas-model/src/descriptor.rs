//! Registry entries (`GET /api/v1/registry`): where each shell and submodel is served.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{
    AdministrativeInformation, Asset, Identifier, LangString, ModelType, Nullable, OtherFields,
    Reference,
};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AasDescriptor {
    pub id_short: String,
    pub identification: Identifier,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub model_type: Nullable<ModelType>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub administration: Nullable<AdministrativeInformation>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub description: Nullable<Vec<LangString>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub asset: Nullable<Asset>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub endpoints: Nullable<Vec<Endpoint>>,
    /// The platform's list of submodels; see [`AasDescriptor::submodel_list`].
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub submodel_descriptors: Nullable<Vec<SubmodelDescriptor>>,
    /// The same list as BaSyx V1 registries name it.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub submodels: Nullable<Vec<SubmodelDescriptor>>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

impl AasDescriptor {
    /// The submodels, under whichever name the registry used.
    pub fn submodel_list(&self) -> &[SubmodelDescriptor] {
        match self.submodel_descriptors.as_ref() {
            Some(list) => list,
            None => &self.submodels,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubmodelDescriptor {
    pub id_short: String,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub identification: Nullable<Identifier>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub model_type: Nullable<ModelType>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub administration: Nullable<AdministrativeInformation>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub description: Nullable<Vec<LangString>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub semantic_id: Nullable<Reference>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub endpoints: Nullable<Vec<Endpoint>>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

/// Where and how an object is served.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Endpoint {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub address: Nullable<String>,
    /// `http`, `opc.tcp`, …
    #[serde(rename = "type", skip_serializing_if = "Nullable::is_absent")]
    pub endpoint_type: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub parameters: Nullable<Value>,
    #[serde(flatten)]
    pub extra: OtherFields,
}
