//! One payload (a file, or a spec part of a package): XML or JSON, which metamodel
//! version, then read by the reader for it.

use std::io::{BufRead, Read};

use crate::contents::{Contents, Serialisation, Version};
use crate::items::Items;
use crate::json_items::{self, Met};
use crate::{v1, xml_to_json, xml_tree, Error, Result};
use crate::{PayloadRead, Reading};

/// The XML namespaces of the metamodel versions, as the specifications name them.
const NAMESPACES: [(&str, Version); 4] = [
    ("http://www.admin-shell.io/aas/1/0", Version::V1),
    ("http://www.admin-shell.io/aas/2/0", Version::V2),
    ("https://admin-shell.io/aas/3/0", Version::V3_0),
    ("https://admin-shell.io/aas/3/1", Version::V3_1),
];

/// Reads payload `part` as `payload` gives it (a byte order mark is passed over), XML or
/// JSON, as it comes, item by item, never held whole.
pub(crate) fn read_stream(
    part: &str,
    mut payload: impl BufRead,
    reading: &Reading,
) -> Result<Contents> {
    let read = match first_byte(part, &mut payload)? {
        Some(b'<') => read_xml(part, &mut payload, reading),
        Some(b'{') => read_json(part, &mut payload, reading),
        _ => Err(neither(part)),
    };
    match read {
        // What does not parse may be a part that does not inflate, read as garbage until
        // its end says so: that is the fault to name. (A file on the disk is read to its
        // end too: at most its own size, once, for a file that is broken anyway.)
        Err(Error::NotAas { .. } | Error::Xml { .. }) => {
            match std::io::copy(&mut payload, &mut std::io::sink()) {
                Err(source) => Err(io_error(part, source)),
                Ok(_) => read,
            }
        }
        read => read,
    }
}

/// How much of a payload's head tells V2 from the rest: V2 writers put their marks
/// (`identification`, `modelType` objects) in its first shell, its first asset or its
/// root element.
const V2_HEAD: u64 = 1 << 20;

/// Reads payload `part`: V2 as its environment's JSON, whole; any other as
/// [`read_stream`] reads it. V2 is told from the payload's head ([`V2_HEAD`]).
pub(crate) fn read_or_v2(part: &str, mut payload: impl BufRead) -> Result<PayloadRead> {
    let first = first_byte(part, &mut payload)?;
    let mut head = Vec::new();
    (payload.by_ref().take(V2_HEAD))
        .read_to_end(&mut head)
        .map_err(|e| io_error(part, e))?;
    let payload = Read::chain(&head[..], payload);
    if !is_v2(&head) {
        return read_stream(part, payload, &Reading::default()).map(PayloadRead::Read);
    }
    match first {
        Some(b'<') => {
            let (_, json) = xml_as_json(part, &whole(part, payload, "XML")?)?;
            let json = serde_json::to_vec(&json).map_err(|e| Error::not_aas(part, e))?;
            Ok(PayloadRead::V2(Serialisation::Xml, json))
        }
        _ => Ok(PayloadRead::V2(
            Serialisation::Json,
            whole(part, payload, "JSON")?,
        )),
    }
}

/// The first byte of `payload` past a byte order mark and whitespace, which stay read;
/// none if it has no other.
pub(crate) fn first_byte(part: &str, payload: &mut impl BufRead) -> Result<Option<u8>> {
    let io = |e| io_error(part, e);
    if payload
        .fill_buf()
        .map_err(io)?
        .starts_with(aas_model::aasx::BOM)
    {
        payload.consume(aas_model::aasx::BOM.len());
    }
    loop {
        let ahead = payload.fill_buf().map_err(io)?;
        if ahead.is_empty() {
            return Ok(None);
        }
        match ahead.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(at) => {
                let byte = ahead[at];
                payload.consume(at);
                return Ok(Some(byte));
            }
            None => {
                let all = ahead.len();
                payload.consume(all);
            }
        }
    }
}

