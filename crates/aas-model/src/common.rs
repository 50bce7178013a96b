//! Small value types shared by every part of the metamodel.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Nullable;

/// Keys a typed struct does not know, kept in their order so that writing the struct
/// back loses nothing.
pub type OtherFields = Map<String, Value>;

/// The type of an object: `"modelType": {"name": "..."}` as AAS V2 JSON writes it, or
/// `"modelType": "..."` as V3 does; written back in the shape it was read in.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelType {
    pub name: String,
    /// Keys beside `name` (V2's object only).
    pub extra: OtherFields,
    /// Read as V3's plain string.
    pub v3: bool,
}

impl Serialize for ModelType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        if self.v3 {
            return s.serialize_str(&self.name);
        }
        let mut map = s.serialize_map(Some(1 + self.extra.len()))?;
        map.serialize_entry("name", &self.name)?;
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for ModelType {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct V2 {
            name: String,
            #[serde(flatten)]
            extra: OtherFields,
        }

        struct Shape;

        impl<'de> serde::de::Visitor<'de> for Shape {
            type Value = ModelType;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(r#"a model type ("Property" or {"name": "Property"})"#)
            }

            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<ModelType, E> {
                Ok(ModelType {
                    name: name.to_owned(),
                    extra: OtherFields::new(),
                    v3: true,
                })
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<ModelType, A::Error> {
                let v2 = V2::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(ModelType {
                    name: v2.name,
                    extra: v2.extra,
                    v3: false,
                })
            }
        }

        de.deserialize_any(Shape)
    }
}

/// A text in one language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LangString {
    pub language: String,
    pub text: String,
    #[serde(flatten)]
    pub extra: OtherFields,
}

/// A V2 identifiable's `identification`; V3 writes the bare `id` instead.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Identifier {
    pub id: String,
    /// `IRI`, `IRDI`, `Custom`, … (kept as text: servers use values beyond the schema's).
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub id_type: Nullable<String>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AdministrativeInformation {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub version: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub revision: Nullable<String>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

/// An identifiable's identifier, V2's `identification.id` or V3's `id`.
pub(crate) fn identifier<'a>(v2: &'a Nullable<Identifier>, v3: &'a Nullable<String>) -> &'a str {
    v2.as_ref()
        .map(|i| i.id.as_str())
        .or(v3.as_ref().map(String::as_str))
        .unwrap_or_default()
}

/// An identifiable read for its identifiers alone, whichever version wrote it; the rest
/// of it is passed over.
#[derive(Debug, Clone, Deserialize)]
pub struct Identified {
    #[serde(rename = "idShort", default)]
    pub id_short: Option<String>,
    #[serde(default)]
    identification: Option<IdOnly>,
    /// V3's; any other JSON value is passed over.
    #[serde(default)]
    id: Option<Value>,
}

#[derive(Debug, Clone, Deserialize)]
struct IdOnly {
    id: Option<String>,
}

impl Identified {
    /// V2's `identification.id`, else V3's `id`.
    pub fn id(&self) -> Option<&str> {
        (self.identification.as_ref())
            .and_then(|i| i.id.as_deref())
            .or_else(|| self.id.as_ref().and_then(Value::as_str))
    }
}
