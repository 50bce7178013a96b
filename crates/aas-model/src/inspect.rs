//! What an AAS environment holds, and what in it does not follow V2.0.1: counts per
//! `modelType.name`, objects the typed model cannot read (with their JSON path), and
//! common departures from the standard that real exporters make.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use serde::de::{
    DeserializeOwned, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::model_typed::FieldName;
use crate::{Asset, Error, Result};
use crate::{AssetAdministrationShell, ConceptDescription, ElementBody, Submodel, SubmodelElement};

#[derive(Debug, Default, Serialize)]
pub struct Report {
    pub model_types: BTreeMap<String, usize>,
    /// Objects the typed model could not read, and why.
    pub unreadable: Vec<Finding>,
    /// Readable, but not what AAS V2.0.1 prescribes.
    pub nonconforming: Vec<Finding>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// JSON path, e.g. `submodels[2].submodelElements[0].idShort`.
    pub path: String,
    pub reason: String,
}

/// Inspects the JSON text of an environment (a UTF-8 byte order mark is allowed).
///
/// Nothing of the document is held as a tree (a `serde_json::Value` of it took 72
/// times the file): the model types and what does not conform are counted in one pass
/// over the text (`Walk`), the four lists are read as slices of it, and each shell,
/// asset, concept description and submodel is typed on its own, a submodel's elements
/// one at a time, only to be checked: a field a submodel or an element does not know,
/// however large, is passed over, never built, and so is any field of the environment
/// besides its lists.
pub fn inspect_environment(json: &[u8]) -> Result<Report> {
    let json = crate::aasx::without_bom(json);
    let text = std::str::from_utf8(json).map_err(|e| Error::decode(".", e))?;
    let mut report = Report::default();
    let mut path = String::new();
    let top = read_whole(
        text,
        Walk {
            at: &mut path,
            report: &mut report,
            want: Want::Nothing,
        },
    )?;
    if !top.has_shells {
        return Err(Error::decode(
            ".",
            "not an AAS environment (no assetAdministrationShells)",
        ));
    }
    let lists: Lists = serde_json::from_str(text).map_err(|e| Error::decode(".", e))?;
    // Typed only to learn what does not read: what a type does not know is passed over.
    crate::checking::checking(|| typed_lists(&lists, &mut report));
    duplicates(text, &mut report);
    Ok(report)
}

/// Types each item of the lists, naming what does not read.
fn typed_lists(lists: &Lists, report: &mut Report) {
    let named = [
        ("assetAdministrationShells", &lists.shells),
        ("assets", &lists.assets),
        ("conceptDescriptions", &lists.concepts),
        ("submodels", &lists.submodels),
    ];
    for (name, items) in named {
        for (i, raw) in items.iter().enumerate() {
            let at = format!("{name}[{i}]");
            match name {
                "assetAdministrationShells" => typed::<AssetAdministrationShell>(raw, &at, report),
                "assets" => typed::<Asset>(raw, &at, report),
                "conceptDescriptions" => typed::<ConceptDescription>(raw, &at, report),
                _ => match crate::parse::<Submodel>(raw.get()) {
                    Ok(view) => {
                        for (j, el) in view.submodel_elements.iter().enumerate() {
                            let typed = crate::parse::<SubmodelElement>(el.get());
                            let here = format!("{at}.submodelElements[{j}]");
                            element(typed.as_ref(), &here, 1, report);
                        }
                    }
                    Err(e) => report.unreadable.push(finding(&at, &e)),
                },
            }
        }
    }
}

/// Every key an object gives twice, as unreadable: which value is meant is not known
/// (`aasmd convert` reports the same keys). One inside an object already named
/// unreadable for it (by the typed model: an element's "given twice", a shell's serde
/// "duplicate field") is not named again.
fn duplicates(text: &str, report: &mut Report) {
    for duplicate in crate::duplicate_keys(text) {
        let reason = crate::duplicate_keys::given_twice(&duplicate.key);
        let serde_words = format!("duplicate field `{}`", duplicate.key);
        let named = report.unreadable.iter().any(|f| {
            (f.reason.contains(&reason) || f.reason.contains(&serde_words))
                && duplicate.path.starts_with(&f.path)
                && duplicate.path[f.path.len()..].starts_with(['.', '['])
        });
        if !named {
            report.unreadable.push(Finding {
                path: duplicate.path,
                reason,
            });
        }
    }
}

/// The environment's four lists, each item as its text in the file; any other field
/// is passed over unread.
#[derive(Default)]
struct Lists<'a> {
    shells: Vec<&'a RawValue>,
    assets: Vec<&'a RawValue>,
    submodels: Vec<&'a RawValue>,
    concepts: Vec<&'a RawValue>,
}

