//! The fields each kind of submodel element adds to the common ones.

use serde::de::{Error as _, IgnoredAny, MapAccess};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::model_typed::{Body, Head};
use crate::record::{self, Record};
use crate::{
    parse, LangString, Nullable, OtherFields, Parsed, RawElement, Reference, SubmodelElement,
    ValueType,
};

/// The type-specific part of a submodel element, chosen by its model type (V2's or
/// V3's name of it).
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
    /// V3's ordered list of elements without idShorts.
    SubmodelElementList(SubmodelElementList),
    RelationshipElement(RelationshipElement),
    AnnotatedRelationshipElement(AnnotatedRelationshipElement),
    Capability(Capability),
    Entity(Entity),
    BasicEvent(BasicEvent),
    Operation(Operation),
    /// A model type neither V2.0.1 nor V3 defines: all its own fields are in the element's
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
            "SubmodelElementList" => {
                ElementBody::SubmodelElementList(Deserialize::deserialize(fields)?)
            }
            "RelationshipElement" => {
                ElementBody::RelationshipElement(Deserialize::deserialize(fields)?)
            }
            "AnnotatedRelationshipElement" => {
                ElementBody::AnnotatedRelationshipElement(Deserialize::deserialize(fields)?)
            }
            "Capability" => ElementBody::Capability(Deserialize::deserialize(fields)?),
            "Entity" => ElementBody::Entity(Deserialize::deserialize(fields)?),
            "BasicEvent" | "BasicEventElement" => {
                ElementBody::BasicEvent(Deserialize::deserialize(fields)?)
            }
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
    /// V2's name of the content type; [`Blob::content_type`] reads either version's.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub mime_type: Nullable<String>,
    /// V3's.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub content_type: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<String>,
}

pub type File = Blob;

impl Blob {
    /// The content's media type, V2's `mimeType` or V3's `contentType`.
    pub fn content_type(&self) -> Option<&str> {
        (self.mime_type.as_ref())
            .or(self.content_type.as_ref())
            .map(String::as_str)
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ReferenceElement {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<Reference>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SubmodelElementCollection {
    /// The nested elements, as sent; [`SubmodelElement::children`] types them.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<Vec<RawElement>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub ordered: Nullable<bool>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub allow_duplicates: Nullable<bool>,
}

/// V3's list: its items have no idShort and are addressed by their index.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SubmodelElementList {
    /// The items, as sent; [`SubmodelElement::children`] types them.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<Vec<RawElement>>,
    /// The model type every item has.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub type_value_list_element: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_type_list_element: Nullable<ValueType>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub semantic_id_list_element: Nullable<Reference>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub order_relevant: Nullable<bool>,
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
    /// V2's elements or references ([`Annotation`]), as sent;
    /// [`SubmodelElement::children`] types the elements,
    /// [`AnnotatedRelationshipElement::annotations`] all of them.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub annotation: Nullable<Vec<RawElement>>,
    /// V3's name for them (data elements only).
    #[serde(rename = "annotations", skip_serializing_if = "Nullable::is_absent")]
    pub annotations_v3: Nullable<Vec<RawElement>>,
}

impl AnnotatedRelationshipElement {
    /// Each annotation as sent, whichever version's key holds them.
    pub fn annotation_texts(&self) -> impl Iterator<Item = &RawElement> {
        self.annotation.iter().chain(self.annotations_v3.iter())
    }

    /// Each annotation typed, with its exact text.
    pub fn annotations(&self) -> Vec<Parsed<Annotation>> {
        self.annotation_texts()
            .map(|a| Parsed::new(a.clone().into_raw()))
            .collect()
    }
}

/// V2.0.1 annotates with data elements; PyI40AAS 0.2.3 writes references instead.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Annotation {
    Element(Box<SubmodelElement>),
    Reference(Reference),
}

/// An object with `modelType` or `idShort` is an element (and an error if it is not a
/// valid one); any other object is a reference. Read from the text, not buffered as
/// `untagged` would, so nested elements keep their exact bytes.
impl<'de> Deserialize<'de> for Annotation {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        let raw = RawElement::deserialize(de)?;
        if raw.is_element() {
            parse(raw.get())
                .map(|el| Annotation::Element(Box::new(el)))
                .map_err(D::Error::custom)
        } else {
            parse(raw.get())
                .map(Annotation::Reference)
                .map_err(D::Error::custom)
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Capability {}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Entity {
    /// The nested elements, as sent; [`SubmodelElement::children`] types them.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub statements: Nullable<Vec<RawElement>>,
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

/// An operation's variables, under V2's keys (`inputVariable`) or V3's
/// (`inputVariables`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Operation {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub input_variable: Nullable<Vec<OperationVariable>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub output_variable: Nullable<Vec<OperationVariable>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub inoutput_variable: Nullable<Vec<OperationVariable>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub input_variables: Nullable<Vec<OperationVariable>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub output_variables: Nullable<Vec<OperationVariable>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub inoutput_variables: Nullable<Vec<OperationVariable>>,
}

impl Operation {
    /// Each group of variables with the key that holds it, V2's and V3's.
    pub fn variables(&self) -> [(&'static str, &Nullable<Vec<OperationVariable>>); 6] {
        [
            ("inputVariable", &self.input_variable),
            ("outputVariable", &self.output_variable),
            ("inoutputVariable", &self.inoutput_variable),
            ("inputVariables", &self.input_variables),
            ("outputVariables", &self.output_variables),
            ("inoutputVariables", &self.inoutput_variables),
        ]
    }
}

/// One argument of an operation: its `value` is the element that describes it, as sent;
/// [`SubmodelElement::children`] types it.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct OperationVariable {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<RawElement>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

impl<'de> Deserialize<'de> for OperationVariable {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        record::deserialize::<D, OperationVariable>(de)
    }
}

impl<'de> Head<'de> for OperationVariable {
    fn read<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "value" => self.value = map.next_value()?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

impl Record<'_> for OperationVariable {
    type Output = Self;
    const EXPECTING: &'static str = "an operation variable";

    fn finish<E: serde::de::Error>(mut self, extra: OtherFields) -> Result<Self, E> {
        self.extra = extra;
        Ok(self)
    }
}
