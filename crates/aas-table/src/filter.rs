//! Filters per column: contains, equals (both without regard to case), empty (missing
//! or no value), not empty, and at least / at most, which compare as sorting does (a
//! number column by number, a date column by date, text naturally). On the command line
//! a filter is `COLUMN~TEXT`, `COLUMN=TEXT`, `COLUMN=` (empty), `COLUMN!=` (not empty),
//! `COLUMN>=VALUE` or `COLUMN<=VALUE`, the column named as in `--column` or by its
//! header; in a column's filter box of the app the same without the column, where plain
//! text is "contains" ([`Test::of_box`]).

use std::cmp::Ordering;

use serde::Deserialize;

use crate::build::TableColumn;
use crate::cell::{self, Cell, Typed};
use crate::order::Key;
use crate::{Error, Result};

#[derive(Debug, Clone, PartialEq)]
pub struct ColumnFilter {
    pub column: usize,
    pub test: Test,
}

/// What a column's filter box holds, as the page sends it: its column and its text.
#[derive(Debug, Clone, Deserialize)]
pub struct FilterBox {
    pub column: usize,
    pub text: String,
}

impl FilterBox {
    /// The filter the box asks for; `None` for an empty box.
    pub fn filter(&self) -> Option<ColumnFilter> {
        Test::of_box(&self.text).map(|test| ColumnFilter {
            column: self.column,
            test,
        })
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    Contains(String),
    Equals(String),
    Empty,
    NotEmpty,
    AtLeast(String),
    AtMost(String),
}

impl Test {
    /// What the text of a column's filter box asks: `=` empty or missing, `!=` has a
    /// value, `=X` equals, `>=X` at least, `<=X` at most, `~X` or plain `X` contains;
    /// `None` for an empty box.
    pub fn of_box(text: &str) -> Option<Test> {
        let t = text.trim();
        let after = |op: &str| t[op.len()..].trim().to_owned();
        Some(match t {
            "" => return None,
            "=" => Test::Empty,
            "!=" => Test::NotEmpty,
            _ if t.starts_with(">=") => Test::AtLeast(after(">=")),
            _ if t.starts_with("<=") => Test::AtMost(after("<=")),
            _ if t.starts_with('=') => Test::Equals(after("=")),
            _ if t.starts_with('~') => Test::Contains(after("~")),
            _ => Test::Contains(t.to_owned()),
        })
    }
}

impl ColumnFilter {
    /// A filter as written on the command line, over `columns`.
    pub fn parse(text: &str, columns: &[TableColumn]) -> Result<ColumnFilter> {
        // The longest column name the text starts with that an operator follows: a
        // semanticId may hold `=` or `~`, a name never ends where an operator begins.
        let mut best: Option<(usize, usize, &str)> = None;
        for (i, column) in columns.iter().enumerate() {
            for name in [column.column.to_string(), column.label.clone()] {
                let Some(rest) = text.strip_prefix(name.as_str()) else {
                    continue;
                };
                let op = ["~", "!=", ">=", "<=", "="]
                    .into_iter()
                    .find(|op| rest.starts_with(op));
                if let Some(op) = op {
                    if best.is_none_or(|(_, len, _)| name.len() > len) {
                        best = Some((i, name.len(), op));
                    }
                }
            }
        }
        let Some((column, len, op)) = best else {
            return Err(Error::Filter {
                text: text.to_owned(),
                reason: "does not start with a column of the table followed by ~ = != >= or <="
                    .into(),
            });
        };
        let value = text[len + op.len()..].to_owned();
        let test = match (op, value.is_empty()) {
            ("=", true) => Test::Empty,
            ("!=", true) => Test::NotEmpty,
            ("!=", false) => {
                return Err(Error::Filter {
                    text: text.to_owned(),
                    reason: "compares with != only to nothing (COLUMN!= keeps rows with a value)"
                        .into(),
                })
            }
            ("=", false) => Test::Equals(value),
            ("~", _) => Test::Contains(value),
            (">=", _) => Test::AtLeast(value),
            _ => Test::AtMost(value),
        };
        Ok(ColumnFilter { column, test })
    }

    /// The filter made ready to test many cells.
    pub(crate) fn prepared(&self) -> Prepared {
        let lower = |s: &str| s.trim().to_lowercase();
        match &self.test {
            Test::Contains(s) => Prepared::Contains(lower(s)),
            Test::Equals(s) => Prepared::Equals(lower(s)),
            Test::Empty => Prepared::Empty,
            Test::NotEmpty => Prepared::NotEmpty,
            Test::AtLeast(s) => Prepared::Compare(bound(s), Ordering::Less),
            Test::AtMost(s) => Prepared::Compare(bound(s), Ordering::Greater),
        }
    }
}

pub(crate) enum Prepared {
    Contains(String),
    Equals(String),
    Empty,
    NotEmpty,
    /// Keeps values that do not compare to the bound as this.
    Compare(Key, Ordering),
}

impl Prepared {
    pub(crate) fn keeps(&self, cell: &Cell) -> bool {
        let has_value = !matches!(cell.typed(), None | Some(Typed::Empty));
        let text = || cell.shown().unwrap_or_default().trim().to_lowercase();
        match self {
            Prepared::Contains(s) => has_value && text().contains(s.as_str()),
            Prepared::Equals(s) => has_value && text() == *s,
            Prepared::Empty => !has_value,
            Prepared::NotEmpty => has_value,
            Prepared::Compare(bound, outside) => {
                let key = Key::of(cell);
                has_value && same_kind(&key, bound) && key.cmp(bound, false) != *outside
            }
        }
    }
}

/// A bound read as a number, else a date, else text.
fn bound(text: &str) -> Key {
    let text = text.trim();
    if let Some(n) = cell::number(text) {
        Key::Number(n)
    } else if let Some(d) = cell::date(text) {
        Key::Date(d)
    } else {
        Key::Text(text.to_lowercase())
    }
}

/// Whether a bound applies to a value: a number bound to numbers, and so on.
fn same_kind(value: &Key, bound: &Key) -> bool {
    std::mem::discriminant(value) == std::mem::discriminant(bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filter_box_reads_as_the_tests_the_table_knows() {
        let of = |text: &str| Test::of_box(text);
        assert_eq!(of("  "), None);
        assert_eq!(of("="), Some(Test::Empty));
        assert_eq!(of("!="), Some(Test::NotEmpty));
        assert_eq!(of("= Acme "), Some(Test::Equals("Acme".into())));
        assert_eq!(of(">=2015"), Some(Test::AtLeast("2015".into())));
        assert_eq!(of("<= 2020-01-01"), Some(Test::AtMost("2020-01-01".into())));
        assert_eq!(of("~pump"), Some(Test::Contains("pump".into())));
        assert_eq!(of("pump"), Some(Test::Contains("pump".into())));
        let boxed = FilterBox {
            column: 2,
            text: "=".into(),
        };
        assert_eq!(
            boxed.filter(),
            Some(ColumnFilter {
                column: 2,
                test: Test::Empty
            })
        );
    }
}
