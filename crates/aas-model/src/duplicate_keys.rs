//! Keys an object gives more than once (`{"idShort": "P1", "idShort": "P2"}`). JSON
//! leaves open which value is meant; serde_json (and so every reader here) keeps the
//! last and drops the others without a word. The typed model refuses such an element
//! (`inspect` names it); this finds every one, anywhere in a document, with its JSON
//! path, so that `inspect` names them all and `aasmd convert` reports (or, strict,
//! refuses) each instead of changing the data silently.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

/// A key one object gives more than once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey<'a> {
    /// The key's JSON path, as the conversion report and `inspect` write paths:
    /// `submodels[0].submodelElements[3].idShort`, `[2].idShort` in a list, `idShort`
    /// at the top.
    pub path: String,
    pub key: Cow<'a, str>,
    /// Each value given for the key, as its JSON text, in the order written: the last
    /// is the one JSON readers keep.
    pub values: Vec<&'a str>,
}

/// Why a key given twice is a problem, in the words the typed model uses.
pub(crate) fn given_twice(key: &str) -> String {
    format!("the key `{key}` is given twice, so which value is meant is not known")
}

/// Every key an object of `json` gives more than once, in the order the repetitions
/// occur. `json` is checked JSON (read by serde_json before); past anything else the
/// scan stops with what it found. Objects nested deeper than 128 levels are not looked
/// into (files and answers are refused past 100 before).
pub fn duplicate_keys(json: &str) -> Vec<DuplicateKey<'_>> {
    let mut scan = Scan {
        text: json,
        bytes: json.as_bytes(),
        at: 0,
        path: Vec::new(),
        found: Vec::new(),
    };
    let _ = scan.value();
    scan.found.sort_by_key(|(at, _)| *at);
    scan.found.into_iter().map(|(_, found)| found).collect()
}

/// The deepest nesting looked into.
const MAX_DEPTH: usize = 128;

/// Objects with more keys than this find repetitions through a map.
const FEW_KEYS: usize = 16;

enum Segment<'a> {
    Key(Cow<'a, str>),
    Index(usize),
}

struct Scan<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    path: Vec<Segment<'a>>,
    /// Each finding with the offset of its first repetition, to sort them by.
    found: Vec<(usize, DuplicateKey<'a>)>,
}

/// One object's keys so far: where each key's first value is, then, for a key given
/// again, all its values.
#[derive(Default)]
struct Keys<'a> {
    first: Vec<(Cow<'a, str>, &'a str)>,
    index: Option<HashMap<Cow<'a, str>, usize>>,
    /// Keys given more than once: index in `first`, the offset of the first
    /// repetition, and the values after the first.
    repeated: Vec<(usize, usize, Vec<&'a str>)>,
}

impl<'a> Scan<'a> {
    fn whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Option<()> {
        self.whitespace();
        match self.bytes.get(self.at)? {
            b'{' if self.path.len() < MAX_DEPTH => self.object(),
            b'[' if self.path.len() < MAX_DEPTH => self.list(),
            b'{' | b'[' => self.skip_nested(),
            b'"' => self.string().map(drop),
            _ => {
                // A number, true, false or null.
                while let Some(b) = self.bytes.get(self.at) {
                    if matches!(b, b',' | b']' | b'}' | b' ' | b'\n' | b'\r' | b'\t') {
                        break;
                    }
                    self.at += 1;
                }
                Some(())
            }
        }
    }

    fn list(&mut self) -> Option<()> {
        self.at += 1;
        let mut i = 0;
        loop {
            self.whitespace();
            match self.bytes.get(self.at)? {
                b']' => {
                    self.at += 1;
                    return Some(());
                }
                b',' => self.at += 1,
                _ => {
                    self.path.push(Segment::Index(i));
                    let read = self.value();
                    self.path.pop();
                    read?;
                    i += 1;
                }
            }
        }
    }

    fn object(&mut self) -> Option<()> {
        self.at += 1;
        let mut keys = Keys::default();
        loop {
            self.whitespace();
            match self.bytes.get(self.at)? {
                b'}' => {
                    self.at += 1;
                    break;
                }
                b',' => self.at += 1,
                _ => {
                    let key_at = self.at;
                    let key = self.string()?;
                    self.whitespace();
                    (self.bytes.get(self.at)? == &b':').then_some(())?;
                    self.at += 1;
                    self.whitespace();
                    let start = self.at;
                    self.path.push(Segment::Key(key.clone()));
                    let read = self.value();
                    self.path.pop();
                    read?;
                    let value = self.text.get(start..self.at)?.trim_end();
                    keys.add(key, value, key_at);
                }
            }
        }
        for (i, at, mut later) in keys.repeated {
            // Each key is taken once: a placeholder is left in its place.
            let (key, first) = std::mem::replace(&mut keys.first[i], (Cow::Borrowed(""), ""));
            later.insert(0, first);
            let path = self.path_to(&key);
            self.found.push((
                at,
                DuplicateKey {
                    path,
                    key,
                    values: later,
                },
            ));
        }
        Some(())
    }

