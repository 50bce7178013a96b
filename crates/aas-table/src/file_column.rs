//! The columns of a file: a column holding a Range is written as two, its minimums and
//! its maximums, each typed (`AmbientTemperature (min) [°C]`, `… (max) …`): the
//! window's one line `-7 – 55` would otherwise reach a spreadsheet as text, or as its
//! first number only. The CSV and XLSX writers share them.

use crate::build::Table;
use crate::cell::{Part, Typed};
use crate::view::View;

/// A column of a file: the table's column `index`, whole or one end of its Ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileColumn {
    pub index: usize,
    pub part: Part,
}

impl FileColumn {
    /// Its header: the table's, with the end named before the unit.
    pub(crate) fn header(self, table: &Table) -> String {
        let part = match self.part {
            Part::Whole => "",
            Part::Min => " (min)",
            Part::Max => " (max)",
        };
        table.header_naming(self.index, part)
    }

    /// The text and type of its cell in `row`; `None` when missing.
    pub(crate) fn cell(self, table: &Table, row: u32) -> Option<(&str, Typed)> {
        table.cell(row as usize, self.index).part(self.part)
    }
}

/// The columns a file writes: each of the table's, and one holding a Range in a row
/// shown as two.
pub(crate) fn file_columns(table: &Table, view: &View) -> Vec<FileColumn> {
    let mut columns = Vec::with_capacity(table.columns.len());
    for index in 0..table.columns.len() {
        let ranges = (view.rows.iter()).any(|&row| table.cell(row as usize, index).is_range());
        let parts: &[Part] = match ranges {
            true => &[Part::Min, Part::Max],
            false => &[Part::Whole],
        };
        columns.extend(parts.iter().map(|&part| FileColumn { index, part }));
    }
    columns
}
