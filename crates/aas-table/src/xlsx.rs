//! The table as an Excel workbook (rust_xlsxwriter): a sheet of the rows shown, with
//! numbers, dates and truth values as such, the header row frozen and filterable and
//! the columns as wide as their text; and a sheet saying what it was made from and each
//! column's path and semanticId. Rows are streamed to a temporary file as they are
//! written (constant memory mode), so 100,000 rows cost little more than 100.

use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, Worksheet, XlsxError};

use crate::build::Table;
use crate::cell::{Cell, Date, Typed};
use crate::view::View;
use crate::Result;
use aas_export::{excel_text as clipped, About};

/// The rows measured for a column's width.
const MEASURED: usize = 1000;

pub(crate) fn workbook(table: &Table, view: &View, about: &About) -> Result<Vec<u8>> {
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    let day = Format::new().set_num_format("yyyy-mm-dd");
    let moment = Format::new().set_num_format("yyyy-mm-dd hh:mm:ss");
    let sheet = book.add_worksheet_with_constant_memory()?;
    sheet.set_name("Table")?;
    let width = table.columns.len();
    for i in 0..width {
        let longest = (view.rows.iter().take(MEASURED))
            .map(|&row| {
                table
                    .cell(row as usize, i)
                    .shown()
                    .map_or(0, |t| t.chars().count())
            })
            .chain([table.header(i).chars().count()])
            .max()
            .unwrap_or(0);
        sheet.set_column_width(col(i)?, (longest + 2).clamp(8, 60) as f64)?;
    }
    sheet.set_freeze_panes(1, 0)?;
    for i in 0..width {
        sheet.write_string_with_format(0, col(i)?, table.header(i), &bold)?;
    }
    for (n, &row) in view.rows.iter().enumerate() {
        let at = u32::try_from(n + 1).map_err(|_| XlsxError::RowColumnLimitError)?;
        for (i, cell) in table.row(row as usize).iter().enumerate() {
            write_cell(sheet, at, col(i)?, cell, (&day, &moment))?;
        }
    }
    if width > 0 {
        let last = u32::try_from(view.rows.len()).map_err(|_| XlsxError::RowColumnLimitError)?;
        sheet.autofilter(0, 0, last, col(width - 1)?)?;
    }
    about_sheet(book.add_worksheet(), table, view, about, &bold)?;
    Ok(book.save_to_buffer()?)
}

fn col(i: usize) -> std::result::Result<u16, XlsxError> {
    u16::try_from(i).map_err(|_| XlsxError::RowColumnLimitError)
}

fn write_cell(
    sheet: &mut Worksheet,
    row: u32,
    col: u16,
    cell: &Cell,
    (day, moment): (&Format, &Format),
) -> std::result::Result<(), XlsxError> {
    let Cell::Value { text, typed, .. } = cell else {
        return Ok(());
    };
    match typed {
        Typed::Number(n) => sheet.write_number(row, col, *n)?,
        Typed::Bool(b) => sheet.write_boolean(row, col, *b)?,
        Typed::Date(d) => match excel_date(d) {
            Some(date) => {
                let format = if d.time.is_some() { moment } else { day };
                sheet.write_datetime_with_format(row, col, &date, format)?
            }
            // A date Excel cannot hold (before 1900) stays as written.
            None => sheet.write_string(row, col, clipped(text))?,
        },
        Typed::Empty => return Ok(()),
        Typed::Text => sheet.write_string(row, col, clipped(text))?,
    };
    Ok(())
}

fn excel_date(d: &Date) -> Option<ExcelDateTime> {
    let date = ExcelDateTime::from_ymd(d.year, d.month, d.day).ok()?;
    match d.time {
        None => Some(date),
        Some((h, m, s, ms)) => date.and_hms_milli(u16::from(h), m, s, ms).ok(),
    }
}

fn about_sheet(
    sheet: &mut Worksheet,
    table: &Table,
    view: &View,
    about: &About,
    bold: &Format,
) -> std::result::Result<(), XlsxError> {
    sheet.set_name("About")?;
    let mut facts = about.facts();
    facts.push(("Rows", view.rows.len().to_string()));
    for (row, (name, value)) in (0u32..).zip(facts) {
        sheet.write_string_with_format(row, 0, name, bold)?;
        sheet.write_string(row, 1, clipped(&value))?;
    }
    let first = 7;
    for (i, name) in ["Column", "Shown as", "semanticId", "Unit"]
        .into_iter()
        .enumerate()
    {
        sheet.write_string_with_format(first, i as u16, name, bold)?;
    }
    for (row, column) in (first + 1..).zip(&table.columns) {
        sheet.write_string(row, 0, clipped(&column.column.to_string()))?;
        sheet.write_string(row, 1, clipped(&column.label))?;
        sheet.write_string(
            row,
            2,
            clipped(column.semantic_id.as_deref().unwrap_or_default()),
        )?;
        sheet.write_string(row, 3, column.unit.as_deref().unwrap_or_default())?;
    }
    sheet.set_column_width(0, 40)?;
    sheet.set_column_width(1, 30)?;
    sheet.set_column_width(2, 40)?;
    Ok(())
}