    /// The path of `key` in the object the scan is in.
    fn path_to(&self, key: &str) -> String {
        let mut path = String::new();
        for segment in &self.path {
            match segment {
                Segment::Key(k) if path.is_empty() => path.push_str(k),
                Segment::Key(k) => {
                    path.push('.');
                    path.push_str(k);
                }
                Segment::Index(i) => {
                    let _ = write!(path, "[{i}]");
                }
            }
        }
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
        path
    }

    /// A string's text, past its closing quote; unescaped only when it has escapes.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        (self.bytes.get(self.at)? == &b'"').then_some(())?;
        let start = self.at;
        self.at += 1;
        let mut escaped = false;
        loop {
            match self.bytes.get(self.at)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    self.at += 2;
                }
                _ => self.at += 1,
            }
        }
        self.at += 1;
        let quoted = self.text.get(start..self.at)?;
        match escaped {
            false => Some(Cow::Borrowed(&quoted[1..quoted.len() - 1])),
            true => serde_json::from_str::<String>(quoted).ok().map(Cow::Owned),
        }
    }

    /// Past an array or object nested too deeply to look into.
    fn skip_nested(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.bytes.get(self.at)? {
                b'"' => {
                    self.string()?;
                    continue;
                }
                b'[' | b'{' => depth += 1,
                b']' | b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        self.at += 1;
                        return Some(());
                    }
                }
                _ => {}
            }
            self.at += 1;
        }
    }
}

impl<'a> Keys<'a> {
    fn add(&mut self, key: Cow<'a, str>, value: &'a str, key_at: usize) {
        let found = match &self.index {
            Some(index) => index.get(&key).copied(),
            None => self.first.iter().position(|(k, _)| *k == key),
        };
        let Some(i) = found else {
            if let Some(index) = &mut self.index {
                index.insert(key.clone(), self.first.len());
            }
            self.first.push((key, value));
            if self.index.is_none() && self.first.len() > FEW_KEYS {
                let keys = self.first.iter().enumerate();
                self.index = Some(keys.map(|(i, (k, _))| (k.clone(), i)).collect());
            }
            return;
        };
        match self.repeated.iter_mut().find(|(r, _, _)| *r == i) {
            Some((_, _, later)) => later.push(value),
            None => self.repeated.push((i, key_at, vec![value])),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_repeated_key_is_found_with_its_path_and_values() {
        let json = r#"{"submodels": [{"idShort": "S", "submodelElements": [
            {"idShort": "P1", "value": 1, "idShort" : "P2" },
            {"idShort": "Q", "value": {"a": [1, 2], "a": {"b": "}"}}, "val\u0075e": 3}]}],
            "x": "top", "x": "again", "x": null}"#;
        let found = duplicate_keys(json);
        let summary: Vec<(&str, &str, Vec<&str>)> = found
            .iter()
            .map(|d| (d.path.as_str(), d.key.as_ref(), d.values.clone()))
            .collect();
        assert_eq!(
            summary,
            [
                (
                    "submodels[0].submodelElements[0].idShort",
                    "idShort",
                    vec![r#""P1""#, r#""P2""#]
                ),
                (
                    "submodels[0].submodelElements[1].value.a",
                    "a",
                    vec!["[1, 2]", r#"{"b": "}"}"#]
                ),
                (
                    "submodels[0].submodelElements[1].value",
                    "value",
                    vec![r#"{"a": [1, 2], "a": {"b": "}"}}"#, "3"]
                ),
                ("x", "x", vec![r#""top""#, r#""again""#, "null"]),
            ]
        );
        assert!(duplicate_keys(r#"[{"a": 1, "b": {"a": 2}}, {"a": 3}]"#).is_empty());
        let many: String = (0..100).map(|i| format!(r#""k{i}": {i}, "#)).collect();
        let json = format!(r#"[0, {{{many} "k7": "last"}}]"#);
        let found = duplicate_keys(&json);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].path.as_str(), found[0].values.as_slice()),
            ("[1].k7", &["7", r#""last""#][..])
        );
    }
}
