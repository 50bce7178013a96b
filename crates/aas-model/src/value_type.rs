use std::fmt;

use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::OtherFields;

/// The XSD type of a value. V2.0.1 writes a string (`"double"`); AASX Package
/// Explorer, AASX Server and BaSyx V1 write `{"dataObjectType": {"name": "double"}}`;
/// V3 writes `"xs:double"`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ValueType {
    Name(String),
    Legacy(LegacyValueType),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LegacyValueType {
    pub data_object_type: DataObjectType,
    #[serde(flatten)]
    pub extra: OtherFields,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DataObjectType {
    pub name: String,
    #[serde(flatten)]
    pub extra: OtherFields,
}

impl ValueType {
    /// The type's name, whichever shape the server used, without V3's `xs:`.
    pub fn name(&self) -> &str {
        let name = match self {
            ValueType::Name(name) => name,
            ValueType::Legacy(legacy) => &legacy.data_object_type.name,
        };
        name.strip_prefix("xs:").unwrap_or(name)
    }
}

/// Chooses the shape by the JSON type, without buffering the value as `untagged` would.
impl<'de> Deserialize<'de> for ValueType {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct ShapeVisitor;

        impl<'de> Visitor<'de> for ShapeVisitor {
            type Value = ValueType;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a type name or {\"dataObjectType\": {\"name\": ...}}")
            }

            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<ValueType, E> {
                Ok(ValueType::Name(name.to_owned()))
            }

            fn visit_string<E: serde::de::Error>(self, name: String) -> Result<ValueType, E> {
                Ok(ValueType::Name(name))
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ValueType, A::Error> {
                LegacyValueType::deserialize(MapAccessDeserializer::new(map)).map(ValueType::Legacy)
            }
        }

        de.deserialize_any(ShapeVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_shapes_name_the_type_and_write_back_unchanged() {
        for json in [
            r#""double""#,
            r#"{"dataObjectType":{"name":"int"}}"#,
            r#""xs:int""#,
        ] {
            let t: ValueType = serde_json::from_str(json).expect("valid");
            assert!(["double", "int"].contains(&t.name()));
            assert_eq!(serde_json::to_string(&t).expect("writes"), json);
        }
    }
}
