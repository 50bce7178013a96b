//! Reading V2 JSON into a [`Node`] tree, exactly as written:
//!
//! - a number keeps its text (`123456789012345678901234567890`, π to 36 digits), since
//!   V3.0 values are texts and the value's text must be carried over, not a binary
//!   double's rounding of it;
//! - an array or object under a field the conversion never looks into by name (an
//!   unknown field, a Property's `value`, a collection's elements) is kept as its JSON
//!   text ([`Node::Raw`]) and read only when the conversion takes it: a field it does
//!   not know is reported as it was written without ever becoming a tree, which for
//!   50 MB of `[0,0,…]` cost gigabytes.
//!
//! The text has been checked by serde_json before (syntax, UTF-8, what follows the
//! value), so this reader only builds; it still never panics on anything else, and
//! says what it did not expect.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::de::{Deserialize, Deserializer, Error as _};
use serde_json::value::RawValue;

use crate::node::{Members, Node};

/// The fields whose arrays and objects are read at once, whatever their size: those
/// the conversion looks into by name without taking them (`modelType.name`,
/// `identification.id`, an asset reference's `keys`…). Any other field's array or
/// object is read when it is taken ([`Node::read`]).
const LOOKED_INTO: [&str; 9] = [
    "modelType",
    "identification",
    "asset",
    "keys",
    "parent",
    "dataObjectType",
    "dataSpecification",
    "dataSpecificationContent",
    "definition",
];

/// The deepest nesting read (the file and the answers are measured at 100 levels
/// before; serde_json's own reader stops at 128).
const MAX_DEPTH: usize = 128;

/// Objects with more fields than this find a repeated name through a map.
const FEW_FIELDS: usize = 16;

/// Why [`read`] stopped: the text was not what the JSON check let through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReadError {
    pub what: &'static str,
    pub at: usize,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at byte {}", self.what, self.at)
    }
}

/// The tree of `text`, one JSON value (whitespace around it allowed).
pub(crate) fn read(text: &str) -> Result<Node<'_>, ReadError> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    let node = reader.value()?;
    reader.whitespace();
    match reader.at == reader.bytes.len() {
        true => Ok(node),
        false => Err(reader.error("characters after the value")),
    }
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    depth: usize,
}

impl<'a> Reader<'a> {
    fn error(&self, what: &'static str) -> ReadError {
        ReadError { what, at: self.at }
    }

