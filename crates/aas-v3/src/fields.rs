//! A V2 object taken apart field by field: whatever the conversion has not taken when
//! it is done is reported, so nothing leaves the file without a line in the report.

use serde_json::{Map, Value};

pub(crate) struct Fields {
    map: Map<String, Value>,
    /// The object's JSON path in the source.
    pub at: String,
}

impl Fields {
    /// The fields of `value`, or `value` back when it is not an object.
    pub fn of(value: Value, at: &str) -> Result<Self, Value> {
        match value {
            Value::Object(map) => Ok(Fields {
                map,
                at: at.to_owned(),
            }),
            other => Err(other),
        }
    }

    /// A field's value; `null` counts as absent.
    pub fn take(&mut self, name: &str) -> Option<Value> {
        self.map.remove(name).filter(|v| !v.is_null())
    }

    /// A field whose value is text: a string, or a number or boolean written as text
    /// (exporters write `"value": 1234`). Empty text counts as absent.
    pub fn text(&mut self, name: &str) -> Option<String> {
        match self.take(name)? {
            Value::String(s) if s.is_empty() => None,
            Value::String(s) => Some(s),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            other => {
                // Not text: reported with what is left.
                self.put_back(name, other);
                None
            }
        }
    }

    /// A field's text, taken even when it is empty (`Some("")`).
    pub fn text_or_empty(&mut self, name: &str) -> Option<String> {
        match self.map.get(name) {
            Some(Value::String(s)) if s.is_empty() => {
                self.map.remove(name);
                Some(String::new())
            }
            _ => self.text(name),
        }
    }

    /// A field that V2 writes as an array: its items (none for a non-array, which
    /// stays to be reported).
    pub fn list(&mut self, name: &str) -> Vec<Value> {
        match self.take(name) {
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.put_back(name, other);
                Vec::new()
            }
            None => Vec::new(),
        }
    }

    /// Puts a field back, to be reported with what is left.
    pub fn put_back(&mut self, name: &str, value: Value) {
        self.map.insert(name.to_owned(), value);
    }

    /// The path of field `name`.
    pub fn path(&self, name: &str) -> String {
        join(&self.at, name)
    }

    /// Drops fields that hold nothing (`null`, `[]`, `{}`, `""`) and the mapping's own
    /// bookkeeping, then hands back what is left, each with its path.
    pub fn rest(mut self, mapped: &[&str]) -> Vec<(String, Value)> {
        for name in mapped {
            self.map.remove(*name);
        }
        let at = self.at;
        self.map
            .into_iter()
            .filter(|(_, v)| !holds_nothing(v))
            .map(|(name, v)| (join(&at, &name), v))
            .collect()
    }
}

pub(crate) fn holds_nothing(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

/// The path of field `name` of the object at `at` (the document's root is `""`).
pub(crate) fn join(at: &str, name: &str) -> String {
    if at.is_empty() {
        name.to_owned()
    } else {
        format!("{at}.{name}")
    }
}

/// The V2 model type name of an object: `modelType.name`, or `modelType` as a string.
pub(crate) fn model_type_name(value: &Value) -> Option<String> {
    let model_type = value.get("modelType")?;
    model_type
        .get("name")
        .unwrap_or(model_type)
        .as_str()
        .map(str::to_owned)
}
