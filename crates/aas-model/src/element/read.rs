//! Reading a submodel element in one pass, whatever the order of its keys.

use std::fmt;

use serde::de::{Error as _, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::model_typed::{self, Head};
use crate::SubmodelElement;

impl<'de> Deserialize<'de> for SubmodelElement {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        de.deserialize_map(ElementVisitor)
    }
}

struct ElementVisitor;

impl<'de> Visitor<'de> for ElementVisitor {
    type Value = SubmodelElement;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a submodel element")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<SubmodelElement, A::Error> {
        let mut head = CommonFields::default();
        let typed = model_typed::read(map, &mut head)?;
        // V2 requires an idShort; V3 leaves it out in a SubmodelElementList's items.
        if !head.has_id_short && !typed.model_type.v3 {
            return Err(A::Error::missing_field("idShort"));
        }
        Ok(SubmodelElement {
            model_type: typed.model_type,
            body: typed.body,
            extra: typed.extra,
            ..head.element
        })
    }
}

/// The fields every element has, read into an element whose body comes later.
#[derive(Default)]
struct CommonFields {
    element: SubmodelElement,
    /// `idShort` is required in V2, and may be empty, so its presence is tracked apart.
    has_id_short: bool,
}

impl<'de> Head<'de> for CommonFields {
    fn read<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        let el = &mut self.element;
        match key {
            "idShort" => {
                el.id_short = map.next_value()?;
                self.has_id_short = true;
            }
            "category" => el.category = map.next_value()?,
            "description" => el.description = map.next_value()?,
            "parent" => el.parent = map.next_value()?,
            "kind" => el.kind = map.next_value()?,
            "semanticId" => el.semantic_id = map.next_value()?,
            "qualifiers" => el.qualifiers = map.next_value()?,
            "embeddedDataSpecifications" => el.embedded_data_specifications = map.next_value()?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}
