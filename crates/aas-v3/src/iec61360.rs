//! Embedded data specifications: V2's IEC 61360 content becomes V3.0's
//! `DataSpecificationIec61360`, referring to the V3.0 template; content V3.0 has no
//! template for (the physical unit) is reported, as are BaSyx V1's bare
//! `dataSpecification` references, which V3.0 cannot hold without content.

use std::borrow::Cow;

use crate::change::Rule;
use crate::convert::Converter;
use crate::fields::{holds_nothing, At, Fields};
use crate::language::is_english;
use crate::limits::TEXT_MAX;
use crate::node::{member, Members, Node};
use crate::Result;

pub(crate) const TEMPLATE: &str =
    "https://admin-shell.io/DataSpecificationTemplates/DataSpecificationIec61360/3";

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
    pub(crate) fn data_specifications<'a>(
        &mut self,
        f: &mut Fields<'a, '_>,
        out: &mut Members<'a>,
    ) -> Result<()> {
        let items = f.list("embeddedDataSpecifications");
        let at = f.path("embeddedDataSpecifications");
        let mut converted = Vec::new();
        for (i, item) in items.into_iter().enumerate() {
            if let Some(spec) = self.embedded(item, at.item(i))? {
                converted.push(spec);
            }
        }
        if !converted.is_empty() {
            out.push(("embeddedDataSpecifications".into(), Node::List(converted)));
        }
        for bare in ["dataSpecification", "hasDataSpecification"] {
            if let Some(refs) = f.take(bare).filter(|r| !holds_nothing(r)) {
                self.change(f.path(bare), Rule::DataSpecification, refs, None)?;
            }
        }
        Ok(())
    }

    fn embedded<'a>(&mut self, item: Node<'a>, at: At<'_>) -> Result<Option<Node<'a>>> {
        if holds_nothing(&item) {
            return Ok(None);
        }
        let whole = item.clone();
        let content = item
            .get("dataSpecificationContent")
            .cloned()
            .unwrap_or(Node::Null);
        let names_iec = item
            .get("dataSpecification")
            .and_then(crate::element::last_key_value)
            .is_some_and(|v| v.to_ascii_uppercase().contains("IEC61360"));
        let looks_iec = content.get("preferredName").is_some();
        if !(names_iec || looks_iec) {
            self.change(at, Rule::DataSpecification, whole, None)?;
            return Ok(None);
        }
        let content_at = at.field("dataSpecificationContent");
        let Some(content) = self.iec61360(content, content_at)? else {
            self.change(at, Rule::DataSpecification, whole, None)?;
            return Ok(None);
        };
        let key = Node::object([
            ("type", Node::text("GlobalReference")),
            ("value", Node::text(TEMPLATE)),
        ]);
        let reference = Node::object([
            ("type", Node::text("ExternalReference")),
            ("keys", Node::List(vec![key])),
        ]);
        Ok(Some(Node::object([
            ("dataSpecification", reference),
            ("dataSpecificationContent", content),
        ])))
    }

    /// The V3.0 content; `None` when V3.0 cannot hold it (no preferred name in
    /// English, AASc-3a-002).
    fn iec61360<'a>(&mut self, content: Node<'a>, at: At<'_>) -> Result<Option<Node<'a>>> {
        let Ok(mut f) = Fields::of(content, at) else {
            return Ok(None);
        };
        let preferred = match f.take("preferredName") {
            Some(names) => self.lang_strings(names, f.path("preferredName"), 255)?,
            None => None,
        };
        let english = preferred
            .as_ref()
            .and_then(Node::as_list)
            .is_some_and(|names| {
                names.iter().any(|n| {
                    n.get("language")
                        .and_then(Node::as_str)
                        .is_some_and(is_english)
                })
            });
        // The caller reports the whole content, kept in the report.
        let Some(preferred) = preferred.filter(|_| english) else {
            return Ok(None);
        };
        let mut out = vec![
            ("modelType".into(), Node::text("DataSpecificationIec61360")),
            ("preferredName".into(), preferred),
        ];
        if let Some(short) = f.take("shortName") {
            if let Some(names) = self.lang_strings(short, f.path("shortName"), 18)? {
                out.push(("shortName".into(), names));
            }
        }
        for name in ["unit", "sourceOfDefinition", "symbol"] {
            if let Some(text) = f.text(name) {
                let text = self.text(text, f.path(name), usize::MAX)?;
                out.push((name.into(), Node::Text(text)));
            }
        }
        self.reference_field(&mut f, "unitId", &mut out)?;
        if let Some(data_type) = f.text("dataType") {
            let v3 = if data_type == "URL" {
                Cow::Borrowed("IRI")
            } else {
                data_type.clone()
            };
            let has_unit = member(&out, "unit").is_some() || member(&out, "unitId").is_some();
            if !DATA_TYPES.contains(&v3.as_ref()) || (WITH_UNIT.contains(&v3.as_ref()) && !has_unit)
            {
                self.change(
                    f.path("dataType"),
                    Rule::DataSpecification,
                    Node::Text(data_type),
                    None,
                )?;
            } else {
                out.push(("dataType".into(), Node::Text(v3)));
            }
        }
        if let Some(definition) = f.take("definition") {
            if let Some(texts) = self.lang_strings(definition, f.path("definition"), TEXT_MAX)? {
                out.push(("definition".into(), texts));
            }
        }
        if let Some(format) = f.text("valueFormat") {
            let format = self.text(format, f.path("valueFormat"), usize::MAX)?;
            out.push(("valueFormat".into(), Node::Text(format)));
        }
        let value = f.text("value");
        if let Some(list) = f.take("valueList") {
            if value.is_some() {
                // AASc-3a-010: a value or a list of values, not both.
                self.change(f.path("valueList"), Rule::DataSpecification, list, None)?;
            } else if let Some(list) = self.value_list(list, f.path("valueList"))? {
                out.push(("valueList".into(), list));
            }
        }
        if let Some(value) = value {
            let value = self.text(value, f.path("value"), 2000)?;
            out.push(("value".into(), Node::Text(value)));
        }
        if let Some(levels) = f.take("levelType") {
            let given: Vec<String> = match &levels {
                Node::List(items) => items
                    .iter()
                    .filter_map(Node::as_str)
                    .map(str::to_owned)
                    .collect(),
                Node::Text(s) => vec![s.as_ref().to_owned()],
                _ => Vec::new(),
            };
            let mut level = Members::new();
            for name in ["min", "nom", "typ", "max"] {
                let set = given.iter().any(|g| g.eq_ignore_ascii_case(name));
                level.push((name.into(), Node::Bool(set)));
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
                out.push(("levelType".into(), Node::Object(level)));
            }
        }
        self.leftovers(f, &["modelType"])?;
        Ok(Some(Node::Object(out)))
    }

    /// V2's `valueReferencePairTypes` as V3.0's `valueReferencePairs`; a pair without
    /// a value id (V3.0 requires one) is reported.
    fn value_list<'a>(&mut self, list: Node<'a>, at: At<'_>) -> Result<Option<Node<'a>>> {
        let Ok(mut f) = Fields::of(list, at) else {
            return Ok(None);
        };
        let items = f.list("valueReferencePairTypes");
        let pairs_at = f.path("valueReferencePairTypes");
        let mut pairs = Vec::new();
        for (i, pair) in items.into_iter().enumerate() {
            let here = pairs_at.item(i);
            let Ok(mut p) = Fields::of(pair, here) else {
                continue;
            };
            let value = p.text("value");
            let value_id = match p.take("valueId") {
                Some(r) => self.reference(r, p.path("valueId"))?,
                None => None,
            };
            match (value, value_id) {
                (Some(value), Some(value_id)) => {
                    let value = self.text(value, p.path("value"), 2000)?;
                    pairs.push(Node::object([
                        ("value", Node::Text(value)),
                        ("valueId", value_id),
                    ]));
                    // V3.0 pairs have no value type: the data specification's data
                    // type says it.
                    self.leftovers(p, &["valueType", "modelType"])?;
                }
                (value, value_id) => {
                    self.change(
                        here,
                        Rule::DataSpecification,
                        Node::object([
                            ("value", value.map_or(Node::Null, Node::Text)),
                            ("valueId", value_id.unwrap_or(Node::Null)),
                        ]),
                        None,
                    )?;
                    self.leftovers(p, &["valueType", "modelType"])?;
                }
            }
        }
        self.leftovers(f, &[])?;
        Ok((!pairs.is_empty()).then(|| Node::object([("valueReferencePairs", Node::List(pairs))])))
    }
}
