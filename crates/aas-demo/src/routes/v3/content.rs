//! What a Part 2 route answers of a submodel or an element, by its content modifier
//! (`$metadata`, `$value`, `$reference`, `$path`) and its `level` and `extent`: each a
//! function of the V3 JSON, so the routes only find the object and choose.

use serde_json::{json, Map, Value};

/// `level`: the whole tree, or the object and its direct children only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    Deep,
    Core,
}

/// `extent`: a Blob's bytes are sent only when asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Extent {
    WithBlobValue,
    WithoutBlobValue,
}

/// One step of an idShort path (`Motor.Speeds[2].Max`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Step {
    Name(String),
    Index(usize),
}

/// The steps of an idShort path; `None` when it is not one.
pub(super) fn id_short_path(text: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    for part in text.split('.') {
        let (name, mut rest) = part.split_once('[').map_or((part, ""), |(n, r)| (n, r));
        if name.is_empty() {
            return None;
        }
        steps.push(Step::Name(name.to_owned()));
        while !rest.is_empty() {
            let (index, after) = rest.split_once(']')?;
            steps.push(Step::Index(index.parse().ok()?));
            rest = match after {
                "" => "",
                more => more.strip_prefix('[')?,
            };
        }
    }
    Some(steps)
}

/// The list of an element's children: a collection's or a list's `value`, an entity's
/// `statements`, an annotated relationship's `annotations`.
fn children_field(element: &Value) -> Option<&'static str> {
    match model_type(element) {
        "SubmodelElementCollection" | "SubmodelElementList" => Some("value"),
        "Entity" => Some("statements"),
        "AnnotatedRelationshipElement" => Some("annotations"),
        _ => None,
    }
}

fn model_type(element: &Value) -> &str {
    element["modelType"].as_str().unwrap_or_default()
}

pub(super) fn children(element: &Value) -> &[Value] {
    children_field(element)
        .and_then(|field| element[field].as_array())
        .map_or(&[], Vec::as_slice)
}

/// The element at `steps` under the submodel's elements, and the model type of each
/// step on the way (for its reference).
pub(super) fn find<'v>(submodel: &'v Value, steps: &[Step]) -> Option<Vec<&'v Value>> {
    let mut trail: Vec<&Value> = Vec::new();
    let mut here: &[Value] = submodel["submodelElements"]
        .as_array()
        .map_or(&[], Vec::as_slice);
    for step in steps {
        // A list's items are taken by index, everything else's by name.
        let in_list = trail
            .last()
            .is_some_and(|parent| model_type(parent) == "SubmodelElementList");
        let found = match step {
            Step::Name(name) if !in_list => here.iter().find(|e| e["idShort"] == name.as_str())?,
            Step::Index(index) if in_list => here.get(*index)?,
            _ => return None,
        };
        trail.push(found);
        here = children(found);
    }
    Some(trail)
}

/// The object as `level` and `extent` ask: with `Core`, its children are sent without
/// theirs.
pub(super) fn shaped(object: &Value, level: Level, extent: Extent) -> Value {
    let mut object = object.clone();
    if extent == Extent::WithoutBlobValue {
        drop_blob_values(&mut object);
    }
    if level == Level::Core {
        let field = match object.get("submodelElements") {
            Some(_) => Some("submodelElements"),
            None => children_field(&object),
        };
        if let Some(Value::Array(items)) = field.and_then(|f| object.get_mut(f)) {
            for item in items {
                if let Some(grandchildren) = children_field(item) {
                    if let Some(map) = item.as_object_mut() {
                        map.remove(grandchildren);
                    }
                }
            }
        }
    }
    object
}

fn drop_blob_values(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.get("modelType").and_then(Value::as_str) == Some("Blob") {
                map.remove("value");
            }
            map.values_mut().for_each(drop_blob_values);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_blob_values),
        _ => {}
    }
}

/// `$metadata`: the object without its values; `None` for the elements that have no
/// metadata apart from themselves (Operation, Capability).
pub(super) fn metadata(object: &Value) -> Option<Value> {
    if matches!(model_type(object), "Operation" | "Capability") {
        return None;
    }
    let mut object = object.clone();
    if let Some(map) = object.as_object_mut() {
        for field in [
            "value",
            "valueId",
            "min",
            "max",
            "statements",
            "annotations",
            "submodelElements",
        ] {
            map.remove(field);
        }
    }
    Some(object)
}

