//! The findings as an Excel workbook (rust_xlsxwriter), as the plant table writes one:
//! a "Findings" sheet of one row a finding (the CSV's columns) with the header row
//! frozen and filterable, streamed to a temporary file as it is written (constant
//! memory mode: a plant's hundreds of thousands of findings cost little); a "Verdict"
//! sheet (per template, shells and complete ones; the groups of findings, most frequent
//! first); and an "About" sheet saying what it was made from.

use aas_export::{excel_text, fits_excel, About};
use rust_xlsxwriter::{Format, Workbook, Worksheet, XlsxError};

use crate::row::{Row, COLUMNS};
use crate::{Audit, Result};

/// The rows measured for a column's width.
const MEASURED: usize = 1000;

pub(crate) fn workbook(audit: &Audit, about: &About) -> Result<Vec<u8>> {
    fits_excel(audit.findings.len() + 1, COLUMNS.len())?;
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    findings_sheet(book.add_worksheet_with_constant_memory()?, audit, &bold)?;
    verdict_sheet(book.add_worksheet(), audit, &bold)?;
    about_sheet(book.add_worksheet(), audit, about, &bold)?;
    Ok(book.save_to_buffer()?)
}

fn findings_sheet(sheet: &mut Worksheet, audit: &Audit, bold: &Format) -> Result<()> {
    sheet.set_name("Findings")?;
    for (i, name) in (0u16..).zip(COLUMNS) {
        let longest = (audit.findings.iter().take(MEASURED))
            .map(|f| Row::of(audit, f).fields()[usize::from(i)].chars().count())
            .chain([name.len()])
            .max()
            .unwrap_or(0);
        sheet.set_column_width(i, (longest + 2).clamp(8, 60) as f64)?;
    }
    sheet.set_freeze_panes(1, 0)?;
    for (i, name) in (0u16..).zip(COLUMNS) {
        sheet.write_string_with_format(0, i, name, bold)?;
    }
    for (n, f) in audit.findings.iter().enumerate() {
        let row = u32::try_from(n + 1).map_err(|_| XlsxError::RowColumnLimitError)?;
        for (i, field) in (0u16..).zip(Row::of(audit, f).fields()) {
            sheet.write_string(row, i, excel_text(field))?;
        }
    }
    let last = u32::try_from(audit.findings.len()).map_err(|_| XlsxError::RowColumnLimitError)?;
    sheet.autofilter(0, 0, last, (COLUMNS.len() - 1) as u16)?;
    Ok(())
}

fn verdict_sheet(sheet: &mut Worksheet, audit: &Audit, bold: &Format) -> Result<()> {
    sheet.set_name("Verdict")?;
    let header = |sheet: &mut Worksheet, row: u32, names: &[&str]| {
        (0u16..).zip(names).try_for_each(|(i, name)| {
            sheet
                .write_string_with_format(row, i, *name, bold)
                .map(drop)
        })
    };
    header(
        sheet,
        0,
        &["template", "version", "shells", "complete", "near misses"],
    )?;
    let mut row = 1;
    for v in &audit.verdict.templates {
        let t = &audit.templates[usize::from(v.template)];
        sheet.write_string(row, 0, excel_text(&t.name))?;
        sheet.write_string(row, 1, excel_text(&t.version))?;
        sheet.write_number(row, 2, v.shells as f64)?;
        sheet.write_number(row, 3, v.complete as f64)?;
        sheet.write_number(row, 4, v.near_misses as f64)?;
        row += 1;
    }
    row += 1;
    header(
        sheet,
        row,
        &[
            "template",
            "version",
            "template_path",
            "kind",
            "severity",
            "findings",
            "shells",
        ],
    )?;
    for g in &audit.verdict.groups {
        row += 1;
        let t = &audit.templates[usize::from(g.template)];
        sheet.write_string(row, 0, excel_text(&t.name))?;
        sheet.write_string(row, 1, excel_text(&t.version))?;
        sheet.write_string(row, 2, excel_text(&g.template_path))?;
        sheet.write_string(row, 3, g.kind.name())?;
        sheet.write_string(row, 4, g.severity.name())?;
        sheet.write_number(row, 5, g.count as f64)?;
        sheet.write_number(row, 6, g.shells.len() as f64)?;
    }
    sheet.set_column_width(0, 28)?;
    sheet.set_column_width(2, 50)?;
    Ok(())
}

fn about_sheet(sheet: &mut Worksheet, audit: &Audit, about: &About, bold: &Format) -> Result<()> {
    sheet.set_name("About")?;
    let mut facts = about.facts();
    facts.extend([
        ("Shells", audit.verdict.shells.to_string()),
        (
            "Without a known template",
            audit.verdict.without_template.to_string(),
        ),
        ("Findings", audit.findings.len().to_string()),
        ("Languages", audit.languages.join(", ")),
        (
            "Partial",
            match audit.partial {
                true => "yes: the snapshot lacks part of the plant".into(),
                false => "no".into(),
            },
        ),
    ]);
    for (row, (name, value)) in (0u32..).zip(facts) {
        sheet.write_string_with_format(row, 0, name, bold)?;
        sheet.write_string(row, 1, excel_text(&value))?;
    }
    sheet.set_column_width(0, 26)?;
    sheet.set_column_width(1, 50)?;
    Ok(())
}
