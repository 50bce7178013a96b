//! Reading objects whose fields depend on their `modelType.name` (submodel elements,
//! constraints) in one pass. JSON may send such fields before `modelType`; only those
//! few are held as their raw text until the type is known (so nested elements in them
//! keep their exact bytes), everything after it is read straight into the typed body.
//! Keys neither the head nor the body knows are kept.

use std::borrow::Cow;
use std::fmt;
use std::vec;

use serde::de::{self, DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};
use serde::{forward_to_deserialize_any, Deserialize};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::{ModelType, OtherFields};

/// The fields an object has whatever its model type (a submodel element's `idShort`…).
pub(crate) trait Head<'de> {
    /// Reads the value of `key` if it is a head field; `false` leaves the value unread.
    fn read<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error>;
}

/// Constraints have no fields beside their type-specific ones.
impl<'de> Head<'de> for () {
    fn read<A: MapAccess<'de>>(&mut self, _: &str, _: &mut A) -> Result<bool, A::Error> {
        Ok(false)
    }
}

/// The type-specific part: one derived struct per model type name.
pub(crate) trait Body<'de>: Sized {
    /// Reads the body for `model_type` from `fields`, which offers only the keys the
    /// chosen struct names (`deserialize_struct`), or none (`deserialize_any`).
    fn read_as<D: Deserializer<'de>>(model_type: &str, fields: D) -> Result<Self, D::Error>;
}

pub(crate) struct ModelTyped<M, B> {
    pub model_type: M,
    pub body: B,
    pub extra: OtherFields,
}

/// Reads one model-typed object from `map`, filling `head` on the way.
pub(crate) fn read<'de, A, H, B>(map: A, head: &mut H) -> Result<ModelTyped<ModelType, B>, A::Error>
where
    A: MapAccess<'de>,
    H: Head<'de>,
    B: Body<'de>,
{
    let typed = read_or(map, head, None)?;
    let model_type = (typed.model_type).ok_or_else(|| A::Error::missing_field("modelType"))?;
    Ok(ModelTyped {
        model_type,
        body: typed.body,
        extra: typed.extra,
    })
}

/// As [`read`], for an object that may name no model type: it is then read as
/// `untyped` (V3's qualifiers name none), and its model type is `None`.
pub(crate) fn read_or<'de, A, H, B>(
    mut map: A,
    head: &mut H,
    untyped: Option<&str>,
) -> Result<ModelTyped<Option<ModelType>, B>, A::Error>
where
    A: MapAccess<'de>,
    H: Head<'de>,
    B: Body<'de>,
{
    let mut early = Vec::new();
    let mut seen = Seen::default();
    let model_type = loop {
        let Some(FieldName(key)) = map.next_key()? else {
            match untyped {
                Some(_) => break None,
                None => return Err(A::Error::missing_field("modelType")),
            }
        };
        seen.first::<A::Error>(&key)?;
        if key == "modelType" {
            break Some(map.next_value::<ModelType>()?);
        }
        if !head.read(&key, &mut map)? {
            early.push((key.into_owned(), map.next_value::<Box<RawValue>>()?));
        }
    };
    let mut fields = BodyFields {
        early: early.into_iter(),
        map: &mut map,
        head,
        wanted: &[],
        early_value: None,
        extra: OtherFields::new(),
        seen,
    };
    let name = model_type.as_ref().map(|t| t.name.as_str()).or(untyped);
    let body = B::read_as(name.unwrap_or_default(), &mut fields)?;
    Ok(ModelTyped {
        model_type,
        body,
        extra: fields.extra,
    })
}

/// An object key, borrowed from the input when it can be.
pub(crate) struct FieldName<'de>(pub Cow<'de, str>);

impl<'de> Deserialize<'de> for FieldName<'de> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct NameVisitor;

        impl<'de> Visitor<'de> for NameVisitor {
            type Value = FieldName<'de>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a field name")
            }

            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(FieldName(Cow::Borrowed(v)))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(FieldName(Cow::Owned(v.to_owned())))
            }

            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(FieldName(Cow::Owned(v)))
            }
        }

        de.deserialize_str(NameVisitor)
    }
}

/// The rest of the object after `modelType`, seen by the body as a map of only the
/// keys it wants: early ones first, then the live ones; head keys go to the head and
/// the others to `extra` on the way.
struct BodyFields<'a, 'de, A, H> {
    early: vec::IntoIter<(String, Box<RawValue>)>,
    map: &'a mut A,
    head: &'a mut H,
    wanted: &'static [&'static str],
    /// The value of the early key just handed out, with its key for error messages.
    early_value: Option<(String, Box<RawValue>)>,
    extra: OtherFields,
    seen: Seen<'de>,
}

/// The keys of one object so far. A key given twice is an error: JSON leaves open
/// which value is meant, and reading either silently would hide the other.
#[derive(Default)]
struct Seen<'de>(Vec<Cow<'de, str>>);

impl<'de> Seen<'de> {
    // The `Cow` itself, not `&str`: a key borrowed from the input is kept uncopied.
    #[allow(clippy::ptr_arg)]
    fn first<E: de::Error>(&mut self, key: &Cow<'de, str>) -> Result<(), E> {
        if self.0.contains(key) {
            return Err(E::custom(crate::duplicate_keys::given_twice(key)));
        }
        self.0.push(key.clone());
        Ok(())
    }
}

impl<'de, A: MapAccess<'de>, H: Head<'de>> MapAccess<'de> for BodyFields<'_, 'de, A, H> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        for (key, value) in self.early.by_ref() {
            if self.wanted.contains(&key.as_str()) {
                let name = seed.deserialize(de::value::StrDeserializer::<A::Error>::new(&key))?;
                self.early_value = Some((key, value));
                return Ok(Some(name));
            }
            if crate::checking::only_checking() {
                continue;
            }
            let value: Value = serde_json::from_str(value.get())
                .map_err(|e| A::Error::custom(format_args!("{key}: {}", message(&e))))?;
            self.extra.insert(key, value);
        }
        while let Some(FieldName(key)) = self.map.next_key()? {
            self.seen.first::<A::Error>(&key)?;
            if self.head.read(&key, self.map)? {
                continue;
            }
            if self.wanted.contains(&&*key) {
                return seed
                    .deserialize(de::value::StrDeserializer::<A::Error>::new(&key))
                    .map(Some);
            }
            if crate::checking::only_checking() {
                self.map.next_value::<de::IgnoredAny>()?;
                continue;
            }
            let value = self.map.next_value()?;
            self.extra.insert(key.into_owned(), value);
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.early_value.take() {
            // Read again from its text, so the path stops at this object: name the key.
            // The text is a local copy, so it is read through `io::Read`, which serves
            // any lifetime (nothing borrows from it).
            Some((key, value)) => {
                let mut de = serde_json::Deserializer::from_reader(value.get().as_bytes());
                seed.deserialize(&mut de)
                    .map_err(|e| A::Error::custom(format_args!("{key}: {}", message(&e))))
            }
            None => self.map.next_value_seed(seed),
        }
    }
}

/// A serde_json error without its line and column, which only count within one
/// buffered field and would mislead.
fn message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&position) {
        Some(message) => message.to_owned(),
        None => text,
    }
}

impl<'de, A: MapAccess<'de>, H: Head<'de>> Deserializer<'de> for &mut BodyFields<'_, 'de, A, H> {
    type Error = A::Error;

    /// A body that is not a struct (an unknown model type) takes no keys: all go to
    /// `extra`.
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        self.wanted = &[];
        visitor.visit_map(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.wanted = fields;
        visitor.visit_map(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}