/// `$value` of an element: `{idShort: value}` (a list's items, which have no idShort,
/// are their bare values); `None` for the elements that hold no value.
pub(super) fn element_value(element: &Value) -> Option<Value> {
    let value = value_only(element)?;
    Some(match element["idShort"].as_str() {
        Some(id_short) => json!({ id_short: value }),
        None => value,
    })
}

/// `$value` of a submodel: its elements' values by idShort.
pub(super) fn submodel_value(submodel: &Value) -> Value {
    let elements = submodel["submodelElements"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    Value::Object(named_values(elements))
}

fn named_values(elements: &[Value]) -> Map<String, Value> {
    elements
        .iter()
        .filter_map(|e| Some((e["idShort"].as_str()?.to_owned(), value_only(e)?)))
        .collect()
}

/// The Part 2 API's ValueOnly form of one element, without its name.
fn value_only(element: &Value) -> Option<Value> {
    let get = |field: &str| element.get(field).cloned();
    Some(match model_type(element) {
        "Property" => typed(element.get("value")?, element["valueType"].as_str()),
        "MultiLanguageProperty" => Value::Array(
            (element["value"].as_array().map_or(&[][..], Vec::as_slice))
                .iter()
                .map(|t| json!({ t["language"].as_str().unwrap_or_default(): t["text"] }))
                .collect(),
        ),
        "Range" => {
            let kind = element["valueType"].as_str();
            let mut range = Map::new();
            for end in ["min", "max"] {
                if let Some(v) = element.get(end) {
                    range.insert(end.to_owned(), typed(v, kind));
                }
            }
            Value::Object(range)
        }
        "File" | "Blob" => {
            // A Blob's bytes left out (extent withoutBlobValue) are left out here too.
            let mut file = Map::new();
            file.insert("contentType".into(), element["contentType"].clone());
            file.extend(get("value").map(|v| ("value".to_owned(), v)));
            Value::Object(file)
        }
        "ReferenceElement" => get("value")?,
        "RelationshipElement" => json!({"first": element["first"], "second": element["second"]}),
        "AnnotatedRelationshipElement" => {
            let annotations = (children(element).iter())
                .filter_map(element_value)
                .collect::<Vec<_>>();
            json!({"first": element["first"], "second": element["second"], "annotations": annotations})
        }
        "SubmodelElementCollection" => Value::Object(named_values(children(element))),
        "SubmodelElementList" => {
            Value::Array(children(element).iter().filter_map(value_only).collect())
        }
        "Entity" => {
            let mut entity = Map::new();
            entity.insert(
                "statements".into(),
                Value::Object(named_values(children(element))),
            );
            entity.insert("entityType".into(), element["entityType"].clone());
            for field in ["globalAssetId", "specificAssetIds"] {
                if let Some(v) = get(field) {
                    entity.insert(field.into(), v);
                }
            }
            Value::Object(entity)
        }
        "BasicEventElement" => json!({"observed": element["observed"]}),
        _ => return None,
    })
}

/// A value as the JSON type its `valueType` names, where it reads as one; else its text.
fn typed(value: &Value, value_type: Option<&str>) -> Value {
    let Some(text) = value.as_str() else {
        return value.clone();
    };
    let kind = value_type.unwrap_or_default().trim_start_matches("xs:");
    let number = matches!(
        kind,
        "decimal" | "integer" | "int" | "long" | "short" | "byte" | "double" | "float"
    ) || kind.starts_with("unsigned")
        || kind.starts_with("nonNegative")
        || kind.starts_with("positive")
        || kind.starts_with("nonPositive")
        || kind.starts_with("negative");
    if number {
        if let Ok(n) = text.parse::<serde_json::Number>() {
            return Value::Number(n);
        }
    }
    if kind == "boolean" {
        match text {
            "true" | "1" => return Value::Bool(true),
            "false" | "0" => return Value::Bool(false),
            _ => {}
        }
    }
    value.clone()
}

/// `$path`: the idShort paths of the elements under `prefix` (all of them, or with
/// `Core` those of the first level only).
/// `indexed`: the elements are a list's items, named by their index.
pub(super) fn paths(
    elements: &[Value],
    prefix: Option<&str>,
    indexed: bool,
    level: Level,
) -> Vec<String> {
    let mut out = Vec::new();
    walk_paths(elements, prefix, indexed, level, &mut out);
    out
}

fn walk_paths(
    elements: &[Value],
    prefix: Option<&str>,
    indexed: bool,
    level: Level,
    out: &mut Vec<String>,
) {
    for (i, element) in elements.iter().enumerate() {
        let path = match (prefix, indexed) {
            (Some(p), true) => format!("{p}[{i}]"),
            (Some(p), false) => format!("{p}.{}", element["idShort"].as_str().unwrap_or_default()),
            (None, _) => element["idShort"].as_str().unwrap_or_default().to_owned(),
        };
        if level == Level::Deep {
            let list = model_type(element) == "SubmodelElementList";
            out.push(path.clone());
            walk_paths(children(element), Some(&path), list, level, out);
        } else {
            out.push(path);
        }
    }
}

/// Whether `$path` is offered for this element: only those that hold elements.
pub(super) fn has_paths(element: &Value) -> bool {
    matches!(
        model_type(element),
        "SubmodelElementCollection" | "SubmodelElementList" | "Entity"
    )
}

/// The element's model reference: the submodel, then each element on the way (a list's
/// item by its index).
pub(super) fn element_reference(submodel_id: &str, trail: &[&Value], steps: &[Step]) -> Value {
    let mut keys = vec![json!({"type": "Submodel", "value": submodel_id})];
    for (element, step) in trail.iter().zip(steps) {
        let value = match step {
            Step::Name(name) => name.clone(),
            Step::Index(index) => index.to_string(),
        };
        keys.push(json!({"type": model_type(element), "value": value}));
    }
    json!({"type": "ModelReference", "keys": keys})
}

/// The model reference of an identifiable: one key of its type.
pub(super) fn reference(key_type: &str, id: &str) -> Value {
    json!({"type": "ModelReference", "keys": [{"type": key_type, "value": id}]})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn submodel() -> Value {
        json!({"id": "sm", "modelType": "Submodel", "submodelElements": [
            {"modelType": "Property", "idShort": "Speed", "valueType": "xs:int", "value": "5000"},
            {"modelType": "SubmodelElementCollection", "idShort": "Motor", "value": [
                {"modelType": "SubmodelElementList", "idShort": "Coils", "typeValueListElement": "Blob", "value": [
                    {"modelType": "Blob", "contentType": "a/b", "value": "AAEC"}
                ]}
            ]}
        ]})
    }

    #[test]
    fn id_short_paths_read_names_and_indexes() {
        use Step::*;
        assert_eq!(
            id_short_path("Motor.Coils[0]"),
            Some(vec![Name("Motor".into()), Name("Coils".into()), Index(0)])
        );
        assert_eq!(id_short_path("a[1][2]").map(|s| s.len()), Some(3));
        for bad in ["", "a..b", "[0]", "a[x]", "a[0", "a[0]b"] {
            assert_eq!(id_short_path(bad), None, "{bad}");
        }
    }

    #[test]
    fn elements_are_found_by_name_and_list_index_only() {
        let sm = submodel();
        let found = |p: &str| find(&sm, &id_short_path(p).expect("present")).map(|t| t.len());
        assert_eq!(found("Motor.Coils[0]"), Some(3));
        assert_eq!(found("Motor[0]"), None, "a collection is not indexed");
        assert_eq!(found("Motor.Coils.x"), None, "a list's items have no names");
        assert_eq!(found("Nothing"), None);
    }

    #[test]
    fn values_paths_and_shapes() {
        let sm = submodel();
        assert_eq!(
            submodel_value(&sm),
            json!({"Speed": 5000, "Motor": {"Coils": [{"contentType": "a/b", "value": "AAEC"}]}})
        );
        let elements = sm["submodelElements"].as_array().expect("present");
        assert_eq!(
            paths(elements, None, false, Level::Deep),
            ["Speed", "Motor", "Motor.Coils", "Motor.Coils[0]"]
        );
        assert_eq!(
            paths(elements, None, false, Level::Core),
            ["Speed", "Motor"]
        );
        let core = shaped(&sm, Level::Core, Extent::WithBlobValue);
        assert_eq!(core["submodelElements"][1].get("value"), None);
        let lean = shaped(&sm, Level::Deep, Extent::WithoutBlobValue);
        assert_eq!(
            lean["submodelElements"][1]["value"][0]["value"][0].get("value"),
            None
        );
        assert_eq!(metadata(&elements[0]).expect("present").get("value"), None);
        assert_eq!(metadata(&json!({"modelType": "Capability"})), None);
    }
}
