use std::io::Write;
use std::path::Path;

use aas_model::aasx;
use aas_model::inspect::{inspect_environment, Report};

use crate::error::CliError;

/// Prints the report of an environment file or AASX package on stdout.
pub fn run(file: &Path, json: bool) -> Result<(), CliError> {
    let bytes = aasx::read_file(file)
        .map_err(|e| CliError::Usage(format!("cannot read {}: {e}", file.display())))?;
    let env = aasx::environment_json(bytes)?;
    let report = inspect_environment(&env)?;
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
    let contents = aas_file::read(file).map_err(|e| match e {
        aas_file::Error::Io { .. } => CliError::Usage(e.to_string()),
        other => CliError::File(other),
    })?;
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

fn print_text(out: &mut impl Write, report: &Report) -> std::io::Result<()> {
    writeln!(out, "model types:")?;
    for (name, count) in &report.model_types {
        writeln!(out, "  {name:<32} {count}")?;
    }
    for (title, findings) in [
        ("does not parse", &report.unreadable),
        ("does not conform to V2.0.1", &report.nonconforming),
    ] {
        writeln!(out, "{title}: {}", findings.len())?;
        for f in findings {
            writeln!(out, "  {}: {}", f.path, f.reason)?;
        }
    }
    Ok(())
}
