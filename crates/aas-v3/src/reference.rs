//! References: V2 keys `{type, local, value, idType}` become V3.0 keys `{type, value}`
//! and the reference gets its `type`: a model reference when its first key is a shell,
//! a submodel or a concept description the file holds and the keys after it lead into
//! that submodel's elements; else an external reference of global keys.

use std::borrow::Cow;

use crate::change::Rule;
use crate::convert::Converter;
use crate::fields::{holds_nothing, At, Fields};
use crate::node::Node;
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
fn v3_key_type(v2: Cow<'_, str>) -> Cow<'_, str> {
    match v2.as_ref() {
        "BasicEvent" => "BasicEventElement".into(),
        "Event" => "EventElement".into(),
        _ => v2,
    }
}

/// A key's type and value.
type Key<'a> = (Cow<'a, str>, Cow<'a, str>);

impl Converter<'_> {
    /// `value` (a V2 reference) as a V3.0 one; `None` when it has no key with a value.
    pub(crate) fn reference<'a>(
        &mut self,
        value: Node<'a>,
        at: At<'_>,
    ) -> Result<Option<Node<'a>>> {
        let mut f = match Fields::of(value, at) {
            Ok(f) => f,
            Err(other) => {
                if !holds_nothing(&other) {
                    self.change(at, Rule::Reference, other, None)?;
                }
                return Ok(None);
            }
        };
        let items = f.list("keys");
        let keys_at = f.path("keys");
        let mut keys: Vec<Key> = Vec::new();
        for (i, key) in items.into_iter().enumerate() {
            let here = keys_at.item(i);
            let mut k = match Fields::of(key, here) {
                Ok(k) => k,
                Err(other) => {
                    self.change(here, Rule::Reference, other, None)?;
                    continue;
                }
            };
            let kind = k.text("type").unwrap_or_default();
            match k.text("value") {
                Some(value) => keys.push((v3_key_type(kind), value)),
                None => {
                    let was = Node::object([("type", Node::Text(kind))]);
                    self.change(here, Rule::Reference, was, None)?;
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

    fn typed_reference<'a>(&mut self, keys: Vec<Key<'a>>, at: At<'_>) -> Result<Node<'a>> {
        let (first_type, first_value) = &keys[0];
        let model_root = match first_type.as_ref() {
            "AssetAdministrationShell" | "Submodel" => true,
            "ConceptDescription" => self.holds_concept(first_value),
            _ => false,
        };
        let into_elements = keys[1..].iter().enumerate().all(|(i, (t, _))| {
            let last = i + 2 == keys.len();
            ELEMENT_KEYS.contains(&t.as_ref())
                || (last
                    && t == "FragmentReference"
                    && matches!(keys[i].0.as_ref(), "File" | "Blob"))
        });
        let key = |t: Cow<'a, str>, v: Cow<'a, str>| {
            Node::object([("type", Node::Text(t)), ("value", Node::Text(v))])
        };
        let reference = |kind: &'static str, keys: Vec<Node<'a>>| {
            Node::object([("type", Node::text(kind)), ("keys", Node::List(keys))])
        };
        if model_root && into_elements {
            let keys = keys.into_iter().map(|(t, v)| key(t, v)).collect();
            return Ok(reference("ModelReference", keys));
        }
        // An external reference: global keys, but for a fragment at the end.
        let last = keys.len() - 1;
        let external = keys
            .iter()
            .enumerate()
            .map(|(i, (t, v))| {
                let t = if i == last && i > 0 && t == "FragmentReference" {
                    t.clone()
                } else {
                    Cow::Borrowed("GlobalReference")
                };
                key(t, v.clone())
            })
            .collect();
        // Keys that pointed into the model (a relative reference from an element, a
        // chain V3.0 has no model reference for) lose that meaning: said so.
        let pointed_into_model = keys.iter().any(|(t, _)| {
            ELEMENT_KEYS.contains(&t.as_ref())
                || matches!(t.as_ref(), "AssetAdministrationShell" | "Submodel")
        });
        let external = reference("ExternalReference", external);
        if pointed_into_model {
            let was = keys.into_iter().map(|(t, v)| key(t, v)).collect();
            self.change(
                at,
                Rule::Reference,
                Node::object([("keys", Node::List(was))]),
                Some(external.clone()),
            )?;
        }
        Ok(external)
    }
}
