//! A cell: the element's value in one line, as the details pane shows it, and what that
//! value is by the element's value type (a number, a date, a truth value, text), so that
//! sorting, range filters and spreadsheets treat it as such. A shell without the element
//! has a missing cell, which is not the same as an element whose value is empty.

use aas_model::{scalar_text, ElementBody, ElementKind, SubmodelElement};

use crate::language;

#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// The shell has no such element.
    Missing,
    Value {
        /// The value as shown.
        text: String,
        typed: Typed,
        /// Where the element is (`Submodel/a/b`), when the column does not say it: a
        /// column by semanticId finds it under any idShort.
        at: Option<Box<str>>,
        /// A Range's two ends, which files write as two columns (one line of text
        /// cannot be one typed spreadsheet cell).
        ends: Option<Box<Ends>>,
    },
}

/// A Range's minimum and maximum, each read as a value of the range's type.
#[derive(Debug, Clone, PartialEq)]
pub struct Ends {
    pub min: End,
    pub max: End,
}

/// One end of a Range: as written, and what it is (`Empty` when open).
#[derive(Debug, Clone, PartialEq)]
pub struct End {
    pub text: String,
    pub typed: Typed,
}

/// Which part of a cell a file's column holds: a column holding Ranges is written as
/// two, its minimums and its maximums.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Whole,
    Min,
    Max,
}

/// What a value is, read by its element's value type; a value that does not read as
/// its type is text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Typed {
    /// No value, or only blanks.
    Empty,
    Text,
    Number(f64),
    Date(Date),
    Bool(bool),
}

/// A date, with the time of day when the value has one; the time zone is not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
    /// Hours, minutes, seconds (and milliseconds) of a dateTime.
    pub time: Option<(u8, u8, u8, u16)>,
}

impl Cell {
    /// The cell of `element`; a MultiLanguageProperty shows the text `languages`
    /// choose.
    pub(crate) fn of(element: &SubmodelElement, languages: &[String]) -> Cell {
        let (text, value_type) = match &element.body {
            ElementBody::MultiLanguageProperty(m) => {
                let texts = m.value.as_ref().map(Vec::as_slice).unwrap_or_default();
                let pick = language::chosen(texts.iter().map(|t| t.language.as_str()), languages);
                (
                    pick.map(|i| texts[i].text.clone()).unwrap_or_default(),
                    None,
                )
            }
            ElementBody::Range(r) => {
                let value_type = element.value_type();
                let end = |v: Option<&serde_json::Value>| {
                    let text = v.and_then(scalar_text).unwrap_or_default();
                    let typed = typed(value_type.as_deref(), &text);
                    End { text, typed }
                };
                let (min, max) = (end(r.min.as_ref()), end(r.max.as_ref()));
                // A range sorts and filters by its minimum (its maximum when open below).
                let typed = match (min.typed, max.typed) {
                    (Typed::Empty, max) => max,
                    (min, _) => min,
                };
                let text = match typed {
                    Typed::Empty => String::new(),
                    _ => shown(element),
                };
                return Cell::Value {
                    text,
                    typed,
                    at: None,
                    ends: Some(Box::new(Ends { min, max })),
                };
            }
            _ => (shown(element), element.value_type()),
        };
        let typed = typed(value_type.as_deref(), &text);
        Cell::Value {
            text,
            typed,
            at: None,
            ends: None,
        }
    }

    /// A shell's own field.
    pub(crate) fn text(text: &str) -> Cell {
        Cell::Value {
            text: text.to_owned(),
            typed: typed(None, text),
            at: None,
            ends: None,
        }
    }

    /// The value as shown; `None` when missing.
    pub fn shown(&self) -> Option<&str> {
        match self {
            Cell::Missing => None,
            Cell::Value { text, .. } => Some(text),
        }
    }

    pub fn typed(&self) -> Option<Typed> {
        match self {
            Cell::Missing => None,
            Cell::Value { typed, .. } => Some(*typed),
        }
    }

    /// Whether the cell is a Range's.
    pub fn is_range(&self) -> bool {
        matches!(self, Cell::Value { ends: Some(_), .. })
    }

    /// The text and type of `part` of the cell; `None` when missing. A value that is not
    /// a Range is both its own minimum and maximum.
    pub fn part(&self, part: Part) -> Option<(&str, Typed)> {
        let Cell::Value {
            text, typed, ends, ..
        } = self
        else {
            return None;
        };
        Some(match (part, ends) {
            (Part::Min, Some(ends)) => (&ends.min.text, ends.min.typed),
            (Part::Max, Some(ends)) => (&ends.max.text, ends.max.typed),
            _ => (text, *typed),
        })
    }
}

/// A value in one line: a collection or entity by how many elements it holds, an
/// element without a value as nothing.
fn shown(element: &SubmodelElement) -> String {
    match element.kind() {
        ElementKind::SubmodelElementCollection | ElementKind::Entity => {
            let n = element.nested().count();
            format!("{n} element{}", if n == 1 { "" } else { "s" })
        }
        ElementKind::Blob => match &element.body {
            ElementBody::Blob(b) => b.content_type().unwrap_or_default().to_owned(),
            _ => String::new(),
        },
        _ => element.display_value().ok().flatten().unwrap_or_default(),
    }
}

