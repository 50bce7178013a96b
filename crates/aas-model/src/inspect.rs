//! What an AAS environment holds, and what in it does not follow V2.0.1: counts per
//! `modelType.name`, objects the typed model cannot read (with their JSON path), and
//! common departures from the standard that real exporters make.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::{Asset, Error, Result};
use crate::{
    AssetAdministrationShell, ConceptDescription, ElementBody, Parsed, Submodel, SubmodelElement,
};

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
pub fn inspect_environment(json: &[u8]) -> Result<Report> {
    let json = crate::aasx::without_bom(json);
    let text = std::str::from_utf8(json).map_err(|e| Error::decode(".", e))?;
    let value: Value = crate::parse(text)?;
    if value.get("assetAdministrationShells").is_none() {
        return Err(Error::decode(
            ".",
            "not an AAS environment (no assetAdministrationShells)",
        ));
    }
    let mut report = Report::default();
    walk(&value, "", &mut report);
    let lists: BTreeMap<String, Vec<Box<RawValue>>> = crate::parse(text)?;
    for (name, items) in &lists {
        for (i, raw) in items.iter().enumerate() {
            let at = format!("{name}[{i}]");
            match name.as_str() {
                "assetAdministrationShells" => {
                    typed::<AssetAdministrationShell>(raw, &at, &mut report)
                }
                "assets" => typed::<Asset>(raw, &at, &mut report),
                "conceptDescriptions" => typed::<ConceptDescription>(raw, &at, &mut report),
                "submodels" => {
                    let sm = Parsed::<Submodel>::new(raw.clone());
                    match sm.view() {
                        Ok(view) => elements(
                            &view.elements(),
                            &format!("{at}.submodelElements"),
                            &mut report,
                        ),
                        Err(e) => report.unreadable.push(finding(&at, e)),
                    }
                }
                _ => {}
            }
        }
    }
    Ok(report)
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

/// Elements and, below them, their nested elements; each one's failure on its own.
fn elements(list: &[Parsed<SubmodelElement>], at: &str, report: &mut Report) {
    for (i, el) in list.iter().enumerate() {
        element(el.view(), &format!("{at}[{i}]"), 1, report);
    }
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
        let typed = raw.parse();
        element(typed.view(), &format!("{here}{place}"), depth + 1, report);
    }
}

/// Counts model types and notes departures from V2.0.1 anywhere in the tree.
fn walk(value: &Value, at: &str, report: &mut Report) {
    match value {
        Value::Object(map) => {
            if let Some(name) = map
                .get("modelType")
                .and_then(|m| m.get("name"))
                .and_then(Value::as_str)
            {
                *report.model_types.entry(name.to_owned()).or_default() += 1;
                // Identifiables may leave idShort empty; their identification names them.
                let unnamed_ok = |id: &str| id.is_empty() && map.contains_key("identification");
                if let Some(id_short) = map.get("idShort").and_then(Value::as_str) {
                    if !(is_v2_id_short(id_short) || unnamed_ok(id_short)) {
                        report.nonconforming.push(Finding {
                            path: format!("{at}.idShort"),
                            reason: format!("idShort {id_short:?} must start with a letter and hold only letters, digits and _"),
                        });
                    }
                }
                if map.get("valueType").is_some_and(Value::is_object) {
                    report.nonconforming.push(Finding {
                        path: format!("{at}.valueType"),
                        reason: "legacy valueType object (V2.0.1 writes the type name as a string)"
                            .into(),
                    });
                }
            }
            for (key, child) in map {
                walk(child, &format!("{at}.{key}"), report);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                walk(child, &format!("{at}[{i}]"), report);
            }
        }
        _ => {}
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
