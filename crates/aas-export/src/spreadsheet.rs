//! CSV that is safe to open in a spreadsheet. A cell that starts with `=`, `+`, `-`,
//! `@`, a tab or a carriage return is read as a formula by Excel, LibreOffice and
//! Google Sheets; server strings could then run one on the user's machine (OWASP "CSV
//! injection"). Every CSV the project writes goes through [`SafeCsv`], which puts a
//! `'` before such a cell, unless the cell is a plain number (`-12.5` stays a number).
//! The XLSX writers cut texts to what an Excel cell holds ([`excel_text`]).

use std::borrow::Cow;

/// Excel's longest text in a cell, in UTF-16 units.
const MAX_TEXT: usize = 32_767;

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
