//! A field that JSON may leave out, set to `null`, or set to a value: the three read
//! back differently, and writing must give back whichever came in.

use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An optional field that remembers whether it was absent or `null`.
///
/// Use with `#[serde(default, skip_serializing_if = "Nullable::is_absent")]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Nullable<T> {
    #[default]
    Absent,
    Null,
    Present(T),
}

impl<T> Nullable<T> {
    pub fn is_absent(&self) -> bool {
        matches!(self, Nullable::Absent)
    }

    /// The value, if there is one (named as on `Option`, which such fields used to be).
    pub fn as_ref(&self) -> Option<&T> {
        match self {
            Nullable::Present(v) => Some(v),
            Nullable::Absent | Nullable::Null => None,
        }
    }
}

/// A list reads as its items; absent and `null` read as no items.
impl<T> Deref for Nullable<Vec<T>> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        self.as_ref().map_or(&[], Vec::as_slice)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Nullable<T> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        Ok(Option::<T>::deserialize(de)?.map_or(Nullable::Null, Nullable::Present))
    }
}

impl<T: Serialize> Serialize for Nullable<T> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self {
            Nullable::Present(v) => v.serialize(ser),
            Nullable::Absent | Nullable::Null => ser.serialize_none(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize, Serialize)]
    struct Holder {
        #[serde(default, skip_serializing_if = "Nullable::is_absent")]
        list: Nullable<Vec<u8>>,
    }

    #[test]
    fn absent_null_empty_and_full_each_come_back_as_they_went_in() {
        for json in [
            r#"{}"#,
            r#"{"list":null}"#,
            r#"{"list":[]}"#,
            r#"{"list":[1,2]}"#,
        ] {
            let h: Holder = serde_json::from_str(json).expect("valid");
            assert_eq!(serde_json::to_string(&h).expect("writes"), json);
        }
        let h: Holder = serde_json::from_str(r#"{"list":null}"#).expect("valid");
        assert!(h.list.is_empty());
    }
}
