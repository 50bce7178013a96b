//! The searchable rows of one `…/submodelElements` answer: every element, collections'
//! children included, with its idShort path, model type, value, language texts,
//! semanticId and description. An answer that is not a list of elements gives no rows:
//! it is still stored, only not searchable.

use serde_json::Value;

/// One element as the index keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ElementRow {
    pub path: Vec<String>,
    pub model_type: String,
    /// A Property's value (or a Range's `min..max`, a File's address).
    pub value: Option<String>,
    /// A MultiLanguageProperty's texts, `language: text` a line.
    pub texts: String,
    pub semantic_id: String,
    pub description: String,
}

/// The rows of an elements answer, parents before their children.
pub(crate) fn element_rows(raw: &str) -> Vec<ElementRow> {
    let mut rows = Vec::new();
    if let Ok(Value::Array(elements)) = serde_json::from_str::<Value>(raw) {
        for element in &elements {
            walk(element, &[], &mut rows);
        }
    }
    rows
}

fn walk(element: &Value, parent: &[String], rows: &mut Vec<ElementRow>) {
    let Some(id_short) = element["idShort"].as_str() else {
        return;
    };
    let mut path = parent.to_vec();
    path.push(id_short.to_owned());
    let model_type = element["modelType"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let value = &element["value"];
    let (scalar, texts) = match value {
        Value::String(s) => (Some(s.clone()), String::new()),
        Value::Number(n) => (Some(n.to_string()), String::new()),
        Value::Bool(b) => (Some(b.to_string()), String::new()),
        Value::Array(items) if items.iter().any(|i| i.get("language").is_some()) => {
            (None, lang_texts(value))
        }
        _ => match (element.get("min"), element.get("max")) {
            (Some(min), Some(max)) if !min.is_null() || !max.is_null() => (
                Some(format!("{}..{}", plain(min), plain(max))),
                String::new(),
            ),
            _ => (None, String::new()),
        },
    };
    rows.push(ElementRow {
        path: path.clone(),
        model_type,
        value: scalar,
        texts,
        semantic_id: key_values(&element["semanticId"]),
        description: lang_texts(&element["description"]),
    });
    // A collection's (or entity's) children.
    for children in [&element["value"], &element["statements"]] {
        if let Value::Array(items) = children {
            for child in items.iter().filter(|c| c.get("idShort").is_some()) {
                walk(child, &path, rows);
            }
        }
    }
}

fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// `language: text` lines of a LangString list.
fn lang_texts(list: &Value) -> String {
    let Value::Array(items) = list else {
        return String::new();
    };
    items
        .iter()
        .map(|i| format!("{}: {}", plain(&i["language"]), plain(&i["text"])))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The key values of a Reference, ` / ` between them.
fn key_values(reference: &Value) -> String {
    let Value::Array(keys) = &reference["keys"] else {
        return String::new();
    };
    keys.iter()
        .map(|k| plain(&k["value"]))
        .collect::<Vec<_>>()
        .join(" / ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collections_are_walked_and_each_kind_of_value_is_kept() {
        let raw = r#"[
          {"idShort":"Serial","modelType":{"name":"Property"},"value":"SN-1",
           "semanticId":{"keys":[{"value":"0173-1#02-AAM556#002"}]},
           "description":[{"language":"en","text":"serial number"}]},
          {"idShort":"Address","modelType":{"name":"SubmodelElementCollection"},"value":[
            {"idShort":"City","modelType":{"name":"Property"},"value":"Stuttgart"},
            {"idShort":"Name","modelType":{"name":"MultiLanguageProperty"},
             "value":[{"language":"de","text":"Pumpe"},{"language":"en","text":"Pump"}]}]},
          {"idShort":"Speed","modelType":{"name":"Range"},"min":1,"max":5},
          {"no":"idShort"}
        ]"#;
        let rows = element_rows(raw);
        let paths: Vec<String> = rows.iter().map(|r| r.path.join("/")).collect();
        assert_eq!(
            paths,
            ["Serial", "Address", "Address/City", "Address/Name", "Speed"]
        );
        assert_eq!(rows[0].value.as_deref(), Some("SN-1"));
        assert_eq!(rows[0].semantic_id, "0173-1#02-AAM556#002");
        assert_eq!(rows[0].description, "en: serial number");
        assert_eq!(rows[3].texts, "de: Pumpe\nen: Pump");
        assert_eq!(rows[4].value.as_deref(), Some("1..5"));
        assert!(element_rows("{\"not\":\"a list\"}").is_empty());
    }
}
