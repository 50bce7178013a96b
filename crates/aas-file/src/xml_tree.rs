//! An XML payload as a small tree of what the readers look at: element local names,
//! attributes, text. Bounded: a document type declaration (the door to entity expansion
//! and external entities) is refused, as are entities other than XML's five and
//! character references, and nesting past [`MAX_XML_DEPTH`]. Parts the reader does not
//! look at (for [`Contents`](crate::Contents): concept descriptions, data
//! specifications, descriptions, qualifiers) are skipped as they stream by, not kept.

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::io::{BufRead, Read};

use crate::items::{item_too_large, MAX_ITEM_BYTES};
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

/// An item's text as the payload has it: its bytes, and where they start in the payload
/// (an item's nodes' spans are the payload's).
pub(crate) struct ItemText<'a> {
    pub bytes: &'a [u8],
    pub at: usize,
}

/// What [`parse_items`] hands each item of the root's lists to, once it is read whole:
/// the root (its namespace and attributes; its lists without their items), the list's
/// name, the item and its text.
pub(crate) type EachItem<'a> = dyn FnMut(&Node, &str, Node, ItemText<'_>) -> Result<()> + 'a;

/// The tree of payload `part`'s root element, without the subtrees named in `skipped`.
pub(crate) fn parse(part: &str, bytes: &[u8], skipped: &[&str]) -> Result<Node> {
    parse_with(part, bytes, skipped, None)
}

/// As [`parse`], but the payload is read as `payload` gives it, and each item of the
/// root's lists (a shell, a submodel, an asset) is handed to `each` as soon as it is
/// read, and not kept in the tree: only one item's tree and text are held at a time,
/// however large the payload.
pub(crate) fn parse_items(
    part: &str,
    payload: impl BufRead,
    skipped: &[&str],
    each: &mut EachItem<'_>,
) -> Result<Node> {
    parse_with(part, payload, skipped, Some(each))
}

fn parse_with(
    part: &str,
    payload: impl BufRead,
    skipped: &[&str],
    mut each: Option<&mut EachItem<'_>>,
) -> Result<Node> {
    let refuse = |why: String| Error::Xml {
        part: part.to_owned(),
        why,
    };
    let items = each.is_some();
    let mut reader = Reader::from_reader(Recording {
        inner: payload,
        kept: Vec::new(),
        from: 0,
        on: items,
    });
    let mut stack: Vec<Node> = Vec::new();
    let mut skipping = 0usize;
    let mut buf = Vec::new();
    loop {
        let at = position(&reader);
        // Between items, nothing of the payload is kept.
        if items && stack.len() <= 2 {
            reader.get_mut().forget(at);
        }
        let event = reader.read_event_into(&mut buf).map_err(|e| match e {
            // The payload's own error (a package's part past its limit, a damaged
            // package): said as it is.
            quick_xml::Error::Io(e) => refuse(e.to_string()),
            e => refuse(format!("not well-formed XML: {e}")),
        })?;
        match event {
            Event::DocType(_) => {
                return Err(refuse(
                    "it declares a document type (<!DOCTYPE>), which AAS files never need and which could expand entities: not read".into(),
                ))
            }
            Event::Start(tag) => {
                if skipping > 0 || is_skipped(&tag, skipped) {
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
            Event::Empty(tag) if skipping == 0 && !is_skipped(&tag, skipped) => {
                let mut node = node(&tag, stack.is_empty()).map_err(refuse)?;
                node.span = at..position(&reader);
                if stack.is_empty() {
                    return Ok(node);
                }
                place(&mut stack, node, &mut each, reader.get_ref())?;
            }
            Event::End(_) => {
                if skipping > 0 {
                    skipping -= 1;
                } else if let Some(mut done) = stack.pop() {
                    done.span.end = position(&reader);
                    if stack.is_empty() {
                        return Ok(done);
                    }
                    place(&mut stack, done, &mut each, reader.get_ref())?;
                }
            }
            // The root's and its lists' text is not kept where items are read one by
            // one: it is whitespace, and a payload of nothing else would be held whole.
            Event::Text(text) if skipping == 0 && !(items && stack.len() <= 2) => {
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

/// The payload as the XML reader reads it, with what it read since the last item
/// ended kept (where items are read one by one): the next item's text. What is kept is
/// bounded by [`MAX_ITEM_BYTES`] (so is what the XML reader holds of one event): past
/// it, reading fails with words.
struct Recording<R> {
    inner: R,
    kept: Vec<u8>,
    /// Where `kept` starts in the payload.
    from: usize,
    on: bool,
}

impl<R> Recording<R> {
    /// Lets go of what was kept before `at`. The XML reader may have read a little
    /// further than it says (the `<` of a tag after text): that stays.
    fn forget(&mut self, at: usize) {
        let before = at.saturating_sub(self.from).min(self.kept.len());
        self.kept.drain(..before);
        self.from += before;
    }

    /// The text of the item at `span` of the payload, if it was kept.
    fn text(&self, span: &std::ops::Range<usize>) -> ItemText<'_> {
        let within = span
            .start
            .checked_sub(self.from)
            .zip(span.end.checked_sub(self.from));
        ItemText {
            bytes: within
                .and_then(|(start, end)| self.kept.get(start..end))
                .unwrap_or_default(),
            at: span.start,
        }
    }
}

impl<R: BufRead> Read for Recording<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.kept.len() > MAX_ITEM_BYTES {
            return Err(item_too_large());
        }
        let n = self.inner.read(buf)?;
        if self.on {
            self.kept.extend_from_slice(&buf[..n]);
        }
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Recording<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.kept.len() > MAX_ITEM_BYTES {
            return Err(item_too_large());
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        if self.on {
            // What is consumed was filled and is still there: no reading happens here.
            if let Ok(filled) = self.inner.fill_buf() {
                self.kept
                    .extend_from_slice(&filled[..amount.min(filled.len())]);
            }
        }
        self.inner.consume(amount);
    }
}

/// Puts `done` below its parent, the top of `stack` (not empty); an item of one of the
/// root's lists goes to `each` instead, where there is one.
fn place<R>(
    stack: &mut [Node],
    done: Node,
    each: &mut Option<&mut EachItem<'_>>,
    payload: &Recording<R>,
) -> Result<()> {
    match (&mut *stack, each) {
        ([root, list], Some(each)) => {
            let text = payload.text(&done.span);
            each(root, &list.name, done, text)
        }
        (_, _) => {
            if let Some(parent) = stack.last_mut() {
                parent.children.push(done);
            }
            Ok(())
        }
    }
}

/// How far the reader has read, in bytes.
fn position<R>(reader: &Reader<R>) -> usize {
    usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX)
}

/// Whether `tag`'s local name is among `skipped` (asked of every tag: without making
/// the name a string).
fn is_skipped(tag: &BytesStart, skipped: &[&str]) -> bool {
    let name = tag.local_name();
    skipped.iter().any(|s| s.as_bytes() == name.as_ref())
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
