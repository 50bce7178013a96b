//! Submodel elements: the fields all of them share, and what each kind adds
//! ([`ElementBody`]).

mod body;
mod read;

use serde::Serialize;

pub use body::{
    AnnotatedRelationshipElement, Annotation, BasicEvent, Blob, Capability, ElementBody, Entity,
    File, MultiLanguageProperty, Operation, OperationVariable, Property, Range, ReferenceElement,
    RelationshipElement, SubmodelElementCollection,
};

use crate::{
    Constraint, EmbeddedDataSpecification, LangString, ModelType, Nullable, OtherFields, Parsed,
    Reference, Result,
};

/// The element types of AAS V2.0.1; anything else is `Other` and is shown as it came.
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

/// A submodel element of any kind. Keys it does not know stay in `extra`, so writing it
/// back gives the JSON it was read from.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SubmodelElement {
    pub id_short: String,
    pub model_type: ModelType,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub category: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub description: Nullable<Vec<LangString>>,
    /// BaSyx V1 points each element back at its container.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub parent: Nullable<Reference>,
    /// `Instance` or `Template`.
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub kind: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub semantic_id: Nullable<Reference>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub qualifiers: Nullable<Vec<Constraint>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub embedded_data_specifications: Nullable<Vec<EmbeddedDataSpecification>>,
    #[serde(flatten)]
    pub body: ElementBody,
    #[serde(flatten)]
    pub extra: OtherFields,
}

impl SubmodelElement {
    pub fn kind(&self) -> ElementKind {
        match &self.body {
            ElementBody::Property(_) => ElementKind::Property,
            ElementBody::MultiLanguageProperty(_) => ElementKind::MultiLanguageProperty,
            ElementBody::Range(_) => ElementKind::Range,
            // Blob and File share a body, so the name tells them apart.
            ElementBody::Blob(_) => ElementKind::Blob,
            ElementBody::File(_) => ElementKind::File,
            ElementBody::ReferenceElement(_) => ElementKind::ReferenceElement,
            ElementBody::SubmodelElementCollection(_) => ElementKind::SubmodelElementCollection,
            ElementBody::RelationshipElement(_) => ElementKind::RelationshipElement,
            ElementBody::AnnotatedRelationshipElement(_) => {
                ElementKind::AnnotatedRelationshipElement
            }
            ElementBody::Capability(_) => ElementKind::Capability,
            ElementBody::Entity(_) => ElementKind::Entity,
            ElementBody::BasicEvent(_) => ElementKind::BasicEvent,
            ElementBody::Operation(_) => ElementKind::Operation,
            ElementBody::Other => ElementKind::Other,
        }
    }

    /// The value type's name, whichever of the two shapes the server used.
    pub fn value_type(&self) -> Option<String> {
        let value_type = match &self.body {
            ElementBody::Property(p) => &p.value_type,
            ElementBody::Range(r) => &r.value_type,
            _ => return None,
        };
        value_type.as_ref().map(|t| t.name().to_owned())
    }

    /// The element's value in one line, for the tree and the details pane.
    pub fn display_value(&self) -> Result<Option<String>> {
        Ok(match &self.body {
            ElementBody::Property(p) => p.value.as_ref().and_then(scalar_text),
            ElementBody::Blob(b) | ElementBody::File(b) => b.value.as_ref().cloned(),
            ElementBody::MultiLanguageProperty(m) => (!m.value.is_empty()).then(|| {
                m.value
                    .iter()
                    .map(|t| format!("{} ({})", t.text, t.language))
                    .collect::<Vec<_>>()
                    .join("; ")
            }),
            ElementBody::Range(r) => {
                let end = |v: &Nullable<_>| v.as_ref().and_then(scalar_text).unwrap_or_default();
                Some(format!("{} – {}", end(&r.min), end(&r.max)))
            }
            ElementBody::ReferenceElement(r) => r
                .value
                .as_ref()
                .and_then(Reference::target)
                .map(str::to_owned),
            _ => None,
        })
    }

    /// The elements nested in this one: a collection's `value`, an entity's
    /// `statements`, the elements annotating a relationship, an operation's variables.
    pub fn children(&self) -> Result<Vec<Parsed<SubmodelElement>>> {
        Ok(self.nested().cloned().map(Parsed::from_view).collect())
    }

    fn nested(&self) -> Box<dyn Iterator<Item = &SubmodelElement> + '_> {
        match &self.body {
            ElementBody::SubmodelElementCollection(c) => Box::new(c.value.iter()),
            ElementBody::Entity(e) => Box::new(e.statements.iter()),
            ElementBody::AnnotatedRelationshipElement(r) => {
                Box::new(r.annotation.iter().filter_map(|a| match a {
                    Annotation::Element(el) => Some(&**el),
                    Annotation::Reference(_) => None,
                }))
            }
            ElementBody::Operation(o) => Box::new(
                [&o.input_variable, &o.output_variable, &o.inoutput_variable]
                    .into_iter()
                    .flat_map(|vars| vars.iter())
                    .filter_map(|var| var.value.as_ref()),
            ),
            _ => Box::new(std::iter::empty()),
        }
    }
}

