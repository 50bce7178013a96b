//! The identifiers a crawl follows, read from a list answer in the same pass that checks
//! its syntax: the AAS identifiers of an AAS list, the idShorts of a submodel list.
//! An item without the identifier is passed over, not an error (the crawl cannot follow
//! it, and its siblings are still good); an answer that is not a JSON array is.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// The string at `key_path` (keys from the item down) of every item of the JSON array
/// `raw` that has one, in order.
pub fn ids_in_list(raw: &str, key_path: &[&str]) -> serde_json::Result<Vec<String>> {
    let mut de = serde_json::Deserializer::from_str(raw);
    let ids = de.deserialize_seq(List(key_path))?;
    de.end()?;
    Ok(ids)
}

struct List<'p>(&'p [&'p str]);

impl<'de> Visitor<'de> for List<'_> {
    type Value = Vec<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Vec<String>, A::Error> {
        let mut ids = Vec::new();
        while let Some(id) = items.next_element_seed(At(self.0))? {
            ids.extend(id);
        }
        Ok(ids)
    }
}

/// The string at a key path inside one value; `None` for anything else, read past.
#[derive(Clone, Copy)]
struct At<'p>(&'p [&'p str]);

impl<'de> DeserializeSeed<'de> for At<'_> {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Option<String>, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for At<'_> {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E>(self, s: &str) -> Result<Option<String>, E> {
        Ok(self.0.is_empty().then(|| s.to_owned()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<String>, A::Error> {
        let mut found = None;
        while let Some(wanted) = map.next_key_seed(KeyIs(self.0.first().copied()))? {
            if wanted && found.is_none() {
                found = map.next_value_seed(At(&self.0[1..]))?;
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

/// Whether a map key is `Some(name)`, compared without copying the key.
struct KeyIs<'p>(Option<&'p str>);

impl<'de> DeserializeSeed<'de> for KeyIs<'_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<bool, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyIs<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E>(self, key: &str) -> Result<bool, E> {
        Ok(self.0 == Some(key))
    }
}

#[cfg(test)]
mod tests {
    use super::ids_in_list;

    const SHELL_ID: &[&str] = &["identification", "id"];

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
                &["idShort"]
            )
            .expect("a list"),
            ["Nameplate", ""]
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
