//! The fields each kind of submodel element adds to the common ones.

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::model_typed::Body;
use crate::{LangString, Nullable, OtherFields, Reference, SubmodelElement, ValueType};

/// The type-specific part of a submodel element, chosen by `modelType.name`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(untagged)]
pub enum ElementBody {
    Property(Property),
    MultiLanguageProperty(MultiLanguageProperty),
    Range(Range),
    Blob(Blob),
    File(File),
    ReferenceElement(ReferenceElement),
    SubmodelElementCollection(SubmodelElementCollection),
    RelationshipElement(RelationshipElement),
    AnnotatedRelationshipElement(AnnotatedRelationshipElement),
    Capability(Capability),
    Entity(Entity),
    BasicEvent(BasicEvent),
    Operation(Operation),
    /// A model type V2.0.1 does not define: all its own fields are in the element's
    /// `extra`.
    #[default]
    Other,
}

impl<'de> Body<'de> for ElementBody {
    fn read_as<D: Deserializer<'de>>(model_type: &str, fields: D) -> Result<Self, D::Error> {
        Ok(match model_type {
            "Property" => ElementBody::Property(Deserialize::deserialize(fields)?),
            "MultiLanguageProperty" => {
                ElementBody::MultiLanguageProperty(Deserialize::deserialize(fields)?)
            }
            "Range" => ElementBody::Range(Deserialize::deserialize(fields)?),
            "Blob" => ElementBody::Blob(Deserialize::deserialize(fields)?),
            "File" => ElementBody::File(Deserialize::deserialize(fields)?),
            "ReferenceElement" => ElementBody::ReferenceElement(Deserialize::deserialize(fields)?),
            "SubmodelElementCollection" => {
                ElementBody::SubmodelElementCollection(Deserialize::deserialize(fields)?)
            }
            "RelationshipElement" => {
                ElementBody::RelationshipElement(Deserialize::deserialize(fields)?)
            }
            "AnnotatedRelationshipElement" => {
                ElementBody::AnnotatedRelationshipElement(Deserialize::deserialize(fields)?)
            }
            "Capability" => ElementBody::Capability(Deserialize::deserialize(fields)?),
            "Entity" => ElementBody::Entity(Deserialize::deserialize(fields)?),
            "BasicEvent" => ElementBody::BasicEvent(Deserialize::deserialize(fields)?),
            "Operation" => ElementBody::Operation(Deserialize::deserialize(fields)?),
            _ => {
                IgnoredAny::deserialize(fields)?;
                ElementBody::Other
            }
        })
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Property {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_type: Nullable<ValueType>,
    /// Usually a string; some exporters write a number.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<Value>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_id: Nullable<Reference>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MultiLanguageProperty {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<Vec<LangString>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_id: Nullable<Reference>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Range {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_type: Nullable<ValueType>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub min: Nullable<Value>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub max: Nullable<Value>,
}

/// Content inline (base64 in `value`, for a Blob) or by path or URL (for a File).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Blob {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub mime_type: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<String>,
}

pub type File = Blob;

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ReferenceElement {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<Reference>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SubmodelElementCollection {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<Vec<SubmodelElement>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub ordered: Nullable<bool>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub allow_duplicates: Nullable<bool>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RelationshipElement {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub first: Nullable<Reference>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub second: Nullable<Reference>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AnnotatedRelationshipElement {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub first: Nullable<Reference>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub second: Nullable<Reference>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub annotation: Nullable<Vec<Annotation>>,
}

/// V2.0.1 annotates with data elements; PyI40AAS 0.2.3 writes references instead.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Annotation {
    Element(Box<SubmodelElement>),
    Reference(Reference),
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Capability {}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Entity {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub statements: Nullable<Vec<SubmodelElement>>,
    /// `CoManagedEntity` or `SelfManagedEntity`.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub entity_type: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub asset: Nullable<Reference>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BasicEvent {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub observed: Nullable<Reference>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Operation {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub input_variable: Nullable<Vec<OperationVariable>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub output_variable: Nullable<Vec<OperationVariable>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub inoutput_variable: Nullable<Vec<OperationVariable>>,
}

/// One argument of an operation: its `value` is the element that describes it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct OperationVariable {
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<SubmodelElement>,
    #[serde(flatten)]
    pub extra: OtherFields,
}
