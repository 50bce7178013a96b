//! Small value types shared by every part of the metamodel.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Nullable;

/// Keys a typed struct does not know, kept in their order so that writing the struct
/// back loses nothing.
pub type OtherFields = Map<String, Value>;

/// `modelType: {"name": "..."}` as AAS V2 JSON writes the type of every object.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ModelType {
    pub name: String,
    #[serde(flatten)]
    pub extra: OtherFields,
}

/// A text in one language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LangString {
    pub language: String,
    pub text: String,
    #[serde(flatten)]
    pub extra: OtherFields,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Identifier {
    pub id: String,
    /// `IRI`, `IRDI`, `Custom`, … (kept as text: servers use values beyond the schema's).
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub id_type: Nullable<String>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AdministrativeInformation {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub version: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub revision: Nullable<String>,
    #[serde(flatten)]
    pub extra: OtherFields,
}
