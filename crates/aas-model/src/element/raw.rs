//! Nested elements kept as the server sent them, typed only when asked for.

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::value::{to_raw_value, RawValue};

use crate::{Error, Parsed, Result, SubmodelElement};

/// A nested submodel element exactly as the server sent it: its JSON text, byte for
/// byte (key order, spacing, number formatting). Containers (a collection's `value`, an
/// entity's `statements`, an operation variable's `value`, annotations, a submodel's
/// `submodelElements`) hold these, so writing a container back gives its children's
/// text unchanged, and a malformed child fails alone when it is typed
/// ([`RawElement::parse`]), not its container.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RawElement(Box<RawValue>);

impl RawElement {
    pub fn new(raw: Box<RawValue>) -> Self {
        RawElement(raw)
    }

    /// The JSON text of a typed element (for building a container from typed values).
    pub fn from_element(element: &SubmodelElement) -> Result<Self> {
        to_raw_value(element)
            .map(RawElement)
            .map_err(|e| Error::Encode(e.to_string()))
    }

    /// The JSON text, as the server sent it.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    pub fn into_raw(self) -> Box<RawValue> {
        self.0
    }

    /// The typed view, or why it failed (with the JSON path inside this element), next
    /// to the exact text.
    pub fn parse(&self) -> Parsed<SubmodelElement> {
        Parsed::new(self.0.clone())
    }

    /// Whether this is meant as a submodel element: an object with `modelType` or
    /// `idShort`, or something that is not an object at all (which is then a malformed
    /// element). Annotations may instead be references (PyI40AAS 0.2.3), which have
    /// neither.
    pub fn is_element(&self) -> bool {
        #[derive(Deserialize)]
        struct Probe {
            #[serde(rename = "modelType")]
            model_type: Option<IgnoredAny>,
            #[serde(rename = "idShort")]
            id_short: Option<IgnoredAny>,
        }
        match serde_json::from_str::<Probe>(self.get()) {
            Ok(p) => p.model_type.is_some() || p.id_short.is_some(),
            Err(_) => true,
        }
    }
}

/// Equal when the texts are equal.
impl PartialEq for RawElement {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}
