//! V2.0, V3.0 and V3.1 XML into [`Contents`]. The versions differ in a few names (V2's
//! `identification`, `assetRef`, `mimeType`, `langString lang=…`, elements wrapped in
//! `submodelElement`; V3's `id`, `assetInformation`, `contentType`, `langStringTextType`,
//! keys with a `value`), handled where they meet rather than in two readers.

use crate::contents::{
    bare_value_type, decoded_size, model_type, Element, Shell, Submodel, Value, Version,
};
use std::sync::Arc;

use crate::items::Items;
use crate::kept_text::KeptText;
use crate::raw_text::{Packed, Packer, RawText};
use crate::xml_tree::{ItemText, Node};
use crate::{xml_unknown, Reading};

/// Elements that only wrap elements: V2's `submodelElement` and `dataElement`, an
/// operation's `operationVariable` and its `value`.
const WRAPPERS: [&str; 4] = [
    "submodelElement",
    "dataElement",
    "operationVariable",
    "value",
];

/// An operation's variables: V2 names each, V3 lists them.
const VARIABLES: [&str; 6] = [
    "inputVariable",
    "outputVariable",
    "inoutputVariable",
    "inputVariables",
    "outputVariables",
    "inoutputVariables",
];

/// The text of the item a tree was read from: each node's text as the file has it is a
/// span of it, kept compressed; of an item that is not UTF-8 throughout, a copy of each,
/// within what may be kept. `at` is where the item starts in the payload.
pub(crate) enum Payload<'a> {
    Packed(Arc<Packed>, usize),
    Bytes(&'a [u8], usize, &'a KeptText),
}

impl Items {
    /// Takes XML `item` of the root's list `list`, whose text is `text`; of a V3 part,
    /// names what of it no class of the metamodel has.
    pub(crate) fn take_xml(
        &mut self,
        list: &str,
        item: Node,
        version: Version,
        text: ItemText,
        reading: &Reading,
    ) {
        let at = self.next_of(list, reading);
        if version != Version::V2 {
            xml_unknown::walk_item(&mut self.unknown, &item, list, at);
        }
        match (list, item.name.as_str()) {
            ("assetAdministrationShells", "assetAdministrationShell") => {
                let payload = payload(&mut self.packer, &self.kept, text);
                self.shells.push(shell(&item, version, &payload))
            }
            ("submodels", "submodel") => {
                let payload = payload(&mut self.packer, &self.kept, text);
                self.submodels.push(submodel(&item, version, &payload))
            }
            ("assets", "asset") => {
                if let (Some(id), Some(kind)) =
                    (item.text_of("identification"), item.text_of("kind"))
                {
                    self.kinds.push((id, kind));
                }
            }
            _ => {}
        }
    }
}

fn identifier(node: &Node, version: Version) -> String {
    let name = if version == Version::V2 {
        "identification"
    } else {
        "id"
    };
    node.text_of(name).unwrap_or_default().trim().to_owned()
}

/// Shell `node`; of V2, without its asset's kind (on the asset, which may come later:
/// [`Items::contents`] adds it).
fn shell(node: &Node, version: Version, payload: &Payload) -> Shell {
    let submodels = node
        .children
        .iter()
        .filter(|c| c.name == "submodelRefs" || c.name == "submodels")
        .flat_map(|list| &list.children)
        .filter_map(|reference| keys(reference).into_iter().next())
        .collect();
    let (global_asset_id, asset_kind, asset_type) = if version == Version::V2 {
        let asset = node
            .child("assetRef")
            .and_then(|r| keys(r).into_iter().next());
        (asset, None, None)
    } else {
        let info = node.child("assetInformation");
        let global = info.and_then(|i| i.child("globalAssetId")).and_then(|g| {
            // V3.0's release candidates wrote a reference here; V3.0 writes the text.
            keys(g).into_iter().next().or_else(|| some_text(&g.text))
        });
        (
            global,
            info.and_then(|i| i.text_of("assetKind")),
            info.and_then(|i| i.text_of("assetType")),
        )
    };
    Shell {
        id: identifier(node, version),
        id_short: node.text_of("idShort"),
        global_asset_id,
        asset_kind,
        asset_type,
        submodels,
        raw: raw(node, payload),
    }
}

fn submodel(node: &Node, version: Version, payload: &Payload) -> Submodel {
    Submodel {
        id: identifier(node, version),
        id_short: node.text_of("idShort"),
        semantic_id: node
            .child("semanticId")
            .and_then(|s| keys(s).into_iter().next()),
        elements: node
            .child("submodelElements")
            .map(|list| elements_in(list, payload))
            .unwrap_or_default(),
        raw: raw(node, payload),
    }
}

