//! The findings as an Excel workbook (aas-output's XLSX kit, as the plant table writes
//! one): a "Findings" sheet of one row a finding (the CSV's columns); a "Verdict" sheet
//! (per template, shells and complete ones; the groups of findings, most frequent
//! first); and an "About" sheet saying what it was made from.

use aas_output::xlsx::{Book, Sheet, Value};
use aas_output::{fits_excel, About};

use crate::row::{Row, COLUMNS};
use crate::{Audit, Result};

pub(crate) fn workbook(audit: &Audit, about: &About) -> Result<Vec<u8>> {
    fits_excel(audit.findings.len() + 1, COLUMNS.len())?;
    let mut book = Book::new();
    findings_sheet(&mut book, audit)?;
    verdict_sheet(book.sheet("Verdict")?, audit)?;
    about_sheet(&mut book, audit, about)?;
    Ok(book.save()?)
}

fn findings_sheet(book: &mut Book, audit: &Audit) -> Result<()> {
    let fields = |f| Row::of(audit, f).fields();
    let mut rows = book.records("Findings", &COLUMNS, audit.findings.iter().map(fields))?;
    for f in &audit.findings {
        rows.push(fields(f).map(Value::Text))?;
    }
    rows.end()?;
    Ok(())
}

fn verdict_sheet(mut sheet: Sheet<'_>, audit: &Audit) -> Result<()> {
    sheet.header(
        0,
        &["template", "version", "shells", "complete", "near misses"],
    )?;
    let mut row = 1;
    for v in &audit.verdict.templates {
        let t = &audit.templates[usize::from(v.template)];
        sheet.row(
            row,
            [
                Value::Text(&t.name),
                Value::Text(&t.version),
                Value::Number(v.shells as f64),
                Value::Number(v.complete as f64),
                Value::Number(v.near_misses as f64),
            ],
        )?;
        row += 1;
    }
    row += 1;
    sheet.header(
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
        sheet.row(
            row,
            [
                Value::Text(&t.name),
                Value::Text(&t.version),
                Value::Text(&g.template_path),
                Value::Text(g.kind.name()),
                Value::Text(g.severity.name()),
                Value::Number(g.count as f64),
                Value::Number(g.shells.len() as f64),
            ],
        )?;
    }
    sheet.widths(&[(0, 28), (2, 50)])?;
    Ok(())
}

fn about_sheet(book: &mut Book, audit: &Audit, about: &About) -> Result<()> {
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
    book.about(&facts)?.widths(&[(0, 26), (1, 50)])?;
    Ok(())
}
