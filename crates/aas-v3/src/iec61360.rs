//! Embedded data specifications: V2's IEC 61360 content becomes V3.0's
//! `DataSpecificationIec61360`, referring to the V3.0 template; content V3.0 has no
//! template for (the physical unit) is reported, as are BaSyx V1's bare
//! `dataSpecification` references, which V3.0 cannot hold without content.

use serde_json::{json, Map, Value};

use crate::change::Rule;
use crate::convert::Converter;
use crate::fields::{holds_nothing, Fields};
use crate::language::is_english;
use crate::limits::TEXT_MAX;
use crate::Result;

pub(crate) const TEMPLATE: &str =
    "https://admin-shell.io/DataSpecificationTemplates/DataSpecificationIec61360/3/0";

/// IEC 61360 data types of V3.0 (V2.0.1's URL is V3.0's IRI).
const DATA_TYPES: [&str; 19] = [
    "DATE",
    "STRING",
    "STRING_TRANSLATABLE",
    "INTEGER_MEASURE",
    "INTEGER_COUNT",
    "INTEGER_CURRENCY",
    "REAL_MEASURE",
    "REAL_COUNT",
    "REAL_CURRENCY",
    "BOOLEAN",
    "IRI",
    "IRDI",
    "RATIONAL",
    "RATIONAL_MEASURE",
    "TIME",
    "TIMESTAMP",
    "FILE",
    "HTML",
    "BLOB",
];

/// Data types that need a unit (AASc-3a-009).
const WITH_UNIT: [&str; 5] = [
    "INTEGER_MEASURE",
    "REAL_MEASURE",
    "RATIONAL_MEASURE",
    "INTEGER_CURRENCY",
    "REAL_CURRENCY",
];

/// Whether a concept description's category agrees with an IEC 61360 data type
/// (AASc-3a-004 to 007).
pub(crate) fn category_fits(category: &str, data_type: Option<&str>) -> bool {
    let allowed = |t: &str| match category {
        // Values and properties: any data type but references and documents.
        "PROPERTY" | "VALUE" => !["IRI", "IRDI", "FILE", "HTML", "BLOB"].contains(&t),
        "REFERENCE" => ["STRING", "IRI", "IRDI"].contains(&t),
        "DOCUMENT" => ["FILE", "BLOB", "HTML"].contains(&t),
        _ => true,
    };
    match category {
        "PROPERTY" | "VALUE" | "REFERENCE" | "DOCUMENT" | "QUALIFIER_TYPE" => {
            data_type.is_some_and(|t| DATA_TYPES.contains(&t) && allowed(t))
        }
        _ => true,
    }
}

