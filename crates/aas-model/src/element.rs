use serde::Deserialize;

use crate::tolerant::null_as_default;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::{parse, LangString, ModelType, Parsed, Reference, Result};

/// The element types of AAS V2.0.1, by `modelType.name`; anything else is `Other` and
/// is shown as it came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementKind {
    Property,
    MultiLanguageProperty,
    Range,
    Blob,
    File,
    ReferenceElement,
    SubmodelElementCollection,
    RelationshipElement,
    AnnotatedRelationshipElement,
    Capability,
    Entity,
    BasicEvent,
    Operation,
    Other,
}

/// A submodel element. Fields that differ per element type stay raw (`value`,
/// `statements`) and are read on demand, so one type serves every element.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubmodelElement {
    pub id_short: String,
    pub model_type: ModelType,
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub description: Vec<LangString>,
    #[serde(default)]
    pub semantic_id: Option<Reference>,
    /// A string (`"double"`) in V2.0.1, an object (`{"dataObjectType":{"name":"double"}}`)
    /// in older BaSyx output.
    #[serde(default)]
    value_type: Option<Value>,
    #[serde(default)]
    value: Option<Box<RawValue>>,
    #[serde(default)]
    pub min: Option<Value>,
    #[serde(default)]
    pub max: Option<Value>,
    #[serde(default)]
    pub mime_type: Option<String>,
    #[serde(default)]
    statements: Option<Box<RawValue>>,
}

impl SubmodelElement {
    pub fn kind(&self) -> ElementKind {
        match self.model_type.name.as_str() {
            "Property" => ElementKind::Property,
            "MultiLanguageProperty" => ElementKind::MultiLanguageProperty,
            "Range" => ElementKind::Range,
            "Blob" => ElementKind::Blob,
            "File" => ElementKind::File,
            "ReferenceElement" => ElementKind::ReferenceElement,
            "SubmodelElementCollection" => ElementKind::SubmodelElementCollection,
            "RelationshipElement" => ElementKind::RelationshipElement,
            "AnnotatedRelationshipElement" => ElementKind::AnnotatedRelationshipElement,
            "Capability" => ElementKind::Capability,
            "Entity" => ElementKind::Entity,
            "BasicEvent" => ElementKind::BasicEvent,
            "Operation" => ElementKind::Operation,
            _ => ElementKind::Other,
        }
    }

    /// The value type's name, whichever of the two shapes the server used.
    pub fn value_type(&self) -> Option<String> {
        match self.value_type.as_ref()? {
            Value::String(s) => Some(s.clone()),
            other => other
                .pointer("/dataObjectType/name")
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
    }

    /// The element's value in one line, for the tree and the details pane.
    pub fn display_value(&self) -> Result<Option<String>> {
        Ok(match self.kind() {
            ElementKind::Property | ElementKind::File | ElementKind::Blob => {
                self.value_as::<Value>()?.as_ref().and_then(scalar_text)
            }
            ElementKind::MultiLanguageProperty => {
                let texts: Vec<LangString> = self.value_as()?.unwrap_or_default();
                (!texts.is_empty()).then(|| {
                    texts
                        .iter()
                        .map(|t| format!("{} ({})", t.text, t.language))
                        .collect::<Vec<_>>()
                        .join("; ")
                })
            }
            ElementKind::Range => {
                let end = |v: &Option<Value>| v.as_ref().and_then(scalar_text).unwrap_or_default();
                Some(format!("{} – {}", end(&self.min), end(&self.max)))
            }
            ElementKind::ReferenceElement => self
                .value_as::<Reference>()?
                .and_then(|r| r.target().map(str::to_owned)),
            _ => None,
        })
    }

    /// The elements nested in this one: a collection's `value`, an entity's `statements`.
    pub fn children(&self) -> Result<Vec<Parsed<SubmodelElement>>> {
        let nested = match self.kind() {
            ElementKind::SubmodelElementCollection => self.value.as_ref(),
            ElementKind::Entity => self.statements.as_ref(),
            _ => None,
        };
        let items: Vec<Box<RawValue>> = match nested {
            Some(raw) => parse(raw.get())?,
            None => Vec::new(),
        };
        Ok(items.into_iter().map(Parsed::new).collect())
    }

    fn value_as<T: serde::de::DeserializeOwned>(&self) -> Result<Option<T>> {
        self.value.as_ref().map(|raw| parse(raw.get())).transpose()
    }
}

fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        Value::Bool(_) | Value::Number(_) => Some(v.to_string()),
        Value::Array(_) | Value::Object(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(json: &str) -> SubmodelElement {
        parse(json).expect("valid element")
    }

    #[test]
    fn property_value_and_both_value_type_shapes() {
        let p = element(
            r#"{"idShort":"T","modelType":{"name":"Property"},"valueType":"double","value":21.5}"#,
        );
        assert_eq!(p.display_value(), Ok(Some("21.5".into())));
        assert_eq!(p.value_type().as_deref(), Some("double"));
        let old = element(
            r#"{"idShort":"T","modelType":{"name":"Property"},"valueType":{"dataObjectType":{"name":"int"}},"value":"3"}"#,
        );
        assert_eq!(old.value_type().as_deref(), Some("int"));
    }

    #[test]
    fn multi_language_range_and_reference() {
        let mlp = element(
            r#"{"idShort":"D","modelType":{"name":"MultiLanguageProperty"},"value":[{"language":"en","text":"Drill"},{"language":"de","text":"Bohrer"}]}"#,
        );
        assert_eq!(
            mlp.display_value(),
            Ok(Some("Drill (en); Bohrer (de)".into()))
        );
        let range = element(r#"{"idShort":"R","modelType":{"name":"Range"},"min":0,"max":"80"}"#);
        assert_eq!(range.display_value(), Ok(Some("0 – 80".into())));
        let r = element(
            r#"{"idShort":"Ref","modelType":{"name":"ReferenceElement"},"value":{"keys":[{"type":"Submodel","value":"urn:x","idType":"IRI","local":true}]}}"#,
        );
        assert_eq!(r.display_value(), Ok(Some("urn:x".into())));
    }

    #[test]
    fn collection_children_are_parsed_one_by_one() {
        let c = element(
            r#"{"idShort":"C","modelType":{"name":"SubmodelElementCollection"},"value":[
                {"idShort":"a","modelType":{"name":"Property"},"value":"1"},
                {"modelType":{"name":"Property"}}]}"#,
        );
        let kids = c.children().expect("an array");
        assert_eq!(kids.len(), 2);
        assert!(kids[0].view().is_ok());
        assert!(kids[1].view().is_err());
    }

    #[test]
    fn null_lists_and_numeric_values_from_real_exporters_are_accepted() {
        let p = element(
            r#"{"idShort":"N","modelType":{"name":"Property"},"description":null,"value":1234,"semanticId":{"keys":[{"type":"GlobalReference","value":"0173-1#02-AAO677#002","idType":"IRDI","index":0}]}}"#,
        );
        assert!(p.description.is_empty());
        assert_eq!(p.display_value(), Ok(Some("1234".into())));
        assert_eq!(
            p.semantic_id.as_ref().and_then(Reference::target),
            Some("0173-1#02-AAO677#002")
        );
    }

    #[test]
    fn a_collection_whose_value_is_not_a_list_is_an_error() {
        let c = element(
            r#"{"idShort":"C","modelType":{"name":"SubmodelElementCollection"},"value":"x"}"#,
        );
        assert!(c.children().is_err());
    }
}
