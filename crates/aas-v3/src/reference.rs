//! References: V2 keys `{type, local, value, idType}` become V3.0 keys `{type, value}`
//! and the reference gets its `type`: a model reference when its first key is a shell,
//! a submodel or a concept description the file holds and the keys after it lead into
//! that submodel's elements; else an external reference of global keys.

use std::borrow::Cow;

use crate::change::Rule;
use crate::convert::Converter;
use crate::fields::{holds_nothing, At, Fields};
use crate::id_short::{renamed, valid};
use crate::node::Node;
use crate::Result;

/// V3.0's key types for submodel elements (a model reference's keys after the first).
pub(crate) const ELEMENT_KEYS: [&str; 17] = [
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
            let mut model = Vec::with_capacity(keys.len());
            for (i, (t, v)) in keys.into_iter().enumerate() {
                let target = self.target_version();
                let v = match i > 0 && ELEMENT_KEYS.contains(&t.as_ref()) && !valid(target, &v) {
                    true => self.follow_rename(v, at, i)?,
                    false => v,
                };
                model.push(key(t, v));
            }
            return Ok(reference("ModelReference", model));
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

    /// The value of the model reference's key `i`, an idShort V3.0 rejects, as its
    /// element was renamed. (Where the element's siblings made the rename take a `_2`
    /// too, the key cannot know it; the report names both.)
    fn follow_rename<'a>(
        &mut self,
        was: Cow<'a, str>,
        at: At<'_>,
        i: usize,
    ) -> Result<Cow<'a, str>> {
        let now = renamed(self.target_version(), &was);
        let keys = at.field("keys");
        let here = keys.item(i);
        self.change(
            here.field("value"),
            Rule::IdShort,
            Node::Text(was),
            Some(Node::text(now.clone())),
        )?;
        Ok(Cow::Owned(now))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Change, Converter, Node, Rule};

    #[test]
    fn a_model_reference_follows_the_rename_of_the_element_it_points_to() {
        let v2 = r#"{"idShort": "Motor", "modelType": {"name": "Submodel"},
            "identification": {"idType": "IRI", "id": "urn:sm:1"},
            "submodelElements": [
                {"idShort": "Motor-Speed", "modelType": {"name": "Property"},
                 "valueType": "int", "value": "3"},
                {"idShort": "Link", "modelType": {"name": "ReferenceElement"},
                 "value": {"keys": [
                    {"type": "Submodel", "local": true, "idType": "IRI", "value": "urn:sm:1"},
                    {"type": "Property", "local": true, "idType": "IdShort",
                     "value": "Motor-Speed"}]}}]}"#;
        let v2: Node = serde_json::from_str(v2).expect("JSON");
        let mut changes: Vec<Change> = Vec::new();
        let v3 = Converter::new(&mut changes)
            .submodel(v2, "submodels[0]")
            .expect("converted")
            .expect("kept");
        let v3 = serde_json::to_value(&v3).expect("JSON");
        let elements = &v3["submodelElements"];
        assert_eq!(elements[0]["idShort"], "Motor_Speed");
        assert_eq!(elements[1]["value"]["type"], "ModelReference");
        assert_eq!(elements[1]["value"]["keys"][1]["value"], "Motor_Speed");
        let followed = changes
            .iter()
            .find(|c| c.path == "submodels[0].submodelElements[1].value.keys[1].value")
            .unwrap_or_else(|| panic!("the key's rename is reported: {changes:#?}"));
        assert_eq!(followed.rule, Rule::IdShort);
        assert_eq!(
            (followed.was.get(), followed.now.as_ref().map(|v| v.get())),
            (r#""Motor-Speed""#, Some(r#""Motor_Speed""#))
        );
    }
}
