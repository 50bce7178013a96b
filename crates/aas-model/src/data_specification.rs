//! Embedded data specifications: the IEC 61360 description of a concept (preferred
//! name, unit, …) carried by concept descriptions and, in some exports, by elements.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{LangString, Nullable, OtherFields, Reference, ValueType};

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EmbeddedDataSpecification {
    /// Which template the content follows (the IEC 61360 one, by its IRI).
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub data_specification: Nullable<Reference>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub data_specification_content: Nullable<DataSpecificationIec61360>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

/// `DataSpecificationIEC61360Content`. Every field is optional here, so other content
/// (the physical unit template) reads too, with its fields in `extra`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DataSpecificationIec61360 {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub preferred_name: Nullable<Vec<LangString>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub short_name: Nullable<Vec<LangString>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub definition: Nullable<Vec<LangString>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub unit: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub unit_id: Nullable<Reference>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub source_of_definition: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub symbol: Nullable<String>,
    /// `STRING`, `REAL_MEASURE`, … (kept as text).
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub data_type: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_format: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_list: Nullable<ValueList>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<Value>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_id: Nullable<Reference>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_type: Nullable<ValueType>,
    /// V2's list of `Min`, `Max`, `Nom`, `Typ`; V3's `{"min": true, …}`.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub level_type: Nullable<Value>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ValueList {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_reference_pair_types: Nullable<Vec<ValueReferencePair>>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

/// One allowed value of an enumerated concept, and the concept that defines it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ValueReferencePair {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<Value>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_id: Nullable<Reference>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_type: Nullable<ValueType>,
    #[serde(flatten)]
    pub extra: OtherFields,
}
