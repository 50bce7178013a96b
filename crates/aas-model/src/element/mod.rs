//! Submodel elements: the fields all of them share, and what each kind adds
//! ([`ElementBody`]).

mod body;
mod raw;
mod read;

use serde::Serialize;

pub use body::{
    AnnotatedRelationshipElement, Annotation, BasicEvent, Blob, Capability, ElementBody, Entity,
    File, MultiLanguageProperty, Operation, OperationVariable, Property, Range, ReferenceElement,
    RelationshipElement, SubmodelElementCollection,
};
pub use raw::RawElement;

use crate::{
    Constraint, EmbeddedDataSpecification, LangString, ModelType, Nullable, OtherFields, Parsed,
    Reference, Result,
};

/// The element types of AAS V2.0.1 and V3 (V3's BasicEventElement is `BasicEvent`);
/// anything else is `Other` and is shown as it came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementKind {
    Property,
    MultiLanguageProperty,
    Range,
    Blob,
    File,
    ReferenceElement,
    SubmodelElementCollection,
    SubmodelElementList,
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
            ElementBody::SubmodelElementList(_) => ElementKind::SubmodelElementList,
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

    /// The unit from the element's own IEC 61360 data specification, if it has one.
    pub fn unit(&self) -> Option<&str> {
        self.embedded_data_specifications
            .iter()
            .filter_map(|spec| spec.data_specification_content.as_ref()?.unit.as_ref())
            .next()
            .map(String::as_str)
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
            ElementBody::MultiLanguageProperty(m) => languages_text(
                m.value
                    .iter()
                    .map(|t| (t.language.as_str(), t.text.as_str())),
            ),
            ElementBody::Range(r) => {
                let end = |v: &Nullable<_>| v.as_ref().and_then(scalar_text).unwrap_or_default();
                Some(range_text(&end(&r.min), &end(&r.max)))
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
    /// Each keeps the exact text the server sent; a malformed one is an error view of
    /// its own, beside its good siblings. (Never fails: the `Result` is for callers
    /// written when a bad child failed the whole element.)
    pub fn children(&self) -> Result<Vec<Parsed<SubmodelElement>>> {
        Ok(self.nested().map(|(_, raw)| raw.parse()).collect())
    }

    /// The nested elements' text, not yet typed, each with its place in this element.
    pub fn nested(&self) -> Box<dyn Iterator<Item = (Place, &RawElement)> + '_> {
        let at = |key| {
            move |(index, raw)| {
                (
                    Place {
                        key,
                        index,
                        within: None,
                    },
                    raw,
                )
            }
        };
        match &self.body {
            ElementBody::SubmodelElementCollection(c) => {
                Box::new(c.value.iter().enumerate().map(at("value")))
            }
            ElementBody::SubmodelElementList(l) => {
                Box::new(l.value.iter().enumerate().map(at("value")))
            }
            ElementBody::Entity(e) => {
                Box::new(e.statements.iter().enumerate().map(at("statements")))
            }
            ElementBody::AnnotatedRelationshipElement(r) => Box::new(
                (r.annotation.iter().enumerate())
                    .filter(|(_, a)| a.is_element())
                    .map(at("annotation"))
                    .chain(r.annotations_v3.iter().enumerate().map(at("annotations"))),
            ),
            ElementBody::Operation(o) => {
                Box::new(o.variables().into_iter().flat_map(|(key, vars)| {
                    vars.iter().enumerate().filter_map(move |(index, var)| {
                        let within = Some("value");
                        Some((Place { key, index, within }, var.value.as_ref()?))
                    })
                }))
            }
            _ => Box::new(std::iter::empty()),
        }
    }
}

/// Where a nested element sits in its parent's JSON, as a path relative to the parent:
/// `.value[2]`, `.inputVariable[0].value`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub key: &'static str,
    pub index: usize,
    /// The key inside the item that holds the element (an operation variable's).
    pub within: Option<&'static str>,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, ".{}[{}]", self.key, self.index)?;
        match self.within {
            Some(key) => write!(f, ".{key}"),
            None => Ok(()),
        }
    }
}