impl Converter<'_> {
    /// `embeddedDataSpecifications` into `out`; BaSyx's `dataSpecification` and
    /// `hasDataSpecification` references are reported when they name anything.
    pub(crate) fn data_specifications(
        &mut self,
        f: &mut Fields,
        out: &mut Map<String, Value>,
    ) -> Result<()> {
        let at = f.path("embeddedDataSpecifications");
        let mut converted = Vec::new();
        for (i, item) in f.list("embeddedDataSpecifications").into_iter().enumerate() {
            let here = format!("{at}[{i}]");
            if let Some(spec) = self.embedded(item, &here)? {
                converted.push(spec);
            }
        }
        if !converted.is_empty() {
            out.insert("embeddedDataSpecifications".into(), Value::Array(converted));
        }
        for bare in ["dataSpecification", "hasDataSpecification"] {
            if let Some(refs) = f.take(bare).filter(|r| !holds_nothing(r)) {
                self.change(f.path(bare), Rule::DataSpecification, refs, None)?;
            }
        }
        Ok(())
    }

    fn embedded(&mut self, item: Value, at: &str) -> Result<Option<Value>> {
        if holds_nothing(&item) {
            return Ok(None);
        }
        let whole = item.clone();
        let content = item
            .get("dataSpecificationContent")
            .cloned()
            .unwrap_or(Value::Null);
        let names_iec = item
            .get("dataSpecification")
            .and_then(crate::element::last_key_value)
            .is_some_and(|v| v.to_ascii_uppercase().contains("IEC61360"));
        let looks_iec = content.get("preferredName").is_some();
        if !(names_iec || looks_iec) {
            self.change(at, Rule::DataSpecification, whole, None)?;
            return Ok(None);
        }
        let content_at = format!("{at}.dataSpecificationContent");
        let Some(content) = self.iec61360(content, &content_at)? else {
            self.change(at, Rule::DataSpecification, whole, None)?;
            return Ok(None);
        };
        let reference = json!({
            "type": "ExternalReference",
            "keys": [{ "type": "GlobalReference", "value": TEMPLATE }],
        });
        Ok(Some(
            json!({ "dataSpecification": reference, "dataSpecificationContent": content }),
        ))
    }

    /// The V3.0 content; `None` when V3.0 cannot hold it (no preferred name in
    /// English, AASc-3a-002).
    fn iec61360(&mut self, content: Value, at: &str) -> Result<Option<Value>> {
        let Ok(mut f) = Fields::of(content, at) else {
            return Ok(None);
        };
        let preferred = match f.take("preferredName") {
            Some(names) => self.lang_strings(names, &f.path("preferredName"), 255)?,
            None => None,
        };
        let english = preferred
            .as_ref()
            .and_then(Value::as_array)
            .is_some_and(|names| {
                names
                    .iter()
                    .any(|n| n["language"].as_str().is_some_and(is_english))
            });
        // The caller reports the whole content, kept in the report.
        let Some(preferred) = preferred.filter(|_| english) else {
            return Ok(None);
        };
        let mut out = Map::new();
        out.insert("modelType".into(), json!("DataSpecificationIec61360"));
        out.insert("preferredName".into(), preferred);
        if let Some(short) = f.take("shortName") {
            if let Some(names) = self.lang_strings(short, &f.path("shortName"), 18)? {
                out.insert("shortName".into(), names);
            }
        }
        for name in ["unit", "sourceOfDefinition", "symbol"] {
            if let Some(text) = f.text(name) {
                let text = self.text(text, &f.path(name), usize::MAX)?;
                out.insert(name.into(), json!(text));
            }
        }
        self.reference_field(&mut f, "unitId", &mut out)?;
        if let Some(data_type) = f.text("dataType") {
            let v3 = if data_type == "URL" {
                "IRI".to_owned()
            } else {
                data_type.clone()
            };
            let has_unit = out.contains_key("unit") || out.contains_key("unitId");
            if !DATA_TYPES.contains(&v3.as_str()) || (WITH_UNIT.contains(&v3.as_str()) && !has_unit)
            {
                self.change(
                    f.path("dataType"),
                    Rule::DataSpecification,
                    json!(data_type),
                    None,
                )?;
            } else {
                out.insert("dataType".into(), json!(v3));
            }
        }
        if let Some(definition) = f.take("definition") {
            if let Some(texts) = self.lang_strings(definition, &f.path("definition"), TEXT_MAX)? {
                out.insert("definition".into(), texts);
            }
        }
        if let Some(format) = f.text("valueFormat") {
            let format = self.text(format, &f.path("valueFormat"), usize::MAX)?;
            out.insert("valueFormat".into(), json!(format));
        }
        let value = f.text("value");
        if let Some(list) = f.take("valueList") {
            if value.is_some() {
                // AASc-3a-010: a value or a list of values, not both.
                self.change(f.path("valueList"), Rule::DataSpecification, list, None)?;
            } else if let Some(list) = self.value_list(list, &f.path("valueList"))? {
                out.insert("valueList".into(), list);
            }
        }
        if let Some(value) = value {
            let value = self.text(value, &f.path("value"), 2000)?;
            out.insert("value".into(), json!(value));
        }
        if let Some(levels) = f.take("levelType") {
            let given: Vec<String> = match &levels {
                Value::Array(items) => items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
                Value::String(s) => vec![s.clone()],
                _ => Vec::new(),
            };
            let mut level = Map::new();
            for name in ["min", "nom", "typ", "max"] {
                let set = given.iter().any(|g| g.eq_ignore_ascii_case(name));
                level.insert(name.into(), json!(set));
            }
            let known = given.iter().all(|g| {
                ["min", "nom", "typ", "max"]
                    .iter()
                    .any(|n| g.eq_ignore_ascii_case(n))
            });
            if !known || given.len() > 4 {
                self.change(f.path("levelType"), Rule::DataSpecification, levels, None)?;
            }
            if !given.is_empty() {
                out.insert("levelType".into(), Value::Object(level));
            }
        }
        self.leftovers(f, &["modelType"])?;
        Ok(Some(Value::Object(out)))
    }

    /// V2's `valueReferencePairTypes` as V3.0's `valueReferencePairs`; a pair without
    /// a value id (V3.0 requires one) is reported.
    fn value_list(&mut self, list: Value, at: &str) -> Result<Option<Value>> {
        let Ok(mut f) = Fields::of(list, at) else {
            return Ok(None);
        };
        let pairs_at = f.path("valueReferencePairTypes");
        let mut pairs = Vec::new();
        for (i, pair) in f.list("valueReferencePairTypes").into_iter().enumerate() {
            let here = format!("{pairs_at}[{i}]");
            let Ok(mut p) = Fields::of(pair, &here) else {
                continue;
            };
            let value = p.text("value");
            let value_id = match p.take("valueId") {
                Some(r) => self.reference(r, &p.path("valueId"))?,
                None => None,
            };
            match (value, value_id) {
                (Some(value), Some(value_id)) => {
                    let value = self.text(value, &p.path("value"), 2000)?;
                    pairs.push(json!({ "value": value, "valueId": value_id }));
                    // V3.0 pairs have no value type: the data specification's data
                    // type says it.
                    self.leftovers(p, &["valueType", "modelType"])?;
                }
                (value, value_id) => {
                    self.change(
                        here,
                        Rule::DataSpecification,
                        json!({ "value": value, "valueId": value_id }),
                        None,
                    )?;
                    self.leftovers(p, &["valueType", "modelType"])?;
                }
            }
        }
        self.leftovers(f, &[])?;
        Ok((!pairs.is_empty()).then(|| json!({ "valueReferencePairs": pairs })))
    }
}
