//! AASX packages (Open Packaging Conventions zips): finding the AAS spec part through
//! the package relationships (`_rels/.rels` → aasx-origin → its aas-spec parts, or the
//! first JSON part when a package has none), and writing a package around a JSON
//! environment. Read by the sandbox and `aasmd inspect`, written by the exports.

use std::io::{Cursor, Read, Seek, Write};
use std::path::Path;

use percent_encoding::percent_decode_str;
use quick_xml::events::Event;
use zip::result::ZipError;
use zip::ZipArchive;

use crate::{Error, Result};

type Archive<'a> = ZipArchive<Cursor<&'a [u8]>>;

const ORIGIN: &str = "http://www.admin-shell.io/aasx/relationships/aasx-origin";
const SPEC: &str = "http://www.admin-shell.io/aasx/relationships/aas-spec";

fn package_error(e: impl std::fmt::Display) -> Error {
    Error::Package(e.to_string())
}

/// Zip files start with a local file header.
pub fn is_package(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// The most read of a file a user gives (an environment or a package), and the most one
/// part of a package may inflate to: 256 MiB, as for the largest answer taken from the
/// service. A zip bomb (megabytes that inflate to gigabytes) stops at the limit.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// The bytes of the file at `path`, refused past [`MAX_FILE_BYTES`] without reading
/// further (the size is not asked first: a FIFO or device has none).
pub fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!(
                "larger than {} MiB, the most this app reads from a file",
                MAX_FILE_BYTES >> 20
            ),
        ));
    }
    Ok(bytes)
}

/// The environment JSON held in a file's bytes: an AASX package's JSON spec part, or
/// the bytes themselves; a UTF-8 byte order mark (Windows tools write one) is dropped.
/// JSON nested past [`crate::MAX_DEPTH`] is refused here, before anything walks it.
pub fn environment_json(bytes: Vec<u8>) -> Result<Vec<u8>> {
    let mut json = if is_package(&bytes) {
        spec_json(&bytes)?
    } else {
        bytes
    };
    let bom = json.len() - without_bom(&json).len();
    json.drain(..bom);
    crate::check_depth(&json)?;
    Ok(json)
}

/// `bytes` without a leading UTF-8 byte order mark.
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// The bytes of the package's JSON spec part; the error says why there is none.
pub fn spec_json(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut zip = ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| package_error(format_args!("not a readable AASX (zip) package: {e}")))?;
    let specs = spec_parts(&mut zip)?;
    let candidates: Vec<String> = if specs.is_empty() {
        zip.file_names()
            .filter(|name| !is_packaging(name))
            .map(str::to_owned)
            .collect()
    } else {
        specs
    };
    let has_ext = |name: &str, ext: &str| name.to_ascii_lowercase().ends_with(ext);
    if let Some(json) = candidates.iter().find(|n| has_ext(n, ".json")) {
        return read(&mut zip, json)?
            .ok_or_else(|| package_error(format_args!("the spec part {json} is missing")));
    }
    match candidates.iter().find(|n| has_ext(n, ".xml")) {
        Some(xml) => Err(package_error(format_args!(
            "the package holds its AAS as XML ({xml}), which is not read: only JSON spec parts are"
        ))),
        None => Err(package_error("the package holds no AAS spec part")),
    }
}

/// OPC bookkeeping parts, never an AAS spec.
fn is_packaging(name: &str) -> bool {
    name == "[Content_Types].xml" || name.ends_with(".rels") || name.starts_with("docProps/")
}

/// The spec parts named by the relationships, in their order; empty without them.
fn spec_parts(zip: &mut Archive) -> Result<Vec<String>> {
    let Some(root) = read(zip, "_rels/.rels")? else {
        return Ok(Vec::new());
    };
    let mut specs = Vec::new();
    for origin in targets(&root, ORIGIN, "")? {
        let (dir, file) = origin.rsplit_once('/').unwrap_or(("", &origin));
        let dir = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        if let Some(rels) = read(zip, &format!("{dir}_rels/{file}.rels"))? {
            specs.extend(targets(&rels, SPEC, &dir)?);
        }
    }
    Ok(specs)
}

