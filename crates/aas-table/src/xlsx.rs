//! The table as an Excel workbook (rust_xlsxwriter): a sheet of the rows shown, with
//! numbers, dates and truth values as such, the header row frozen and filterable and
//! the columns as wide as their text; and a sheet saying what it was made from and each
//! column's path and semanticId. Rows are streamed to a temporary file as they are
//! written (constant memory mode), so 100,000 rows cost little more than 100.

use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, Worksheet, XlsxError};

use crate::build::Table;
use crate::cell::{Date, Typed};
use crate::file_column::file_columns;
use crate::view::View;
use crate::Result;
use aas_export::{excel_text as clipped, fits_excel, About};

/// The rows measured for a column's width.
const MEASURED: usize = 1000;

pub(crate) fn workbook(table: &Table, view: &View, about: &About) -> Result<Vec<u8>> {
    let columns = file_columns(table, view);
    fits_excel(view.rows.len() + 1, columns.len())?;
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    let day = Format::new().set_num_format("yyyy-mm-dd");
    let moment = Format::new().set_num_format("yyyy-mm-dd hh:mm:ss");
    let sheet = book.add_worksheet_with_constant_memory()?;
    sheet.set_name("Table")?;
    let headers: Vec<String> = columns.iter().map(|c| c.header(table)).collect();
    for (i, (column, header)) in columns.iter().zip(&headers).enumerate() {
        let longest = (view.rows.iter().take(MEASURED))
            .map(|&row| {
                column
                    .cell(table, row)
                    .map_or(0, |(t, _)| t.chars().count())
            })
            .chain([header.chars().count()])
            .max()
            .unwrap_or(0);
        sheet.set_column_width(col(i)?, (longest + 2).clamp(8, 60) as f64)?;
    }
    sheet.set_freeze_panes(1, 0)?;
    for (i, header) in headers.iter().enumerate() {
        sheet.write_string_with_format(0, col(i)?, clipped(header), &bold)?;
    }
    for (n, &row) in view.rows.iter().enumerate() {
        let at = u32::try_from(n + 1).map_err(|_| XlsxError::RowColumnLimitError)?;
        for (i, column) in columns.iter().enumerate() {
            if let Some(cell) = column.cell(table, row) {
                write_cell(sheet, at, col(i)?, cell, (&day, &moment))?;
            }
        }
    }
    if let Some(last_column) = columns.len().checked_sub(1) {
        let last = u32::try_from(view.rows.len()).map_err(|_| XlsxError::RowColumnLimitError)?;
        sheet.autofilter(0, 0, last, col(last_column)?)?;
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
    (text, typed): (&str, Typed),
    (day, moment): (&Format, &Format),
) -> std::result::Result<(), XlsxError> {
    match typed {
        Typed::Number(n) => sheet.write_number(row, col, n)?,
        Typed::Bool(b) => sheet.write_boolean(row, col, b)?,
        Typed::Date(d) => match excel_date(&d) {
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
    facts.push((
        "Ranges",
        "a column holding a Range is two: its minimums (min) and its maximums (max); a single value in it is both".into(),
    ));
    // The columns' list follows the facts after an empty row.
    let first = facts.len() as u32 + 1;
    for (row, (name, value)) in (0u32..).zip(facts) {
        sheet.write_string_with_format(row, 0, name, bold)?;
        sheet.write_string(row, 1, clipped(&value))?;
    }
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
        sheet.write_string(row, 3, clipped(column.unit.as_deref().unwrap_or_default()))?;
    }
    sheet.set_column_width(0, 40)?;
    sheet.set_column_width(1, 30)?;
    sheet.set_column_width(2, 40)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::TableColumn;

    fn table(columns: usize, unit: &str) -> Table {
        let column = TableColumn {
            column: "Nameplate/ManufacturerName".parse().expect("column"),
            label: "ManufacturerName".into(),
            unit: Some(unit.into()),
            semantic_id: None,
        };
        Table {
            columns: vec![column; columns],
            shells: Vec::new(),
            cells: Vec::new(),
            unreadable: 0,
        }
    }

    fn about() -> About {
        About {
            source: "test".into(),
            plant: "P".into(),
            asset_type: "all".into(),
            taken_at: String::new(),
            written_at: String::new(),
        }
    }

    #[test]
    fn a_header_longer_than_a_cell_holds_is_cut_like_a_cell() {
        let unit = "u".repeat(40_000);
        let view = View { rows: Vec::new() };
        let book = workbook(&table(1, &unit), &view, &about());
        assert!(book.is_ok(), "{book:?}");
    }

    #[test]
    fn more_columns_than_excel_holds_are_refused_in_words() {
        let view = View { rows: Vec::new() };
        let refused = workbook(&table(16_385, "mm"), &view, &about()).expect_err("refused");
        assert!(
            matches!(refused, crate::Error::TooLargeForExcel(_)),
            "{refused:?}"
        );
        assert!(refused.to_string().contains("16385 columns"), "{refused}");
    }
}
