//! AAS V1.0 XML (namespace `http://www.admin-shell.io/aas/1/0`, which AASX Package
//! Explorer wrote until 2020) read as V2.0. The two are written alike but for a few
//! names and values, renamed here as that tool's own V1.0 → V2.0 conversion renames
//! them: an operation's `in` and `out`, a qualifier's `qualifierType`, `qualifierValue`
//! and `qualifierValueId`, identifier types `URI` and `idShort`, the modelling kind
//! `Type`, and an embedded data specification's `hasDataSpecification`. Nothing is
//! guessed: a concept description's IEC 61360 short name, a text of no language where
//! V2.0 has texts by language, becomes one text with no language (AASX Package Explorer
//! gives it `EN?`); an operation variable's own idShort and semanticId, which V2.0 has
//! no place for, are not read.

use crate::contents::Version;
use crate::xml_tree::Node;

/// `item` of a payload of `version` as V2.0 (a V1.0 item renamed), and the version
/// to read it as.
pub(crate) fn read_as(version: Version, mut item: Node) -> (Version, Node) {
    if version != Version::V1 {
        return (version, item);
    }
    as_v2(&mut item);
    (Version::V2, item)
}

/// Renames V1.0's names in `node` and below to V2.0's.
pub(crate) fn as_v2(node: &mut Node) {
    let renamed = match node.name.as_str() {
        "in" => Some("inputVariable"),
        "out" => Some("outputVariable"),
        "qualifierType" => Some("type"),
        "qualifierValue" => Some("value"),
        "qualifierValueId" => Some("valueId"),
        _ => None,
    };
    if let Some(name) = renamed {
        node.name = name.to_owned();
    }
    // V1.0's IEC 61360 short name is a text; V2.0's, texts by language. Its language
    // is not known: none is given, rather than a guess.
    if node.name == "shortName" && node.children.is_empty() && !node.text.trim().is_empty() {
        node.children.push(Node {
            name: "langString".to_owned(),
            attributes: vec![("lang".to_owned(), String::new())],
            text: std::mem::take(&mut node.text),
            span: node.span.clone(),
            ..Node::default()
        });
    }
    for (name, value) in &mut node.attributes {
        if name == "idType" {
            match value.as_str() {
                "URI" => *value = "IRI".to_owned(),
                "idShort" => *value = "IdShort".to_owned(),
                _ => {}
            }
        }
    }
    // An asset's kind (Type, Instance) is one V2.0 keeps; everything else's is a
    // modelling kind, whose Type V2.0 calls Template.
    let modelling = node.name != "asset";
    let embedded = node.name == "embeddedDataSpecification";
    for child in &mut node.children {
        if modelling && child.name == "kind" && child.text.trim() == "Type" {
            child.text = "Template".to_owned();
        }
        // The reference to the data specification whose content is embedded.
        if embedded && child.name == "hasDataSpecification" {
            child.name = "dataSpecification".to_owned();
        }
        as_v2(child);
    }
}