/// A part's bytes, `None` if the package has no such part. Part names in
/// relationships are URIs, so a percent-encoded name is tried decoded too.
fn read(zip: &mut Archive, name: &str) -> Result<Option<Vec<u8>>> {
    let decoded = percent_decode_str(name).decode_utf8_lossy().into_owned();
    for candidate in [name, decoded.as_str()] {
        match zip.by_name(candidate) {
            Ok(part) => {
                let too_large = || {
                    package_error(format_args!(
                        "part {candidate} inflates to more than {} MiB, the most this app reads",
                        MAX_FILE_BYTES >> 20
                    ))
                };
                // The declared size is the package's word: checked first, and the
                // inflating is cut at the limit whatever it says.
                if part.size() > MAX_FILE_BYTES {
                    return Err(too_large());
                }
                let mut bytes = Vec::new();
                part.take(MAX_FILE_BYTES + 1)
                    .read_to_end(&mut bytes)
                    .map_err(|e| {
                        package_error(format_args!("cannot read part {candidate}: {e}"))
                    })?;
                if bytes.len() as u64 > MAX_FILE_BYTES {
                    return Err(too_large());
                }
                return Ok(Some(bytes));
            }
            Err(ZipError::FileNotFound) => continue,
            Err(e) => {
                return Err(package_error(format_args!(
                    "cannot read part {candidate}: {e}"
                )))
            }
        }
    }
    Ok(None)
}

/// Targets of the relationships in `rels` of type `kind`, as part names (no leading
/// `/`) resolved against `base`, the directory of the source part.
fn targets(rels: &[u8], kind: &str, base: &str) -> Result<Vec<String>> {
    let mut reader = quick_xml::Reader::from_reader(rels);
    let mut found = Vec::new();
    let mut buf = Vec::new();
    loop {
        match reader.read_event_into(&mut buf).map_err(package_error)? {
            Event::Eof => break,
            Event::Start(tag) | Event::Empty(tag)
                if tag.local_name().as_ref() == b"Relationship" =>
            {
                let (mut rel_type, mut target) = (None, None);
                for attr in tag.attributes() {
                    let attr = attr.map_err(package_error)?;
                    let value = attr.unescape_value().map_err(package_error)?.into_owned();
                    match attr.key.as_ref() {
                        b"Type" => rel_type = Some(value),
                        b"Target" => target = Some(value),
                        _ => {}
                    }
                }
                if let (Some(t), Some(target)) = (rel_type, target) {
                    if t == kind {
                        found.push(resolve(base, &target));
                    }
                }
            }
            _ => {}
        }
        buf.clear();
    }
    Ok(found)
}

/// `target` as a part name: absolute targets start at the package root, relative
/// ones at `base`; `.` and `..` segments are folded.
fn resolve(base: &str, target: &str) -> String {
    let joined = match target.strip_prefix('/') {
        Some(absolute) => absolute.to_owned(),
        None => format!("{base}{target}"),
    };
    let mut segments: Vec<&str> = Vec::new();
    for segment in joined.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    segments.join("/")
}

/// An AASX package being written to `out`, its spec part last: the environment JSON
/// is written into it piece by piece ([`Write`]), then [`Package::finish`] closes it,
/// so a large environment is never in memory whole.
#[allow(missing_debug_implementations)] // the zip writer has no Debug
pub struct Package<W: Write + Seek>(zip::ZipWriter<W>);

/// Which version's package: the relationship types differ (V2.0.1's
/// `http://www.admin-shell.io/…`, V3.0's `http://admin-shell.io/…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    V2,
    V3,
}

impl Flavour {
    fn relationship(self, name: &str) -> String {
        let host = match self {
            Flavour::V2 => "www.admin-shell.io",
            Flavour::V3 => "admin-shell.io",
        };
        format!("http://{host}/aasx/relationships/{name}")
    }
}

/// A file carried in a package beside the environment (a File element's document):
/// its part name (`aasx/files/manual.pdf`, no leading `/`) and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Supplementary {
    pub name: String,
    pub bytes: Vec<u8>,
}

impl<W: Write> Package<zip::write::StreamWriter<W>> {
    /// A package written to an output that cannot seek (a pipe, a device): each part's
    /// sizes follow it in a data descriptor instead of being written back into its
    /// header, as the zip format allows.
    pub fn streamed(out: W, flavour: Flavour) -> std::io::Result<Self> {
        Self::begin(zip::ZipWriter::new_stream(out), flavour, &[])
    }
}

impl<W: Write + Seek> Package<W> {
    /// Writes the parts before the spec (the supplementary files among them); the
    /// errors are the output's (a zip's own are given as I/O errors too).
    pub fn new(out: W, flavour: Flavour, supplementary: &[Supplementary]) -> std::io::Result<Self> {
        Self::begin(zip::ZipWriter::new(out), flavour, supplementary)
    }

