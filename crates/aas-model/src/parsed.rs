use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::value::RawValue;

use crate::{Error, Result};

/// One node as the server sent it: its JSON text, and the typed view of it, or why the
/// typed view failed. A node whose view failed is still kept, so nothing is dropped.
#[derive(Debug, Clone, Serialize)]
pub struct Parsed<T> {
    raw: Box<RawValue>,
    #[serde(skip)]
    view: Result<T>,
}

impl<T: DeserializeOwned> Parsed<T> {
    /// Reads the typed view of a raw JSON value.
    pub fn new(raw: Box<RawValue>) -> Self {
        let view = parse(raw.get());
        Parsed { raw, view }
    }
}

impl<T> Parsed<T> {
    /// The JSON text of this node: exactly what the server sent (also for a nested
    /// element, see [`RawElement`](crate::RawElement)).
    pub fn raw(&self) -> &str {
        self.raw.get()
    }

    pub fn view(&self) -> std::result::Result<&T, &Error> {
        self.view.as_ref()
    }
}

/// Parses `json` as `T`, naming the JSON path of a failure.
pub fn parse<T: DeserializeOwned>(json: &str) -> Result<T> {
    // Tracking the path costs an allocation per key, so only a failed parse pays it:
    // the second run fails at the same place, now with the path.
    serde_json::from_str(json).map_err(|first| {
        let de = &mut serde_json::Deserializer::from_str(json);
        match serde_path_to_error::deserialize::<_, T>(de) {
            Err(e) => Error::decode(e.path(), e.inner()),
            // The value itself reads: what follows it is wrong (found by fuzzing).
            Ok(_) => Error::decode(".", first),
        }
    })
}

/// How many items the JSON array `json` holds, read past and not kept: as many as
/// [`parse_list`] gives, without its copy of every item.
pub fn count_list(json: &str) -> Result<usize> {
    Ok(parse::<Vec<serde::de::IgnoredAny>>(json)?.len())
}

/// Parses a JSON array whose items are parsed one by one: a malformed item is kept with
/// its error, the others are unaffected. Fails only when `json` is not an array.
pub fn parse_list<T: DeserializeOwned>(json: &str) -> Result<Vec<Parsed<T>>> {
    let items: Vec<Box<RawValue>> = parse(json)?;
    Ok(items.into_iter().map(Parsed::new).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_is_as_many_items_as_the_parsed_list_has() {
        let json = r#"[{"idShort":"A"}, 7, "not a shell", {"idShort":{"x":[1,2]}}, null]"#;
        let parsed = parse_list::<serde_json::Value>(json).expect("a list");
        assert_eq!(count_list(json).expect("a list"), parsed.len());
        assert_eq!(count_list("[]").expect("a list"), 0);
        for not_a_list in [r#"{"idShort":"A"}"#, "[1, 2", "[1] 2"] {
            assert!(count_list(not_a_list).is_err(), "{not_a_list}");
            assert!(parse_list::<serde_json::Value>(not_a_list).is_err());
        }
    }
}
