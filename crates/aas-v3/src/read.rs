//! Reading V2 JSON into a [`Node`] tree, exactly as written, in one pass that also checks
//! it (the JSON grammar, as serde_json's reader checks it):
//!
//! - a number keeps its text (`123456789012345678901234567890`, π to 36 digits), since
//!   V3.0 values are texts and the value's text must be carried over, not a binary
//!   double's rounding of it;
//! - the arrays and objects of the fields the conversion walks into (a submodel's
//!   elements, a collection's `value`, references, language strings) are read at once;
//!   any other field's (a newer writer's, one no metamodel has) is checked and kept as
//!   its JSON text ([`Node::Raw`]), read only when the conversion takes it: a field it
//!   does not know is reported as it was written without ever becoming a tree, which for
//!   50 MB of `[0,0,…]` cost gigabytes. So is a walked field's list of plain values
//!   (`"value": [0,0,…]` under a Property): the metamodel's lists hold objects.
//!
//! It never panics, and says what it did not expect and where.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::de::{Deserialize, Deserializer, Error as _};
use serde_json::value::RawValue;

use crate::node::{Members, Node};

/// Whether the array or object of field `name` is read at once: the V2 metamodel's
/// fields that hold objects, or lists of them, which the conversion looks into by name
/// or walks into wherever it meets them. Read when taken instead, each would be passed
/// over once for every level above it (an element five collections deep, five times).
/// The environment's own lists (`submodels`, `conceptDescriptions`…) are not among
/// them: a file is read item by item.
fn read_at_once(name: &str) -> bool {
    matches!(
        name,
        "administration"
            | "annotation"
            | "annotations"
            | "asset"
            | "constraints"
            | "dataObjectType"
            | "dataSpecification"
            | "dataSpecificationContent"
            | "definition"
            | "derivedFrom"
            | "description"
            | "descriptions"
            | "embeddedDataSpecifications"
            | "first"
            | "globalAssetId"
            | "hasDataSpecification"
            | "identification"
            | "inoutputVariable"
            | "inputVariable"
            | "isCaseOf"
            | "keys"
            | "langString"
            | "levelType"
            | "modelType"
            | "observed"
            | "outputVariable"
            | "parent"
            | "preferredName"
            | "qualifiers"
            | "second"
            | "semanticId"
            | "shortName"
            | "statements"
            | "submodelElements"
            | "unitId"
            | "value"
            | "valueId"
            | "valueList"
            | "valueReferencePairTypes"
            | "valueReferencePairs"
            | "valueType"
    )
}

/// The deepest nesting read (the file and the answers are measured at 100 levels
/// before; serde_json's own reader stops at 128).
const MAX_DEPTH: usize = 128;

/// Objects with more fields than this find a repeated name through a map.
const FEW_FIELDS: usize = 16;

/// Why [`read`] stopped: the text is not JSON.
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
    let node = reader.value(Lists::Any)?;
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

/// What a list read at once may hold: anything (the value asked for), or objects and
/// lists only (a walked field's, see the module's doc).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lists {
    Any,
    OfObjects,
}

