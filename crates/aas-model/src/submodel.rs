use serde::{Deserialize, Serialize};

use crate::{
    AdministrativeInformation, Constraint, EmbeddedDataSpecification, Identifier, LangString,
    ModelType, Nullable, OtherFields, Parsed, Reference, SubmodelElement,
};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Submodel {
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
    /// `Instance` or `Template`.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub kind: Nullable<String>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub semantic_id: Nullable<Reference>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub qualifiers: Nullable<Vec<Constraint>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub submodel_elements: Nullable<Vec<SubmodelElement>>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

impl Submodel {
    /// The top-level elements, each with its JSON for the raw view.
    pub fn elements(&self) -> Vec<Parsed<SubmodelElement>> {
        self.submodel_elements
            .iter()
            .cloned()
            .map(Parsed::from_view)
            .collect()
    }
}
