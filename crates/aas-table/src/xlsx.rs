//! The table as an Excel workbook (aas-output's XLSX kit): a sheet of the rows shown,
//! with numbers, dates and truth values as such; and a sheet saying what it was made
//! from and each column's path and semanticId.

use aas_output::xlsx::{Book, Value};
use aas_output::{fits_excel, About};
use rust_xlsxwriter::ExcelDateTime;

use crate::build::Table;
use crate::cell::{Date, Typed};
use crate::file_column::file_columns;
use crate::view::View;
use crate::Result;

pub(crate) fn workbook(table: &Table, view: &View, about: &About) -> Result<Vec<u8>> {
    let columns = file_columns(table, view);
    fits_excel(view.rows.len() + 1, columns.len())?;
    let mut book = Book::new();
    let headers: Vec<String> = columns.iter().map(|c| c.header(table)).collect();
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    let texts = view.rows.iter().map(|&row| {
        (columns.iter()).map(move |column| column.cell(table, row).map_or("", |(text, _)| text))
    });
    let mut rows = book.records("Table", &headers, texts)?;
    for &row in &view.rows {
        rows.push(columns.iter().map(|column| match column.cell(table, row) {
            Some(cell) => value(cell),
            None => Value::Empty,
        }))?;
    }
    rows.end()?;
    about_sheet(&mut book, table, view, about)?;
    Ok(book.save()?)
}

fn value((text, typed): (&str, Typed)) -> Value<'_> {
    match typed {
        Typed::Number(n) => Value::Number(n),
        Typed::Bool(b) => Value::Bool(b),
        Typed::Date(d) => match (excel_date(&d), d.time) {
            (Some(date), None) => Value::Date(date),
            (Some(date), Some(_)) => Value::DateTime(date),
            // A date Excel cannot hold (before 1900) stays as written.
            (None, _) => Value::Text(text),
        },
        Typed::Empty => Value::Empty,
        Typed::Text => Value::Text(text),
    }
}

fn excel_date(d: &Date) -> Option<ExcelDateTime> {
    let date = ExcelDateTime::from_ymd(d.year, d.month, d.day).ok()?;
    match d.time {
        None => Some(date),
        Some((h, m, s, ms)) => date.and_hms_milli(u16::from(h), m, s, ms).ok(),
    }
}

fn about_sheet(book: &mut Book, table: &Table, view: &View, about: &About) -> Result<()> {
    let mut facts = about.facts();
    facts.push(("Rows", view.rows.len().to_string()));
    facts.push((
        "Ranges",
        "a column holding a Range is two: its minimums (min) and its maximums (max); a single value in it is both".into(),
    ));
    let mut sheet = book.about(&facts)?;
    // The columns' list follows the facts after an empty row.
    let first = facts.len() as u32 + 1;
    sheet.header(first, &["Column", "Shown as", "semanticId", "Unit"])?;
    for (row, column) in (first + 1..).zip(&table.columns) {
        let path = column.column.to_string();
        sheet.row(
            row,
            [
                Value::Text(&path),
                Value::Text(&column.label),
                Value::Text(column.semantic_id.as_deref().unwrap_or_default()),
                Value::Text(column.unit.as_deref().unwrap_or_default()),
            ],
        )?;
    }
    sheet.widths(&[(0, 40), (1, 30), (2, 40)])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::TableColumn;

    fn table(columns: usize, unit: &str) -> Table {
        let column = TableColumn {
            column: "Nameplate/ManufacturerName".parse().expect("column"),
            name: "ManufacturerName".into(),
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
