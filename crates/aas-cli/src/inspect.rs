use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use aas_file::{Contents, Element, PayloadRead, Serialisation, Version};
use aas_model::inspect::{inspect_environment, Finding};
use serde::Serialize;

use crate::error::CliError;

/// What `inspect` says of a file: each payload read, the objects per model type, and
/// for V2 payloads what does not parse and what departs from V2.0.1.
#[derive(Debug, Default, Serialize)]
struct Report {
    parts: Vec<Part>,
    model_types: BTreeMap<String, usize>,
    unreadable: Vec<Finding>,
    nonconforming: Vec<Finding>,
    /// Properties of V3 payloads that no class of the metamodel has (the first
    /// [`aas_file::UNKNOWN_NAMED`] by their paths), and how many there are.
    unknown: Vec<String>,
    unknown_count: usize,
}

#[derive(Debug, Serialize)]
struct Part {
    part: String,
    version: Version,
    serialisation: Serialisation,
    /// Whether it was checked against its version (V2.0.1 only).
    checked: bool,
}

/// Prints the report of any AAS file (V2.0 to V3.1; JSON, XML or AASX) on stdout.
pub fn run(file: &Path, json: bool) -> Result<(), CliError> {
    let mut report = Report::default();
    // V3 parts are read into one contents, as a file is: an identifiable two parts
    // repeat is counted once.
    let mut v3 = Contents::default();
    // Each V2 part's findings, placed once it is known whether there are several parts.
    let mut findings = Vec::new();
    aas_file::each_part(file, |part, payload| {
        match aas_file::read_or_v2(part, payload)? {
            PayloadRead::V2(serialisation, json) => {
                findings.push((part.to_owned(), v2_checked(&json, &mut report)?));
                report.parts.push(Part {
                    part: part.to_owned(),
                    version: Version::V2,
                    serialisation,
                    checked: true,
                });
            }
            PayloadRead::Read(mut contents) => {
                let parts = contents.parts.drain(..);
                report
                    .parts
                    .extend(parts.map(|(part, version, serialisation)| Part {
                        part,
                        version,
                        serialisation,
                        checked: false,
                    }));
                v3.merge(contents);
            }
        }
        Ok::<_, CliError>(())
    })
    .map_err(|e| match e {
        CliError::File(e) => file_error(e),
        e => e,
    })?;
    // Findings name their part where a package has several.
    let several = report.parts.len() > 1;
    for (part, found) in findings {
        let placed = |findings: Vec<Finding>| {
            findings.into_iter().map(|f| Finding {
                path: match several {
                    true => format!("{part}: {}", f.path),
                    false => f.path,
                },
                reason: f.reason,
            })
        };
        report.unreadable.extend(placed(found.unreadable));
        report.nonconforming.extend(placed(found.nonconforming));
    }
    count(&v3, &mut report.model_types);
    report.unknown = v3.unknown;
    report.unknown_count = v3.unknown_count;
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        print_text(&mut out, &report)?;
    }
    match report.unreadable.len() {
        0 => Ok(()),
        n => Err(CliError::Unreadable(n)),
    }
}

/// Prints what the file holds, one JSON line a shell, submodel and element, in the
/// shape the project's judge (`aas-dump`) prints what independent readers read.
pub fn elements(file: &Path) -> Result<(), CliError> {
    let contents = aas_file::read(file).map_err(file_error)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in aas_file::dump_lines(&contents) {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    if contents.unknown_count > 0 {
        let more = contents.unknown_count - contents.unknown.len();
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        let count = match contents.unknown_count {
            1 => "1 property".to_owned(),
            n => format!("{n} properties"),
        };
        eprintln!(
            "aasmd: {count} no AAS version this reads has (a newer writer's?), kept as read: {}{more}",
            contents.unknown.join(", ")
        );
    }
    Ok(())
}

/// Checks a V2 environment's JSON against V2.0.1, adding its objects to `report`'s
/// counts; what it finds, with paths within the part.
fn v2_checked(json: &[u8], report: &mut Report) -> Result<V2Findings, CliError> {
    aas_model::check_depth(json).map_err(aas_model::Error::from)?;
    let found = inspect_environment(json)?;
    for (name, count) in found.model_types {
        *report.model_types.entry(name).or_default() += count;
    }
    Ok(V2Findings {
        unreadable: found.unreadable,
        nonconforming: found.nonconforming,
    })
}

/// What does not parse in a V2 part, and what departs from V2.0.1.
struct V2Findings {
    unreadable: Vec<Finding>,
    nonconforming: Vec<Finding>,
}

/// Adds what `contents` holds to `counts`, per model type.
fn count(contents: &Contents, counts: &mut BTreeMap<String, usize>) {
    let mut add = |name: &str, n: usize| {
        if n > 0 {
            *counts.entry(name.to_owned()).or_default() += n;
        }
    };
    add("AssetAdministrationShell", contents.shells.len());
    add("Submodel", contents.submodels.len());
    let mut elements: Vec<&Element> = contents
        .submodels
        .iter()
        .flat_map(|s| &s.elements)
        .collect();
    while let Some(element) = elements.pop() {
        add(element.model_type, 1);
        elements.extend(&element.children);
    }
}

fn file_error(e: aas_file::Error) -> CliError {
    match e {
        aas_file::Error::Io { .. } => CliError::Usage(e.to_string()),
        other => CliError::File(other),
    }
}

fn print_text(out: &mut impl Write, report: &Report) -> std::io::Result<()> {
    writeln!(out, "parts:")?;
    for p in &report.parts {
        let version = serde_json::to_value(p.version).unwrap_or_default();
        let written = match p.serialisation {
            Serialisation::Json => "JSON",
            Serialisation::Xml => "XML",
        };
        let version = version.as_str().unwrap_or("?");
        writeln!(out, "  {}  AAS {version} {written}", p.part)?;
    }
    writeln!(out, "model types:")?;
    for (name, count) in &report.model_types {
        writeln!(out, "  {name:<32} {count}")?;
    }
    // Only V2 payloads are checked: what a V3 payload does not read stops the reading.
    let checked = report.parts.iter().any(|p| p.checked);
    let findings = [
        ("does not parse", &report.unreadable),
        ("does not conform to V2.0.1", &report.nonconforming),
    ];
    for (title, findings) in findings.into_iter().filter(|_| checked) {
        writeln!(out, "{title}: {}", findings.len())?;
        for f in findings {
            writeln!(out, "  {}: {}", f.path, f.reason)?;
        }
    }
    let unchecked: Vec<&str> = report
        .parts
        .iter()
        .filter(|p| !p.checked)
        .map(|p| p.part.as_str())
        .collect();
    if !unchecked.is_empty() {
        writeln!(
            out,
            "not checked against its version (only V2.0.1 is): {}",
            unchecked.join(", ")
        )?;
    }
    if report.unknown_count > 0 {
        writeln!(
            out,
            "properties no AAS version this reads has (a newer writer's?), kept as read: {}",
            report.unknown_count
        )?;
        for path in &report.unknown {
            writeln!(out, "  {path}")?;
        }
    }
    Ok(())
}