impl<'de> Deserialize<'de> for Lists<'de> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> std::result::Result<Self, D::Error> {
        struct ListsVisitor;

        impl<'de> Visitor<'de> for ListsVisitor {
            type Value = Lists<'de>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an AAS environment")
            }

            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Lists<'de>, A::Error> {
                let mut lists = Lists::default();
                while let Some(FieldName(key)) = map.next_key()? {
                    let list = match key.as_ref() {
                        "assetAdministrationShells" => &mut lists.shells,
                        "assets" => &mut lists.assets,
                        "submodels" => &mut lists.submodels,
                        "conceptDescriptions" => &mut lists.concepts,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                            continue;
                        }
                    };
                    // The last of a key given twice, as JSON readers do (named above).
                    *list = map.next_value::<Option<_>>()?.unwrap_or_default();
                }
                Ok(lists)
            }
        }

        de.deserialize_map(ListsVisitor)
    }
}

/// `text` read whole by `seed`: nothing may follow the value.
fn read_whole<'de, S: DeserializeSeed<'de>>(text: &'de str, seed: S) -> Result<S::Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = seed
        .deserialize(&mut de)
        .and_then(|value| de.end().map(|()| value))
        .map_err(|e| Error::decode(".", e))?;
    Ok(value)
}

/// A reason's most characters: serde's message quotes a string of the wrong type whole.
const REASON_SHOWN: usize = 300;

fn finding(at: &str, e: &Error) -> Finding {
    let mut reason = e.to_string();
    if let Some((cut, _)) = reason.char_indices().nth(REASON_SHOWN) {
        reason.truncate(cut);
        reason.push('…');
    }
    Finding {
        path: at.to_owned(),
        reason,
    }
}

fn typed<T: DeserializeOwned>(raw: &RawValue, at: &str, report: &mut Report) {
    if let Err(e) = crate::parse::<T>(raw.get()) {
        report.unreadable.push(finding(at, &e));
    }
}

/// What of an elements answer (`…/submodelElements`) cannot be read, each with its
/// JSON path in the answer (`$[3].value[0]`): an answer that is not a list, an element
/// the typed model cannot read (a number past f64, a key given twice, a field of the
/// wrong type), a Property whose value is an object or a list. Such an element is kept
/// as it came; this names it so that it does not pass unnoticed.
pub fn unreadable_elements(json: &str) -> Vec<Finding> {
    let mut report = Report::default();
    // Borrowed, not copied: a large value is held once as text and once typed.
    match serde_json::from_str::<Vec<&RawValue>>(json).map_err(|e| Error::decode(".", e)) {
        Ok(list) => {
            for (i, raw) in list.into_iter().enumerate() {
                let typed = crate::parse::<SubmodelElement>(raw.get());
                element(typed.as_ref(), &format!("$[{i}]"), 1, &mut report);
            }
        }
        Err(e) => report.unreadable.push(finding("$", &e)),
    }
    report.unreadable
}

/// One element at `here`, `depth` elements deep, and what is nested in it.
fn element(
    el: std::result::Result<&SubmodelElement, &Error>,
    here: &str,
    depth: usize,
    report: &mut Report,
) {
    let view = match el {
        Ok(view) => view,
        Err(e) => return report.unreadable.push(finding(here, e)),
    };
    if let ElementBody::Property(p) = &view.body {
        let shape = match p.value.as_ref() {
            Some(Value::Object(_)) => Some("an object"),
            Some(Value::Array(_)) => Some("a list"),
            _ => None,
        };
        if let Some(shape) = shape {
            report.unreadable.push(Finding {
                path: format!("{here}.value"),
                reason: format!(
                    "a Property's value is {shape}: only text, a number, true/false or null can be shown"
                ),
            });
        }
    }
    let mut nested = view.nested().peekable();
    if depth >= crate::MAX_ELEMENT_DEPTH && nested.peek().is_some() {
        return report.unreadable.push(Finding {
            path: here.to_owned(),
            reason: format!(
                "elements nested deeper than {} levels are kept but not read",
                crate::MAX_ELEMENT_DEPTH
            ),
        });
    }
    for (place, raw) in nested {
        let typed = crate::parse::<SubmodelElement>(raw.get());
        element(typed.as_ref(), &format!("{here}{place}"), depth + 1, report);
    }
}

/// Counts model types and notes departures from V2.0.1 anywhere in the document, in
/// one pass over its text: nothing is built but the few texts it looks at.
struct Walk<'w> {
    /// The JSON path of the value walked: the walk adds to it and takes it back.
    at: &'w mut String,
    report: &'w mut Report,
    want: Want,
}

/// What a walk hands back of the value it walked besides its findings.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Want {
    Nothing,
    /// The text of a string (an `idShort`).
    Text,
    /// The `name` of an object (a `modelType`).
    Name,
}

