//! CSV that is safe to open in a spreadsheet. A cell that starts with `=`, `+`, `-`,
//! `@`, a tab or a carriage return is read as a formula by Excel, LibreOffice and
//! Google Sheets; server strings could then run one on the user's machine (OWASP "CSV
//! injection"). Every CSV the project writes goes through [`SafeCsv`], which puts a
//! `'` before such a cell, unless the cell is a plain number (`-12.5` stays a number).
//! The XLSX writers cut texts to what an Excel cell holds ([`excel_text`]).

use std::borrow::Cow;

/// Excel's longest text in a cell, in UTF-16 units.
const MAX_TEXT: usize = 32_767;

/// The most rows and columns an Excel sheet holds.
const MAX_ROWS: usize = 1_048_576;
const MAX_COLUMNS: usize = 16_384;

/// A sheet larger than Excel opens. Not a disk problem: the file is not written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the sheet would have {count} {what}, and an Excel sheet holds at most {limit} (a CSV file holds any number)")]
pub struct TooLargeForExcel {
    pub what: &'static str,
    pub count: usize,
    pub limit: usize,
}

/// Whether a sheet of `rows` (its header included) and `columns` fits in Excel: checked
/// before writing, so a table too large is refused in words, not by the spreadsheet
/// library halfway through.
pub fn fits_excel(rows: usize, columns: usize) -> Result<(), TooLargeForExcel> {
    for (what, count, limit) in [("rows", rows, MAX_ROWS), ("columns", columns, MAX_COLUMNS)] {
        if count > limit {
            return Err(TooLargeForExcel { what, count, limit });
        }
    }
    Ok(())
}

/// A CSV writer whose every cell is [`neutralised`].
#[derive(Debug)]
pub struct SafeCsv<W: std::io::Write>(csv::Writer<W>);

impl<W: std::io::Write> SafeCsv<W> {
    pub fn new(out: W) -> Self {
        SafeCsv(csv::Writer::from_writer(out))
    }

    pub fn write_row(&mut self, cells: &[&str]) -> csv::Result<()> {
        for cell in cells {
            self.0.write_field(neutralised(cell).as_bytes())?;
        }
        // Ends the record begun field by field.
        self.0.write_record(None::<&[u8]>)
    }

    pub fn into_inner(self) -> std::io::Result<W> {
        self.0.into_inner().map_err(|e| e.into_error())
    }
}

/// `text`, cut to what an Excel cell can hold (a longer one, a long Blob or file path,
/// would make the whole workbook refused).
pub fn excel_text(text: &str) -> &str {
    let mut units = 0;
    for (i, c) in text.char_indices() {
        units += c.len_utf16();
        if units > MAX_TEXT {
            return &text[..i];
        }
    }
    text
}

/// `cell` as a spreadsheet will show it, never run it.
fn neutralised(cell: &str) -> Cow<'_, str> {
    let risky = cell.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && !is_number(cell) {
        Cow::Owned(format!("'{cell}"))
    } else {
        Cow::Borrowed(cell)
    }
}

/// A plain decimal number: sign, digits, point, exponent, and nothing else.
fn is_number(cell: &str) -> bool {
    cell.bytes()
        .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
        && cell.bytes().any(|b| b.is_ascii_digit())
        && cell.parse::<f64>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheets_beyond_excels_limits_are_refused_in_words() {
        assert_eq!(fits_excel(MAX_ROWS, MAX_COLUMNS), Ok(()));
        let wide = fits_excel(2, MAX_COLUMNS + 1).expect_err("too wide");
        assert_eq!(
            wide.to_string(),
            "the sheet would have 16385 columns, and an Excel sheet holds at most 16384 (a CSV file holds any number)"
        );
        let long = fits_excel(MAX_ROWS + 1, 3).expect_err("too long");
        assert_eq!((long.what, long.count), ("rows", MAX_ROWS + 1));
    }

    #[test]
    fn formulas_are_neutralised_and_numbers_kept() {
        for (cell, shown) in [
            (
                "=HYPERLINK(\"http://x\",\"y\")",
                "'=HYPERLINK(\"http://x\",\"y\")",
            ),
            ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            ("-inf", "'-inf"),
            ("-", "'-"),
            ("-12.5", "-12.5"),
            ("+3e8", "+3e8"),
            ("Stuttgart", "Stuttgart"),
            ("a=b", "a=b"),
            ("", ""),
        ] {
            assert_eq!(neutralised(cell), shown, "{cell:?}");
        }
    }

    #[test]
    fn every_column_goes_through_it() {
        let mut out = SafeCsv::new(Vec::new());
        out.write_row(&["=1+1", "-7", "@x"]).expect("row");
        let text = String::from_utf8(out.into_inner().expect("bytes")).expect("utf-8");
        assert_eq!(text, "'=1+1,-7,'@x\n");
    }
}