    fn whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.whitespace();
        self.bytes.get(self.at).copied()
    }

    fn expect(&mut self, byte: u8) -> Result<(), ReadError> {
        match self.peek() {
            Some(b) if b == byte => {
                self.at += 1;
                Ok(())
            }
            _ => Err(self.error("unexpected character")),
        }
    }

    /// The text from `start` to where the reader is.
    fn since(&self, start: usize) -> Result<&'a str, ReadError> {
        self.text
            .get(start..self.at)
            .ok_or_else(|| self.error("not at a character boundary"))
    }

    fn literal(&mut self, word: &'static str, node: Node<'a>) -> Result<Node<'a>, ReadError> {
        match self.bytes[self.at..].starts_with(word.as_bytes()) {
            true => {
                self.at += word.len();
                Ok(node)
            }
            false => Err(self.error("unexpected word")),
        }
    }

    fn value(&mut self) -> Result<Node<'a>, ReadError> {
        match self.peek() {
            Some(b'{') => self.nested(Self::object),
            Some(b'[') => self.nested(Self::list),
            Some(b'"') => Ok(Node::Text(self.string()?)),
            Some(b't') => self.literal("true", Node::Bool(true)),
            Some(b'f') => self.literal("false", Node::Bool(false)),
            Some(b'n') => self.literal("null", Node::Null),
            Some(b'-' | b'0'..=b'9') => Ok(Node::Number(Cow::Borrowed(self.number()?))),
            _ => Err(self.error("expected a JSON value")),
        }
    }

    fn nested(
        &mut self,
        read: fn(&mut Self) -> Result<Node<'a>, ReadError>,
    ) -> Result<Node<'a>, ReadError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.depth += 1;
        let node = read(self);
        self.depth -= 1;
        node
    }

    fn list(&mut self) -> Result<Node<'a>, ReadError> {
        self.expect(b'[')?;
        let mut items = Vec::new();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Node::List(items));
        }
        loop {
            items.push(self.value()?);
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Node::List(items));
                }
                _ => return Err(self.error("expected `,` or `]`")),
            }
        }
    }

    fn object(&mut self) -> Result<Node<'a>, ReadError> {
        self.expect(b'{')?;
        let mut members = Members::new();
        // Past a few fields, where each name is: a hostile object of millions of
        // fields must not cost a look at every field before it.
        let mut index: Option<HashMap<Cow<'a, str>, usize>> = None;
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Node::Object(members));
        }
        loop {
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a field name"));
            }
            let name = self.string()?;
            self.expect(b':')?;
            let value = match self.peek() {
                Some(b'{' | b'[') if !LOOKED_INTO.contains(&name.as_ref()) => {
                    Node::Raw(self.skip()?)
                }
                _ => self.value()?,
            };
            // A repeated name keeps its place and its last value, as serde_json's
            // `Value` does (the caller reports the repetition: `Converter::duplicate_key`).
            let found = match &index {
                Some(index) => index.get(&name).copied(),
                None => members.iter().position(|(n, _)| *n == name),
            };
            match found {
                Some(i) => members[i].1 = value,
                None => {
                    if let Some(index) = &mut index {
                        index.insert(name.clone(), members.len());
                    }
                    members.push((name, value));
                    if index.is_none() && members.len() > FEW_FIELDS {
                        let names = members.iter().enumerate();
                        index = Some(names.map(|(i, (n, _))| (n.clone(), i)).collect());
                    }
                }
            }
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Node::Object(members));
                }
                _ => return Err(self.error("expected `,` or `}`")),
            }
        }
    }

    /// The text of the array or object that starts here, passed over: brackets in
    /// strings do not count.
    fn skip(&mut self) -> Result<&'a str, ReadError> {
        let start = self.at;
        let mut depth = 0usize;
        while let Some(&b) = self.bytes.get(self.at) {
            self.at += 1;
            match b {
                b'"' => self.skip_string()?,
                b'[' | b'{' => depth += 1,
                b']' | b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return self.since(start);
                    }
                }
                _ => {}
            }
        }
        Err(self.error("the array or object does not end"))
    }

    /// Past the closing quote of a string whose opening quote was just read.
    fn skip_string(&mut self) -> Result<(), ReadError> {
        while let Some(&b) = self.bytes.get(self.at) {
            self.at += 1;
            match b {
                b'"' => return Ok(()),
                b'\\' => self.at += 1,
                _ => {}
            }
        }
        Err(self.error("the string does not end"))
    }

    /// A number's text, as written.
    fn number(&mut self) -> Result<&'a str, ReadError> {
        let start = self.at;
        while let Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') = self.bytes.get(self.at) {
            self.at += 1;
        }
        self.since(start)
    }

    /// A string's text: borrowed from the source unless it has escapes.
    fn string(&mut self) -> Result<Cow<'a, str>, ReadError> {
        self.expect(b'"')?;
        let start = self.at;
        loop {
            match self.bytes.get(self.at) {
                Some(b'"') => {
                    let text = self.since(start)?;
                    self.at += 1;
                    return Ok(Cow::Borrowed(text));
                }
                Some(b'\\') => break,
                Some(_) => self.at += 1,
                None => return Err(self.error("the string does not end")),
            }
        }
        let mut text = self.since(start)?.to_owned();
        loop {
            let run = self.at;
            while let Some(&b) = self.bytes.get(self.at) {
                if b == b'"' || b == b'\\' {
                    break;
                }
                self.at += 1;
            }
            text.push_str(self.since(run)?);
            match self.bytes.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(Cow::Owned(text));
                }
                Some(b'\\') => {
                    self.at += 1;
                    text.push(self.escape()?);
                }
                _ => return Err(self.error("the string does not end")),
            }
        }
    }

    /// The character of the escape after a backslash.
    fn escape(&mut self) -> Result<char, ReadError> {
        let Some(&b) = self.bytes.get(self.at) else {
            return Err(self.error("the string does not end"));
        };
        self.at += 1;
        Ok(match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex()?;
                let code = match first {
                    0xD800..=0xDBFF => {
                        if !self.bytes[self.at..].starts_with(b"\\u") {
                            return Err(self.error("lone leading surrogate in hex escape"));
                        }
                        self.at += 2;
                        let second = self.hex()?;
                        if !(0xDC00..=0xDFFF).contains(&second) {
                            return Err(self.error("lone leading surrogate in hex escape"));
                        }
                        0x10000 + ((u32::from(first) - 0xD800) << 10) + (u32::from(second) - 0xDC00)
                    }
                    0xDC00..=0xDFFF => {
                        return Err(self.error("lone trailing surrogate in hex escape"))
                    }
                    other => u32::from(other),
                };
                char::from_u32(code).ok_or_else(|| self.error("invalid escape"))?
            }
            _ => return Err(self.error("invalid escape")),
        })
    }

    fn hex(&mut self) -> Result<u16, ReadError> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .ok_or_else(|| self.error("invalid escape"))?;
        let value = u16::from_str_radix(digits, 16).map_err(|_| self.error("invalid escape"))?;
        self.at += 4;
        Ok(value)
    }
}

