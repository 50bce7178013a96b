//! What a table reads of a shell's submodels answer, in one pass: each submodel's
//! idShort and its elements' JSON, borrowed from the answer. Reading the list first and
//! each wanted submodel again read most of the answer twice, and a table's build is
//! mostly reading these answers.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

/// A submodel as a table reads it. An item of the list that is not a submodel (not an
/// object; an idShort that is not text; a key given twice, so which value is meant is
/// not known) reads as one without an idShort, which no column names, and leaves the
/// other submodels readable.
#[derive(Debug, Default)]
pub(crate) struct SubmodelElements<'a> {
    pub id_short: Option<Cow<'a, str>>,
    pub elements: Vec<&'a RawValue>,
}

/// The submodels of a submodels answer; `None` when it is not a list.
pub(crate) fn read(answer: &str) -> Option<Vec<SubmodelElements<'_>>> {
    serde_json::from_str(answer).ok()
}

impl<'de> Deserialize<'de> for SubmodelElements<'de> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        de.deserialize_any(Submodel)
    }
}

/// Visitor methods for the kinds of value that read as the default, read past: `unit`
/// (null), `bool`, `i64`, `u64`, `f64`, `str`, `seq` (a list), `map` (an object).
macro_rules! read_past {
    ($($kind:ident),*) => {$( read_past!(@ $kind); )*};
    (@ unit) => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Self::Value::default())
        }
    };
    (@ seq) => {
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            IgnoredAny.visit_seq(seq)?;
            Ok(Self::Value::default())
        }
    };
    (@ map) => {
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            IgnoredAny.visit_map(map)?;
            Ok(Self::Value::default())
        }
    };
    (@ str) => { read_past!(@ visit_str(&str)); };
    (@ bool) => { read_past!(@ visit_bool(bool)); };
    (@ i64) => { read_past!(@ visit_i64(i64)); };
    (@ u64) => { read_past!(@ visit_u64(u64)); };
    (@ f64) => { read_past!(@ visit_f64(f64)); };
    (@ $method:ident($kind:ty)) => {
        fn $method<E: de::Error>(self, _: $kind) -> Result<Self::Value, E> {
            Ok(Self::Value::default())
        }
    };
}

/// Reads a submodel.
struct Submodel;

impl<'de> Visitor<'de> for Submodel {
    type Value = SubmodelElements<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a submodel")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut read = SubmodelElements::default();
        let (mut id_shorts, mut lists) = (0, 0);
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match &*key {
                "idShort" => {
                    id_shorts += 1;
                    read.id_short = map.next_value_seed(IdShort)?;
                }
                "submodelElements" => {
                    lists += 1;
                    read.elements = map.next_value_seed(Elements)?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        match (id_shorts, lists) {
            (0..=1, 0..=1) => Ok(read),
            _ => Ok(SubmodelElements::default()),
        }
    }

    read_past!(unit, bool, i64, u64, f64, str, seq);
}

/// Reads an idShort: text, or nothing.
struct IdShort;

impl<'de> Visitor<'de> for IdShort {
    type Value = Option<Cow<'de, str>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an idShort")
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Self::Value, E> {
        Ok(Some(Cow::Borrowed(text)))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Some(Cow::Owned(text.to_owned())))
    }

    read_past!(unit, bool, i64, u64, f64, seq, map);
}

impl<'de> de::DeserializeSeed<'de> for IdShort {
    type Value = Option<Cow<'de, str>>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_any(self)
    }
}

/// Reads a list of elements, each as its JSON text: a list, or nothing.
struct Elements;

impl<'de> Visitor<'de> for Elements {
    type Value = Vec<&'de RawValue>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of submodel elements")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut elements = Vec::new();
        while let Some(element) = seq.next_element()? {
            elements.push(element);
        }
        Ok(elements)
    }

    read_past!(unit, bool, i64, u64, f64, str, map);
}

impl<'de> de::DeserializeSeed<'de> for Elements {
    type Value = Vec<&'de RawValue>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_any(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id_shorts(answer: &str) -> Option<Vec<Option<String>>> {
        let read = read(answer)?;
        Some(
            read.into_iter()
                .map(|s| s.id_short.map(String::from))
                .collect(),
        )
    }

    #[test]
    fn what_is_not_a_submodel_reads_as_none_and_leaves_the_others() {
        let answer = r#"[
            {"idShort":"Nameplate","x":{"idShort":"Not this"},"submodelElements":[{"idShort":"A"},7]},
            3, "text", null, true, [1, {"idShort":"Inner"}],
            {"idShort":5,"submodelElements":[{"idShort":"B"}]},
            {"idShort":"Twice","idShort":"Twice"},
            {"submodelElements":{"not":"a list"},"idShort":"Named\u0020late"}
        ]"#;
        let named = |s: &str| Some(s.to_owned());
        assert_eq!(
            id_shorts(answer),
            Some(vec![
                named("Nameplate"),
                None,
                None,
                None,
                None,
                None,
                None,
                None,
                named("Named late"),
            ])
        );
        let read = read(answer).expect("a list");
        let texts: Vec<&str> = read[0].elements.iter().map(|e| e.get()).collect();
        assert_eq!(texts, [r#"{"idShort":"A"}"#, "7"]);
        let counts: Vec<usize> = read.iter().map(|s| s.elements.len()).collect();
        assert_eq!(counts, [2, 0, 0, 0, 0, 0, 1, 0, 0]);
    }

    #[test]
    fn an_answer_that_is_not_a_list_is_unreadable() {
        assert!(id_shorts(r#"{"idShort":"Nameplate"}"#).is_none());
        assert!(id_shorts(r#"[{"idShort":"Nameplate"}"#).is_none());
        assert_eq!(id_shorts("[]"), Some(vec![]));
    }
}
