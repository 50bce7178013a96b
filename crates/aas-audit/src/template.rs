//! One template as the audit reads it. The file format (`templates/*.json`, written by
//! `scripts/derive-templates.py`, or a user's own file of the same shape):
//!
//! ```json
//! {"format": "aas-audit-template/1", "name": "Digital Nameplate", "version": "3.0",
//!  "semantic_ids": ["https://admin-shell.io/idta/nameplate/3/0/Nameplate"],
//!  "elements": [{"id_short": "ManufacturerName", "semantic_id": "0112/2///61987#ABA565#009",
//!                "model_type": "MultiLanguageProperty", "cardinality": "One"}, …]}
//! ```
//!
//! Per element: `id_short` (absent for the item of a list; `Name{00}` / `Name__00__`
//! for numbered ones), `semantic_id`, `model_type`, `value_type` (`xs:` or V2 names),
//! `cardinality` (absent: ZeroToMany, the template states no bound), `arbitrary` (it
//! stands for any elements: neither required nor looked into) and `elements`.
//!
//! A template file is a regular file of at most [`MAX_TEMPLATE_BYTES`] (4 MiB).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::cardinality::Cardinality;
use crate::id_short::IdShort;
use crate::semantic;
use crate::{Error, Result};

const FORMAT: &str = "aas-audit-template/1";

/// The most a template file may hold: 4 MiB. The largest built-in one (Digital
/// Nameplate 2.0) is 21 KB, so this leaves room for a template two hundred times its
/// size while a wrong file (a disk image, `/dev/zero`) is refused before it fills memory.
pub const MAX_TEMPLATE_BYTES: u64 = 4 << 20;

/// Where a template was derived from: a file of a repository at a commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    pub repository: String,
    pub path: String,
    pub commit: String,
}

/// A submodel template: what identifies it and the rules of its elements.
#[derive(Debug, Clone)]
pub struct Template {
    pub name: String,
    pub version: String,
    /// The publication it was derived from (`IDTA 02006-3-0-1 …`).
    pub document: Option<String>,
    /// The submodel semanticIds that name it.
    pub semantic_ids: Vec<String>,
    pub source: Option<Source>,
    /// `built in`, or the file it was read from.
    pub origin: String,
    pub(crate) elements: Vec<Node>,
}

impl Template {
    /// `Digital Nameplate 3.0`.
    pub fn title(&self) -> String {
        format!("{} {}", self.name, self.version)
    }

    /// Reads a template file's text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Template> {
        let bad = |message: String| Error::Template {
            path: Path::new(origin).to_owned(),
            message,
        };
        let file: File = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        if file.format != FORMAT {
            return Err(bad(format!(
                "format {:?}, expected {FORMAT:?}",
                file.format
            )));
        }
        if file.semantic_ids.is_empty() {
            return Err(bad("no semantic_ids: nothing would be judged by it".into()));
        }
        let elements = nodes(file.elements, "").map_err(bad)?;
        Ok(Template {
            name: file.name,
            version: file.version,
            document: file.document,
            semantic_ids: file.semantic_ids,
            source: file.source,
            origin: origin.to_owned(),
            elements,
        })
    }
}

/// One element's rule, ready to match and judge with.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// The idShort as published (`Document__00__`), or `[item]` for a list's item.
    pub label: String,
    pub id_short: IdShort,
    /// Normalised ([`semantic::normalise`]).
    pub semantic_id: Option<String>,
    pub model_type: String,
    /// The `xs:` name.
    pub value_type: Option<&'static str>,
    pub cardinality: Cardinality,
    pub arbitrary: bool,
    pub elements: Vec<Node>,
}

/// Other top-level keys (the submodel's `id_short`) are read past.
#[derive(Deserialize)]
struct File {
    format: String,
    name: String,
    version: String,
    #[serde(default)]
    document: Option<String>,
    semantic_ids: Vec<String>,
    #[serde(default)]
    source: Option<Source>,
    elements: Vec<RawNode>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNode {
    #[serde(default)]
    id_short: Option<String>,
    #[serde(default)]
    semantic_id: Option<String>,
    model_type: String,
    #[serde(default)]
    value_type: Option<String>,
    #[serde(default)]
    cardinality: Option<Cardinality>,
    #[serde(default)]
    arbitrary: bool,
    #[serde(default)]
    elements: Vec<RawNode>,
}

fn nodes(raw: Vec<RawNode>, parent: &str) -> std::result::Result<Vec<Node>, String> {
    raw.into_iter()
        .map(|n| {
            let label = match n.id_short.as_deref() {
                Some(id) if !id.is_empty() => id.to_owned(),
                _ => "[item]".to_owned(),
            };
            let at = format!("{parent}/{label}");
            let value_type = match n.value_type.as_deref() {
                None => None,
                Some(t) => Some(
                    aas_v3::xsd::v3_name(t)
                        .ok_or_else(|| format!("{at}: {t:?} is no XSD value type"))?,
                ),
            };
            // A template that states no bound requires nothing and allows any number.
            let cardinality = n.cardinality.unwrap_or(Cardinality::ZeroToMany);
            Ok(Node {
                id_short: IdShort::new(n.id_short.as_deref(), cardinality),
                semantic_id: n.semantic_id.as_deref().map(semantic::normalise),
                model_type: n.model_type,
                value_type,
                cardinality,
                arbitrary: n.arbitrary,
                elements: nodes(n.elements, &at)?,
                label,
            })
        })
        .collect()
}
