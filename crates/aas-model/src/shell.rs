//! The shell and what hangs off it directly: the asset, views, concept dictionaries.

use serde::{Deserialize, Serialize};

use crate::{
    AdministrativeInformation, EmbeddedDataSpecification, Identifier, LangString, ModelType,
    Nullable, OtherFields, Reference,
};

/// An Asset Administration Shell as the gateway returns it (`GET aasList/{aasId}`), or
/// as a V3 server or file writes it (`id`, `assetInformation` and the V3 fields kept in
/// `extra`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssetAdministrationShell {
    /// Optional in V3 (`""` when it has none, written back so).
    #[serde(default)]
    pub id_short: String,
    /// V2's identifier; [`AssetAdministrationShell::id`] reads either version's.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub identification: Nullable<Identifier>,
    /// V3's identifier.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub id: Nullable<String>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub model_type: Nullable<ModelType>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub category: Nullable<String>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub description: Nullable<Vec<LangString>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub parent: Nullable<Reference>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub administration: Nullable<AdministrativeInformation>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub embedded_data_specifications: Nullable<Vec<EmbeddedDataSpecification>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub derived_from: Nullable<Reference>,
    /// A reference to the asset; BaSyx V1 puts the whole asset here (see [`Reference`]).
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub asset: Nullable<Reference>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub submodels: Nullable<Vec<Reference>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub views: Nullable<Vec<View>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub concept_dictionaries: Nullable<Vec<ConceptDictionary>>,
    /// Also `security`, and BaSyx V1's `conceptDictionary` and `dataSpecification`.
    #[serde(flatten)]
    pub extra: OtherFields,
}

impl AssetAdministrationShell {
    /// Its identifier: V2's `identification.id` or V3's `id` (`""` if it has neither).
    pub fn id(&self) -> &str {
        crate::common::identifier(&self.identification, &self.id)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Asset {
    pub id_short: String,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub identification: Nullable<Identifier>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub model_type: Nullable<ModelType>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub category: Nullable<String>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub description: Nullable<Vec<LangString>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub parent: Nullable<Reference>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub administration: Nullable<AdministrativeInformation>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub embedded_data_specifications: Nullable<Vec<EmbeddedDataSpecification>>,
    /// `Type` or `Instance`.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub kind: Nullable<String>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub asset_identification_model: Nullable<Reference>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub bill_of_material: Nullable<Reference>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

/// A named selection of the shell's elements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct View {
    pub id_short: String,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub model_type: Nullable<ModelType>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub category: Nullable<String>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub description: Nullable<Vec<LangString>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub semantic_id: Nullable<Reference>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub embedded_data_specifications: Nullable<Vec<EmbeddedDataSpecification>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub contained_elements: Nullable<Vec<Reference>>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

/// The concept descriptions a shell uses, by reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConceptDictionary {
    pub id_short: String,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub model_type: Nullable<ModelType>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub category: Nullable<String>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub description: Nullable<Vec<LangString>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub embedded_data_specifications: Nullable<Vec<EmbeddedDataSpecification>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub concept_descriptions: Nullable<Vec<Reference>>,
    #[serde(flatten)]
    pub extra: OtherFields,
}
