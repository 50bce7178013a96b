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
        match value.read() {
            Node::Object(members) => Ok(Fields { members, at }),
            other => Err(other),
        }
    }

    /// A field's value, read as a tree; `null` counts as absent.
    pub fn take(&mut self, name: &str) -> Option<Node<'a>> {
        self.take_as_written(name).map(Node::read)
    }

    /// A field's value as it is: an array or object the reader kept as text stays so.
    fn take_as_written(&mut self, name: &str) -> Option<Node<'a>> {
        remove_member(&mut self.members, name).filter(|v| !v.is_null())
    }

    /// A field whose value is text: a string, or a number or boolean written as text
    /// (exporters write `"value": 1234`; the number's text is kept exactly as written,
    /// every digit of it). Empty text counts as absent.
    pub fn text(&mut self, name: &str) -> Option<Cow<'a, str>> {
        match self.take_as_written(name)? {
            Node::Text(s) if s.is_empty() => None,
            Node::Text(s) => Some(s),
            Node::Number(text) => Some(text),
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
        // `[]` or `{}`, maybe with spaces inside.
        Node::Raw(text) => text
            .bytes()
            .filter(|b| !b.is_ascii_whitespace())
            .nth(1)
            .is_some_and(|b| b == b']' || b == b'}'),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_is_taken_as_the_text_it_was_written_with() {
        let json = r#"{"big": 123456789012345678901234567890,
            "pi": 3.14159265358979323846264338327950288, "price": 1.50, "small": -0}"#;
        let node: Node = serde_json::from_str(json).expect("JSON");
        let mut f = Fields::of(node, At::Root("")).expect("an object");
        // Before: "1.2345678901234568e+29", "3.141592653589793", "1.5" and "0".
        assert_eq!(
            f.text("big").as_deref(),
            Some("123456789012345678901234567890")
        );
        assert_eq!(
            f.text("pi").as_deref(),
            Some("3.14159265358979323846264338327950288")
        );
        assert_eq!(f.text("price").as_deref(), Some("1.50"));
        assert_eq!(f.text("small").as_deref(), Some("-0"));
    }
}