/// A list of plain values met where objects were expected: it is kept as text.
struct PlainItems;

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

    fn literal(&mut self, word: &'static str) -> Result<(), ReadError> {
        match self.bytes[self.at..].starts_with(word.as_bytes()) {
            true => {
                self.at += word.len();
                Ok(())
            }
            false => Err(self.error("unexpected word")),
        }
    }

    fn value(&mut self, lists: Lists) -> Result<Node<'a>, ReadError> {
        match self.peek() {
            Some(b'{') => self.nested(|r| r.object()),
            Some(b'[') => {
                let start = self.at;
                match self.nested(|r| r.list(lists))? {
                    Ok(list) => Ok(list),
                    Err(PlainItems) => {
                        self.at = start;
                        Ok(Node::Raw(self.passed()?))
                    }
                }
            }
            Some(b'"') => Ok(Node::Text(self.string()?)),
            Some(b't') => self.literal("true").map(|()| Node::Bool(true)),
            Some(b'f') => self.literal("false").map(|()| Node::Bool(false)),
            Some(b'n') => self.literal("null").map(|()| Node::Null),
            Some(b'-' | b'0'..=b'9') => Ok(Node::Number(Cow::Borrowed(self.number()?))),
            _ => Err(self.error("expected a JSON value")),
        }
    }

    fn nested<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T, ReadError>,
    ) -> Result<T, ReadError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.depth += 1;
        let read = read(self);
        self.depth -= 1;
        read
    }

    fn list(&mut self, lists: Lists) -> Result<Result<Node<'a>, PlainItems>, ReadError> {
        self.expect(b'[')?;
        let mut items = Vec::new();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Ok(Node::List(items)));
        }
        loop {
            let item = match self.peek() {
                Some(b'{' | b'[') => self.value(Lists::OfObjects)?,
                _ if lists == Lists::OfObjects => return Ok(Err(PlainItems)),
                _ => self.value(Lists::Any)?,
            };
            items.push(item);
            if self.ended_by(b']', "expected `,` or `]`")? {
                return Ok(Ok(Node::List(items)));
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
                Some(b'{' | b'[') if !read_at_once(&name) => Node::Raw(self.passed()?),
                _ => self.value(Lists::OfObjects)?,
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
            if self.ended_by(b'}', "expected `,` or `}`")? {
                return Ok(Node::Object(members));
            }
        }
    }

    /// After an item of a list or object: past its `,` (false), or past `close`, which
    /// ends it (true).
    fn ended_by(&mut self, close: u8, what: &'static str) -> Result<bool, ReadError> {
        match self.peek() {
            Some(b',') => self.at += 1,
            Some(b) if b == close => {
                self.at += 1;
                return Ok(true);
            }
            _ => return Err(self.error(what)),
        }
        Ok(false)
    }

    /// The text of the value that starts here, checked and passed over without a tree.
    fn passed(&mut self) -> Result<&'a str, ReadError> {
        let start = self.at;
        self.pass()?;
        self.since(start)
    }

    fn pass(&mut self) -> Result<(), ReadError> {
        match self.peek() {
            Some(b'{') => self.nested(|r| {
                r.at += 1;
                if r.peek() == Some(b'}') {
                    r.at += 1;
                    return Ok(());
                }
                loop {
                    if r.peek() != Some(b'"') {
                        return Err(r.error("expected a field name"));
                    }
                    r.pass_string()?;
                    r.expect(b':')?;
                    r.pass()?;
                    if r.ended_by(b'}', "expected `,` or `}`")? {
                        return Ok(());
                    }
                }
            }),
            Some(b'[') => self.nested(|r| {
                r.at += 1;
                if r.peek() == Some(b']') {
                    r.at += 1;
                    return Ok(());
                }
                loop {
                    r.pass()?;
                    if r.ended_by(b']', "expected `,` or `]`")? {
                        return Ok(());
                    }
                }
            }),
            Some(b'"') => self.pass_string(),
            Some(b't') => self.literal("true"),
            Some(b'f') => self.literal("false"),
            Some(b'n') => self.literal("null"),
            Some(b'-' | b'0'..=b'9') => self.number().map(drop),
            _ => Err(self.error("expected a JSON value")),
        }
    }

    /// Past a string, checked as [`Reader::string`] reads it.
    fn pass_string(&mut self) -> Result<(), ReadError> {
        self.expect(b'"')?;
        loop {
            match self.bytes.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(());
                }
                Some(b'\\') => self.pass_escape()?,
                Some(0..=0x1f) => return Err(self.error("control character in a string")),
                Some(_) => self.at += 1,
                None => return Err(self.error("the string does not end")),
            }
        }
    }

    /// Past an escape: one of JSON's, its four hex digits for `\u`. A surrogate
    /// without its pair passes, as serde_json lets it: the text stays as written, kept
    /// from a tree ([`Node::read`]) and reported so.
    fn pass_escape(&mut self) -> Result<(), ReadError> {
        self.at += 1;
        match self.bytes.get(self.at) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.at += 1,
            Some(b'u') => {
                self.at += 1;
                self.hex()?;
            }
            _ => return Err(self.error("invalid escape")),
        }
        Ok(())
    }

    /// A number's text, as written: `-`, digits without a leading zero, then perhaps a
    /// fraction and an exponent.
    fn number(&mut self) -> Result<&'a str, ReadError> {
        let start = self.at;
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        match self.bytes.get(self.at) {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error("invalid number")),
        }
        if self.bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            self.some_digits()?;
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.at) {
            self.at += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.at) {
                self.at += 1;
            }
            self.some_digits()?;
        }
        self.since(start)
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// One digit or more.
    fn some_digits(&mut self) -> Result<(), ReadError> {
        let start = self.at;
        self.digits();
        match self.at > start {
            true => Ok(()),
            false => Err(self.error("invalid number")),
        }
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
                Some(0..=0x1f) => return Err(self.error("control character in a string")),
                Some(_) => self.at += 1,
                None => return Err(self.error("the string does not end")),
            }
        }
        let mut text = self.since(start)?.to_owned();
        loop {
            let run = self.at;
            while let Some(&b) = self.bytes.get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
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
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("the string does not end")),
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
    /// The tree of `text`, one JSON value, checked as serde_json checks JSON (but for a
    /// depth past 128): the caller needs no other reading of it.
    pub fn from_json(text: &'a str) -> Result<Self, crate::Error> {
        read(text).map_err(|e| crate::Error::NotJson(e.to_string()))
    }

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