/// The elements below `node`, through the wrappers V2 and operations put around them.
fn elements_in(node: &Node, payload: &Payload) -> Vec<Element> {
    let mut found = Vec::new();
    for child in &node.children {
        if let Some(kind) = model_type(&child.name) {
            found.push(element(child, kind, payload));
        } else if WRAPPERS.contains(&child.name.as_str()) {
            found.extend(elements_in(child, payload));
        }
    }
    found
}

fn element(node: &Node, kind: &'static str, payload: &Payload) -> Element {
    let children = match kind {
        "SubmodelElementCollection" | "SubmodelElementList" => node
            .child("value")
            .map(|list| elements_in(list, payload))
            .unwrap_or_default(),
        "Entity" => node
            .child("statements")
            .map(|list| elements_in(list, payload))
            .unwrap_or_default(),
        "AnnotatedRelationshipElement" => node
            .child("annotations")
            .map(|list| elements_in(list, payload))
            .unwrap_or_default(),
        "Operation" => node
            .children
            .iter()
            .filter(|c| VARIABLES.contains(&c.name.as_str()))
            .flat_map(|variable| elements_in(variable, payload))
            .collect(),
        _ => Vec::new(),
    };
    let value_type = match kind {
        "Property" | "Range" => node
            .text_of("valueType")
            .filter(|t| !t.trim().is_empty())
            .map(|t| bare_value_type(&t)),
        _ => None,
    };
    Element {
        id_short: node.text_of("idShort"),
        model_type: kind,
        value_type,
        semantic_id: node
            .child("semanticId")
            .and_then(|s| keys(s).into_iter().next()),
        value: value(node, kind),
        children,
        raw: raw(node, payload),
    }
}

/// How an item's nodes' texts are kept: spans of its packed text, or of one that is not
/// UTF-8, copies within `kept`.
fn payload<'a>(packer: &mut Packer, kept: &'a KeptText, text: ItemText<'a>) -> Payload<'a> {
    match std::str::from_utf8(text.bytes) {
        Ok(utf8) => Payload::Packed(packer.pack(utf8), text.at),
        Err(_) => Payload::Bytes(text.bytes, text.at, kept),
    }
}

/// A node's text as the payload has it (a copy only if it may be kept).
fn raw(node: &Node, payload: &Payload) -> RawText {
    let within = |at: usize| node.span.start.saturating_sub(at)..node.span.end.saturating_sub(at);
    match payload {
        Payload::Packed(packed, at) => RawText::span(packed, within(*at)),
        Payload::Bytes(bytes, at, kept) => {
            let text = bytes.get(within(*at)).unwrap_or_default();
            RawText::own(kept.of_len(text.len(), || String::from_utf8_lossy(text).into_owned()))
        }
    }
}

fn value(node: &Node, kind: &str) -> Value {
    let content_type = || {
        node.text_of("contentType")
            .or_else(|| node.text_of("mimeType"))
    };
    match kind {
        "Property" => Value::Text(node.text_of("value")),
        "MultiLanguageProperty" => Value::Languages(
            node.child("value")
                .map(|v| v.children.iter().filter_map(language_text).collect())
                .unwrap_or_default(),
        ),
        "Range" => Value::Range {
            min: node.text_of("min"),
            max: node.text_of("max"),
        },
        "File" => Value::File {
            content_type: content_type(),
            value: node.text_of("value"),
        },
        "Blob" => {
            // An empty <value/> is no content, as XML readers take it.
            let base64 = node.text_of("value").filter(|text| !text.trim().is_empty());
            Value::Blob {
                content_type: content_type(),
                bytes: base64.as_deref().and_then(decoded_size),
                base64,
            }
        }
        "ReferenceElement" => Value::Reference(node.child("value").map(keys)),
        _ => Value::None,
    }
}

/// A language and its text: V2's `<langString lang="de">…`, V3's
/// `<langStringTextType><language>de</language><text>…`.
fn language_text(node: &Node) -> Option<(String, String)> {
    match node.attribute("lang") {
        Some(lang) => Some((lang.to_owned(), node.text.clone())),
        None => Some((
            node.text_of("language")?,
            node.text_of("text").unwrap_or_default(),
        )),
    }
}

/// The values of a reference's keys: V2's key text, V3's key `value`.
fn keys(reference: &Node) -> Vec<String> {
    reference
        .children_named("keys")
        .flat_map(|list| list.children_named("key"))
        .map(|key| match key.child("value") {
            Some(value) => value.text.clone(),
            None => key.text.clone(),
        })
        .collect()
}

fn some_text(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}
