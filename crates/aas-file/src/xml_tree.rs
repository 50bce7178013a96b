//! An XML payload as a small tree of what the readers look at: element local names,
//! attributes, text. Bounded: a document type declaration (the door to entity expansion
//! and external entities) is refused, as are entities other than XML's five and
//! character references, and nesting past [`MAX_XML_DEPTH`]. Parts the reader does not
//! look at (for [`Contents`](crate::Contents): concept descriptions, data
//! specifications, descriptions, qualifiers) are skipped as they stream by, not kept.

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::{Error, Result};

/// The deepest nesting read: a V2 element is about three XML levels (a wrapper, the
/// element, its value), so this allows V2 the same depth as JSON's limit; what is made
/// JSON of it is held to JSON's limit again (answers.rs).
const MAX_XML_DEPTH: usize = 3 * aas_model::MAX_DEPTH;

/// Subtrees the model of what a file holds does not look at.
pub(crate) const NOT_READ: [&str; 10] = [
    "conceptDescriptions",
    "conceptDescription",
    "embeddedDataSpecifications",
    "embeddedDataSpecification",
    "description",
    "displayName",
    "qualifiers",
    "qualifier",
    "extensions",
    "supplementalSemanticIds",
];

#[derive(Debug, Default)]
pub(crate) struct Node {
    /// The local name (without a namespace prefix).
    pub name: String,
    /// The root's namespace; empty on other nodes.
    pub namespace: String,
    pub attributes: Vec<(String, String)>,
    pub text: String,
    pub children: Vec<Node>,
    /// Where the element is in the payload, from its start tag to its end tag.
    pub span: std::ops::Range<usize>,
}

impl Node {
    pub fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The text of child `name`, if it has one.
    pub fn text_of(&self, name: &str) -> Option<String> {
        self.child(name).map(|c| c.text.clone())
    }

    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What [`parse_items`] hands each item of the root's lists to, once it is read whole:
/// the root (its namespace and attributes; its lists without their items), the list's
/// name, and the item.
pub(crate) type EachItem<'a> = dyn FnMut(&Node, &str, Node) -> Result<()> + 'a;

/// The tree of payload `part`'s root element, without the subtrees named in `skipped`.
pub(crate) fn parse(part: &str, bytes: &[u8], skipped: &[&str]) -> Result<Node> {
    parse_with(part, bytes, skipped, None)
}

/// As [`parse`], but each item of the root's lists (a shell, a submodel, an asset) is
/// handed to `each` as soon as it is read, and not kept in the tree: only one item's
/// tree is held at a time, however large the payload.
pub(crate) fn parse_items(
    part: &str,
    bytes: &[u8],
    skipped: &[&str],
    each: &mut EachItem<'_>,
) -> Result<Node> {
    parse_with(part, bytes, skipped, Some(each))
}

fn parse_with(
    part: &str,
    bytes: &[u8],
    skipped: &[&str],
    mut each: Option<&mut EachItem<'_>>,
) -> Result<Node> {
    let refuse = |why: String| Error::Xml {
        part: part.to_owned(),
        why,
    };
    let mut reader = Reader::from_reader(bytes);
    let mut stack: Vec<Node> = Vec::new();
    let mut skipping = 0usize;
    let mut buf = Vec::new();
    loop {
        let at = position(&reader);
        let event = reader
            .read_event_into(&mut buf)
            .map_err(|e| refuse(format!("not well-formed XML: {e}")))?;
        match event {
            Event::DocType(_) => {
                return Err(refuse(
                    "it declares a document type (<!DOCTYPE>), which AAS files never need and which could expand entities: not read".into(),
                ))
            }
            Event::Start(tag) => {
                if skipping > 0 || skipped.contains(&local_name(&tag).as_str()) {
                    skipping += 1;
                } else {
                    if stack.len() >= MAX_XML_DEPTH {
                        return Err(refuse(format!(
                            "nested deeper than {MAX_XML_DEPTH} elements, the most this app reads"
                        )));
                    }
                    let mut node = node(&tag, stack.is_empty()).map_err(refuse)?;
                    node.span.start = at;
                    if let Some(parent) = stack.last_mut() {
                        if parent.text.trim().is_empty() {
                            parent.text.clear();
                        }
                    }
                    stack.push(node);
                }
            }
            Event::Empty(tag) if skipping == 0 && !skipped.contains(&local_name(&tag).as_str()) => {
                let mut node = node(&tag, stack.is_empty()).map_err(refuse)?;
                node.span = at..position(&reader);
                if stack.is_empty() {
                    return Ok(node);
                }
                place(&mut stack, node, &mut each)?;
            }
            Event::End(_) => {
                if skipping > 0 {
                    skipping -= 1;
                } else if let Some(mut done) = stack.pop() {
                    done.span.end = position(&reader);
                    if stack.is_empty() {
                        return Ok(done);
                    }
                    place(&mut stack, done, &mut each)?;
                }
            }
            Event::Text(text) if skipping == 0 => {
                if let Some(node) = stack.last_mut() {
                    let text = text
                        .unescape()
                        .map_err(|e| refuse(format!("text that cannot be read: {e}")))?;
                    node.text.push_str(&text);
                }
            }
            Event::CData(data) if skipping == 0 => {
                if let Some(node) = stack.last_mut() {
                    let text = std::str::from_utf8(&data)
                        .map_err(|e| refuse(format!("CDATA that is not UTF-8: {e}")))?;
                    node.text.push_str(text);
                }
            }
            Event::Eof => return Err(refuse("the XML ends before its root element is closed".into())),
            _ => {}
        }
        buf.clear();
    }
}

/// Puts `done` below its parent, the top of `stack` (not empty); an item of one of the
/// root's lists goes to `each` instead, where there is one.
fn place(stack: &mut [Node], done: Node, each: &mut Option<&mut EachItem<'_>>) -> Result<()> {
    match (&mut *stack, each) {
        ([root, list], Some(each)) => each(root, &list.name, done),
        (_, _) => {
            if let Some(parent) = stack.last_mut() {
                parent.children.push(done);
            }
            Ok(())
        }
    }
}

/// How far the reader has read, in bytes (a payload is within 4 GiB).
fn position(reader: &Reader<&[u8]>) -> usize {
    usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX)
}

fn local_name(tag: &BytesStart) -> String {
    String::from_utf8_lossy(tag.local_name().as_ref()).into_owned()
}

/// A node for `tag`; for the root, with the namespace its prefix (or the default) binds.
fn node(tag: &BytesStart, root: bool) -> std::result::Result<Node, String> {
    let mut node = Node {
        name: local_name(tag),
        ..Node::default()
    };
    let prefix = tag
        .name()
        .prefix()
        .map(|p| String::from_utf8_lossy(p.as_ref()).into_owned());
    let binding = match &prefix {
        Some(prefix) => format!("xmlns:{prefix}"),
        None => "xmlns".to_owned(),
    };
    for attribute in tag.attributes() {
        let attribute = attribute.map_err(|e| format!("an attribute that cannot be read: {e}"))?;
        let value = attribute
            .unescape_value()
            .map_err(|e| format!("an attribute that cannot be read: {e}"))?
            .into_owned();
        let key = String::from_utf8_lossy(attribute.key.as_ref()).into_owned();
        if root && key == binding {
            node.namespace = value;
        } else if !key.starts_with("xmlns") {
            let local = String::from_utf8_lossy(attribute.key.local_name().as_ref()).into_owned();
            node.attributes.push((local, value));
        }
    }
    Ok(node)
}
