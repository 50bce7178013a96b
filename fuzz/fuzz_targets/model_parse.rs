//! Arbitrary bytes read as every top-level thing aas-model reads: AASX packages and
//! environment files (with the inspection report), environments, shells, assets,
//! concept descriptions, submodels, elements, descriptors, the gateway's lists and
//! single answers as `Parsed<T>` outlined for the tree. Never a panic, and whatever
//! reads as a typed value writes back as the same JSON value (the crate's promise), but
//! for the empty idShort it writes where V3 left one out.
#![no_main]

use aas_model::{
    aasx, inspect, parse, parse_list, AasDescriptor, Asset, AssetAdministrationShell,
    ConceptDescription, Environment, OutlineNode, Parsed, Submodel, SubmodelDescriptor,
    SubmodelElement,
};
use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

/// Reads `text` as `T`; what reads must write back as `read`, the text's JSON value.
fn round_trip<T: DeserializeOwned + Serialize>(text: &str, read: Option<&Value>) -> Option<T> {
    let typed = parse::<T>(text).ok()?;
    let read = read.expect("read as a typed value but not as JSON");
    let written = serde_json::to_value(&typed).expect("a typed value writes as JSON");
    assert_eq!(
        &without_added_id_shorts(written, read),
        read,
        "{} differs after a round trip",
        std::any::type_name::<T>()
    );
    Some(typed)
}

/// `written` without the empty idShorts the typed model wrote where `read` has none.
fn without_added_id_shorts(written: Value, read: &Value) -> Value {
    match (written, read) {
        (Value::Object(mut fields), Value::Object(read)) => {
            if !read.contains_key("idShort") && fields.get("idShort") == Some(&Value::from("")) {
                fields.remove("idShort");
            }
            let kept = fields.into_iter().map(|(key, value)| match read.get(&key) {
                Some(was) => (key, without_added_id_shorts(value, was)),
                None => (key, value),
            });
            Value::Object(kept.collect())
        }
        (Value::Array(items), Value::Array(read)) => Value::Array(
            (items.into_iter().zip(read))
                .map(|(item, was)| without_added_id_shorts(item, was))
                .collect(),
        ),
        (written, _) => written,
    }
}

/// A single gateway answer and a list answer, outlined as the app's tree does.
fn outline<T: DeserializeOwned>(
    text: &str,
    raw: Option<&RawValue>,
    node: fn(&Parsed<T>) -> OutlineNode,
) {
    if let Some(raw) = raw {
        node(&Parsed::new(raw.to_owned()));
    }
    for item in parse_list::<T>(text).into_iter().flatten() {
        node(&item);
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(json) = aasx::environment_json(data.to_vec()) {
        let _ = inspect::inspect_environment(&json);
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let value = serde_json::from_str::<Value>(text).ok();
    let value = value.as_ref();
    round_trip::<Environment>(text, value);
    round_trip::<AssetAdministrationShell>(text, value);
    round_trip::<Asset>(text, value);
    round_trip::<ConceptDescription>(text, value);
    round_trip::<Submodel>(text, value);
    round_trip::<SubmodelElement>(text, value);
    round_trip::<SubmodelDescriptor>(text, value);
    if let Some(descriptor) = round_trip::<AasDescriptor>(text, value) {
        descriptor.submodel_list();
    }
    round_trip::<Vec<AasDescriptor>>(text, value);

    let raw = serde_json::from_str::<Box<RawValue>>(text).ok();
    outline::<AssetAdministrationShell>(text, raw.as_deref(), OutlineNode::shell);
    outline::<Submodel>(text, raw.as_deref(), OutlineNode::submodel);
    outline::<SubmodelElement>(text, raw.as_deref(), OutlineNode::element);
});
