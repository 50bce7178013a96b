use serde::{Deserialize, Serialize};

use crate::{
    AdministrativeInformation, EmbeddedDataSpecification, Identifier, LangString, ModelType,
    Nullable, OtherFields, Reference,
};

/// What a `semanticId` points at: the meaning of an element, usually described by an
/// IEC 61360 data specification (preferred name, unit, definition).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConceptDescription {
    /// Optional in V3 (`""` when it has none, written back so).
    #[serde(default)]
    pub id_short: String,
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
    pub is_case_of: Nullable<Vec<Reference>>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

impl ConceptDescription {
    /// Its identifier: V2's `identification.id` or V3's `id` (`""` if it has neither).
    pub fn id(&self) -> &str {
        crate::common::identifier(&self.identification, &self.id)
    }
}