/// What `text` is as a value of the XSD type `value_type` (V2 `int`, V3 `xs:int`).
pub(crate) fn typed(value_type: Option<&str>, text: &str) -> Typed {
    let text = text.trim();
    if text.is_empty() {
        return Typed::Empty;
    }
    let name = value_type.unwrap_or_default();
    let name = name
        .strip_prefix("xs:")
        .unwrap_or(name)
        .to_ascii_lowercase();
    let read = match name.as_str() {
        "boolean" => match text {
            "true" | "1" => Some(Typed::Bool(true)),
            "false" | "0" => Some(Typed::Bool(false)),
            _ => None,
        },
        "date" | "datetime" | "datetimestamp" => date(text).map(Typed::Date),
        "decimal" | "double" | "float" | "integer" | "int" | "long" | "short" | "byte"
        | "unsignedint" | "unsignedlong" | "unsignedshort" | "unsignedbyte" | "positiveinteger"
        | "negativeinteger" | "nonnegativeinteger" | "nonpositiveinteger" | "gyear" => {
            number(text).map(Typed::Number)
        }
        _ => None,
    };
    read.unwrap_or(Typed::Text)
}

/// A decimal number as XSD writes one (`INF` and `NaN` are not ordered: text).
pub(crate) fn number(text: &str) -> Option<f64> {
    let plain = text
        .bytes()
        .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b));
    text.parse::<f64>().ok().filter(|n| plain && n.is_finite())
}

/// `YYYY-MM-DD`, optionally followed by `THH:MM:SS[.fff]` and a zone.
pub(crate) fn date(text: &str) -> Option<Date> {
    let digits = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    let (day_part, time_part) = match text.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (text.get(..10).unwrap_or(text), None),
    };
    let mut ymd = day_part.splitn(3, '-');
    let (y, m, d) = (ymd.next()?, ymd.next()?, ymd.next()?);
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let (year, month, day) = (digits(y)?, digits(m)?, digits(d)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || year == 0 {
        return None;
    }
    let time = match time_part {
        None => None,
        Some(t) => {
            let clock = t.get(..8)?;
            let mut hms = clock.splitn(3, ':');
            let (h, mi, s) = (
                digits(hms.next()?)?,
                digits(hms.next()?)?,
                digits(hms.next()?)?,
            );
            if h > 23 || mi > 59 || s > 60 {
                return None;
            }
            let millis = t
                .get(8..)
                .and_then(|rest| rest.strip_prefix('.'))
                .map(|f| {
                    f.bytes()
                        .take_while(u8::is_ascii_digit)
                        .take(3)
                        .collect::<Vec<_>>()
                })
                .map(|f| {
                    let n = std::str::from_utf8(&f)
                        .ok()
                        .and_then(|s| s.parse::<u16>().ok())
                        .unwrap_or(0);
                    n * [100, 10, 1][f.len().clamp(1, 3) - 1]
                })
                .unwrap_or(0);
            Some((h as u8, mi as u8, s.min(59) as u8, millis))
        }
    };
    Some(Date {
        year: u16::try_from(year).ok()?,
        month: month as u8,
        day: day as u8,
        time,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(json: &str) -> SubmodelElement {
        aas_model::parse(json).expect("an element")
    }

    #[test]
    fn an_empty_value_is_a_value_and_not_missing() {
        let empty = element(
            r#"{"idShort":"S","modelType":{"name":"Property"},"valueType":"string","value":""}"#,
        );
        let cell = Cell::of(&empty, &[]);
        assert_eq!(cell.typed(), Some(Typed::Empty));
        assert_eq!(cell.shown(), Some(""));
        assert_ne!(cell, Cell::Missing);
        let open = element(
            r#"{"idShort":"R","modelType":{"name":"Range"},"valueType":"double","max":"40"}"#,
        );
        assert_eq!(Cell::of(&open, &[]).typed(), Some(Typed::Number(40.0)));
        let none = element(r#"{"idShort":"R","modelType":{"name":"Range"},"valueType":"double"}"#);
        assert_eq!(Cell::of(&none, &[]).typed(), Some(Typed::Empty));
    }

    #[test]
    fn values_read_as_their_type_or_else_as_text() {
        assert_eq!(typed(Some("int"), "2019"), Typed::Number(2019.0));
        assert_eq!(typed(Some("xs:double"), " -12.5 "), Typed::Number(-12.5));
        assert_eq!(typed(Some("double"), "twelve"), Typed::Text);
        assert_eq!(typed(Some("double"), "NaN"), Typed::Text);
        assert_eq!(typed(Some("boolean"), "true"), Typed::Bool(true));
        assert_eq!(typed(Some("string"), "42"), Typed::Text);
        assert_eq!(typed(Some("int"), "  "), Typed::Empty);
        assert_eq!(
            typed(Some("date"), "2021-03-04"),
            Typed::Date(Date {
                year: 2021,
                month: 3,
                day: 4,
                time: None
            })
        );
        assert_eq!(
            typed(Some("dateTime"), "2021-03-04T05:06:07.5Z"),
            Typed::Date(Date {
                year: 2021,
                month: 3,
                day: 4,
                time: Some((5, 6, 7, 500))
            })
        );
        assert_eq!(typed(Some("date"), "2021-13-04"), Typed::Text);
        assert_eq!(typed(Some("date"), "04.03.2021"), Typed::Text);
    }
}
