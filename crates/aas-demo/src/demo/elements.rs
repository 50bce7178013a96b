//! Builders for AAS V2.0.1 JSON objects, shaped the way BaSyx V1 servers return them.
//! They move values into place: `json!` would copy every nested object again through
//! serde at each level, which makes big plants slow.

use serde_json::{Map, Value};

/// A JSON object with these fields, in this order.
pub fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
    let mut map = Map::with_capacity(N);
    for (name, value) in fields {
        map.insert(name.to_owned(), value);
    }
    Value::Object(map)
}

fn lang_strings(texts: &[(&str, &str)]) -> Value {
    texts
        .iter()
        .map(|(language, text)| {
            object([("language", (*language).into()), ("text", (*text).into())])
        })
        .collect()
}

/// `IRI` for URIs and URNs, `IRDI` for ECLASS/IEC CDD ids like `0173-1#02-AAO677#002`.
fn id_type(id: &str) -> &'static str {
    if id.contains("://") || id.starts_with("urn:") {
        "IRI"
    } else {
        "IRDI"
    }
}

/// A key to an identifiable (Asset, Submodel, …) by its identification.
pub fn key(key_type: &str, id: &str) -> Value {
    object([
        ("type", key_type.into()),
        ("local", true.into()),
        ("value", id.into()),
        ("idType", id_type(id).into()),
    ])
}

/// A key to a referable inside its parent, by idShort.
pub fn local_key(key_type: &str, id_short: &str) -> Value {
    object([
        ("type", key_type.into()),
        ("local", true.into()),
        ("value", id_short.into()),
        ("idType", "IdShort".into()),
    ])
}

pub fn reference(keys: Vec<Value>) -> Value {
    object([("keys", Value::Array(keys))])
}

/// A reference to an element of submodel `sm_id`: `path` is (key type, idShort) pairs,
/// outermost first.
pub fn element_ref(sm_id: &str, path: &[(&str, &str)]) -> Value {
    let keys = std::iter::once(key("Submodel", sm_id))
        .chain(path.iter().map(|(t, id_short)| local_key(t, id_short)))
        .collect();
    reference(keys)
}

/// A semanticId pointing at a concept defined outside this environment.
pub fn semantic(id: &str) -> Value {
    reference(vec![object([
        ("type", "GlobalReference".into()),
        ("local", false.into()),
        ("value", id.into()),
        ("idType", id_type(id).into()),
    ])])
}

pub fn submodel(id_short: &str, id: &str, semantic_id: &str, elements: Vec<Value>) -> Value {
    object([
        ("modelType", model_type("Submodel")),
        ("idShort", id_short.into()),
        ("identification", identification(id)),
        ("administration", administration()),
        ("kind", "Instance".into()),
        ("semanticId", semantic(semantic_id)),
        ("submodelElements", Value::Array(elements)),
    ])
}

pub fn model_type(name: &str) -> Value {
    object([("name", name.into())])
}

/// Every demo identifiable is at version 1.0.
pub fn administration() -> Value {
    object([("version", "1".into()), ("revision", "0".into())])
}

pub fn identification(id: &str) -> Value {
    object([("idType", id_type(id).into()), ("id", id.into())])
}

/// The fields every submodel element has, then the type-specific `extra` ones.
fn element<const N: usize>(
    type_name: &str,
    id_short: &str,
    semantic_id: &str,
    extra: [(&str, Value); N],
) -> Value {
    let mut el = object([
        ("modelType", model_type(type_name)),
        ("idShort", id_short.into()),
        ("kind", "Instance".into()),
        ("semanticId", semantic(semantic_id)),
    ]);
    if let (Value::Object(fields), Value::Object(extra)) = (&mut el, object(extra)) {
        fields.extend(extra);
    }
    el
}

pub fn property(id_short: &str, sem: &str, value_type: &str, value: impl Into<String>) -> Value {
    let extra = [
        ("valueType", value_type.into()),
        ("value", Value::String(value.into())),
    ];
    element("Property", id_short, sem, extra)
}

