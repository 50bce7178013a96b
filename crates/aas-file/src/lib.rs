//! AAS files as vendors and tools publish them: an environment as JSON or XML, or an
//! AASX package holding one or more spec parts, in metamodel V2.0, V3.0 or V3.1 (and V1.0
//! XML, read as V2.0: v1.rs). Each is read into one model ([`Contents`]: shells,
//! submodels, their elements with V3's names for their kinds), whatever its version and
//! serialisation, so that what a file holds is shown, searched and compared the same way.
//!
//! Files are hostile: a package within [`aas_model::aasx::MAX_FILE_BYTES`]; XML and JSON
//! read as they come (inflate), never held whole, within
//! [`aas_model::aasx::MAX_STREAMED_PART_BYTES`], one shell or submodel within
//! `MAX_FILE_BYTES`; nesting within [`aas_model::MAX_DEPTH`]; XML with a document
//! type declaration (the door to entity expansion) is refused; each node's text as the
//! file has it is kept within a budget (kept_text.rs) or compressed (raw_text.rs); and
//! nothing is written anywhere.

mod answers;
mod contents;
mod dump;
mod from_json;
mod from_xml;
mod items;
mod json_items;
mod kept_text;
mod payload;
mod raw_text;
mod reading;
mod v1;
mod xml_to_json;
mod xml_tree;
mod xml_unknown;

use std::io::{BufRead, Read};
use std::path::Path;

pub use answers::{
    answers, answers_of, environment_answers, environment_json, EnvironmentAnswers, ShellAnswers,
    ShellByShell,
};
pub use contents::{
    Contents, Element, Serialisation, Shell, Submodel, Value, Version, THUMBNAIL_MAX, UNKNOWN_NAMED,
};
pub use dump::dump_lines;
pub use raw_text::RawText;
pub use reading::Reading;

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file itself could not be read (missing, unreadable, too large).
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// A payload opened could not be read to its end (a package's part that does not
    /// inflate, a file cut short).
    #[error("cannot read {part}: {source}")]
    Unreadable {
        part: String,
        #[source]
        source: std::io::Error,
    },
    /// The package is not a readable AASX, or a part of it is not.
    #[error(transparent)]
    Package(#[from] aas_model::Error),
    /// A payload is neither XML nor JSON of an AAS environment.
    #[error("{part}: {why}")]
    NotAas { part: String, why: String },
    /// A payload is XML that is not well-formed, or XML this reader refuses.
    #[error("{part}: {why}")]
    Xml { part: String, why: String },
    /// A file whose answers would pass what is kept of one file.
    #[error("{file}: {why}")]
    TooLarge { file: String, why: String },
    /// The reading was cancelled ([`Reading::cancel`]).
    #[error("the reading was cancelled")]
    Cancelled,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// Payload `part` is not an AAS environment, for the reason `why`.
    pub(crate) fn not_aas(part: &str, why: impl std::fmt::Display) -> Self {
        Error::NotAas {
            part: part.to_owned(),
            why: why.to_string(),
        }
    }
}

/// Reads the AAS file at `path`: an AASX package, or an environment as XML or JSON.
/// Each payload is read as it comes, never held whole: a file or a package's part of up
/// to [`aas_model::aasx::MAX_STREAMED_PART_BYTES`]; a package itself within
/// [`aas_model::aasx::MAX_FILE_BYTES`].
pub fn read(path: &Path) -> Result<Contents> {
    read_watched(path, &Reading::default())
}

/// Reads the AAS file at `path` as [`read`] does, telling `reading` how far it has come
/// and stopping when it is cancelled.
pub fn read_watched(path: &Path, reading: &Reading) -> Result<Contents> {
    let read = match open(path, &path.display().to_string(), reading) {
        Ok(Opened::Package(name, bytes)) => read_bytes_watched(&name, bytes, reading),
        Ok(Opened::Payload(name, payload)) => payload::read_stream(&name, payload, reading),
        Err(e) => Err(e),
    };
    reading.outcome(read)
}

/// Hands `each` the payloads of the AAS file at `path` one at a time, each to be read as
/// it comes, within the bounds [`read`] reads in: a package's spec parts as they inflate
/// (each named `/` and its part name), or the file itself (named by its path).
pub fn each_part<E: From<Error> + From<aas_model::Error>>(
    path: &Path,
    each: impl FnMut(&str, &mut dyn BufRead) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    each_part_named(path, &path.display().to_string(), each)
}

/// As [`each_part`], the file itself (not a package) named `name`.
pub(crate) fn each_part_named<E: From<Error> + From<aas_model::Error>>(
    path: &Path,
    name: &str,
    mut each: impl FnMut(&str, &mut dyn BufRead) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let reading = Reading::default();
    match open(path, name, &reading)? {
        Opened::Package(name, bytes) => each_payload(&name, &bytes, &reading, each),
        Opened::Payload(name, mut payload) => each(&name, &mut payload),
    }
}

/// A payload of a file read by [`read_or_v2`].
#[derive(Debug)]
pub enum PayloadRead {
    /// A V2 payload's environment JSON (XML as the JSON its specification writes for
    /// it), held whole, and how the payload is written.
    V2(Serialisation, Vec<u8>),
    /// What a payload of another version holds, read as [`read`] reads it.
    Read(Contents),
}

