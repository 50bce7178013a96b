//! Reading a struct that keeps unknown keys in `extra` key by key, straight from the
//! input. Serde's `flatten` would buffer the whole object first, which cannot hold a
//! [`RawElement`](crate::RawElement) (its exact text is gone by then), so the structs
//! that contain nested elements read this way.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, MapAccess, Visitor};
use serde::Deserializer;

use crate::model_typed::{FieldName, Head};
use crate::OtherFields;

/// A struct read key by key: `read` (from [`Head`]) takes the keys it knows, the others
/// go to `extra`, and `finish` checks what is required.
pub(crate) trait Record<'de>: Head<'de> + Default {
    type Output;
    const EXPECTING: &'static str;

    fn finish<E: de::Error>(self, extra: OtherFields) -> Result<Self::Output, E>;
}

pub(crate) fn deserialize<'de, D, R>(de: D) -> Result<R::Output, D::Error>
where
    D: Deserializer<'de>,
    R: Record<'de>,
{
    de.deserialize_map(RecordVisitor::<R>(PhantomData))
}

struct RecordVisitor<R>(PhantomData<R>);

impl<'de, R: Record<'de>> Visitor<'de> for RecordVisitor<R> {
    type Value = R::Output;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(R::EXPECTING)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<R::Output, A::Error> {
        let mut record = R::default();
        let mut extra = OtherFields::new();
        while let Some(FieldName(key)) = map.next_key()? {
            if record.read(&key, &mut map)? {
                continue;
            }
            match crate::checking::only_checking() {
                true => drop(map.next_value::<de::IgnoredAny>()?),
                false => drop(extra.insert(key.into_owned(), map.next_value()?)),
            }
        }
        record.finish(extra)
    }
}