impl<'a> Node<'a> {
    /// This node as a tree: a [`Node::Raw`] is read (its fields not looked into by name
    /// stay raw in turn); any other node is itself.
    pub fn read(self) -> Self {
        match self {
            // Checked JSON when it was kept; were it not, it stays as it is, reported
            // as it was written.
            Node::Raw(text) => read(text).unwrap_or(Node::Raw(text)),
            other => other,
        }
    }
}

/// Read from the JSON text serde_json has checked (and borrowed from its source, which
/// must therefore be a `&str` or `&[u8]`): see the `read` module.
impl<'de> Deserialize<'de> for Node<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = <&'de RawValue>::deserialize(d)?;
        read(raw.get()).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_text_exactly() {
        let json = r#"{"big": 123456789012345678901234567890,
            "pi": 3.14159265358979323846264338327950288,
            "others": [1.50, -0, 1E400, 2e-7, 17, -3]}"#;
        let node = read(json).expect("JSON");
        assert_eq!(
            node.get("big"),
            Some(&Node::Number("123456789012345678901234567890".into()))
        );
        assert_eq!(
            node.get("pi"),
            Some(&Node::Number(
                "3.14159265358979323846264338327950288".into()
            ))
        );
        // `others` is not looked into by name: kept as written until it is taken.
        let others = node.get("others").cloned().expect("there").read();
        let texts: Vec<&str> = others
            .as_list()
            .expect("a list")
            .iter()
            .map(|n| match n {
                Node::Number(text) => text.as_ref(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(texts, ["1.50", "-0", "1E400", "2e-7", "17", "-3"]);
        // And they are written back as they were read.
        let written = serde_json::to_string(&node).expect("JSON");
        assert!(
            written.contains("123456789012345678901234567890")
                && written.contains("3.14159265358979323846264338327950288")
                && written.contains("[1.50,-0,1E400,2e-7,17,-3]"),
            "{written}"
        );
    }

    #[test]
    fn fields_not_looked_into_stay_text_and_the_rest_is_a_tree() {
        let json = r#"{"modelType": {"name": "Property"}, "idShort": "P",
            "x": [0, 0, {"a": "]}\"["}], "value": {"nested": [1]}}"#;
        let node = read(json).expect("JSON");
        assert_eq!(
            node.get("modelType").and_then(|m| m.get("name")),
            Some(&Node::text("Property"))
        );
        assert_eq!(node.get("x"), Some(&Node::Raw(r#"[0, 0, {"a": "]}\"["}]"#)));
        let value = node.get("value").cloned().expect("there").read();
        assert_eq!(
            value.get("nested").cloned().map(Node::read),
            Some(Node::List(vec![Node::Number("1".into())]))
        );
    }

    #[test]
    fn what_is_kept_as_text_is_written_on_one_line() {
        let json = "{\"x\": [ 1,\n  {\"a b\": \"c \\\" d\\n\" } ]\r\n}";
        let node = read(json).expect("JSON");
        assert_eq!(
            serde_json::to_string(&node).expect("JSON"),
            r#"{"x":[1,{"a b":"c \" d\n"}]}"#
        );
    }

    #[test]
    fn escapes_are_read_and_plain_strings_borrowed() {
        let node = read(r#"["plain", "a\"b\\c\/\n\u00e9\ud83d\ude00"]"#).expect("JSON");
        let items = node.as_list().expect("a list");
        assert!(matches!(&items[0], Node::Text(Cow::Borrowed("plain"))));
        assert_eq!(items[1], Node::text("a\"b\\c/\né😀"));
        for bad in [
            r#""\ud800""#,
            r#""\udc00 ""#,
            r#""\ud800\u0041""#,
            "[1,",
            "{\"a\" 1}",
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_repeated_name_keeps_its_place_and_its_last_value() {
        let many: String = (0..40).map(|i| format!(r#""k{i}":{i},"#)).collect();
        let json = format!(r#"{{"idShort":"P1",{many}"idShort":"P2","k3":"again"}}"#);
        let node = read(&json).expect("JSON");
        let Node::Object(members) = &node else {
            panic!("an object")
        };
        assert_eq!(members.len(), 41);
        assert_eq!(members[0], ("idShort".into(), Node::text("P2")));
        assert_eq!(members[4], ("k3".into(), Node::text("again")));
    }
}