/// A MultiLanguageProperty's texts as the tree shows them (`Pump (en); Pumpe (de)`);
/// `None` when it has none. Every source's elements are shown in these words.
pub fn languages_text<'a>(texts: impl Iterator<Item = (&'a str, &'a str)>) -> Option<String> {
    let shown: Vec<String> = texts
        .map(|(language, text)| format!("{text} ({language})"))
        .collect();
    (!shown.is_empty()).then(|| shown.join("; "))
}

/// A Range as the tree shows it (`-7 – 55`; an end not given is empty).
pub fn range_text(min: &str, max: &str) -> String {
    format!("{min} – {max}")
}

/// A scalar value as text: servers send numbers and truth values both bare and as
/// strings; `null`, lists and objects have none.
pub fn scalar_text(v: &serde_json::Value) -> Option<String> {
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
    use crate::{parse, parse_list, Error};

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
    fn children_keep_the_exact_text_the_server_sent() {
        let p1 = r#"{ "value" : 1.50 ,"modelType":{"name":"Property"},  "idShort":"p1" }"#;
        let p2 = r#"{"valueType":"double","idShort":"p2","value":1e3,"modelType":{ "name" :"Property"}}"#;
        let inner = r#"{"value":[ {"value":2.50,"idShort":"deep","modelType":{"name":"Property"}} ],"idShort":"inner","modelType":{"name":"SubmodelElementCollection"}}"#;
        // `value` comes before `modelType`, so it is held until the type is known.
        let json = format!(
            r#"{{"value": [ {p1},
                {p2} ,{inner}],"idShort":"C","modelType":{{"name":"SubmodelElementCollection"}},"ordered":false}}"#
        );
        let c = element(&json);
        let kids = c.children().expect("children");
        let raws: Vec<&str> = kids.iter().map(Parsed::raw).collect();
        assert_eq!(raws, [p1, p2, inner]);
        assert_eq!(kids[0].view().expect("typed").id_short, "p1");
        let deep = kids[2].view().expect("typed").children().expect("children");
        assert_eq!(
            deep[0].raw(),
            r#"{"value":2.50,"idShort":"deep","modelType":{"name":"Property"}}"#
        );
        // Written back, the children are the server's bytes.
        let written = serde_json::to_string(&c).expect("writes");
        assert!(written.contains(p1) && written.contains(p2) && written.contains(inner));
        round_trip(&json);

        // The same after `modelType`, and for entities, operations and annotations.
        let json = format!(
            r#"{{"idShort":"E","modelType":{{"name":"Entity"}},"statements":[{p1}, {p2}]}}"#
        );
        let raws: Vec<String> = element(&json)
            .children()
            .expect("children")
            .iter()
            .map(|k| k.raw().to_owned())
            .collect();
        assert_eq!(raws, [p1, p2]);
        let json = format!(
            r#"{{"inputVariable":[{{"value":{p1}}}],"idShort":"Op","modelType":{{"name":"Operation"}},"outputVariable":[{{"value" : {p2}}}]}}"#
        );
        let raws: Vec<String> = element(&json)
            .children()
            .expect("children")
            .iter()
            .map(|k| k.raw().to_owned())
            .collect();
        assert_eq!(raws, [p1, p2]);
        round_trip(&json);
        let json = format!(
            r#"{{"annotation":[{p1},{{"keys":[]}}],"idShort":"R","modelType":{{"name":"AnnotatedRelationshipElement"}}}}"#
        );
        let r = element(&json);
        let kids = r.children().expect("children");
        assert_eq!(kids.len(), 1);
        assert_eq!(kids[0].raw(), p1);
        let ElementBody::AnnotatedRelationshipElement(body) = &r.body else {
            panic!("not an annotated relationship: {r:?}");
        };
        let annotations = body.annotations();
        assert!(matches!(annotations[0].view(), Ok(Annotation::Element(_))));
        assert!(matches!(
            annotations[1].view(),
            Ok(Annotation::Reference(_))
        ));
    }

    #[test]
    fn a_malformed_child_fails_alone() {
        let good =
            r#"{"idShort":"p","modelType":{"name":"Property"},"valueType":"string","value":"v"}"#;
        let bad = r#"{"idShort":"bad","modelType":{"name":"MultiLanguageProperty"},"value":"not a list"}"#;
        for json in [
            format!(
                r#"{{"idShort":"C","modelType":{{"name":"SubmodelElementCollection"}},"value":[{good}, {bad}]}}"#
            ),
            format!(
                r#"{{"value":[{good}, {bad}],"idShort":"C","modelType":{{"name":"SubmodelElementCollection"}}}}"#
            ),
            format!(
                r#"{{"idShort":"E","modelType":{{"name":"Entity"}},"statements":[{good},{bad}]}}"#
            ),
            format!(
                r#"{{"idShort":"O","modelType":{{"name":"Operation"}},"inputVariable":[{{"value":{good}}},{{"value":{bad}}}]}}"#
            ),
            format!(
                r#"{{"idShort":"R","modelType":{{"name":"AnnotatedRelationshipElement"}},"annotation":[{good},{bad}]}}"#
            ),
        ] {
            let parent = parse::<SubmodelElement>(&json).expect("the parent is fine");
            let kids = parent.children().expect("children");
            assert_eq!(kids.len(), 2, "{json}");
            assert_eq!(kids[0].view().expect("good child").id_short, "p");
            assert_eq!(kids[0].raw(), good);
            let err = kids[1].view().expect_err("bad child");
            assert!(
                matches!(err, Error::Decode { path, message }
                    if path == "value" && message.contains("expected a sequence")),
                "{err}"
            );
            assert_eq!(kids[1].raw(), bad);
            round_trip(&json);
        }
    }

    #[test]
    fn elements_read_from_a_value_still_have_children() {
        let json = r#"{"value":[{"idShort":"a","value":"1","modelType":{"name":"Property"}}],"idShort":"C","modelType":{"name":"SubmodelElementCollection"}}"#;
        let value: serde_json::Value = serde_json::from_str(json).expect("json");
        let c: SubmodelElement = serde_json::from_value(value).expect("valid");
        let kids = c.children().expect("children");
        assert_eq!(kids[0].view().expect("typed").id_short, "a");
    }

    #[test]
    fn an_unknown_model_type_keeps_all_its_fields() {
        let json = r#"{"idShort":"X","future":{"a":[1]},"modelType":{"name":"SubmodelElementTree"},"value":[1,2],"typeValueListElement":"Property"}"#;
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

    #[test]
    fn a_bad_item_keeps_its_bytes_and_its_reason_and_spares_the_rest() {
        let json = r#"[{"idShort":"a","modelType":{"name":"Property"},"value":"1"},
                       {"idShort":42,"modelType":{"name":"Property"}}]"#;
        let items = parse_list::<SubmodelElement>(json).expect("an array");
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].view().expect("first is fine").id_short, "a");
        let err = items[1].view().expect_err("second is malformed");
        assert!(err.to_string().contains("idShort"), "{err}");
        assert_eq!(
            items[1].raw(),
            r#"{"idShort":42,"modelType":{"name":"Property"}}"#
        );
    }

    #[test]
    fn raw_text_is_kept_byte_for_byte() {
        let json = r#"[ {"value" : 1.50, "idShort":"x", "modelType":{"name":"Property"}} ]"#;
        let items = parse_list::<SubmodelElement>(json).expect("an array");
        assert_eq!(
            items[0].raw(),
            r#"{"value" : 1.50, "idShort":"x", "modelType":{"name":"Property"}}"#
        );
    }

    #[test]
    fn characters_after_the_value_are_an_error() {
        let json = r#"{"idShort":"a","modelType":{"name":"Property"}}"#;
        for text in [format!("{json}\u{1a}"), format!("{json} {{}}")] {
            let err = parse::<SubmodelElement>(&text).expect_err("trailing characters");
            assert!(err.to_string().contains("trailing characters"), "{err}");
        }
        parse::<SubmodelElement>(&format!(" {json}\n")).expect("whitespace is fine");
    }

    #[test]
    fn not_an_array_is_an_error_at_the_root() {
        let err = parse_list::<SubmodelElement>(r#"{"a":1}"#).expect_err("not a list");
        assert!(err.to_string().starts_with("unexpected JSON at ."), "{err}");
    }
}
