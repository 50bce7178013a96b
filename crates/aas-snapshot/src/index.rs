//! The searchable rows of one `…/submodelElements` answer: every element, collections'
//! children included, with its idShort path, model type, value, language texts,
//! semanticId and description. An answer that is not a list of elements gives no rows:
//! it is still stored, only not searchable.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

/// The most of a value a row holds, in bytes as sent: what is indexed, searched and
/// shown of it. A 500 MB value was copied five times over (3.1 GB for one take); words
/// past this are not found, and the row says the value's whole length.
pub(crate) const VALUE_KEPT: usize = 64 * 1024;

/// One element as the index keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ElementRow {
    pub path: Vec<String>,
    pub model_type: String,
    /// A Property's value (or a Range's `min..max`, a File's address); its first
    /// [`VALUE_KEPT`] bytes when it is longer.
    pub value: Option<String>,
    /// A value cut to [`VALUE_KEPT`]: its whole length and its digest.
    pub cut: Option<Cut>,
    /// A MultiLanguageProperty's texts, `language: text` a line.
    pub texts: String,
    pub semantic_id: String,
    pub description: String,
}

/// What stands for the rest of a value that was cut: two values with the same start
/// differ when these do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cut {
    /// The value's length in bytes, as sent (its JSON text without the quotes).
    pub length: u64,
    pub sha256: Vec<u8>,
}

impl ElementRow {
    /// What the search looks in, as the index's columns order it: the idShort path,
    /// the value, the language texts, the semanticId and the description.
    pub fn fields(&self) -> [Cow<'_, str>; 5] {
        [
            Cow::Owned(self.path.join("/")),
            Cow::Borrowed(self.value.as_deref().unwrap_or("")),
            Cow::Borrowed(&self.texts),
            Cow::Borrowed(&self.semantic_id),
            Cow::Borrowed(&self.description),
        ]
    }
}

/// The rows of an elements answer, parents before their children.
pub(crate) fn element_rows(raw: &str) -> Vec<ElementRow> {
    let mut rows = Vec::new();
    if let Some(elements) = shaped::<Vec<&RawValue>>(raw, b'[') {
        for (position, element) in elements.into_iter().enumerate() {
            walk(element, &[], position, &mut rows);
        }
    }
    rows
}

/// The search index's document of an elements answer: each column's text of every
/// element, a line per element; `None` when the answer has no element.
pub(crate) fn document(rows: &[ElementRow]) -> Option<[String; 5]> {
    if rows.is_empty() {
        return None;
    }
    let mut columns: [String; 5] = Default::default();
    for (i, row) in rows.iter().enumerate() {
        for (column, field) in columns.iter_mut().zip(row.fields()) {
            if i > 0 {
                column.push('\n');
            }
            column.push_str(&field);
        }
    }
    Some(columns)
}

/// The parts of an element the index reads; the rest is passed over. Each is kept raw
/// and read on its own, so that one of an unexpected shape loses only itself.
#[derive(Deserialize)]
struct Element<'a> {
    #[serde(rename = "idShort", borrow)]
    id_short: Option<Cow<'a, str>>,
    #[serde(rename = "modelType", borrow)]
    model_type: Option<&'a RawValue>,
    #[serde(borrow)]
    value: Option<&'a RawValue>,
    #[serde(borrow)]
    min: Option<&'a RawValue>,
    #[serde(borrow)]
    max: Option<&'a RawValue>,
    #[serde(rename = "semanticId", borrow)]
    semantic_id: Option<&'a RawValue>,
    #[serde(borrow)]
    description: Option<&'a RawValue>,
    #[serde(borrow)]
    statements: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Named<'a> {
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct LangString<'a> {
    #[serde(borrow)]
    language: Option<&'a RawValue>,
    #[serde(borrow)]
    text: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Reference<'a> {
    #[serde(borrow)]
    keys: Vec<Key<'a>>,
}

#[derive(Deserialize)]
struct Key<'a> {
    #[serde(borrow)]
    value: Option<&'a RawValue>,
}

