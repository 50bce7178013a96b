//! The identifiers a crawl follows, read from a list answer in the same pass that checks
//! its syntax: the AAS identifiers of an AAS list, the idShorts of a submodel list.
//! An item without the identifier is passed over, not an error (the crawl cannot follow
//! it, and its siblings are still good); an answer that is not a JSON array is.

use std::borrow::Cow;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// Where an item's identifier may be: paths of keys from the item down, the first found
/// in the item's order taken.
pub type IdPaths<'p> = &'p [&'p [&'p str]];

/// A shell's identifier: V2's `identification.id` or V3's `id`.
pub const SHELL_ID: IdPaths<'static> = &[&["identification", "id"], &["id"]];

/// An idShort: an element's, a submodel's (a V3 submodel may have none).
pub const ID_SHORT: IdPaths<'static> = &[&["idShort"]];

/// The string at one of `paths` of every item of the JSON array `raw` that has one, in
/// order.
pub fn ids_in_list(raw: &str, paths: IdPaths) -> serde_json::Result<Vec<String>> {
    let mut de = serde_json::Deserializer::from_str(raw);
    let ids = de.deserialize_seq(List(paths))?;
    de.end()?;
    Ok(ids)
}

struct List<'p>(IdPaths<'p>);

impl<'de> Visitor<'de> for List<'_> {
    type Value = Vec<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Vec<String>, A::Error> {
        let mut ids = Vec::new();
        while let Some(id) = items.next_element_seed(At(Cow::Borrowed(self.0)))? {
            ids.extend(id);
        }
        Ok(ids)
    }
}

/// The string at one of the paths inside one value (an empty path: the value itself);
/// `None` for anything else, read past. Borrowed for each item, owned only below a key
/// that matched.
struct At<'a, 'p>(Cow<'a, [&'p [&'p str]]>);

impl<'de> DeserializeSeed<'de> for At<'_, '_> {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Option<String>, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for At<'_, '_> {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E>(self, s: &str) -> Result<Option<String>, E> {
        Ok(self
            .0
            .iter()
            .any(|path| path.is_empty())
            .then(|| s.to_owned()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<String>, A::Error> {
        let mut found = None;
        while let Some(below) = map.next_key_seed(KeyOf(&self.0))? {
            if !below.is_empty() && found.is_none() {
                found = map.next_value_seed(At(Cow::Owned(below)))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Option<String>, A::Error> {
        while items.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_unit<E>(self) -> Result<Option<String>, E> {
        Ok(None)
    }
}

/// The rest of each path that goes on below a map key (none for a key no path names),
/// compared without copying the key.
struct KeyOf<'a, 'p>(&'a [&'p [&'p str]]);

impl<'de, 'p> DeserializeSeed<'de> for KeyOf<'_, 'p> {
    type Value = Vec<&'p [&'p str]>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de, 'p> Visitor<'de> for KeyOf<'_, 'p> {
    type Value = Vec<&'p [&'p str]>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E>(self, key: &str) -> Result<Self::Value, E> {
        Ok((self.0.iter())
            .filter_map(|path| path.split_first())
            .filter(|(first, _)| **first == key)
            .map(|(_, below)| below)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::{ids_in_list, ID_SHORT, SHELL_ID};

    #[test]
    fn reads_the_ids_it_follows_and_passes_over_items_without_one() {
        let raw = r#"[
            {"idShort": "A", "identification": {"idType": "IRI", "id": "urn:a"}, "submodels": [{"keys": []}]},
            {"idShort": "no id"},
            {"identification": {"id": 42}},
            {"identification": "urn:flat"},
            "not an object", null, 7, [1, 2],
            {"identification": {"id": "urn:b\u0021", "more": {"id": "nested"}}, "id": "top"}
        ]"#;
        assert_eq!(
            ids_in_list(raw, SHELL_ID).expect("a list"),
            ["urn:a", "urn:b!"]
        );
        assert_eq!(
            ids_in_list(
                r#"[{"idShort": "Nameplate"}, {"idShort": ""}, {}]"#,
                ID_SHORT
            )
            .expect("a list"),
            ["Nameplate", ""]
        );
    }

    #[test]
    fn a_v3_shells_id_is_read_as_a_v2_shells_identification() {
        let raw = r#"[
            {"modelType": "AssetAdministrationShell", "id": "urn:v3", "idShort": "A"},
            {"identification": {"id": "urn:v2"}},
            {"id": {"not": "a string"}, "identification": {"id": "urn:then-v2"}}
        ]"#;
        assert_eq!(
            ids_in_list(raw, SHELL_ID).expect("a list"),
            ["urn:v3", "urn:v2", "urn:then-v2"]
        );
    }

    #[test]
    fn an_answer_that_is_no_json_list_is_refused() {
        for (raw, syntax) in [
            (r#"[{"identification": {"id": "urn:a"}}"#, true), // cut short
            (r#"[{"identification": {"id": "urn:a"}}] junk"#, true),
            (r#"[{"identification" {"id": "urn:a"}}]"#, true),
            (r#"{"identification": {"id": "urn:a"}}"#, false), // JSON, not a list
            ("null", false),
        ] {
            let e = ids_in_list(raw, SHELL_ID).expect_err(raw);
            assert_eq!(e.is_syntax() || e.is_eof(), syntax, "{raw}: {e}");
        }
    }
}