    fn begin(
        mut zip: zip::ZipWriter<W>,
        flavour: Flavour,
        supplementary: &[Supplementary],
    ) -> std::io::Result<Self> {
        let overrides: String = supplementary
            .iter()
            .map(|s| {
                format!(
                    r#"<Override PartName="/{}" ContentType="application/octet-stream" />"#,
                    xml_escape(&s.name)
                )
            })
            .collect();
        // V3.0 readers (BaSyx) tell a spec part's format by its content type.
        let json = match flavour {
            Flavour::V2 => "text/plain",
            Flavour::V3 => "application/json",
        };
        let content_types = format!(
            r#"<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml" /><Default Extension="json" ContentType="{json}" /><Override PartName="/aasx/aasx-origin" ContentType="text/plain" />{overrides}</Types>"#
        );
        let rels = |list: &[(String, String)]| {
            let items: String = list
                .iter()
                .enumerate()
                .map(|(i, (kind, target))| {
                    format!(
                        r#"<Relationship Type="{kind}" Target="{}" Id="R{}" />"#,
                        xml_escape(target),
                        i + 1
                    )
                })
                .collect();
            format!(
                r#"<?xml version="1.0" encoding="utf-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{items}</Relationships>"#
            )
        };
        let root_rels = rels(&[(
            flavour.relationship("aasx-origin"),
            "/aasx/aasx-origin".into(),
        )]);
        let origin_rels = rels(&[(flavour.relationship("aas-spec"), "/aasx/data.json".into())]);
        let suppl: Vec<(String, String)> = supplementary
            .iter()
            .map(|s| (flavour.relationship("aas-suppl"), format!("/{}", s.name)))
            .collect();
        let spec_rels = rels(&suppl);
        let mut parts: Vec<(&str, &[u8])> = vec![
            ("[Content_Types].xml", content_types.as_bytes()),
            ("_rels/.rels", root_rels.as_bytes()),
            ("aasx/aasx-origin", b"Intentionally empty."),
            ("aasx/_rels/aasx-origin.rels", origin_rels.as_bytes()),
        ];
        if !supplementary.is_empty() {
            parts.push(("aasx/_rels/data.json.rels", spec_rels.as_bytes()));
        }
        parts.extend(
            supplementary
                .iter()
                .map(|s| (s.name.as_str(), s.bytes.as_slice())),
        );
        for (name, bytes) in parts {
            zip.start_file(name, deflated())?;
            zip.write_all(bytes)?;
        }
        zip.start_file("aasx/data.json", deflated())?;
        Ok(Package(zip))
    }

    /// Ends the spec part and the package; the output.
    pub fn finish(self) -> std::io::Result<W> {
        Ok(self.0.finish()?)
    }
}

impl<W: Write + Seek> Write for Package<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

fn xml_escape(text: &str) -> String {
    quick_xml::escape::escape(text).into_owned()
}

/// The names of a package's parts (OPC bookkeeping aside), as part names.
pub fn part_names(bytes: &[u8]) -> Result<std::collections::HashSet<String>> {
    let zip = ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| package_error(format_args!("not a readable AASX (zip) package: {e}")))?;
    Ok(zip
        .file_names()
        .filter(|name| !is_packaging(name))
        .map(str::to_owned)
        .collect())
}

/// The parts of a package named in `names` that it holds (each read as [`read`] reads
/// one: bounded), in the order asked; a name it lacks is skipped.
pub fn parts(bytes: &[u8], names: &[String]) -> Result<Vec<Supplementary>> {
    let mut zip = ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| package_error(format_args!("not a readable AASX (zip) package: {e}")))?;
    let mut found = Vec::new();
    for name in names {
        if let Some(bytes) = read(&mut zip, name)? {
            found.push(Supplementary {
                name: name.clone(),
                bytes,
            });
        }
    }
    Ok(found)
}

fn deflated() -> zip::write::SimpleFileOptions {
    zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relationship_targets_are_resolved_against_their_source() {
        let rels = r#"<?xml version="1.0"?><Relationships xmlns="x">
            <Relationship Type="http://www.admin-shell.io/aasx/relationships/aas-spec" Target="data.json" Id="R1"/>
            <Relationship Id='R2' Target='/aasx/../other/b.xml' Type='http://www.admin-shell.io/aasx/relationships/aas-spec'/>
            <Relationship Type="http://www.admin-shell.io/aasx/relationships/aas-suppl" Target="/x.pdf" Id="R3"/>
        </Relationships>"#;
        assert_eq!(
            targets(rels.as_bytes(), SPEC, "aasx/").expect("well-formed"),
            ["aasx/data.json", "other/b.xml"]
        );
    }

    #[test]
    fn a_written_package_gives_back_its_spec() {
        let env = br#"{"assetAdministrationShells":[],"assets":[],"submodels":[],"conceptDescriptions":[]}"#;
        let mut package = Package::new(Cursor::new(Vec::new()), Flavour::V2, &[]).expect("started");
        package.write_all(env).expect("written");
        let package = package.finish().expect("finished").into_inner();
        assert!(is_package(&package));
        assert_eq!(spec_json(&package).expect("read"), env);
        assert!(spec_json(b"PK\x03\x04 not really").is_err());
    }
}
