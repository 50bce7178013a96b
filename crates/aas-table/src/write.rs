//! The rows a view shows, in its order, with the table's columns, as a file: XLSX (typed
//! cells, see [`crate::xlsx`]), CSV (every cell through [`SafeCsv`], so none runs as a
//! formula) or JSON (numbers and truth values as such, a missing cell as `null`, an
//! empty one as `""`). Every file says what it was made from ([`About`]). A column
//! holding a Range is two in a file ([`file_columns`]).

use std::path::Path;
use std::str::FromStr;

use aas_output::{write_atomically, About, SafeCsv};
use serde_json::{json, Value};

use crate::build::Table;
use crate::cell::{Cell, Part, Typed};
use crate::file_column::file_columns;
use crate::view::View;
use crate::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    Xlsx,
    Csv,
    Json,
}

impl TableFormat {
    /// The file name extension of the format.
    pub fn extension(self) -> &'static str {
        match self {
            TableFormat::Xlsx => "xlsx",
            TableFormat::Csv => "csv",
            TableFormat::Json => "json",
        }
    }
}

impl FromStr for TableFormat {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "xlsx" => Ok(TableFormat::Xlsx),
            "csv" => Ok(TableFormat::Csv),
            "json" => Ok(TableFormat::Json),
            _ => Err(format!("{s:?} is not a table format (xlsx, csv or json)")),
        }
    }
}

/// The file's bytes.
pub fn render(table: &Table, view: &View, about: &About, format: TableFormat) -> Result<Vec<u8>> {
    match format {
        TableFormat::Xlsx => crate::xlsx::workbook(table, view, about),
        TableFormat::Csv => csv(table, view),
        TableFormat::Json => Ok(format!("{:#}\n", as_json(table, view, about)).into_bytes()),
    }
}

/// Writes the file to `path`, never half of it.
pub fn write(
    table: &Table,
    view: &View,
    about: &About,
    format: TableFormat,
    path: &Path,
) -> Result<()> {
    let bytes = render(table, view, about, format)?;
    write_atomically(path, &bytes).map_err(Error::from)
}

fn csv(table: &Table, view: &View) -> Result<Vec<u8>> {
    // Written to memory, which cannot fail: the file is written whole afterwards.
    const IN_MEMORY: &str = "a CSV in memory is always written";
    let mut out = SafeCsv::new(Vec::new());
    let columns = file_columns(table, view);
    let headers: Vec<String> = columns.iter().map(|c| c.header(table)).collect();
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    out.write_row(&headers).expect(IN_MEMORY);
    for &row in &view.rows {
        let cells: Vec<&str> = (columns.iter())
            .map(|c| c.cell(table, row).map_or("", |(text, _)| text))
            .collect();
        out.write_row(&cells).expect(IN_MEMORY);
    }
    Ok(out.into_inner().expect(IN_MEMORY))
}

fn as_json(table: &Table, view: &View, about: &About) -> Value {
    let columns: Vec<Value> = table
        .columns
        .iter()
        .map(|c| json!({"column": c.column, "label": c.label, "unit": c.unit, "semanticId": c.semantic_id}))
        .collect();
    let rows: Vec<Value> = view
        .rows
        .iter()
        .map(|&row| {
            let shell = &table.shells[row as usize];
            let cells: Vec<Value> = table.row(row as usize).iter().map(json_cell).collect();
            json!({"aasId": shell.id, "idShort": shell.id_short, "assetType": shell.asset_type.code(), "cells": cells})
        })
        .collect();
    json!({"about": about, "columns": columns, "rows": rows})
}

/// A cell as JSON: a Range's as `{"min": …, "max": …}`.
fn json_cell(cell: &Cell) -> Value {
    match cell.part(Part::Whole) {
        None => Value::Null,
        Some(_) if cell.is_range() => {
            let end = |part| cell.part(part).map_or(Value::Null, json_value);
            json!({"min": end(Part::Min), "max": end(Part::Max)})
        }
        Some(whole) => json_value(whole),
    }
}

fn json_value((text, typed): (&str, Typed)) -> Value {
    match typed {
        // Whole numbers as integers (2024, not 2024.0), within what f64 holds exactly.
        Typed::Number(n) if n.fract() == 0.0 && n.abs() < 9e15 => json!(n as i64),
        Typed::Number(n) => {
            serde_json::Number::from_f64(n).map_or_else(|| json!(text), Value::Number)
        }
        Typed::Bool(b) => Value::Bool(b),
        Typed::Empty | Typed::Text | Typed::Date(_) => json!(text),
    }
}
