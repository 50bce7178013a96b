//! V2.0 and V3 JSON into [`Contents`]. V2 names its kinds `{"modelType": {"name": …}}`
//! and identifies with `identification.id`; V3 names them `"modelType": "…"` and
//! identifies with `id`.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use serde_json::Value as Json;

use crate::contents::{
    asset_kind, bare_value_type, decoded_size, model_type, Element, Shell, Submodel, Value, Version,
};
use crate::items::Items;
use crate::raw_text::{Packed, Packer, RawText};
use crate::Reading;

/// Whether a JSON environment is V2: an `identification` or a `modelType` object anywhere.
pub(crate) fn is_v2(doc: &Json) -> bool {
    match doc {
        Json::Object(map) => {
            map.contains_key("identification")
                || map.get("modelType").is_some_and(Json::is_object)
                || map.values().any(is_v2)
        }
        Json::Array(items) => items.iter().any(is_v2),
        _ => false,
    }
}

impl Items {
    /// Takes JSON `item` of the environment's list `list`; of V3, names what of it no
    /// class of the metamodel has. Its version: V2 where it has V2's marks. (V2's assets
    /// list is no V3 list: named once by whoever reads the environment, not walked.)
    pub(crate) fn take_json(&mut self, list: &str, item: &Json, reading: &Reading) -> Version {
        let at = self.next_of(list, reading);
        let version = match is_v2(item) {
            true => Version::V2,
            false => Version::V3,
        };
        if version != Version::V2 && list != "assets" {
            self.unknown.walk_item(item, list, at);
        }
        match list {
            "assetAdministrationShells" => {
                let texts = Texts::packed(item, &mut self.packer);
                self.shells.push(shell(item, version, &[], &texts));
            }
            "submodels" => {
                let texts = Texts::packed(item, &mut self.packer);
                self.submodels.push(submodel(item, &texts));
            }
            "assets" => self.kinds.extend(kinds(std::iter::once(item))),
            _ => {}
        }
        version
    }
}

/// How the texts of a JSON item's nodes are kept: none (a reading that wants the model
/// alone), or spans of the item's compact text, packed (raw_text.rs).
pub(crate) enum Texts {
    None,
    Packed {
        packed: Arc<Packed>,
        /// Where each object of the item is written in its text, by its place in memory:
        /// the item is held, unchanged, while its nodes are read.
        spans: HashMap<*const Json, Range<usize>>,
    },
}

impl Texts {
    fn packed(item: &Json, packer: &mut Packer) -> Self {
        let mut text = Vec::new();
        let mut spans = HashMap::new();
        write_compact(item, &mut text, &mut spans);
        // Written from a JSON value: UTF-8.
        let text = String::from_utf8_lossy(&text);
        Texts::Packed {
            packed: packer.pack(&text),
            spans,
        }
    }

    /// The text of `node`, an object of the item.
    fn raw(&self, node: &Json) -> RawText {
        match self {
            Texts::Packed { packed, spans } => match spans.get(&(node as *const Json)) {
                Some(span) => RawText::span(packed, span.clone()),
                None => RawText::default(),
            },
            Texts::None => RawText::default(),
        }
    }
}

/// Writes `node` as compact JSON (as `to_string` does) into `text`, noting where each
/// object is: one pass, where writing each node's text anew took a pass per level.
fn write_compact(node: &Json, text: &mut Vec<u8>, spans: &mut HashMap<*const Json, Range<usize>>) {
    let start = text.len();
    match node {
        Json::Object(fields) => {
            text.push(b'{');
            for (i, (name, value)) in fields.iter().enumerate() {
                if i > 0 {
                    text.push(b',');
                }
                write_leaf(name, text);
                text.push(b':');
                write_compact(value, text, spans);
            }
            text.push(b'}');
            spans.insert(node, start..text.len());
        }
        Json::Array(items) => {
            text.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    text.push(b',');
                }
                write_compact(item, text, spans);
            }
            text.push(b']');
        }
        leaf => write_leaf(leaf, text),
    }
}

/// A string, number, boolean or null, as serde_json writes it.
fn write_leaf(leaf: &impl serde::Serialize, text: &mut Vec<u8>) {
    serde_json::to_writer(text, leaf).expect("a JSON value writes to memory");
}

/// V2's assets' kinds, by the assets' ids.
pub(crate) fn kinds<'a>(assets: impl Iterator<Item = &'a Json>) -> Vec<(String, String)> {
    assets
        .filter_map(|asset| Some((identifier(asset)?, text(asset, "kind")?)))
        .collect()
}

fn text(node: &Json, key: &str) -> Option<String> {
    node.get(key).and_then(Json::as_str).map(str::to_owned)
}

/// A value written as text; numbers and booleans (which some writers use) as written.
fn value_text(node: &Json, key: &str) -> Option<String> {
    match node.get(key)? {
        Json::String(s) => Some(s.clone()),
        Json::Null => None,
        other => Some(other.to_string()),
    }
}

