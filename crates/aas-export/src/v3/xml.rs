//! V3 JSON written as the XML the same specification defines for it (namespace
//! `https://admin-shell.io/aas/3/0`, or `…/3/1` for V3.1; the two schemas differ in it
//! alone). Both serialisations are derived from the metamodel the same way: a property
//! is an element of its name, in the order of its class's properties (the XML schema's
//! sequences); a list holds one element per item, named by the item's class; a property
//! of an abstract type holds one element named by its object's class. JSON's
//! `modelType` names that class; XML has no such field. A property this table does not
//! know (a newer writer's, carried through from a V3 source) is left out: the schema
//! has no place for it.

use std::borrow::Cow;
use std::io::Write;

use aas_v3::metamodel::{class_of, known_class, properties};
use aas_v3::{Node, Target};
use quick_xml::escape::escape;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, Event};
use quick_xml::Writer;
use serde_json::Value as Json;

/// The namespace of `target`'s XML.
pub(crate) fn namespace(target: Target) -> &'static str {
    match target {
        Target::V3_0 => "https://admin-shell.io/aas/3/0",
        Target::V3_1 => "https://admin-shell.io/aas/3/1",
    }
}

/// An environment's lists written as XML, each opened when its first item comes.
pub(crate) struct XmlLists<'w> {
    xml: Writer<&'w mut dyn Write>,
    open: Option<&'static str>,
}

impl<'w> XmlLists<'w> {
    pub(crate) fn begin(out: &'w mut dyn Write, target: Target) -> std::io::Result<Self> {
        let mut xml = Writer::new(out);
        xml.write_event(Event::Decl(BytesDecl::new("1.0", Some("utf-8"), None)))?;
        let root = BytesStart::new("environment").with_attributes([("xmlns", namespace(target))]);
        xml.write_event(Event::Start(root))?;
        Ok(XmlLists { xml, open: None })
    }

    /// Adds `item` (its XML, [`item_xml`]), an item of `list` (`assetAdministrationShells`, …).
    pub(crate) fn item(&mut self, list: &'static str, item: &[u8]) -> std::io::Result<()> {
        if self.open != Some(list) {
            if let Some(open) = self.open {
                self.xml.write_event(Event::End(BytesEnd::new(open)))?;
            }
            self.xml.write_event(Event::Start(BytesStart::new(list)))?;
            self.open = Some(list);
        }
        self.xml.get_mut().write_all(item)
    }

    pub(crate) fn end(mut self) -> std::io::Result<()> {
        if let Some(open) = self.open {
            self.xml.write_event(Event::End(BytesEnd::new(open)))?;
        }
        self.xml
            .write_event(Event::End(BytesEnd::new("environment")))
    }
}

/// An environment's item (its V3 JSON, as a `serde_json` tree or as the conversion's
/// [`Node`]) as its XML element: what the workers of an export write, each its own
/// items, so the writing is spread over the cores as the conversion is. Empty for an
/// item of a class the metamodel does not have. Its elements are written here as bytes,
/// their names from the metamodel's tables, their texts escaped by quick-xml: a
/// writer's events cost a fifth of an export's writing.
pub(crate) fn item_xml(item: &impl Tree) -> Vec<u8> {
    let mut xml = Vec::with_capacity(1 << 12);
    if let Some(class) = item.model_type().and_then(known_class) {
        object(&mut xml, class, class, item);
    }
    xml
}

/// V3 JSON as the XML is written from it: a `serde_json` tree (a file's environment),
/// or the conversion's own [`Node`] (an export's items, written without another tree).
pub(crate) trait Tree: Sized {
    fn field(&self, name: &str) -> Option<&Self>;
    fn shape(&self) -> Shape<'_, Self>;

    fn model_type(&self) -> Option<&str> {
        match self.field("modelType")?.shape() {
            Shape::Text(Cow::Borrowed(text)) => Some(text),
            _ => None,
        }
    }
}

/// What a JSON value is to the XML.
pub(crate) enum Shape<'t, T> {
    /// `null`.
    Nothing,
    List(&'t [T]),
    Object,
    /// A text, or a number's digits.
    Text(Cow<'t, str>),
    Bool(bool),
    /// An array or object the conversion kept as its JSON text.
    Unread(&'t str),
}

impl Tree for Json {
    fn field(&self, name: &str) -> Option<&Self> {
        self.get(name)
    }

    fn shape(&self) -> Shape<'_, Self> {
        match self {
            Json::Null => Shape::Nothing,
            Json::Array(items) => Shape::List(items),
            Json::Object(_) => Shape::Object,
            Json::String(text) => Shape::Text(Cow::Borrowed(text)),
            Json::Bool(b) => Shape::Bool(*b),
            Json::Number(n) => Shape::Text(Cow::Owned(n.to_string())),
        }
    }
}

impl Tree for Node<'_> {
    fn field(&self, name: &str) -> Option<&Self> {
        self.get(name)
    }

    fn shape(&self) -> Shape<'_, Self> {
        match self {
            Node::Null => Shape::Nothing,
            Node::List(items) => Shape::List(items),
            Node::Object(_) => Shape::Object,
            Node::Text(text) | Node::Number(text) => Shape::Text(Cow::Borrowed(text)),
            Node::Bool(b) => Shape::Bool(*b),
            Node::Raw(json) => Shape::Unread(json),
        }
    }
}

/// `<element>` holding `value`'s properties in the order of `class`.
fn object(xml: &mut Vec<u8>, element: &str, class: &str, value: &impl Tree) {
    start(xml, element);
    for name in properties(class) {
        if let Some(v) = value.field(name) {
            property(xml, class, name, v);
        }
    }
    end(xml, element);
}

fn property<T: Tree>(xml: &mut Vec<u8>, owner: &str, name: &str, value: &T) {
    match value.shape() {
        // A list with no items is left out as `null` is: the schemas allow none.
        Shape::Nothing | Shape::List([]) => {}
        Shape::List(items) => {
            start(xml, name);
            for item in items {
                let class = item.model_type().and_then(known_class);
                if let Some(class) = class.or_else(|| class_of(owner, name)) {
                    object(xml, class, class, item);
                }
            }
            end(xml, name);
        }
        Shape::Object => match class_of(owner, name) {
            Some(class) => object(xml, name, class, value),
            // A property of an abstract type: one element, named by its object's class.
            None => {
                if let Some(class) = value.model_type().and_then(known_class) {
                    start(xml, name);
                    object(xml, class, class, value);
                    end(xml, name);
                }
            }
        },
        Shape::Text(text) => text_element(xml, name, &text),
        Shape::Bool(b) => text_element(xml, name, if b { "true" } else { "false" }),
        // The conversion checked its JSON; what does not read is left out, as a
        // property the tables do not know is.
        Shape::Unread(json) => {
            if let Ok(node) = Node::from_json(json) {
                property(xml, owner, name, &node);
            }
        }
    }
}

fn text_element(xml: &mut Vec<u8>, name: &str, text: &str) {
    start(xml, name);
    xml.extend_from_slice(escape(text).as_bytes());
    end(xml, name);
}

fn start(xml: &mut Vec<u8>, name: &str) {
    xml.push(b'<');
    xml.extend_from_slice(name.as_bytes());
    xml.push(b'>');
}

fn end(xml: &mut Vec<u8>, name: &str) {
    xml.extend_from_slice(b"</");
    xml.extend_from_slice(name.as_bytes());
    xml.push(b'>');
}
