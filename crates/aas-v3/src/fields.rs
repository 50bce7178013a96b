//! A V2 object taken apart field by field: whatever the conversion has not taken when
//! it is done is reported, so nothing leaves the file without a line in the report.

use std::borrow::Cow;
use std::fmt;

use crate::node::{member, remove_member, Members, Node};

pub(crate) struct Fields<'a, 'p> {
    members: Members<'a>,
    /// The object's JSON path in the source.
    pub at: At<'p>,
}

impl<'a, 'p> Fields<'a, 'p> {
    /// The fields of `value`, or `value` back when it is not an object.
    pub fn of(value: Node<'a>, at: At<'p>) -> Result<Self, Node<'a>> {
        match value {
            Node::Object(members) => Ok(Fields { members, at }),
            other => Err(other),
        }
    }

    /// A field's value; `null` counts as absent.
    pub fn take(&mut self, name: &str) -> Option<Node<'a>> {
        remove_member(&mut self.members, name).filter(|v| !v.is_null())
    }

    /// A field whose value is text: a string, or a number or boolean written as text
    /// (exporters write `"value": 1234`). Empty text counts as absent.
    pub fn text(&mut self, name: &str) -> Option<Cow<'a, str>> {
        match self.take(name)? {
            Node::Text(s) if s.is_empty() => None,
            Node::Text(s) => Some(s),
            Node::Number(n) => Some(Cow::Owned(n.to_string())),
            Node::Bool(b) => Some(Cow::Owned(b.to_string())),
            other => {
                // Not text: reported with what is left.
                self.put_back(name, other);
                None
            }
        }
    }

    /// A field's text, taken even when it is empty (`Some("")`).
    pub fn text_or_empty(&mut self, name: &str) -> Option<Cow<'a, str>> {
        match member(&self.members, name) {
            Some(Node::Text(s)) if s.is_empty() => {
                remove_member(&mut self.members, name);
                Some(Cow::Borrowed(""))
            }
            _ => self.text(name),
        }
    }

    /// A field that V2 writes as an array: its items (none for a non-array, which
    /// stays to be reported).
    pub fn list(&mut self, name: &str) -> Vec<Node<'a>> {
        match self.take(name) {
            Some(Node::List(items)) => items,
            Some(other) => {
                self.put_back(name, other);
                Vec::new()
            }
            None => Vec::new(),
        }
    }

    /// Puts a field back, to be reported with what is left.
    pub fn put_back(&mut self, name: &str, value: Node<'a>) {
        self.members.push((Cow::Owned(name.to_owned()), value));
    }

    /// The path of field `name`.
    pub fn path<'s>(&'s self, name: &'s str) -> At<'s> {
        self.at.field(name)
    }

    /// Drops fields that hold nothing (`null`, `[]`, `{}`, `""`) and the mapping's own
    /// bookkeeping, then hands back what is left, each with its path.
    pub fn rest(mut self, mapped: &[&str]) -> Vec<(String, Node<'a>)> {
        for name in mapped {
            remove_member(&mut self.members, name);
        }
        let at = self.at;
        self.members
            .into_iter()
            .filter(|(_, v)| !holds_nothing(v))
            .map(|(name, v)| (at.field(&name).to_string(), v))
            .collect()
    }
}

/// Where a value is in the source: a JSON path (`submodels[2].submodelElements[0]`,
/// the document itself `""`), written out only when a change is reported there (most
/// values have none, and writing every path out cost a sixth of the conversion).
#[derive(Debug, Clone, Copy)]
pub(crate) enum At<'p> {
    /// A path written out already.
    Root(&'p str),
    /// Field `name` of the object at the path.
    Field(&'p At<'p>, &'p str),
    /// Item `i` of the array at the path.
    Item(&'p At<'p>, usize),
}

impl<'p> At<'p> {
    pub fn field(&'p self, name: &'p str) -> At<'p> {
        At::Field(self, name)
    }

    pub fn item(&'p self, i: usize) -> At<'p> {
        At::Item(self, i)
    }

    /// Whether the path is `""`: the document's root, whose fields have no `.` before
    /// their names.
    fn is_empty(&self) -> bool {
        match self {
            At::Root(path) => path.is_empty(),
            At::Field(at, name) => at.is_empty() && name.is_empty(),
            At::Item(..) => false,
        }
    }
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Root(path) => f.write_str(path),
            At::Field(at, name) if at.is_empty() => f.write_str(name),
            At::Field(at, name) => write!(f, "{at}.{name}"),
            At::Item(at, i) => write!(f, "{at}[{i}]"),
        }
    }
}

pub(crate) fn holds_nothing(value: &Node) -> bool {
    match value {
        Node::Null => true,
        Node::Text(s) => s.is_empty(),
        Node::List(items) => items.is_empty(),
        Node::Object(members) => members.is_empty(),
        _ => false,
    }
}

/// The V2 model type name of an object: `modelType.name`, or `modelType` as a string.
pub(crate) fn model_type_name<'a>(value: &Node<'a>) -> Option<Cow<'a, str>> {
    let model_type = value.get("modelType")?;
    model_type
        .get("name")
        .unwrap_or(model_type)
        .as_text()
        .cloned()
}