fn identifier(node: &Json) -> Option<String> {
    text(node, "id").or_else(|| node.get("identification").and_then(|i| text(i, "id")))
}

fn keys(reference: Option<&Json>) -> Vec<String> {
    reference
        .and_then(|r| r.get("keys"))
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(|key| text(key, "value"))
        .collect()
}

fn first_key(reference: Option<&Json>) -> Option<String> {
    keys(reference).into_iter().next()
}

pub(crate) fn shell(
    node: &Json,
    version: Version,
    kinds: &[(String, String)],
    texts: &Texts,
) -> Shell {
    let raw = texts.raw(node);
    let references = node
        .get("submodels")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(|r| first_key(Some(r)))
        .collect();
    let (global_asset_id, asset_kind, asset_type) = if version == Version::V2 {
        let asset = first_key(node.get("asset"));
        let kind = asset_kind(asset.as_deref(), kinds);
        (asset, kind, None)
    } else {
        let info = node.get("assetInformation");
        (
            info.and_then(|i| text(i, "globalAssetId")),
            info.and_then(|i| text(i, "assetKind")),
            info.and_then(|i| text(i, "assetType")),
        )
    };
    Shell {
        id: identifier(node).unwrap_or_default(),
        id_short: text(node, "idShort"),
        global_asset_id,
        asset_kind,
        asset_type,
        submodels: references,
        raw,
    }
}

pub(crate) fn submodel(node: &Json, texts: &Texts) -> Submodel {
    Submodel {
        raw: texts.raw(node),
        id: identifier(node).unwrap_or_default(),
        id_short: text(node, "idShort"),
        semantic_id: first_key(node.get("semanticId")),
        elements: elements(node.get("submodelElements"), texts),
    }
}

fn elements(list: Option<&Json>, texts: &Texts) -> Vec<Element> {
    list.and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(|node| element(node, texts))
        .collect()
}

/// The kind's name: V3's string, or V2's `{"name": …}`.
fn kind_name(node: &Json) -> Option<&str> {
    let model_type = node.get("modelType")?;
    model_type
        .as_str()
        .or_else(|| model_type.get("name").and_then(Json::as_str))
}

fn element(node: &Json, texts: &Texts) -> Option<Element> {
    let kind = model_type(kind_name(node)?)?;
    let raw = texts.raw(node);
    let variables = ["inputVariables", "outputVariables", "inoutputVariables"]
        .into_iter()
        .chain(["inputVariable", "outputVariable", "inoutputVariable"]);
    let children = match kind {
        "SubmodelElementCollection" | "SubmodelElementList" => elements(node.get("value"), texts),
        "Entity" => elements(node.get("statements"), texts),
        "AnnotatedRelationshipElement" => {
            elements(node.get("annotations").or(node.get("annotation")), texts)
        }
        "Operation" => variables
            .filter_map(|key| node.get(key).and_then(Json::as_array))
            .flatten()
            .filter_map(|variable| variable.get("value").and_then(|v| element(v, texts)))
            .collect(),
        _ => Vec::new(),
    };
    let value_type = match kind {
        "Property" | "Range" => value_type(node),
        _ => None,
    };
    Some(Element {
        id_short: text(node, "idShort"),
        model_type: kind,
        value_type,
        semantic_id: first_key(node.get("semanticId")),
        value: value(node, kind),
        children,
        raw,
    })
}

/// V3's `"valueType": "xs:int"`; V2's `{"dataObjectType": {"name": "int"}}` or a string.
fn value_type(node: &Json) -> Option<String> {
    let value_type = node.get("valueType")?;
    let name = value_type.as_str().or_else(|| {
        value_type
            .get("dataObjectType")
            .and_then(|d| d.get("name"))
            .and_then(Json::as_str)
    })?;
    (!name.trim().is_empty()).then(|| bare_value_type(name))
}

fn value(node: &Json, kind: &str) -> Value {
    let content_type = || text(node, "contentType").or_else(|| text(node, "mimeType"));
    match kind {
        "Property" => Value::Text(value_text(node, "value")),
        "MultiLanguageProperty" => Value::Languages(languages(node.get("value"))),
        "Range" => Value::Range {
            min: value_text(node, "min"),
            max: value_text(node, "max"),
        },
        "File" => Value::File {
            content_type: content_type(),
            value: text(node, "value"),
        },
        "Blob" => {
            let base64 = text(node, "value");
            Value::Blob {
                content_type: content_type(),
                bytes: base64.as_deref().and_then(decoded_size),
                base64,
            }
        }
        "ReferenceElement" => Value::Reference(node.get("value").map(|r| keys(Some(r)))),
        _ => Value::None,
    }
}

/// V3's `[{"language", "text"}]`; V2's `{"langString": [{"language", "text"}]}`.
fn languages(value: Option<&Json>) -> Vec<(String, String)> {
    let list = value.and_then(|v| v.as_array().or_else(|| v.get("langString")?.as_array()));
    list.into_iter()
        .flatten()
        .filter_map(|l| Some((text(l, "language")?, text(l, "text").unwrap_or_default())))
        .collect()
}
