//! How cells compare, for sorting and for range filters: numbers as numbers, dates as
//! dates, truth values false before true, text naturally and without regard to case
//! (`M-2` before `M-10`). Values come first, then empty values, then missing cells, in
//! either direction, so what a user sorts by is always on top.

use std::cmp::Ordering;

use serde::Deserialize;

use crate::build::Table;
use crate::cell::{Cell, Typed};

/// Sorting by one column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct Sort {
    pub column: usize,
    #[serde(default)]
    pub descending: bool,
}

/// Where a cell goes: its value, or that it has none.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Key {
    Number(f64),
    Date(crate::cell::Date),
    Bool(bool),
    /// Lower-cased.
    Text(String),
    Empty,
    Missing,
}

impl Key {
    pub(crate) fn of(cell: &Cell) -> Key {
        match cell {
            Cell::Missing => Key::Missing,
            Cell::Value { text, typed, .. } => match typed {
                Typed::Empty => Key::Empty,
                Typed::Number(n) => Key::Number(*n),
                Typed::Date(d) => Key::Date(*d),
                Typed::Bool(b) => Key::Bool(*b),
                Typed::Text => Key::Text(text.to_lowercase()),
            },
        }
    }

    /// Values before empty before missing; between values of different kinds, numbers,
    /// dates, truth values, then text.
    fn rank(&self) -> u8 {
        match self {
            Key::Number(_) => 0,
            Key::Date(_) => 1,
            Key::Bool(_) => 2,
            Key::Text(_) => 3,
            Key::Empty => 4,
            Key::Missing => 5,
        }
    }

    fn is_value(&self) -> bool {
        self.rank() < 4
    }

    /// How two cells compare (`descending` turns values around, never the blanks).
    pub(crate) fn cmp(&self, other: &Key, descending: bool) -> Ordering {
        if !self.is_value() || !other.is_value() {
            return self.rank().cmp(&other.rank());
        }
        let values = match (self, other) {
            (Key::Number(a), Key::Number(b)) => a.total_cmp(b),
            (Key::Date(a), Key::Date(b)) => a.cmp(b),
            (Key::Bool(a), Key::Bool(b)) => a.cmp(b),
            (Key::Text(a), Key::Text(b)) => alphanumeric_sort::compare_str(a, b),
            _ => self.rank().cmp(&other.rank()),
        };
        if descending {
            values.reverse()
        } else {
            values
        }
    }
}

/// Sorts `rows` (indices into `table`) by `sort`, keeping the order of equal rows.
pub(crate) fn sort(table: &Table, rows: &mut [u32], sort: Sort) {
    let keys: Vec<Key> = (0..table.shells.len())
        .map(|row| Key::of(table.cell(row, sort.column)))
        .collect();
    rows.sort_by(|a, b| keys[*a as usize].cmp(&keys[*b as usize], sort.descending));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::typed;

    fn cell(value_type: &str, text: &str) -> Cell {
        Cell::Value {
            text: text.to_owned(),
            typed: typed(Some(value_type), text),
            at: None,
            ends: None,
        }
    }

    fn sorted(cells: &[Cell], descending: bool) -> Vec<Option<String>> {
        let mut keys: Vec<Key> = cells.iter().map(Key::of).collect();
        keys.sort_by(|a, b| a.cmp(b, descending));
        keys.iter()
            .map(|k| match k {
                Key::Text(t) => Some(t.clone()),
                Key::Number(n) => Some(n.to_string()),
                Key::Empty => Some(String::new()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn text_sorts_naturally_without_regard_to_case() {
        let cells: Vec<Cell> = ["M-10", "m-2", "M-1", "A-100", "a-20"]
            .iter()
            .map(|t| cell("string", t))
            .collect();
        let names: Vec<Option<String>> = ["a-20", "a-100", "m-1", "m-2", "m-10"]
            .iter()
            .map(|t| Some((*t).to_owned()))
            .collect();
        assert_eq!(sorted(&cells, false), names);
    }

    #[test]
    fn blanks_come_last_in_either_direction() {
        let cells = [
            Cell::Missing,
            cell("int", "2"),
            cell("int", ""),
            cell("int", "10"),
        ];
        let up = sorted(&cells, false);
        assert_eq!(
            up,
            [
                Some("2".into()),
                Some("10".into()),
                Some(String::new()),
                None
            ]
        );
        let down = sorted(&cells, true);
        assert_eq!(
            down,
            [
                Some("10".into()),
                Some("2".into()),
                Some(String::new()),
                None
            ]
        );
    }
}
