//! References: V2 keys `{type, local, value, idType}` become V3.0 keys `{type, value}`
//! and the reference gets its `type`: a model reference when its first key is a shell,
//! a submodel or a concept description the file holds and the keys after it lead into
//! that submodel's elements; else an external reference of global keys.

use serde_json::{json, Value};

use crate::change::Rule;
use crate::convert::Converter;
use crate::fields::{holds_nothing, Fields};
use crate::Result;

/// V3.0's key types for submodel elements (a model reference's keys after the first).
const ELEMENT_KEYS: [&str; 17] = [
    "AnnotatedRelationshipElement",
    "BasicEventElement",
    "Blob",
    "Capability",
    "DataElement",
    "Entity",
    "EventElement",
    "File",
    "MultiLanguageProperty",
    "Operation",
    "Property",
    "Range",
    "ReferenceElement",
    "RelationshipElement",
    "SubmodelElement",
    "SubmodelElementCollection",
    "SubmodelElementList",
];

/// A V2 key type's V3.0 name (the events were renamed).
fn v3_key_type(v2: &str) -> &str {
    match v2 {
        "BasicEvent" => "BasicEventElement",
        "Event" => "EventElement",
        other => other,
    }
}

impl Converter<'_> {
    /// `value` (a V2 reference) as a V3.0 one; `None` when it has no key with a value.
    pub(crate) fn reference(&mut self, value: Value, at: &str) -> Result<Option<Value>> {
        let mut f = match Fields::of(value, at) {
            Ok(f) => f,
            Err(other) => {
                if !holds_nothing(&other) {
                    self.change(at, Rule::Reference, other, None)?;
                }
                return Ok(None);
            }
        };
        let keys_at = f.path("keys");
        let mut keys: Vec<(String, String)> = Vec::new();
        for (i, key) in f.list("keys").into_iter().enumerate() {
            let here = format!("{keys_at}[{i}]");
            let mut k = match Fields::of(key, &here) {
                Ok(k) => k,
                Err(other) => {
                    self.change(here, Rule::Reference, other, None)?;
                    continue;
                }
            };
            let kind = k.text("type").unwrap_or_default();
            match k.text("value") {
                Some(value) => keys.push((v3_key_type(&kind).to_owned(), value)),
                None => {
                    self.change(here.clone(), Rule::Reference, json!({ "type": kind }), None)?;
                }
            }
            self.leftovers(k, &["local", "idType", "index"])?;
        }
        self.leftovers(f, &[])?;
        if keys.is_empty() {
            return Ok(None);
        }
        Ok(Some(self.typed_reference(keys, at)?))
    }

    fn typed_reference(&mut self, keys: Vec<(String, String)>, at: &str) -> Result<Value> {
        let (first_type, first_value) = &keys[0];
        let model_root = match first_type.as_str() {
            "AssetAdministrationShell" | "Submodel" => true,
            "ConceptDescription" => self.holds_concept(first_value),
            _ => false,
        };
        let into_elements = keys[1..].iter().enumerate().all(|(i, (t, _))| {
            let last = i + 2 == keys.len();
            ELEMENT_KEYS.contains(&t.as_str())
                || (last
                    && t == "FragmentReference"
                    && matches!(keys[i].0.as_str(), "File" | "Blob"))
        });
        let key = |t: &str, v: &str| json!({ "type": t, "value": v });
        if model_root && into_elements {
            let keys: Vec<Value> = keys.iter().map(|(t, v)| key(t, v)).collect();
            return Ok(json!({ "type": "ModelReference", "keys": keys }));
        }
        // An external reference: global keys, but for a fragment at the end.
        let last = keys.len() - 1;
        let external: Vec<Value> = keys
            .iter()
            .enumerate()
            .map(|(i, (t, v))| {
                let t = if i == last && i > 0 && t == "FragmentReference" {
                    t.as_str()
                } else {
                    "GlobalReference"
                };
                key(t, v)
            })
            .collect();
        // Keys that pointed into the model (a relative reference from an element, a
        // chain V3.0 has no model reference for) lose that meaning: said so.
        let pointed_into_model = keys.iter().any(|(t, _)| {
            ELEMENT_KEYS.contains(&t.as_str())
                || matches!(t.as_str(), "AssetAdministrationShell" | "Submodel")
        });
        let external = json!({ "type": "ExternalReference", "keys": external });
        if pointed_into_model {
            let was: Vec<Value> = keys.iter().map(|(t, v)| key(t, v)).collect();
            self.change(
                at,
                Rule::Reference,
                json!({ "keys": was }),
                Some(external.clone()),
            )?;
        }
        Ok(external)
    }
}
