//! One payload (a file, or a spec part of a package): XML or JSON, which metamodel
//! version, then read by the reader for it.

use std::sync::Arc;

use crate::contents::{Contents, Serialisation, Version, UNKNOWN_NAMED};
use crate::kept_text::KeptText;
use crate::{from_json, from_xml, xml_to_json, xml_tree, Error, Result};

/// The XML namespaces of the metamodel versions, as the specifications name them.
const NAMESPACES: [(&str, Option<Version>); 4] = [
    ("http://www.admin-shell.io/aas/1/0", None),
    ("http://www.admin-shell.io/aas/2/0", Some(Version::V2)),
    ("https://admin-shell.io/aas/3/0", Some(Version::V3_0)),
    ("https://admin-shell.io/aas/3/1", Some(Version::V3_1)),
];

/// Reads payload `part` (its bytes without a byte order mark).
pub(crate) fn read(part: &str, bytes: Vec<u8>) -> Result<Contents> {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let contents = match start.map(|at| bytes[at]) {
        Some(b'<') => {
            // Kept once, each node's text a span of it (a copy only if not UTF-8).
            let not_utf8;
            let payload = match String::from_utf8(bytes) {
                Ok(text) => from_xml::Payload::Text(Arc::new(text)),
                Err(e) => {
                    not_utf8 = e.into_bytes();
                    from_xml::Payload::Bytes(&not_utf8, KeptText::for_payload(not_utf8.len()))
                }
            };
            // Item by item: a large payload is never held as one tree.
            let mut items = from_xml::Items::default();
            let root = xml_tree::parse_items(
                part,
                payload.bytes(),
                &xml_tree::NOT_READ,
                &mut |root, list, item| {
                    items.take(list, item, xml_version(part, root)?, &payload);
                    Ok(())
                },
            )?;
            let version = xml_version(part, &root)?;
            let mut contents = items.contents();
            contents
                .parts
                .push((part.to_owned(), version, Serialisation::Xml));
            contents
        }
        Some(b'{') => {
            aas_model::check_depth(&bytes).map_err(|e| not_aas(part, e))?;
            let doc: serde_json::Value =
                serde_json::from_slice(&bytes).map_err(|e| not_aas(part, e))?;
            let version = if from_json::is_v2(&doc) {
                Version::V2
            } else {
                Version::V3
            };
            let kept = KeptText::for_payload(bytes.len());
            let mut contents = from_json::contents(&doc, version, &kept);
            if version != Version::V2 {
                (contents.unknown, contents.unknown_count) =
                    aas_v3::metamodel::unknown_properties(&doc, UNKNOWN_NAMED);
            }
            contents
                .parts
                .push((part.to_owned(), version, Serialisation::Json));
            contents
        }
        _ => {
            return Err(Error::NotAas {
                part: part.to_owned(),
                why: "neither XML nor a JSON object (an AAS environment)".into(),
            })
        }
    };
    Ok(contents)
}

/// The JSON of XML payload `part` (its bytes without a byte order mark), as the
/// specification of its version writes it, and its version.
pub(crate) fn xml_as_json(part: &str, bytes: &[u8]) -> Result<(Version, serde_json::Value)> {
    let root = xml_tree::parse(part, bytes, &[])?;
    Ok(match xml_version(part, &root)? {
        Version::V2 => (Version::V2, xml_to_json::v2::environment(&root)),
        version => (version, xml_to_json::environment(&root)),
    })
}

/// The metamodel version the namespace of XML root `root` names.
fn xml_version(part: &str, root: &xml_tree::Node) -> Result<Version> {
    match NAMESPACES.iter().find(|(ns, _)| *ns == root.namespace) {
        Some((_, Some(version))) => Ok(*version),
        Some((_, None)) => Err(Error::Unsupported {
            part: part.to_owned(),
            version: "V1.0".into(),
        }),
        None => Err(Error::NotAas {
            part: part.to_owned(),
            why: format!(
                "its root element <{}> is in no AAS V2.0, V3.0 or V3.1 namespace ({:?})",
                root.name, root.namespace
            ),
        }),
    }
}

pub(crate) fn not_aas(part: &str, why: impl std::fmt::Display) -> Error {
    Error::NotAas {
        part: part.to_owned(),
        why: why.to_string(),
    }
}
