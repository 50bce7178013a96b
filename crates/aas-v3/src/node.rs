//! A JSON tree cheaper than `serde_json::Value` for converting: texts and names borrowed
//! from the source where they need no unescaping, objects as small lists of fields (an
//! AAS object has a dozen at most, which a list finds faster than a hash does). It reads
//! and writes JSON as `serde_json::Value` does with `preserve_order`, byte for byte.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Number, Value};

/// A JSON value whose texts may borrow from the source it was read from.
#[derive(Debug, Clone, PartialEq)]
pub enum Node<'a> {
    Null,
    Bool(bool),
    Number(Number),
    Text(Cow<'a, str>),
    List(Vec<Node<'a>>),
    Object(Members<'a>),
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

    /// The same JSON as a `serde_json::Value` (for the report).
    pub fn to_value(&self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(*b),
            Node::Number(n) => Value::Number(n.clone()),
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

impl<'de> Deserialize<'de> for Node<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_unit<E>(self) -> Result<Node<'de>, E> {
        Ok(Node::Null)
    }
    fn visit_none<E>(self) -> Result<Node<'de>, E> {
        Ok(Node::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Node<'de>, E> {
        Ok(Node::Bool(b))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Node<'de>, E> {
        Ok(Node::Number(n.into()))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Node<'de>, E> {
        Ok(Node::Number(n.into()))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Node<'de>, E> {
        Ok(Number::from_f64(n).map_or(Node::Null, Node::Number))
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Node<'de>, E> {
        Ok(Node::Text(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Node<'de>, E> {
        Ok(Node::Text(Cow::Owned(s.to_owned())))
    }
    fn visit_string<E>(self, s: String) -> Result<Node<'de>, E> {
        Ok(Node::Text(Cow::Owned(s)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::List(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node<'de>, A::Error> {
        let mut members = Members::new();
        while let Some((Name(name), value)) = map.next_entry::<Name<'de>, Node<'de>>()? {
            // A repeated name keeps its place and its last value, as serde_json's does.
            match members.iter_mut().find(|(n, _)| *n == name) {
                Some(member) => member.1 = value,
                None => members.push((name, value)),
            }
        }
        Ok(Node::Object(members))
    }
}

/// A field's name, borrowed where it needs no unescaping (serde's `Cow` never borrows).
struct Name<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Name<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(NameVisitor).map(Name)
    }
}

struct NameVisitor;

impl<'de> Visitor<'de> for NameVisitor {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(s))
    }
    fn visit_str<E>(self, s: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s))
    }
}

impl Serialize for Node<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Null => s.serialize_unit(),
            Node::Bool(b) => s.serialize_bool(*b),
            Node::Number(n) => n.serialize(s),
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