/// Adds the rows of element `raw`, at `position` among its siblings, below `parent`.
fn walk(raw: &RawValue, parent: &[String], position: usize, rows: &mut Vec<ElementRow>) {
    // Answers past the bound are refused when they arrive; a store written before that
    // may still hold one, and recursing into it would overflow the stack.
    if parent.len() >= aas_model::MAX_ELEMENT_DEPTH {
        return;
    }
    let Some(element) = shaped::<Element>(raw.get(), b'{') else {
        return;
    };
    // V2 writes `{"name": …}`, V3 the name.
    let model_type = element.model_type.map(|m| match m.get().starts_with('"') {
        true => (plain(Some(m)), true),
        false => (shaped::<Named>(m.get(), b'{').and_then(|m| m.name))
            .map(|name| (name.into_owned(), false))
            .unwrap_or_default(),
    });
    let (model_type, v3) = model_type.unwrap_or_default();
    // V3 leaves a list's items without an idShort: they go by their position.
    let id_short = match element.id_short {
        Some(id_short) => id_short.into_owned(),
        None if v3 => position.to_string(),
        None => return,
    };
    let mut path = parent.to_vec();
    path.push(id_short);
    // A list value is read once: as language strings here, as children below.
    let value_items: Option<Vec<&RawValue>> = element.value.and_then(|v| shaped(v.get(), b'['));
    let items = value_items.as_deref().map(lang_strings);
    let mut cut = None;
    let (value, texts) = match (element.value, &items) {
        (Some(value), None) if !matches!(value.get().as_bytes()[0], b'{' | b'n') => {
            let (kept, rest) = kept_of(value);
            cut = rest;
            (Some(kept), String::new())
        }
        (_, Some(items)) if items.iter().any(|i| i.language.is_some()) => (None, lang_texts(items)),
        // A Range with at least one end set (serde reads a null end as none); an open
        // end shows empty.
        _ => match (element.min, element.max) {
            (None, None) => (None, String::new()),
            (min, max) => (
                Some(format!("{}..{}", plain(min), plain(max))),
                String::new(),
            ),
        },
    };
    rows.push(ElementRow {
        path: path.clone(),
        model_type,
        value,
        cut,
        texts,
        semantic_id: element
            .semantic_id
            .and_then(|r| shaped::<Reference>(r.get(), b'{'))
            .map(|r| {
                let keys: Vec<String> = r.keys.iter().map(|k| plain(k.value)).collect();
                keys.join(" / ")
            })
            .unwrap_or_default(),
        description: element
            .description
            .and_then(list)
            .map(|l| lang_texts(&l))
            .unwrap_or_default(),
    });
    // A collection's (or entity's) children.
    let statements: Option<Vec<&RawValue>> = element.statements.and_then(|s| shaped(s.get(), b'['));
    let children = value_items.into_iter().chain(statements).flatten();
    for (position, child) in children.enumerate() {
        walk(child, &path, position, rows);
    }
}

/// A value's text, cut to [`VALUE_KEPT`] bytes of its JSON text when longer: only the
/// start is unescaped, so a large value is never copied whole.
fn kept_of(value: &RawValue) -> (String, Option<Cut>) {
    let raw = value.get();
    if raw.len() <= VALUE_KEPT + 2 {
        return (plain(Some(value)), None);
    }
    let rest = Some(Cut {
        length: raw.len() as u64 - 2,
        sha256: crate::content::hash(raw.as_bytes()),
    });
    if !raw.starts_with('"') {
        // A number this long: its digits as they are.
        return (raw[..raw.floor_char_boundary(VALUE_KEPT)].to_owned(), rest);
    }
    let end = whole_escapes_end(&raw[1..], VALUE_KEPT);
    let start = format!("\"{}\"", &raw[1..1 + end]);
    (serde_json::from_str(&start).unwrap_or_default(), rest)
}

/// The largest length up to `most` of JSON string text `text` (without its opening
/// quote) that ends neither inside an escape (`\n`, `\u00e9`) nor inside a character.
fn whole_escapes_end(text: &str, most: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let unit = match bytes[at] {
            b'\\' if bytes.get(at + 1) == Some(&b'u') => 6,
            b'\\' => 2,
            _ => 1,
        };
        if at + unit > most {
            break;
        }
        at += unit;
    }
    text.floor_char_boundary(at)
}

/// `raw` read as `T` when it opens with `open` (`[` or `{`), else `None` without trying:
/// serde's error for a string of the wrong type quotes the whole string, which for a
/// 200 MB value was 400 MB more.
fn shaped<'a, T: Deserialize<'a>>(raw: &'a str, open: u8) -> Option<T> {
    let first = raw.trim_start().as_bytes().first();
    (first == Some(&open))
        .then(|| serde_json::from_str(raw).ok())
        .flatten()
}

/// A JSON array's items as language strings (other items have neither field).
fn list(raw: &RawValue) -> Option<Vec<LangString<'_>>> {
    let items: Vec<&RawValue> = shaped(raw.get(), b'[')?;
    Some(lang_strings(&items))
}

/// Items as language strings (other items have neither field).
fn lang_strings<'a>(items: &[&'a RawValue]) -> Vec<LangString<'a>> {
    items
        .iter()
        .map(|i| {
            shaped(i.get(), b'{').unwrap_or(LangString {
                language: None,
                text: None,
            })
        })
        .collect()
}

