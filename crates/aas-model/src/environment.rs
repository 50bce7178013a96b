use serde::{Deserialize, Serialize};

use crate::{Asset, AssetAdministrationShell, ConceptDescription, Nullable, OtherFields, Submodel};

/// A whole AAS V2.0.1 JSON file: what an AASX package or an export holds.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Environment {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub asset_administration_shells: Nullable<Vec<AssetAdministrationShell>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub assets: Nullable<Vec<Asset>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub submodels: Nullable<Vec<Submodel>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub concept_descriptions: Nullable<Vec<ConceptDescription>>,
    #[serde(flatten)]
    pub extra: OtherFields,
}
