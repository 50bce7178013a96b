//! The one way the project's Excel workbooks are made (rust_xlsxwriter), so the plant
//! table and the audit's findings look alike: a sheet of records under a bold header row
//! that is frozen and filterable, the columns as wide as their text, streamed to a
//! temporary file as it is written (constant memory mode: 100,000 rows cost little
//! more than 100); plain sheets written row by row; and an About sheet of facts. Every
//! text is cut to what a cell holds ([`excel_text`]).

use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, Worksheet, XlsxError};

use crate::excel_text;

/// The rows measured for a column's width.
const MEASURED: usize = 1000;

/// A cell's value as Excel holds it.
#[allow(missing_debug_implementations)] // rust_xlsxwriter's dates have no Debug
pub enum Value<'a> {
    /// Nothing is written.
    Empty,
    Text(&'a str),
    Number(f64),
    Bool(bool),
    /// Shown as `yyyy-mm-dd`.
    Date(ExcelDateTime),
    /// Shown as `yyyy-mm-dd hh:mm:ss`.
    DateTime(ExcelDateTime),
}

/// A workbook being made, with the formats its cells share.
#[allow(missing_debug_implementations)] // rust_xlsxwriter's workbook has no Debug
pub struct Book {
    book: Workbook,
    formats: Formats,
}

struct Formats {
    bold: Format,
    date: Format,
    date_time: Format,
}

impl Book {
    pub fn new() -> Self {
        Book {
            book: Workbook::new(),
            formats: Formats {
                bold: Format::new().set_bold(),
                date: Format::new().set_num_format("yyyy-mm-dd"),
                date_time: Format::new().set_num_format("yyyy-mm-dd hh:mm:ss"),
            },
        }
    }

    /// A sheet of records named `name`, under `headers`; each column as wide as its
    /// longest text among the header and the first rows of `texts` (each row's cells
    /// as shown, in the headers' order). Its rows follow with [`Records::push`].
    pub fn records<'t, Row: IntoIterator<Item = &'t str>>(
        &mut self,
        name: &str,
        headers: &[&str],
        texts: impl IntoIterator<Item = Row>,
    ) -> Result<Records<'_>, XlsxError> {
        let mut longest: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
        for row in texts.into_iter().take(MEASURED) {
            for (longest, text) in longest.iter_mut().zip(row) {
                *longest = (*longest).max(text.chars().count());
            }
        }
        let mut sheet = Sheet {
            sheet: self.book.add_worksheet_with_constant_memory()?,
            formats: &self.formats,
        };
        sheet.sheet.set_name(name)?;
        for (i, longest) in longest.into_iter().enumerate() {
            sheet
                .sheet
                .set_column_width(column(i)?, (longest + 2).clamp(8, 60) as f64)?;
        }
        sheet.sheet.set_freeze_panes(1, 0)?;
        sheet.header(0, headers)?;
        Ok(Records {
            sheet,
            columns: headers.len(),
            rows: 0,
        })
    }

    /// A sheet named `name`, written row by row.
    pub fn sheet(&mut self, name: &str) -> Result<Sheet<'_>, XlsxError> {
        let sheet = self.book.add_worksheet();
        sheet.set_name(name)?;
        Ok(Sheet {
            sheet,
            formats: &self.formats,
        })
    }

    /// The "About" sheet: what the file was made from, a fact a row, its name in bold.
    pub fn about(&mut self, facts: &[(&str, String)]) -> Result<Sheet<'_>, XlsxError> {
        let mut sheet = self.sheet("About")?;
        for (row, (name, value)) in (0u32..).zip(facts) {
            sheet.header(row, &[name])?;
            sheet.sheet.write_string(row, 1, excel_text(value))?;
        }
        Ok(sheet)
    }

    /// The workbook's bytes.
    pub fn save(mut self) -> Result<Vec<u8>, XlsxError> {
        self.book.save_to_buffer()
    }
}

impl Default for Book {
    fn default() -> Self {
        Book::new()
    }
}

/// A sheet being written.
#[allow(missing_debug_implementations)] // rust_xlsxwriter's worksheet has no Debug
pub struct Sheet<'b> {
    sheet: &'b mut Worksheet,
    formats: &'b Formats,
}

impl Sheet<'_> {
    /// `names` in bold, in `row` from the first column on.
    pub fn header(&mut self, row: u32, names: &[&str]) -> Result<(), XlsxError> {
        for (i, name) in names.iter().enumerate() {
            let (col, bold) = (column(i)?, &self.formats.bold);
            self.sheet
                .write_string_with_format(row, col, excel_text(name), bold)?;
        }
        Ok(())
    }

    /// `values` in `row` from the first column on.
    pub fn row<'v>(
        &mut self,
        row: u32,
        values: impl IntoIterator<Item = Value<'v>>,
    ) -> Result<(), XlsxError> {
        for (i, value) in values.into_iter().enumerate() {
            let (sheet, col) = (&mut *self.sheet, column(i)?);
            match value {
                Value::Empty => continue,
                Value::Text(text) => sheet.write_string(row, col, excel_text(text))?,
                Value::Number(n) => sheet.write_number(row, col, n)?,
                Value::Bool(b) => sheet.write_boolean(row, col, b)?,
                Value::Date(date) => {
                    sheet.write_datetime_with_format(row, col, &date, &self.formats.date)?
                }
                Value::DateTime(at) => {
                    sheet.write_datetime_with_format(row, col, &at, &self.formats.date_time)?
                }
            };
        }
        Ok(())
    }

    /// Each column's width, in characters.
    pub fn widths(&mut self, widths: &[(u16, u16)]) -> Result<(), XlsxError> {
        for &(col, width) in widths {
            self.sheet.set_column_width(col, width)?;
        }
        Ok(())
    }
}

/// A sheet of records being written ([`Book::records`]).
#[allow(missing_debug_implementations)] // rust_xlsxwriter's worksheet has no Debug
pub struct Records<'b> {
    sheet: Sheet<'b>,
    columns: usize,
    rows: u32,
}

impl Records<'_> {
    /// The next record's `values`, in the headers' order.
    pub fn push<'v>(
        &mut self,
        values: impl IntoIterator<Item = Value<'v>>,
    ) -> Result<(), XlsxError> {
        self.rows = self
            .rows
            .checked_add(1)
            .ok_or(XlsxError::RowColumnLimitError)?;
        self.sheet.row(self.rows, values)
    }

    /// Ends the sheet: the header filters every record.
    pub fn end(self) -> Result<(), XlsxError> {
        if let Some(last) = self.columns.checked_sub(1) {
            self.sheet
                .sheet
                .autofilter(0, 0, self.rows, column(last)?)?;
        }
        Ok(())
    }
}

/// The `i`th column's number.
fn column(i: usize) -> Result<u16, XlsxError> {
    u16::try_from(i).map_err(|_| XlsxError::RowColumnLimitError)
}