/// A string's text, `""` for null or nothing, any other value as JSON.
fn plain(v: Option<&RawValue>) -> String {
    let Some(v) = v else {
        return String::new();
    };
    match v.get() {
        "null" => String::new(),
        s if s.starts_with('"') => serde_json::from_str::<String>(s).unwrap_or_default(),
        other => other.to_owned(),
    }
}

/// `language: text` lines of a LangString list.
fn lang_texts(list: &[LangString]) -> String {
    list.iter()
        .map(|i| format!("{}: {}", plain(i.language), plain(i.text)))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collections_are_walked_and_each_kind_of_value_is_kept() {
        let raw = r#"[
          {"idShort":"Serial","modelType":{"name":"Property"},"value":"SN-1",
           "semanticId":{"keys":[{"value":"0173-1#02-AAM556#002"}]},
           "description":[{"language":"en","text":"serial number"}]},
          {"idShort":"Address","modelType":{"name":"SubmodelElementCollection"},"value":[
            {"idShort":"City","modelType":{"name":"Property"},"value":"Stuttgart"},
            {"idShort":"Name","modelType":{"name":"MultiLanguageProperty"},
             "value":[{"language":"de","text":"Pumpe"},{"language":"en","text":"Pump"}]}]},
          {"idShort":"Speed","modelType":{"name":"Range"},"min":1,"max":5},
          {"no":"idShort"}
        ]"#;
        let rows = element_rows(raw);
        let paths: Vec<String> = rows.iter().map(|r| r.path.join("/")).collect();
        assert_eq!(
            paths,
            ["Serial", "Address", "Address/City", "Address/Name", "Speed"]
        );
        assert_eq!(rows[0].value.as_deref(), Some("SN-1"));
        assert_eq!(rows[0].semantic_id, "0173-1#02-AAM556#002");
        assert_eq!(rows[0].description, "en: serial number");
        assert_eq!(rows[3].texts, "de: Pumpe\nen: Pump");
        assert_eq!(rows[4].value.as_deref(), Some("1..5"));
        assert!(element_rows("{\"not\":\"a list\"}").is_empty());
    }

    #[test]
    fn v3_elements_are_walked_and_a_lists_items_go_by_their_position() {
        let raw = r#"[
          {"idShort":"Markings","modelType":"SubmodelElementList","value":[
            {"modelType":"SubmodelElementCollection","value":[
              {"idShort":"MarkingName","modelType":"Property","valueType":"xs:string","value":"CE"}]},
            {"modelType":"Property","valueType":"xs:string","value":"UKCA"}]}
        ]"#;
        let rows = element_rows(raw);
        let paths: Vec<String> = rows.iter().map(|r| r.path.join("/")).collect();
        assert_eq!(
            paths,
            [
                "Markings",
                "Markings/0",
                "Markings/0/MarkingName",
                "Markings/1"
            ]
        );
        assert_eq!(rows[0].model_type, "SubmodelElementList");
        assert_eq!(rows[3].value.as_deref(), Some("UKCA"));
    }

    #[test]
    fn a_range_has_a_value_when_one_end_is_set_and_an_open_end_shows_empty() {
        let raw = r#"[
          {"idShort":"Open","modelType":{"name":"Range"},"min":null,"max":7},
          {"idShort":"Unset","modelType":{"name":"Range"},"min":null,"max":null},
          {"idShort":"Lone","modelType":{"name":"Range"},"min":1}
        ]"#;
        let values: Vec<Option<String>> = element_rows(raw).into_iter().map(|r| r.value).collect();
        assert_eq!(
            values,
            [Some("..7".to_owned()), None, Some("1..".to_owned())]
        );
    }

    #[test]
    fn a_long_value_is_kept_cut_with_its_length_and_digest_and_escapes_stay_whole() {
        let long = format!("{}{}", "\\u00e9".repeat(VALUE_KEPT / 6 + 1), "end");
        let raw =
            format!(r#"[{{"idShort":"Big","modelType":{{"name":"Property"}},"value":"{long}"}}]"#);
        let row = &element_rows(&raw)[0];
        let value = row.value.as_deref().expect("a value");
        assert!(value.chars().all(|c| c == 'é'), "escapes unescaped whole");
        assert!(value.len() <= 2 * VALUE_KEPT / 6 + 2, "{}", value.len());
        let cut = row.cut.as_ref().expect("cut");
        assert_eq!(cut.length, long.len() as u64);
        let other = raw.replace("end", "END");
        assert_ne!(element_rows(&other)[0].cut, row.cut, "the rest differs");
        assert_eq!(element_rows(&other)[0].value, row.value);
        let short = r#"[{"idShort":"S","modelType":{"name":"Property"},"value":"a\nb"}]"#;
        assert_eq!(element_rows(short)[0].value.as_deref(), Some("a\nb"));
        assert_eq!(element_rows(short)[0].cut, None);
    }
}
