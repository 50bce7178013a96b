//! Converting a V2 file a user has (environment JSON, an AASX package, or another
//! shape `aasmd inspect` reads) to AAS V3.0, with the conversion report beside it.

use std::io::Write;
use std::path::Path;

use aas_model::aasx::{self, Flavour, Package, Supplementary};
use aas_model::FileError;
use aas_v3::{Converter, Node};

use crate::answers::unreadable;
use crate::output::{write_with, Out, Written};
use crate::report::{write_report, Conversion, Exported, Spool};
use crate::{Error, Result};

/// Converts `input` to V3.0 at `output`: an AASX package when `output` ends in
/// `.aasx` (carrying the files of an input package that File elements name), else
/// environment JSON. With `strict`, the first change V3.0 needs fails the conversion
/// and nothing is written.
pub fn convert(input: &Path, output: &Path, strict: bool) -> Result<Exported> {
    let bytes = aasx::read_file(input).map_err(|source| {
        Error::File(FileError {
            action: "read",
            path: input.to_owned(),
            source,
        })
    })?;
    // A package's bytes are kept for the files it carries; a JSON file's are not (but
    // its JSON is, which the document borrows its texts from).
    let (json, package) = match aasx::is_package(&bytes) {
        true => (
            aasx::environment_json(aasx::spec_json(&bytes)?)?,
            Some(bytes),
        ),
        false => (aasx::environment_json(bytes)?, None),
    };
    let document: Node = serde_json::from_slice(&json).map_err(unreadable)?;
    let mut spool = Spool::new(output)?;
    let as_package = output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("aasx"));
    let mut converter = Converter::new(&mut spool).strict(strict);
    if as_package {
        let held = match &package {
            Some(bytes) => aasx::part_names(bytes)?,
            None => Default::default(),
        };
        converter = converter.in_package(held);
    }
    let environment = converter.environment(document)?;
    let tally = converter.tally().clone();
    let written = if as_package {
        let files = match &package {
            Some(bytes) => aasx::parts(bytes, &file_parts(&environment))?,
            None => Vec::new(),
        };
        write_with(output, |out| v3_package(out, &files, &environment))?
    } else {
        write_with(output, |mut out| {
            Ok(serde_json::to_writer(out.writer(), &environment)?)
        })?
    };
    let source = format!("{} (AAS V2.0.1)", input.display());
    let report = write_report(output, &source, &tally, spool)?;
    Ok(Exported {
        bytes: written,
        conversion: Some(Conversion { tally, report }),
    })
}

fn v3_package(out: Out<'_>, files: &[Supplementary], environment: &Node) -> Written {
    fn spec<W: Write + std::io::Seek>(mut package: Package<W>, environment: &Node) -> Written {
        serde_json::to_writer(&mut package, environment)?;
        package.finish()?;
        Ok(())
    }
    match out {
        Out::File(file) => spec(Package::new(file, Flavour::V3, files)?, environment),
        // A pipe cannot take the package's files before the spec: the environment only.
        Out::Stream(stream) => spec(Package::streamed(stream, Flavour::V3)?, environment),
    }
}

/// The package parts the File elements of `environment` name (`/aasx/manual.pdf`,
/// `file:///aasx/manual.pdf`), as part names; URLs elsewhere are not parts.
fn file_parts(environment: &Node) -> Vec<String> {
    let mut names = Vec::new();
    let mut stack = vec![environment];
    while let Some(value) = stack.pop() {
        match value {
            Node::Object(members) => {
                if value.get("modelType").and_then(Node::as_str) == Some("File") {
                    let value = value.get("value").and_then(Node::as_str);
                    names.extend(value.and_then(aas_v3::package_part));
                }
                stack.extend(members.iter().map(|(_, v)| v));
            }
            Node::List(items) => stack.extend(items),
            _ => {}
        }
    }
    names.sort();
    names.dedup();
    names
}
