//! The conversion report beside a V3 export (`OUT.conversion.json`): what the
//! conversion changed, rule by rule, then every change with its path in the V2 source.
//! The changes are spooled to a temporary file as they are found, so a plant with
//! millions of them is never held in memory.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use aas_output::{put_in_place, stage_exactly, Staged};
use aas_v3::{Change, Changes, Tally, Target};
use serde::Serialize;

use crate::output::Written;
use crate::Result;

/// Changes as JSON lines, one a line, in an unnamed temporary file.
pub(crate) struct Spool(BufWriter<File>);

impl Changes for Spool {
    fn record(&mut self, change: Change) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.0, &change)?;
        self.0.write_all(b"\n")
    }
}

impl Spool {
    /// A spool for the report of the export to `out`.
    pub fn new(out: &Path) -> Result<Self> {
        let file = tempfile::tempfile().map_err(|e| report_error(&report_path(out), e))?;
        Ok(Spool(BufWriter::new(file)))
    }
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    pub bytes: u64,
    /// For the V3.0 formats: what the conversion changed, and where its report is.
    pub conversion: Option<Conversion>,
}

/// What a V3 export changed, for a summary line.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversion {
    /// The version written.
    pub target: Target,
    pub tally: Tally,
    /// Where the report was written (none for an export to a pipe or device).
    pub report: Option<PathBuf>,
}

impl Conversion {
    /// `AAS V3.0: 3 changes (2 collection-order, 1 not-in-v3); each is listed in
    /// OUT.conversion.json`.
    pub fn summary(&self) -> String {
        let version = self.target.version();
        let mut line = format!("AAS V{version}: {}", self.tally.summary());
        if let Some(report) = &self.report {
            let each = if self.tally.total() == 0 {
                "the report is"
            } else {
                "each is listed in"
            };
            line.push_str(&format!("; {each} {}", report.display()));
        }
        line
    }
}

/// `OUT.json` → `OUT.conversion.json`.
pub fn report_path(out: &Path) -> PathBuf {
    let stem = out.file_stem().unwrap_or_default().to_string_lossy();
    out.with_file_name(format!("{stem}.conversion.json"))
}

#[derive(Serialize)]
struct Header<'a> {
    format: &'static str,
    created: String,
    source: &'a str,
    /// The version written: `AAS V3.0` or `AAS V3.1`.
    target: String,
    written: String,
    /// Changes per rule.
    summary: &'a Tally,
    total: u64,
}

/// Puts the export `staged` (written for `out`) in place with the report of `spool`
/// beside it (`source` says what was converted): both or neither. Returns the bytes
/// of the export and where the report went; an export to a device or pipe has none.
///
/// The report is written to its temporary file after the export, and renamed into
/// place after it: a crash between the two renames leaves the complete new export
/// with the previous report (or none), which is older than the export and so tells
/// itself apart; the other order would leave a new report vouching for an export that
/// is not there, indistinguishable from a finished pair. A report that cannot be put in
/// place takes the export back (the previous file restored).
pub(crate) fn put_in_place_with_report(
    out: &Path,
    staged: Staged,
    source: &str,
    target: Target,
    tally: &Tally,
    spool: Spool,
) -> Result<(u64, Option<PathBuf>)> {
    let export = match staged {
        Staged::Beside(export) => export,
        Staged::Through(bytes) => return Ok((bytes, None)),
    };
    let path = report_path(out);
    let mut lines = spool
        .0
        .into_inner()
        .map_err(std::io::IntoInnerError::into_error)
        .map_err(|e| report_error(&path, e))?;
    lines.rewind().map_err(|e| report_error(&path, e))?;
    let header = Header {
        format: "aas-browser-conversion-report/1",
        created: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
        source,
        target: format!("AAS V{}", target.version()),
        written: out.display().to_string(),
        summary: tally,
        total: tally.total(),
    };
    // A path derived from the user's, not named by them: written exactly there.
    let report = stage_exactly(&path, "write the conversion report", |mut w| -> Written {
        let w = w.writer();
        let header = serde_json::to_string(&header)?;
        // The header's object, left open for the changes.
        w.write_all(&header.as_bytes()[..header.len() - 1])?;
        w.write_all(b",\"changes\":[")?;
        for (i, line) in BufReader::new(lines).lines().enumerate() {
            if i > 0 {
                w.write_all(b",\n")?;
            }
            w.write_all(line?.as_bytes())?;
        }
        Ok(w.write_all(b"]}\n")?)
    })?;
    let bytes = export.bytes;
    put_in_place(vec![export, report])?;
    Ok((bytes, Some(path)))
}

fn report_error(path: &Path, source: std::io::Error) -> crate::Error {
    crate::Error::File(aas_model::FileError {
        action: "write the conversion report",
        path: path.to_owned(),
        source,
    })
}