/// What a walk saw of its value.
#[derive(Default)]
struct Seen {
    text: Option<String>,
    is_object: bool,
    /// An object with a key `assetAdministrationShells` (what an environment has).
    has_shells: bool,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = Seen;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> std::result::Result<Seen, D::Error> {
        de.deserialize_any(self)
    }
}

impl Walk<'_> {
    /// Walks the next value of `map` under `key`, wanting `want` of it.
    fn member<'de, A: MapAccess<'de>>(
        &mut self,
        map: &mut A,
        key: &str,
        want: Want,
    ) -> std::result::Result<Seen, A::Error> {
        let len = self.at.len();
        self.at.push('.');
        self.at.push_str(key);
        let seen = map.next_value_seed(Walk {
            at: self.at,
            report: self.report,
            want,
        });
        self.at.truncate(len);
        seen
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = Seen;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }

    fn visit_bool<E>(self, _: bool) -> std::result::Result<Seen, E> {
        Ok(Seen::default())
    }
    fn visit_i64<E>(self, _: i64) -> std::result::Result<Seen, E> {
        Ok(Seen::default())
    }
    fn visit_u64<E>(self, _: u64) -> std::result::Result<Seen, E> {
        Ok(Seen::default())
    }
    fn visit_f64<E>(self, _: f64) -> std::result::Result<Seen, E> {
        Ok(Seen::default())
    }
    fn visit_unit<E>(self) -> std::result::Result<Seen, E> {
        Ok(Seen::default())
    }
    fn visit_str<E>(self, text: &str) -> std::result::Result<Seen, E> {
        Ok(Seen {
            text: (self.want == Want::Text).then(|| text.to_owned()),
            ..Seen::default()
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Seen, A::Error> {
        let len = self.at.len();
        let mut i = 0usize;
        loop {
            let _ = write!(self.at, "[{i}]");
            let item = seq.next_element_seed(Walk {
                at: self.at,
                report: self.report,
                want: Want::Nothing,
            });
            self.at.truncate(len);
            if item?.is_none() {
                return Ok(Seen::default());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> std::result::Result<Seen, A::Error> {
        // This object's own findings come before those of what it holds, as they did
        // when the walk went over a tree: found last, put in their place.
        let first_inside = self.report.nonconforming.len();
        let (mut model_type, mut id_short) = (None, None);
        let (mut identified, mut legacy_value_type, mut has_shells) = (false, false, false);
        let mut name = None;
        while let Some(FieldName(key)) = map.next_key()? {
            match key.as_ref() {
                "modelType" => model_type = self.member(&mut map, &key, Want::Name)?.text,
                "idShort" => id_short = self.member(&mut map, &key, Want::Text)?.text,
                "valueType" => {
                    legacy_value_type = self.member(&mut map, &key, Want::Nothing)?.is_object
                }
                "name" if self.want == Want::Name => {
                    name = self.member(&mut map, &key, Want::Text)?.text
                }
                other => {
                    identified |= other == "identification";
                    has_shells |= other == "assetAdministrationShells";
                    self.member(&mut map, &key, Want::Nothing)?;
                }
            }
        }
        if let Some(model_type) = model_type {
            *self.report.model_types.entry(model_type).or_default() += 1;
            let mut own = Vec::new();
            // Identifiables may leave idShort empty; their identification names them.
            if let Some(id_short) = id_short {
                if !(is_v2_id_short(&id_short) || (id_short.is_empty() && identified)) {
                    own.push(Finding {
                        path: format!("{}.idShort", self.at),
                        reason: format!("idShort {id_short:?} must start with a letter and hold only letters, digits and _"),
                    });
                }
            }
            if legacy_value_type {
                own.push(Finding {
                    path: format!("{}.valueType", self.at),
                    reason: "legacy valueType object (V2.0.1 writes the type name as a string)"
                        .into(),
                });
            }
            self.report
                .nonconforming
                .splice(first_inside..first_inside, own);
        }
        Ok(Seen {
            text: name,
            is_object: true,
            has_shells,
        })
    }
}

fn is_v2_id_short(id: &str) -> bool {
    let mut chars = id.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_types_and_names_what_does_not_conform_or_parse() {
        let env = br#"{"assetAdministrationShells":[{"modelType":{"name":"AssetAdministrationShell"},"idShort":"1st","identification":{"id":"a","idType":"IRI"},"asset":{"keys":[]}}],
            "submodels":[{"modelType":{"name":"Submodel"},"idShort":"S","identification":{"id":"s","idType":"IRI"},"submodelElements":[
                {"modelType":{"name":"Property"},"idShort":"p","valueType":{"dataObjectType":{"name":"int"}},"value":"1"},
                {"modelType":{"name":"MultiLanguageProperty"},"idShort":"m","value":"not a list"}]}]}"#;
        let report = inspect_environment(env).expect("an environment");
        assert_eq!(report.model_types.get("Property"), Some(&1));
        assert_eq!(report.model_types.get("Submodel"), Some(&1));
        let paths: Vec<&str> = report
            .nonconforming
            .iter()
            .map(|f| f.path.as_str())
            .collect();
        assert_eq!(
            paths,
            [
                ".assetAdministrationShells[0].idShort",
                ".submodels[0].submodelElements[0].valueType"
            ]
        );
        assert_eq!(report.unreadable.len(), 1, "{:?}", report.unreadable);
        assert_eq!(
            report.unreadable[0].path,
            "submodels[0].submodelElements[1]"
        );
        assert!(inspect_environment(br#"{"a":1}"#).is_err());
    }

    #[test]
    fn fields_besides_the_lists_are_passed_over_and_every_key_given_twice_is_named() {
        let env = br#"{"assetAdministrationShells":[{"modelType":{"name":"AssetAdministrationShell"},
                "idShort":"A","identification":{"id":"a","idType":"IRI"},"idShort":"B"}],
            "x": 5, "y": {"z": [1, 2]},
            "submodels":[{"modelType":{"name":"Submodel"},"idShort":"S","kind":"Instance",
                "identification":{"id":"s","idType":"IRI"},"junk":[0,0,{"a":1,"a":2}],"kind":"Template",
                "submodelElements":[{"modelType":{"name":"Property"},"idShort":"p","idShort":"q"}]}]}"#;
        let report = inspect_environment(env).expect("an environment");
        let found: Vec<(&str, &str)> = report
            .unreadable
            .iter()
            .map(|f| (f.path.as_str(), f.reason.as_str()))
            .collect();
        let twice = |key: &str| format!("the key `{key}` is given twice");
        // The typed model refuses the shell and the element itself: named once, there.
        assert_eq!(found[0].0, "assetAdministrationShells[0]", "{report:#?}");
        assert!(
            found[0].1.contains("duplicate field `idShort`"),
            "{report:#?}"
        );
        assert_eq!(
            found[1].0, "submodels[0].submodelElements[0]",
            "{report:#?}"
        );
        assert!(found[1].1.contains(&twice("idShort")), "{report:#?}");
        // The submodel reads (it kept the last `kind`), and so would an unknown field.
        assert_eq!(found[2].0, "submodels[0].junk[2].a", "{report:#?}");
        assert!(found[2].1.starts_with(&twice("a")), "{report:#?}");
        assert_eq!(found[3].0, "submodels[0].kind", "{report:#?}");
        assert!(found[3].1.starts_with(&twice("kind")), "{report:#?}");
        assert_eq!(found.len(), 4, "{report:#?}");
        assert_eq!(report.model_types.get("Property"), Some(&1));
    }

    #[test]
    fn what_an_elements_answer_cannot_show_is_named_with_its_json_path() {
        let answer = r#"[
          {"idShort":"Fine","modelType":{"name":"Property"},"value":"1"},
          {"idShort":"Huge","modelType":{"name":"Property"},"value":1e999999},
          {"idShort":"Twice","idShort":"Again","modelType":{"name":"Property"},"value":"x"},
          {"idShort":"Shaped","modelType":{"name":"Property"},"value":{"a":1}},
          {"idShort":"C","modelType":{"name":"SubmodelElementCollection"},"value":[
            {"idShort":"Ok","modelType":{"name":"Property"}},
            {"idShort":"Inner","modelType":{"name":"Property"},"value":[1]}]},
          {"idShort":"Op","modelType":{"name":"Operation"},"inputVariable":[
            {"value":{"idShort":"V","modelType":{"name":"Property"},"value":{}}}]},
          [{"idShort":"InAList","modelType":{"name":"Property"}}]
        ]"#;
        let found = unreadable_elements(answer);
        let paths: Vec<&str> = found.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "$[1]",
                "$[2]",
                "$[3].value",
                "$[4].value[1].value",
                "$[5].inputVariable[0].value.value",
                "$[6]"
            ],
            "{found:#?}"
        );
        assert!(
            found[0].reason.contains("number out of range"),
            "{}",
            found[0].reason
        );
        assert!(
            found[1].reason.contains("`idShort` is given twice"),
            "{}",
            found[1].reason
        );
        assert!(found[2].reason.contains("an object"), "{}", found[2].reason);
        assert_eq!(unreadable_elements(r#"{"not":"a list"}"#)[0].path, "$");
        assert!(
            unreadable_elements(r#"[{"idShort":"a","modelType":{"name":"Property"}}]"#).is_empty()
        );
    }
}
