//! AAS V3 JSON, as published files hold it, read into the typed model: every shell,
//! submodel, concept description and nested element has a typed view, and writing it
//! back gives the JSON value it was read from, but for one thing: what V3 leaves
//! without an idShort (an identifiable, a list's item) is written with an empty one.

mod support;

use aas_model::{parse, ElementKind, Environment, Parsed, SubmodelElement};
use serde_json::Value;
use support::shared_dir;

/// The V3 JSON environments of the shared files: bare, or an AASX's spec part.
fn v3_json_payloads() -> Vec<(String, String)> {
    let files = shared_dir().join("aas-files");
    let mut payloads = Vec::new();
    for name in [
        "D-v3.1/aas-specs-metamodel/maximal.json",
        "C-v3.0/basyx-python-sdk/test_demo_full_example_json.aasx",
    ] {
        let bytes = aas_model::aasx::read_file(&files.join(name)).expect("readable file");
        let json = aas_model::aasx::environment_json(bytes).expect("a JSON environment");
        payloads.push((name.to_owned(), String::from_utf8(json).expect("UTF-8")));
    }
    payloads
}

/// Counts every element of `elements` and below by kind, failing on one without a view.
fn walk(elements: &[Parsed<SubmodelElement>], at: &str, kinds: &mut Vec<ElementKind>) {
    for el in elements {
        let view = (el.view()).unwrap_or_else(|e| panic!("{at}: {e}: {}", el.raw()));
        let written = serde_json::to_value(view).expect("writes");
        let read: Value = serde_json::from_str(el.raw()).expect("JSON");
        assert_eq!(
            without_added_id_short(written, &read),
            read,
            "{at}: written back"
        );
        kinds.push(view.kind());
        walk(&view.children().expect("children"), at, kinds);
    }
}

/// `written` without the empty idShorts the typed view added where `read` has none.
fn without_added_id_short(mut written: Value, read: &Value) -> Value {
    match (&mut written, read) {
        (Value::Object(w), Value::Object(r)) => {
            if !r.contains_key("idShort") && w.get("idShort") == Some(&Value::from("")) {
                w.remove("idShort");
            }
            for (key, value) in w.iter_mut() {
                if let Some(r) = r.get(key) {
                    *value = without_added_id_short(value.take(), r);
                }
            }
        }
        (Value::Array(w), Value::Array(r)) => {
            for (value, r) in w.iter_mut().zip(r) {
                *value = without_added_id_short(value.take(), r);
            }
        }
        _ => {}
    }
    written
}

#[test]
fn every_node_of_the_shared_v3_json_files_has_a_typed_view_that_writes_back_unchanged() {
    let mut kinds = Vec::new();
    let (mut shells, mut submodels, mut concepts) = (0, 0, 0);
    for (name, json) in v3_json_payloads() {
        let env: Environment = parse(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        let read: Value = serde_json::from_str(&json).expect("JSON");
        let written = without_added_id_short(serde_json::to_value(&env).expect("writes"), &read);
        // The environment's nested elements are kept as sent, so this compares them too.
        assert_eq!(written, read, "{name}: the environment written back");
        for shell in env.asset_administration_shells.iter() {
            assert!(shell.id().starts_with("https://"), "{name}: {}", shell.id());
            assert!(shell.extra.contains_key("assetInformation"), "{name}");
            shells += 1;
        }
        for sm in env.submodels.iter() {
            assert!(!sm.id().is_empty(), "{name}: a submodel without its id");
            walk(&sm.elements(), &format!("{name} {}", sm.id()), &mut kinds);
            submodels += 1;
        }
        for cd in env.concept_descriptions.iter() {
            assert!(!cd.id().is_empty(), "{name}: a concept without its id");
            concepts += 1;
        }
    }
    assert_eq!((shells, submodels, concepts), (4, 8, 3));
    for kind in [
        ElementKind::SubmodelElementList,
        ElementKind::BasicEvent,
        ElementKind::AnnotatedRelationshipElement,
        ElementKind::Operation,
        ElementKind::Entity,
        ElementKind::Capability,
        ElementKind::Blob,
        ElementKind::File,
    ] {
        assert!(kinds.contains(&kind), "no {kind:?} read");
    }
    assert!(
        !kinds.contains(&ElementKind::Other),
        "an element kind not known"
    );
}

#[test]
fn v3_names_read_as_v2_ones() {
    let element = |json: &str| parse::<SubmodelElement>(json).expect("an element");
    let property = element(r#"{"modelType":"Property","idShort":"p","valueType":"xs:double"}"#);
    assert_eq!(property.value_type().as_deref(), Some("double"));
    let file = element(r#"{"modelType":"File","idShort":"f","contentType":"image/png"}"#);
    match &file.body {
        aas_model::ElementBody::File(f) => assert_eq!(f.content_type(), Some("image/png")),
        other => panic!("not a File: {other:?}"),
    }
    let list = element(
        r#"{"modelType":"SubmodelElementList","idShort":"l","typeValueListElement":"Property",
            "value":[{"modelType":"Property","valueType":"xs:int","value":"1"}]}"#,
    );
    let items = list.children().expect("items");
    assert_eq!(items[0].view().expect("an item").id_short, "");
    let operation = element(
        r#"{"modelType":"Operation","idShort":"o","inputVariables":[{"value":{"modelType":"Property","idShort":"x"}}]}"#,
    );
    assert_eq!(operation.children().expect("variables").len(), 1);
    // A V3 qualifier names no model type, and is written back without one.
    let qualified = r#"{"modelType":"Property","idShort":"q","qualifiers":[{"type":"Cardinality","valueType":"xs:string","value":"One"}]}"#;
    let written = serde_json::to_value(element(qualified)).expect("writes");
    assert_eq!(
        written,
        serde_json::from_str::<Value>(qualified).expect("JSON")
    );
    // V2 still requires an idShort.
    assert!(parse::<SubmodelElement>(r#"{"modelType":{"name":"Property"}}"#).is_err());
}