/// What is left of payload `part` (`what` says which: JSON, XML), held whole: within
/// [`aas_model::aasx::MAX_FILE_BYTES`].
pub(crate) fn whole(part: &str, payload: impl Read, what: &str) -> Result<Vec<u8>> {
    aas_model::aasx::read_within(payload, None).map_err(|e| match e.kind() {
        std::io::ErrorKind::FileTooLarge => Error::TooLarge {
            file: part.to_owned(),
            why: format!(
                "{what} of more than {} MiB, the most this app reads of one held whole",
                aas_model::aasx::MAX_FILE_BYTES >> 20
            ),
        },
        _ => io_error(part, e),
    })
}

/// An error reading payload `part`.
fn io_error(part: &str, source: std::io::Error) -> Error {
    Error::Unreadable {
        part: part.to_owned(),
        source,
    }
}

/// An XML payload, item by item: a large payload is never held as one tree, and each
/// shell's and submodel's text is kept compressed. Its shells are told to `reading` once
/// all are read: the schemas list them first (V2 its assets next, which give their kinds).
fn read_xml(part: &str, payload: impl BufRead, reading: &Reading) -> Result<Contents> {
    let mut items = Items::default();
    let root = xml_tree::parse_items(
        part,
        payload,
        &xml_tree::NOT_READ,
        &mut |root, list, item, text| {
            let (version, item) = v1::read_as(xml_version(part, root)?, item);
            items.take_xml(list, item, version, text, reading);
            Ok(())
        },
    )?;
    let version = xml_version(part, &root)?;
    let mut contents = items.contents();
    contents
        .parts
        .push((part.to_owned(), version, Serialisation::Xml));
    Ok(contents)
}

/// A JSON payload, item by item (json_items.rs), each shell's and submodel's text kept
/// compressed; its shells are told to `reading` once all are read, as of XML. V2 where
/// an item is (its kinds then named by V2's assets, wherever they come).
fn read_json(part: &str, payload: impl Read, reading: &Reading) -> Result<Contents> {
    let mut items = Items::default();
    let mut version = Version::V3;
    json_items::each_item(part, payload, &mut |met| {
        match met {
            Met::Item(list, item) => {
                if items.take_json(list, &item, reading) == Version::V2 {
                    version = Version::V2;
                }
            }
            // V2's list, no V3 class's: named as any other property (V2's unknown go below).
            Met::Other(name) | Met::List(name @ "assets") => {
                items.unknown.found(|| name.to_owned())
            }
            Met::List(_) | Met::NoList(_) => {}
        }
        Ok(())
    })?;
    let mut contents = items.contents();
    if version == Version::V2 {
        // V2's properties are not V3's: none is unknown for being no V3 class's.
        (contents.unknown, contents.unknown_count) = (Vec::new(), 0);
    }
    contents
        .parts
        .push((part.to_owned(), version, Serialisation::Json));
    Ok(contents)
}

fn neither(part: &str) -> Error {
    Error::NotAas {
        part: part.to_owned(),
        why: "neither XML nor a JSON object (an AAS environment)".into(),
    }
}

/// The JSON of XML payload `part` (its bytes without a byte order mark), as the
/// specification of its version writes it, and its version.
pub(crate) fn xml_as_json(part: &str, bytes: &[u8]) -> Result<(Version, serde_json::Value)> {
    let mut root = xml_tree::parse(part, bytes, &[])?;
    Ok(match xml_version(part, &root)? {
        Version::V1 => {
            v1::as_v2(&mut root);
            (Version::V1, xml_to_json::v2::environment(&root))
        }
        Version::V2 => (Version::V2, xml_to_json::v2::environment(&root)),
        version => (version, xml_to_json::environment(&root)),
    })
}

/// Whether payload `bytes` (without a byte order mark) is V2, told from its text
/// rather than a reading: XML whose root element names V2's namespace, or JSON with an
/// `identification` or a `modelType` object (V3 has neither).
pub(crate) fn is_v2(bytes: &[u8]) -> bool {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    match start.map(|at| (at, bytes[at])) {
        Some((at, b'<')) => root_tag(&bytes[at..]).is_some_and(|tag| {
            let v2 = NAMESPACES.iter().find(|(_, v)| *v == Version::V2);
            v2.is_some_and(|(ns, _)| memchr::memmem::find(tag, ns.as_bytes()).is_some())
        }),
        Some((_, b'{')) => {
            has_field(bytes, "identification", None) || has_field(bytes, "modelType", Some(b'{'))
        }
        _ => false,
    }
}

