//! The findings written out: CSV (one row a finding, safe to open in a spreadsheet),
//! JSON (the verdict and the findings) and XLSX (xlsx.rs). Each finding names its shell,
//! template and rule in words, so a row reads on its own.

use std::io::Write;
use std::str::FromStr;

use aas_output::{About, SafeCsv};
use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;

use crate::row::{Row, COLUMNS};
use crate::{Audit, Result, Template, TemplateVerdict};

/// The files an audit's findings are written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Csv,
    Json,
    Xlsx,
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Xlsx => "xlsx",
        }
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            "xlsx" => Ok(Format::Xlsx),
            _ => Err(format!("{s:?} is not a findings format: csv, json or xlsx")),
        }
    }
}

impl Audit {
    /// The findings as a file of `format`, saying what they were made from.
    pub fn render(&self, format: Format, about: &About) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        match format {
            Format::Csv => self.write_csv(&mut out)?,
            Format::Json => self.write_json(Some(about), &mut out)?,
            Format::Xlsx => out = crate::xlsx::workbook(self, about)?,
        }
        Ok(out)
    }

    /// One row a finding, under a header row.
    pub fn write_csv(&self, out: impl Write) -> Result<()> {
        let mut csv = SafeCsv::new(out);
        csv.write_row(&COLUMNS).map_err(std::io::Error::from)?;
        for f in &self.findings {
            (csv.write_row(&Row::of(self, f).fields())).map_err(std::io::Error::from)?;
        }
        csv.into_inner()?.flush()?;
        Ok(())
    }

    /// `{"format", "about"?, "partial", "languages", "templates", "verdict",
    /// "findings"}`; a group names how many shells it is in, the findings name which.
    pub fn write_json(&self, about: Option<&About>, out: impl Write) -> Result<()> {
        #[derive(Serialize)]
        struct Document<'a> {
            format: &'static str,
            #[serde(skip_serializing_if = "Option::is_none")]
            about: Option<&'a About>,
            partial: bool,
            languages: &'a [String],
            templates: Vec<TemplateOut<'a>>,
            verdict: VerdictOut<'a>,
            findings: Findings<'a>,
        }
        let document = Document {
            format: "aas-audit/1",
            about,
            partial: self.partial,
            languages: &self.languages,
            templates: self.templates.iter().map(TemplateOut::of).collect(),
            verdict: VerdictOut::of(self),
            findings: Findings(self),
        };
        let mut out = std::io::BufWriter::new(out);
        serde_json::to_writer(&mut out, &document).map_err(std::io::Error::from)?;
        out.flush()?;
        Ok(())
    }
}

#[derive(Serialize)]
struct TemplateOut<'a> {
    name: &'a str,
    version: &'a str,
    document: Option<&'a str>,
    semantic_ids: &'a [String],
    source: Option<&'a crate::Source>,
    origin: &'a str,
}

impl<'a> TemplateOut<'a> {
    fn of(t: &'a Template) -> Self {
        TemplateOut {
            name: &t.name,
            version: &t.version,
            document: t.document.as_deref(),
            semantic_ids: &t.semantic_ids,
            source: t.source.as_ref(),
            origin: &t.origin,
        }
    }
}

#[derive(Serialize)]
struct VerdictOut<'a> {
    shells: usize,
    without_template: usize,
    templates: Vec<TemplateVerdictOut<'a>>,
    groups: Vec<GroupOut<'a>>,
}

#[derive(Serialize)]
struct TemplateVerdictOut<'a> {
    name: &'a str,
    version: &'a str,
    #[serde(flatten)]
    counts: &'a TemplateVerdict,
}

#[derive(Serialize)]
struct GroupOut<'a> {
    name: &'a str,
    version: &'a str,
    #[serde(flatten)]
    group: &'a crate::Group,
    shells: usize,
}

impl<'a> VerdictOut<'a> {
    fn of(audit: &'a Audit) -> Self {
        let named = |t: u16| &audit.templates[usize::from(t)];
        let v = &audit.verdict;
        VerdictOut {
            shells: v.shells,
            without_template: v.without_template,
            templates: (v.templates.iter())
                .map(|counts| TemplateVerdictOut {
                    name: &named(counts.template).name,
                    version: &named(counts.template).version,
                    counts,
                })
                .collect(),
            groups: (v.groups.iter())
                .map(|group| GroupOut {
                    name: &named(group.template).name,
                    version: &named(group.template).version,
                    group,
                    shells: group.shells.len(),
                })
                .collect(),
        }
    }
}

/// The findings as rows, written one by one.
struct Findings<'a>(&'a Audit);

impl Serialize for Findings<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> std::result::Result<S::Ok, S::Error> {
        let mut seq = ser.serialize_seq(Some(self.0.findings.len()))?;
        for f in &self.0.findings {
            seq.serialize_element(&Row::of(self.0, f))?;
        }
        seq.end()
    }
}
