//! What the table shows: its rows that pass every filter, in the order sorted, as
//! indices into the built table (which is never copied).

use crate::build::Table;
use crate::filter::ColumnFilter;
use crate::order::{self, Sort};
use crate::{Error, Result};

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct View {
    pub rows: Vec<u32>,
}

impl View {
    /// The rows of `table` that pass `filters`, sorted by `sort` (else in the table's
    /// order). A filter or sort of a column the table does not have is refused.
    pub fn of(table: &Table, sort: Option<Sort>, filters: &[ColumnFilter]) -> Result<View> {
        let width = table.columns.len();
        let out_of_range = |column: usize| column >= width;
        if let Some(column) = (sort.iter().map(|s| s.column))
            .chain(filters.iter().map(|f| f.column))
            .find(|c| out_of_range(*c))
        {
            return Err(Error::NoSuchColumn(format!("#{column}")));
        }
        let tests: Vec<_> = filters.iter().map(|f| (f.column, f.prepared())).collect();
        let mut rows: Vec<u32> = (0..table.shells.len())
            .filter(|row| tests.iter().all(|(c, t)| t.keeps(table.cell(*row, *c))))
            .filter_map(|row| u32::try_from(row).ok())
            .collect();
        if let Some(sort) = sort {
            order::sort(table, &mut rows, sort);
        }
        Ok(View { rows })
    }
}

/// The column `name` names: as written in `--column`, or its header.
pub(crate) fn column_named(table: &Table, name: &str) -> Result<usize> {
    table
        .columns
        .iter()
        .position(|c| c.column.to_string() == name)
        .or_else(|| table.columns.iter().position(|c| c.label == name))
        .ok_or_else(|| Error::NoSuchColumn(name.to_owned()))
}

impl Sort {
    /// A sort as written on the command line: `COLUMN`, or `COLUMN:desc`.
    pub fn parse(text: &str, table: &Table) -> Result<Sort> {
        if let Ok(column) = column_named(table, text) {
            return Ok(Sort {
                column,
                descending: false,
            });
        }
        match text.strip_suffix(":desc") {
            Some(name) => Ok(Sort {
                column: column_named(table, name)?,
                descending: true,
            }),
            None => Err(Error::NoSuchColumn(text.to_owned())),
        }
    }
}