/// Whether JSON `text` gives a field `name` a value whose first byte is `first` (any,
/// for `None`): a quoted name followed by a colon, and not within a string, where its
/// quotes would be escaped.
fn has_field(text: &[u8], name: &str, first: Option<u8>) -> bool {
    let quoted = format!("\"{name}\"");
    memchr::memmem::find_iter(text, quoted.as_bytes())
        .filter(|&at| at == 0 || text[at - 1] != b'\\')
        .filter_map(|at| {
            let rest = text[at + quoted.len()..].trim_ascii_start();
            rest.strip_prefix(b":")?.trim_ascii_start().first().copied()
        })
        .any(|b| first.is_none_or(|first| b == first))
}

/// The root element's start tag of XML `text` (past the declaration, comments and
/// processing instructions).
fn root_tag(text: &[u8]) -> Option<&[u8]> {
    let mut rest = text;
    loop {
        rest = &rest[memchr::memchr(b'<', rest)?..];
        let end = match rest.starts_with(b"<!--") {
            true => memchr::memmem::find(rest, b"-->")? + 2,
            false => memchr::memchr(b'>', rest)?,
        };
        match rest.get(1) {
            Some(b'?' | b'!') => rest = &rest[end + 1..],
            _ => return Some(&rest[..=end]),
        }
    }
}

/// The metamodel version the namespace of XML root `root` names.
pub(crate) fn xml_version(part: &str, root: &xml_tree::Node) -> Result<Version> {
    match NAMESPACES.iter().find(|(ns, _)| *ns == root.namespace) {
        Some((_, version)) => Ok(*version),
        None => Err(Error::NotAas {
            part: part.to_owned(),
            why: format!(
                "its root element <{}> is in no AAS V1.0, V2.0, V3.0 or V3.1 namespace ({:?})",
                root.name, root.namespace
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::{is_v2, read_or_v2};
    use crate::PayloadRead;

    #[test]
    fn v2_is_told_when_its_marks_come_past_what_a_reader_buffers() {
        // A V2 writer's shell may list its submodels before its identification.
        let refs = r#"{"keys": [{"type": "Submodel", "idType": "IRI", "value": "urn:sm", "local": true}]},"#;
        let v2 = format!(
            r#"{{"assetAdministrationShells": [{{"submodels": [{}{{"keys": []}}],
                "identification": {{"id": "urn:aas", "idType": "IRI"}}}}]}}"#,
            refs.repeat(200)
        );
        assert!(v2.len() > 16 << 10);
        let payload = std::io::BufReader::with_capacity(8 << 10, v2.as_bytes());
        let read = read_or_v2("v2.json", payload).expect("read");
        assert!(matches!(read, PayloadRead::V2(..)), "{read:?}");
    }

    #[test]
    fn v2_is_told_from_the_text_without_a_reading() {
        let v2_xml = br#"<?xml version="1.0"?><!-- a > in a comment -->
            <aas:aasenv xmlns:aas="http://www.admin-shell.io/aas/2/0"><aas:x/></aas:aasenv>"#;
        assert!(is_v2(v2_xml));
        let v3_xml = br#"<environment xmlns="https://admin-shell.io/aas/3/0">
            <!-- http://www.admin-shell.io/aas/2/0 --></environment>"#;
        assert!(!is_v2(v3_xml));
        assert!(is_v2(br#"{"a": [{"identification" : {"id": "x"}}]}"#));
        assert!(is_v2(br#"{"modelType":{"name":"Submodel"}}"#));
        assert!(!is_v2(br#"{"modelType": "Submodel", "id": "x"}"#));
        // Within a string, the quotes of a name are escaped.
        assert!(!is_v2(
            br#"{"modelType": "Property", "value": "{\"identification\": 1}"}"#
        ));
        assert!(!is_v2(b"  "));
    }
}
