//! An element's value as the audit judges it: whether there is one, and whether it reads
//! as its value type (XSD lexical spaces, from `aas_v3::xsd`).

use aas_model::{scalar_text, ElementBody, Nullable, SubmodelElement};
use aas_v3::xsd;
use serde_json::Value;

fn blank(text: Option<&str>) -> bool {
    text.is_none_or(|t| t.trim().is_empty())
}

/// Whether the element carries no value: no text, no file, no reference target, no
/// children. Kinds without a value (events, operations, …) are never empty.
pub(crate) fn is_empty(el: &SubmodelElement) -> bool {
    let scalar = |v: &Nullable<Value>| blank(v.as_ref().and_then(scalar_text).as_deref());
    match &el.body {
        ElementBody::Property(p) => scalar(&p.value),
        ElementBody::Range(r) => scalar(&r.min) && scalar(&r.max),
        ElementBody::MultiLanguageProperty(m) => m.value.iter().all(|t| t.text.trim().is_empty()),
        ElementBody::File(f) | ElementBody::Blob(f) => blank(f.value.as_ref().map(String::as_str)),
        ElementBody::ReferenceElement(r) => r.value.as_ref().is_none_or(|r| r.keys.is_empty()),
        ElementBody::SubmodelElementCollection(c) => c.value.is_empty(),
        ElementBody::Entity(e) => e.statements.is_empty() && e.asset.as_ref().is_none(),
        _ => false,
    }
}

/// The texts of a Property's value or a Range's ends (V2 servers write some as JSON
/// numbers or booleans), the blank ones left out.
pub(crate) fn values(el: &SubmodelElement) -> Vec<String> {
    let ends: Vec<&Nullable<Value>> = match &el.body {
        ElementBody::Property(p) => vec![&p.value],
        ElementBody::Range(r) => vec![&r.min, &r.max],
        _ => Vec::new(),
    };
    ends.into_iter()
        .filter_map(|v| v.as_ref().and_then(scalar_text))
        .filter(|t| !t.trim().is_empty())
        .collect()
}

/// The first type of `types` (`xs:` names) that `value` is not of.
pub(crate) fn misfit<'t>(value: &str, types: &[&'t str]) -> Option<&'t str> {
    types.iter().copied().find(|t| !xsd::fits(t, value))
}

/// The `xs:` name of an element's declared value type; `None` when it declares none
/// or one XSD does not know (then its values are not judged by it).
pub(crate) fn declared_type(el: &SubmodelElement) -> Option<&'static str> {
    el.value_type().as_deref().and_then(xsd::v3_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(json: &str) -> SubmodelElement {
        aas_model::parse(json).expect("an element")
    }

    #[test]
    fn blank_texts_missing_values_and_empty_lists_are_empty() {
        for json in [
            r#"{"idShort":"a","modelType":{"name":"Property"},"value":"  "}"#,
            r#"{"idShort":"a","modelType":{"name":"Property"},"value":null}"#,
            r#"{"idShort":"a","modelType":{"name":"Property"}}"#,
            r#"{"idShort":"a","modelType":{"name":"MultiLanguageProperty"},"value":[{"language":"en","text":""}]}"#,
            r#"{"idShort":"a","modelType":{"name":"File"},"mimeType":"image/png","value":""}"#,
            r#"{"idShort":"a","modelType":{"name":"ReferenceElement"},"value":{"keys":[]}}"#,
            r#"{"idShort":"a","modelType":{"name":"Range"},"min":"","max":null}"#,
            r#"{"idShort":"a","modelType":{"name":"SubmodelElementCollection"},"value":[]}"#,
        ] {
            assert!(is_empty(&element(json)), "{json}");
        }
        for json in [
            r#"{"idShort":"a","modelType":{"name":"Property"},"value":0}"#,
            r#"{"idShort":"a","modelType":{"name":"Property"},"value":false}"#,
            r#"{"idShort":"a","modelType":{"name":"Range"},"min":"","max":"5"}"#,
            r#"{"idShort":"a","modelType":{"name":"Capability"}}"#,
        ] {
            assert!(!is_empty(&element(json)), "{json}");
        }
    }

    #[test]
    fn values_are_judged_by_every_type_they_should_have() {
        assert_eq!(misfit("2023", &["xs:string", "xs:gYear"]), None);
        assert_eq!(misfit("20x3", &["xs:string", "xs:int"]), Some("xs:int"));
        assert_eq!(misfit("1.5.2024", &["xs:date"]), Some("xs:date"));
        let declared = element(
            r#"{"idShort":"a","modelType":{"name":"Property"},"valueType":{"dataObjectType":{"name":"int"}}}"#,
        );
        assert_eq!(declared_type(&declared), Some("xs:int"));
        let range = element(r#"{"idShort":"r","modelType":{"name":"Range"},"min":-5,"max":" "}"#);
        assert_eq!(values(&range), ["-5"]);
    }
}