/// Reads one payload of [`each_part`]: V2 as its environment's JSON, to be checked
/// against V2.0.1 (V2 is told from the root element's namespace, or from JSON's marks);
/// any other as [`read`] reads it.
pub fn read_or_v2(part: &str, payload: &mut dyn BufRead) -> Result<PayloadRead> {
    payload::read_or_v2(part, payload)
}

/// A file opened: a package, held whole, or one payload, to be read as it comes.
enum Opened<'r> {
    Package(String, Vec<u8>),
    Payload(
        String,
        std::io::Take<std::io::BufReader<reading::Watched<'r, std::fs::File>>>,
    ),
}

/// Opens the file at `path`, to be named `name`; a payload's reading is told to `reading`.
fn open<'r>(path: &Path, name: &str, reading: &'r Reading) -> Result<Opened<'r>> {
    let name = name.to_owned();
    let io = |source| Error::Io {
        path: path.display().to_string(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let size = aas_model::aasx::regular_size(&file);
    // The file's bytes are read once: a package's, then its parts' as they inflate.
    reading.begins(size.unwrap_or(0));
    let mut file = std::io::BufReader::with_capacity(1 << 16, reading.watch(file));
    if aas_model::aasx::is_package(file.fill_buf().map_err(io)?) {
        let bytes = aas_model::aasx::read_within(file, size).map_err(io)?;
        return Ok(Opened::Package(name, bytes));
    }
    let limit = aas_model::aasx::MAX_STREAMED_PART_BYTES;
    if size.is_some_and(|size| size > limit) {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!(
                "larger than {} MiB, the most this app reads of a file",
                limit >> 20
            ),
        )));
    }
    Ok(Opened::Payload(name, file.take(limit)))
}

/// Reads a file's bytes (`name` names it in errors).
pub fn read_bytes(name: &str, bytes: Vec<u8>) -> Result<Contents> {
    read_bytes_watched(name, bytes, &Reading::default())
}

/// Reads a file's bytes as [`read_bytes`] does, a package's parts' inflating told to
/// `reading`.
fn read_bytes_watched(name: &str, bytes: Vec<u8>, reading: &Reading) -> Result<Contents> {
    // A thumbnail that cannot be read is only not shown.
    let thumbnail = match aas_model::aasx::is_package(&bytes) {
        true => (aas_model::aasx::thumbnail(&bytes, THUMBNAIL_MAX).ok()).flatten(),
        false => None,
    };
    let mut contents = Contents {
        thumbnail,
        ..Contents::default()
    };
    each_payload(name, &bytes, reading, |part, payload| {
        contents.merge(payload::read_stream(part, payload, reading)?);
        if !contents.shells.is_empty() {
            reading.shells_passed();
        }
        Ok::<_, Error>(())
    })?;
    Ok(contents)
}

/// Hands `each` the payloads of a file's bytes one at a time, each to be read as it
/// comes: a package's spec parts as they inflate (each named `/` and its part name;
/// XML of up to [`aas_model::aasx::MAX_STREAMED_PART_BYTES`]; told to `reading`), or
/// the bytes themselves (named `name`).
pub(crate) fn each_payload<E: From<aas_model::Error>>(
    name: &str,
    bytes: &[u8],
    reading: &Reading,
    mut each: impl FnMut(&str, &mut dyn BufRead) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    if !aas_model::aasx::is_package(bytes) {
        return each(name, &mut &bytes[..]);
    }
    let limit = aas_model::aasx::MAX_STREAMED_PART_BYTES;
    // All parts' sizes at once: the bar never moves back.
    reading.begins(aas_model::aasx::spec_parts_size(bytes)?);
    aas_model::aasx::each_spec_part(bytes, limit, |part, inflating| {
        let mut inflating = std::io::BufReader::new(reading.watch(inflating));
        each(&format!("/{part}"), &mut inflating)
    })
}

/// A file's payloads without a byte order mark, each with its name: a package's spec
/// parts, or the file itself (named `name`).
pub(crate) fn payloads(name: &str, bytes: Vec<u8>) -> Result<Vec<(String, Vec<u8>)>> {
    Ok(if aas_model::aasx::is_package(&bytes) {
        aas_model::aasx::spec_payloads(&bytes)?
            .into_iter()
            .map(|part| (format!("/{}", part.name), part.bytes))
            .collect()
    } else {
        let bom = bytes.len() - aas_model::aasx::without_bom(&bytes).len();
        vec![(name.to_owned(), bytes[bom..].to_vec())]
    })
}

/// Each XML spec part of the AAS file at `path` as the JSON environment the
/// specification of its version writes for it: its name, version and JSON.
pub fn xml_parts_as_json(path: &Path) -> Result<Vec<(String, Version, serde_json::Value)>> {
    let mut xml = Vec::new();
    for (part, bytes) in payloads(&path.display().to_string(), file_bytes(path)?)? {
        // Payloads come without a byte order mark.
        if bytes.trim_ascii_start().starts_with(b"<") {
            let (version, json) = payload::xml_as_json(&part, &bytes)?;
            xml.push((part, version, json));
        }
    }
    Ok(xml)
}

/// The bytes of the file at `path`, within the bounds every file is read in.
pub(crate) fn file_bytes(path: &Path) -> Result<Vec<u8>> {
    aas_model::aasx::read_file(path).map_err(|source| Error::Io {
        path: path.display().to_string(),
        source,
    })
}