fn scalar_text(v: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(_) | Value::Number(_) => Some(v.to_string()),
        Value::Null | Value::Array(_) | Value::Object(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse, Error};

    fn element(json: &str) -> SubmodelElement {
        parse(json).expect("valid element")
    }

    fn round_trip(json: &str) {
        let typed = serde_json::to_value(element(json)).expect("writes");
        let original: serde_json::Value = serde_json::from_str(json).expect("json");
        assert_eq!(typed, original);
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
    fn null_lists_and_numeric_values_from_real_exporters_are_accepted_and_kept() {
        let json = r#"{"idShort":"N","modelType":{"name":"Property"},"description":null,"descriptions":null,"valueId":null,"value":1234,"semanticId":{"keys":[{"type":"GlobalReference","value":"0173-1#02-AAO677#002","idType":"IRDI","index":0}]}}"#;
        let p = element(json);
        assert!(p.description.is_empty());
        assert_eq!(p.display_value(), Ok(Some("1234".into())));
        assert_eq!(
            p.semantic_id.as_ref().and_then(Reference::target),
            Some("0173-1#02-AAO677#002")
        );
        round_trip(json);
    }

    #[test]
    fn fields_before_model_type_are_typed_too() {
        let json = r#"{"value":[{"idShort":"a","value":"1","modelType":{"name":"Property"}}],"ordered":true,"parent":{"keys":[]},"idShort":"C","modelType":{"name":"SubmodelElementCollection"},"allowDuplicates":false}"#;
        let c = element(json);
        assert_eq!(c.kind(), ElementKind::SubmodelElementCollection);
        let kids = c.children().expect("children");
        assert_eq!(
            kids[0].view().expect("typed").display_value(),
            Ok(Some("1".into()))
        );
        assert!(c.extra.is_empty());
        round_trip(json);
    }

    #[test]
    fn an_unknown_model_type_keeps_all_its_fields() {
        let json = r#"{"idShort":"X","future":{"a":[1]},"modelType":{"name":"SubmodelElementList"},"value":[1,2],"typeValueListElement":"Property"}"#;
        let x = element(json);
        assert_eq!(x.kind(), ElementKind::Other);
        assert_eq!(x.extra.len(), 3);
        round_trip(json);
    }

    #[test]
    fn operation_variables_and_annotations_are_children() {
        let json = r#"{"idShort":"Op","modelType":{"name":"Operation"},
            "inputVariable":[{"value":{"idShort":"in","modelType":{"name":"Property"}}}],
            "outputVariable":[{"value":{"idShort":"out","modelType":{"name":"Property"}}}],
            "inoutputVariable":[]}"#;
        let names = |el: &SubmodelElement| -> Vec<String> {
            el.children()
                .expect("children")
                .iter()
                .map(|c| c.view().expect("typed").id_short.clone())
                .collect()
        };
        assert_eq!(names(&element(json)), ["in", "out"]);
        round_trip(json);
        let json = r#"{"idShort":"R","modelType":{"name":"AnnotatedRelationshipElement"},
            "first":{"keys":[]},"second":{"keys":[]},
            "annotation":[{"idShort":"note","modelType":{"name":"Property"},"value":"x"},
                          {"keys":[{"type":"GlobalReference","idType":"IRI","value":"urn:a","local":false}]}]}"#;
        assert_eq!(names(&element(json)), ["note"]);
        round_trip(json);
    }

    #[test]
    fn a_collection_whose_value_is_not_a_list_is_an_error() {
        let err = parse::<SubmodelElement>(
            r#"{"idShort":"C","modelType":{"name":"SubmodelElementCollection"},"value":"x"}"#,
        )
        .expect_err("not a list");
        assert!(
            matches!(&err, Error::Decode { path, .. } if path == "value"),
            "{err}"
        );
    }

    #[test]
    fn a_wrong_field_before_model_type_names_its_key() {
        let err = parse::<SubmodelElement>(
            r#"{"value":"x","idShort":"C","modelType":{"name":"SubmodelElementCollection"}}"#,
        )
        .expect_err("not a list");
        assert!(err.to_string().contains("value: invalid type"), "{err}");
    }

    #[test]
    fn a_missing_id_short_or_model_type_is_an_error() {
        assert!(parse::<SubmodelElement>(r#"{"modelType":{"name":"Property"}}"#).is_err());
        assert!(parse::<SubmodelElement>(r#"{"idShort":"a","value":"1"}"#).is_err());
    }
}
