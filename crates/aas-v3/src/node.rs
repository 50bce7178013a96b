//! A JSON tree cheaper than `serde_json::Value` for converting: texts, names and numbers
//! borrowed from the source where they need no unescaping, objects as small lists of
//! fields (an AAS object has a dozen at most, which a list finds faster than a hash
//! does), and the arrays and objects of fields the conversion does not walk into kept
//! as their text until they are taken ([`Node::Raw`], see the `read` module). Numbers
//! keep their text: `123456789012345678901234567890` stays those digits.

use std::borrow::Cow;

use serde::ser::{Error as _, Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;

/// A JSON value whose texts may borrow from the source it was read from.
#[derive(Debug, Clone, PartialEq)]
pub enum Node<'a> {
    Null,
    Bool(bool),
    /// A number's text as written in the source (valid JSON number syntax).
    Number(Cow<'a, str>),
    Text(Cow<'a, str>),
    List(Vec<Node<'a>>),
    Object(Members<'a>),
    /// An array or object not read yet: its JSON text, as written. [`Node::read`] makes
    /// it a tree; reported as it is, it never becomes one.
    Raw(&'a str),
}

/// An object's fields, in the order they are written.
pub type Members<'a> = Vec<(Cow<'a, str>, Node<'a>)>;

impl<'a> Node<'a> {
    pub fn text(text: impl Into<Cow<'a, str>>) -> Self {
        Node::Text(text.into())
    }

    /// An object of the fields given, in that order.
    pub fn object<const N: usize>(fields: [(&'static str, Node<'a>); N]) -> Self {
        Node::Object(
            fields
                .into_iter()
                .map(|(name, value)| (Cow::Borrowed(name), value))
                .collect(),
        )
    }

    /// Field `name` of an object.
    pub fn get(&self, name: &str) -> Option<&Node<'a>> {
        match self {
            Node::Object(members) => member(members, name),
            _ => None,
        }
    }

    /// Takes field `name` out of an object (as [`remove_member`] does).
    pub(crate) fn remove(&mut self, name: &str) -> Option<Node<'a>> {
        match self {
            Node::Object(members) => remove_member(members, name),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The text itself, to keep it borrowed from the source.
    pub fn as_text(&self) -> Option<&Cow<'a, str>> {
        match self {
            Node::Text(text) => Some(text),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[Node<'a>]> {
        match self {
            Node::List(items) => Some(items),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Node::Null)
    }

    /// The JSON text of this node: exact for numbers and for what was never read.
    pub fn to_json(&self) -> Box<RawValue> {
        serde_json::value::to_raw_value(self)
            .unwrap_or_else(|_| RawValue::from_string("null".into()).expect("JSON"))
    }

    /// The same JSON as a `serde_json::Value`; a number past what a double holds
    /// exactly is rounded there (the report uses [`Node::to_json`], which is exact).
    pub fn to_value(&self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(*b),
            Node::Number(text) => serde_json::from_str(text).unwrap_or(Value::Null),
            Node::Raw(text) => serde_json::from_str(text).unwrap_or(Value::Null),
            Node::Text(text) => Value::String(text.as_ref().to_owned()),
            Node::List(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Node::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(name, value)| (name.as_ref().to_owned(), value.to_value()))
                    .collect(),
            ),
        }
    }
}

/// Field `name` of an object's `members`.
pub(crate) fn member<'n, 'a>(
    members: &'n [(Cow<'a, str>, Node<'a>)],
    name: &str,
) -> Option<&'n Node<'a>> {
    members
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, value)| value)
}

/// Takes field `name` out of `members` as `serde_json::Map::remove` does with
/// `preserve_order`: the last field takes its place. The order of what is left is the
/// order the converter has always written and reported, so it stays.
pub(crate) fn remove_member<'a>(members: &mut Members<'a>, name: &str) -> Option<Node<'a>> {
    let i = members.iter().position(|(n, _)| n == name)?;
    Some(members.swap_remove(i).1)
}

/// JSON text written as it is (a number's digits, a field kept unread), but for the
/// spaces and line breaks between its tokens: what is written is compact, one line.
fn verbatim<S: Serializer>(json: &str, s: S) -> Result<S::Ok, S::Error> {
    let json = compact(json);
    let raw: &RawValue = serde_json::from_str(&json).map_err(S::Error::custom)?;
    raw.serialize(s)
}

/// `json` without whitespace between its tokens (strings keep theirs).
pub(crate) fn compact(json: &str) -> Cow<'_, str> {
    let spaced = |b: u8| matches!(b, b' ' | b'\n' | b'\r' | b'\t');
    if !json.bytes().any(spaced) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if c.is_ascii() && spaced(c as u8) {
            continue;
        }
        out.push(c);
    }
    Cow::Owned(out)
}

impl Serialize for Node<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Null => s.serialize_unit(),
            Node::Bool(b) => s.serialize_bool(*b),
            Node::Number(text) => verbatim(text, s),
            Node::Raw(text) => verbatim(text, s),
            Node::Text(text) => s.serialize_str(text),
            Node::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Node::Object(members) => {
                let mut map = s.serialize_map(Some(members.len()))?;
                for (name, value) in members {
                    map.serialize_entry(name.as_ref(), value)?;
                }
                map.end()
            }
        }
    }
}