/// Adds an IEC 61360 data specification (preferred names, unit, data type), the way
/// the published templates describe a property's meaning.
pub fn with_iec61360(
    mut el: Value,
    preferred: &[(&str, &str)],
    unit: &str,
    data_type: &str,
) -> Value {
    let template = "http://admin-shell.io/DataSpecificationTemplates/DataSpecificationIEC61360/2/0";
    let spec = object([
        (
            "dataSpecification",
            reference(vec![key("GlobalReference", template)]),
        ),
        (
            "dataSpecificationContent",
            object([
                ("preferredName", lang_strings(preferred)),
                ("unit", unit.into()),
                ("dataType", data_type.into()),
            ]),
        ),
    ]);
    if let Value::Object(fields) = &mut el {
        fields.insert(
            "embeddedDataSpecifications".into(),
            Value::Array(vec![spec]),
        );
    }
    el
}

pub fn mlp(id_short: &str, sem: &str, texts: &[(&str, &str)]) -> Value {
    element(
        "MultiLanguageProperty",
        id_short,
        sem,
        [("value", lang_strings(texts))],
    )
}

pub fn range(id_short: &str, sem: &str, value_type: &str, min: &str, max: &str) -> Value {
    let extra = [
        ("valueType", value_type.into()),
        ("min", min.into()),
        ("max", max.into()),
    ];
    element("Range", id_short, sem, extra)
}

pub fn file(id_short: &str, sem: &str, mime_type: &str, path: &str) -> Value {
    let extra = [("mimeType", mime_type.into()), ("value", path.into())];
    element("File", id_short, sem, extra)
}

/// `base64` is the already encoded content.
pub fn blob(id_short: &str, sem: &str, mime_type: &str, base64: &str) -> Value {
    let extra = [("mimeType", mime_type.into()), ("value", base64.into())];
    element("Blob", id_short, sem, extra)
}

pub fn reference_element(id_short: &str, sem: &str, target: Value) -> Value {
    element("ReferenceElement", id_short, sem, [("value", target)])
}

pub fn collection(id_short: &str, sem: &str, elements: Vec<Value>) -> Value {
    let extra = [
        ("ordered", false.into()),
        ("allowDuplicates", false.into()),
        ("value", Value::Array(elements)),
    ];
    element("SubmodelElementCollection", id_short, sem, extra)
}

pub fn relationship(id_short: &str, sem: &str, first: Value, second: Value) -> Value {
    element(
        "RelationshipElement",
        id_short,
        sem,
        [("first", first), ("second", second)],
    )
}

pub fn annotated_relationship(
    id_short: &str,
    sem: &str,
    first: Value,
    second: Value,
    annotations: Vec<Value>,
) -> Value {
    let extra = [
        ("first", first),
        ("second", second),
        ("annotation", Value::Array(annotations)),
    ];
    element("AnnotatedRelationshipElement", id_short, sem, extra)
}

pub fn capability(id_short: &str, sem: &str) -> Value {
    element("Capability", id_short, sem, [])
}

/// `asset` is required for a self-managed entity (one with its own AAS) and absent
/// for a co-managed one.
pub fn entity(id_short: &str, sem: &str, asset: Option<Value>, statements: Vec<Value>) -> Value {
    let statements = ("statements", Value::Array(statements));
    match asset {
        Some(asset) => element(
            "Entity",
            id_short,
            sem,
            [
                ("entityType", "SelfManagedEntity".into()),
                statements,
                ("asset", asset),
            ],
        ),
        None => element(
            "Entity",
            id_short,
            sem,
            [("entityType", "CoManagedEntity".into()), statements],
        ),
    }
}

pub fn basic_event(id_short: &str, sem: &str, observed: Value) -> Value {
    element("BasicEvent", id_short, sem, [("observed", observed)])
}

/// Variables describe arguments, so their elements are of kind `Template` (AASd-008).
pub fn operation(id_short: &str, sem: &str, inputs: Vec<Value>, outputs: Vec<Value>) -> Value {
    let variables = |elements: Vec<Value>| -> Value {
        elements
            .into_iter()
            .map(|mut el| {
                el["kind"] = "Template".into();
                object([("value", el)])
            })
            .collect()
    };
    let extra = [
        ("inputVariable", variables(inputs)),
        ("outputVariable", variables(outputs)),
        ("inoutputVariable", Value::Array(Vec::new())),
    ];
    element("Operation", id_short, sem, extra)
}
