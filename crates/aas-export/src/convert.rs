//! Converting a V2 file a user has (environment JSON, an AASX package, or another
//! shape `aasmd inspect` reads) to AAS V3.0 or V3.1, with the conversion report beside it.

use std::io::Write;
use std::path::Path;

use aas_model::aasx::{self, Carried, Flavour, Package};
use aas_model::FileError;
use aas_output::{stage_with, Out};
use aas_v3::{Converter, Node, Target};

use crate::answers::unreadable;
use crate::output::Written;
use crate::report::{put_in_place_with_report, Conversion, Exported, Spool};
use crate::{Error, Result};

/// Converts `input` to `target` at `output`: an AASX package when `output` ends in
/// `.aasx` (carrying the files of an input package that File elements name), an
/// environment as XML when it ends in `.xml`, else environment JSON. The input is V2
/// (JSON, or XML as aas-file reads it) converted, or V3 (V3.0 or V3.1, JSON or XML, an
/// environment or an AASX) made valid for `target` where the versions differ. With
/// `strict`, the first change the target needs fails the conversion and nothing is
/// written.
pub fn convert(input: &Path, output: &Path, target: Target, strict: bool) -> Result<Exported> {
    let bytes = aasx::read_file(input).map_err(|source| {
        Error::File(FileError {
            action: "read",
            path: input.to_owned(),
            source,
        })
    })?;
    // A V2 file in JSON is read as it is written (also a shell, submodel or registry
    // answer); anything else (XML, or V3) as aas-file reads it.
    let as_written = match aasx::is_package(&bytes) {
        true => aasx::spec_json(&bytes).and_then(aasx::environment_json),
        false => aasx::environment_json(bytes.clone()),
    };
    let text = match as_written {
        Ok(json) if is_json(&json) && !is_v3(&json) => Input::V2(json, "AAS V2.0.1"),
        _ => {
            let name = input.display().to_string();
            match aas_file::environment_json(&name, bytes.clone()).map_err(not_read)? {
                (aas_file::Version::V1, json) => {
                    Input::V2(json_text(&json), "AAS V1.0, read as V2.0")
                }
                (aas_file::Version::V2, json) => Input::V2(json_text(&json), "AAS V2.0.1"),
                (_, json) => Input::V3(json_text(&json)),
            }
        }
    };
    let package = aasx::is_package(&bytes).then_some(bytes);
    let json = match &text {
        Input::V2(json, _) | Input::V3(json) => json,
    };
    let text_str = std::str::from_utf8(json).map_err(|e| {
        Error::BadData(aas_model::Error::Decode {
            path: ".".into(),
            message: format!("not UTF-8: {e}"),
        })
    })?;
    // Numbers keep their text, and fields the conversion does not walk into stay text
    // until they are taken (`aas_v3::Node`): the tree is a small part of the file.
    let document = Node::from_json(text_str).map_err(unreadable)?;
    let mut spool = Spool::new(output)?;
    let extension_is =
        |wanted: &str| (output.extension()).is_some_and(|e| e.eq_ignore_ascii_case(wanted));
    let (as_package, as_xml) = (extension_is("aasx"), extension_is("xml"));
    let mut converter = Converter::new(&mut spool).strict(strict).target(target);
    if as_package {
        let held = match &package {
            Some(bytes) => aasx::part_names(bytes)?,
            None => Default::default(),
        };
        converter = converter.in_package(held);
    }
    // A key given twice reads as its last value, as JSON readers do: each value before
    // it is a change (`aasmd inspect` names the same keys).
    for duplicate in aas_model::duplicate_keys(text_str) {
        if let Some((kept, before)) = duplicate.values.split_last() {
            for was in before {
                converter.duplicate_key(&duplicate.path, was, kept)?;
            }
        }
    }
    let (environment, from) = match &text {
        Input::V2(_, from) => (converter.environment(document)?, *from),
        Input::V3(_) => (converter.retarget(document)?, "AAS V3"),
    };
    let tally = converter.tally().clone();
    let staged = if as_package {
        // Checked here, copied part by part as the package is written: never held.
        let files = match &package {
            Some(bytes) => Some(aasx::carried(bytes, &file_parts(&environment))?),
            None => None,
        };
        stage_with(output, |out| v3_package(out, files, &environment))?
    } else if as_xml {
        stage_with(output, |mut out| -> Written {
            let json = serde_json::to_value(&environment)?;
            Ok(crate::v3::environment_xml(out.writer(), target, &json)?)
        })?
    } else {
        stage_with(output, |mut out| -> Written {
            Ok(serde_json::to_writer(out.writer(), &environment)?)
        })?
    };
    let source = format!("{} ({from})", input.display());
    let (written, report) =
        put_in_place_with_report(output, staged, &source, target, &tally, spool)?;
    Ok(Exported {
        bytes: written,
        conversion: Some(Conversion {
            target,
            tally,
            report,
        }),
    })
}

/// The environment's JSON text, and what it is.
enum Input {
    /// V2 JSON, and what it was written as.
    V2(Vec<u8>, &'static str),
    V3(Vec<u8>),
}

/// Whether the text is JSON at all (an XML environment is read by aas-file).
fn is_json(text: &[u8]) -> bool {
    let first = text.iter().find(|b| !b.is_ascii_whitespace());
    matches!(first, Some(b'{' | b'['))
}

/// Whether JSON text read as written is V3: its first `modelType` is a string, as V3
/// writes it (V2 writes an object). A look at the text, not a second parse of it.
fn is_v3(json: &[u8]) -> bool {
    const KEY: &[u8] = b"\"modelType\"";
    let Some(at) = json.windows(KEY.len()).position(|w| w == KEY) else {
        return false;
    };
    let after = &json[at + KEY.len()..];
    let value = after
        .iter()
        .copied()
        .find(|b| !b.is_ascii_whitespace() && *b != b':');
    value == Some(b'"')
}

fn json_text(json: &serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(json).expect("JSON values write as JSON")
}

/// A file aas-file could not read either.
fn not_read(e: aas_file::Error) -> Error {
    Error::BadData(aas_model::Error::Decode {
        path: ".".into(),
        message: e.to_string(),
    })
}

fn v3_package(out: Out<'_>, files: Option<Carried<'_>>, environment: &Node) -> Written {
    fn spec<W: Write + std::io::Seek>(mut package: Package<W>, environment: &Node) -> Written {
        serde_json::to_writer(&mut package, environment)?;
        package.finish()?;
        Ok(())
    }
    match (out, files) {
        (Out::File(file), Some(files)) => {
            spec(Package::carrying(file, Flavour::V3, files)?, environment)
        }
        (Out::File(file), None) => spec(Package::new(file, Flavour::V3, &[])?, environment),
        // A pipe cannot take the package's files before the spec: the environment only.
        (Out::Stream(stream), _) => spec(Package::streamed(stream, Flavour::V3)?, environment),
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