/// Read from the JSON text serde_json has passed over (and borrowed from its source,
/// which must therefore be a `&str` or `&[u8]`): see the `read` module. Where the text
/// is at hand, [`Node::from_json`] reads it once instead of twice.
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
    fn walked_fields_are_trees_and_the_rest_stays_text() {
        let json = r#"{"modelType": {"name": "SubmodelElementCollection"}, "idShort": "C",
            "x": [0, 0, {"a": "]}\"["}], "value": [{"idShort": "P", "value": [0, 0],
            "semanticId": {"keys": [{"value": "urn:x"}]}, "y": {"nested": [1]}}]}"#;
        let node = read(json).expect("JSON");
        assert_eq!(
            node.get("modelType").and_then(|m| m.get("name")),
            Some(&Node::text("SubmodelElementCollection"))
        );
        // A field no metamodel has: text until it is taken.
        assert_eq!(node.get("x"), Some(&Node::Raw(r#"[0, 0, {"a": "]}\"["}]"#)));
        // A walked field is a tree at once, to its references' keys…
        let element = &node.get("value").and_then(Node::as_list).expect("a list")[0];
        let keys = element.get("semanticId").and_then(|s| s.get("keys"));
        assert_eq!(
            keys.and_then(Node::as_list)
                .map(|keys| keys[0].get("value")),
            Some(Some(&Node::text("urn:x")))
        );
        // …but for a list of plain values where the metamodel has objects, and what no
        // metamodel has, at any depth.
        assert_eq!(element.get("value"), Some(&Node::Raw("[0, 0]")));
        let y = element.get("y").cloned().expect("there");
        assert_eq!(y, Node::Raw(r#"{"nested": [1]}"#));
        assert_eq!(
            y.read().get("nested").cloned().map(Node::read),
            Some(Node::List(vec![Node::Number("1".into())]))
        );
    }

    /// What the reader accepts is what serde_json accepts: every text made from a valid
    /// one by taking out a byte or putting another in its place, in a walked field, in
    /// one kept as text and between them.
    #[test]
    fn what_is_read_is_what_serde_json_reads() {
        let valid = r#"{"value": [{"idShort": "a\u00e9\n", "n": -12.5e+3}],
            "x": {"k": [true, false, null, 0, "\ud83d\ude00"]}, "semanticId": {"keys": []}}"#;
        let replacements = [
            b' ', b'"', b'\\', b',', b':', b'[', b']', b'{', b'}', b'0', b'-', b'.', b'e', b'u',
            b'x', 0x01, b'\t',
        ];
        let serde_reads = |text: &str| serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
        let mut texts = Vec::new();
        let bytes = valid.as_bytes();
        for at in 0..bytes.len() {
            let mut without = bytes.to_vec();
            without.remove(at);
            texts.push(without);
            for &b in &replacements {
                let mut replaced = bytes.to_vec();
                replaced[at] = b;
                texts.push(replaced);
            }
        }
        let mut rejected = 0;
        for text in texts.iter().filter_map(|t| std::str::from_utf8(t).ok()) {
            let serde = serde_reads(text);
            assert_eq!(read(text).is_ok(), serde, "{text}");
            rejected += usize::from(!serde);
        }
        assert!(rejected > 1000, "{rejected} of {} rejected", texts.len());
        // Deeper than serde_json reads a tree is refused, kept as text or not.
        for levels in [127, 128, 129] {
            let text = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
            assert_eq!(read(&text).is_ok(), levels <= MAX_DEPTH, "{levels} deep");
            let kept = format!(r#"{{"x": {text}}}"#);
            assert_eq!(
                read(&kept).is_ok(),
                levels < MAX_DEPTH,
                "{levels} deep, kept"
            );
        }
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
