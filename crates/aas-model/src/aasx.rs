//! AASX packages (Open Packaging Conventions zips): finding the AAS spec part through
//! the package relationships (`_rels/.rels` → aasx-origin → its aas-spec parts, or the
//! first JSON part when a package has none), and writing a package around a JSON
//! environment. Read by the demo service and `aasmd inspect`, written by the exports.

use std::io::{Cursor, Read, Seek, Write};
use std::path::Path;

use percent_encoding::percent_decode_str;
use quick_xml::events::Event;
use zip::ZipArchive;

use crate::{Error, Result};

type Archive<'a> = ZipArchive<Cursor<&'a [u8]>>;

/// Relationship types by their last segment: writers use the namespace with and without
/// `www.` (AASX Package Explorer and V2 tools with, V3 tools without).
const ORIGIN: &str = "aasx-origin";
const SPEC: &str = "aas-spec";
const SPEC_SPLIT: &str = "aas-spec-split";
const RELATIONSHIP_NAMESPACES: [&str; 2] = [
    "http://www.admin-shell.io/aasx/relationships/",
    "http://admin-shell.io/aasx/relationships/",
];

/// The package's thumbnail, as Open Packaging Conventions name it.
const THUMBNAIL: &str =
    "http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail";

/// The kind of an AASX relationship type (`aas-spec`…), whichever namespace it is in.
fn relationship_kind(rel_type: &str) -> Option<&str> {
    RELATIONSHIP_NAMESPACES
        .iter()
        .find_map(|namespace| rel_type.strip_prefix(namespace))
}

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
    let file = std::fs::File::open(path)?;
    let size = regular_size(&file);
    read_within(file, size)
}

/// The size of `file` if it is a regular file (a FIFO or device has none).
pub fn regular_size(file: &std::fs::File) -> Option<u64> {
    (file.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
}

/// What `file` (of `size` bytes, where it has one) holds, refused past
/// [`MAX_FILE_BYTES`] without reading further.
pub fn read_within(file: impl Read, size: Option<u64>) -> std::io::Result<Vec<u8>> {
    // A regular file is read into a buffer of its size: grown by doubling, each
    // smaller copy was resident for a moment beside the next. A FIFO or device, which
    // has no size, grows as it comes.
    let size = size.map_or(0, |size| size.min(MAX_FILE_BYTES + 1));
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
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

/// The UTF-8 byte order mark (Windows tools write one).
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `bytes` without a leading UTF-8 byte order mark.
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

/// The bytes of the package's JSON spec part; the error says why there is none.
pub fn spec_json(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut zip = archive(bytes)?;
    let specs = spec_parts(&mut zip)?;
    let candidates = if specs.is_empty() {
        unlisted_spec(&zip).into_iter().collect()
    } else {
        specs
    };
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

/// The part a package whose relationships name no spec part (one zipped by hand) holds
/// its AAS in: its first JSON part, else its first XML part, OPC bookkeeping aside.
fn unlisted_spec(zip: &Archive) -> Option<String> {
    let candidates: Vec<&str> = (zip.file_names()).filter(|n| !is_packaging(n)).collect();
    let first = |ext| candidates.iter().find(|n| has_ext(n, ext));
    first(".json")
        .or_else(|| first(".xml"))
        .map(|n| n.to_string())
}

/// Whether part `name` ends in `ext` (`.json`), whatever its case.
fn has_ext(name: &str, ext: &str) -> bool {
    name.to_ascii_lowercase().ends_with(ext)
}

/// OPC bookkeeping parts, never an AAS spec.
fn is_packaging(name: &str) -> bool {
    name == "[Content_Types].xml" || name.ends_with(".rels") || name.starts_with("docProps/")
}

/// The spec parts named by the relationships, each followed by its split parts, in
/// their order and each once; empty without them.
fn spec_parts(zip: &mut Archive) -> Result<Vec<String>> {
    let mut specs: Vec<String> = Vec::new();
    for origin in related(zip, "", ORIGIN)? {
        for spec in related(zip, &origin, SPEC)? {
            let split = related(zip, &spec, SPEC_SPLIT)?;
            for part in std::iter::once(spec).chain(split) {
                if !specs.contains(&part) {
                    specs.push(part);
                }
            }
        }
    }
    Ok(specs)
}

/// The targets of part `source`'s relationships of `kind` ("" for the package's own).
fn related(zip: &mut Archive, source: &str, kind: &str) -> Result<Vec<String>> {
    let (dir, file) = source.rsplit_once('/').unwrap_or(("", source));
    let dir = if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    };
    let wanted = |rel_type: &str| relationship_kind(rel_type) == Some(kind);
    match read(zip, &format!("{dir}_rels/{file}.rels"))? {
        Some(rels) => targets(without_bom(&rels), &wanted, &dir),
        None => Ok(Vec::new()),
    }
}

/// The package's thumbnail: its part name and bytes, if its relationships name one the
/// package holds, within `limit` bytes.
pub fn thumbnail(bytes: &[u8], limit: usize) -> Result<Option<(String, Vec<u8>)>> {
    let mut zip = archive(bytes)?;
    let Some(rels) = read(&mut zip, "_rels/.rels")? else {
        return Ok(None);
    };
    let named = targets(without_bom(&rels), &|rel_type| rel_type == THUMBNAIL, "")?;
    let Some(name) = named.into_iter().next() else {
        return Ok(None);
    };
    // Read no further than one byte past the limit: a larger one is not shown.
    let mut picture = None;
    each_part(&mut zip, &name, |_, _, part| {
        let mut bytes = Vec::new();
        part.take(limit as u64 + 1).read_to_end(&mut bytes)?;
        picture = Some(bytes).filter(|bytes| bytes.len() <= limit);
        Ok(())
    })?;
    Ok(picture.map(|bytes| (name, bytes)))
}

/// A part of a package that holds AAS content (an aas-spec or aas-spec-split part):
/// its name and its bytes, without a byte order mark.
#[derive(Debug)]
pub struct SpecPart {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// The spec parts of a package, in the order its relationships name them: each aas-spec
/// part reached from the aasx-origin, then its aas-spec-split parts. Without any, the
/// error says so.
pub fn spec_payloads(bytes: &[u8]) -> Result<Vec<SpecPart>> {
    let mut zip = archive(bytes)?;
    let mut parts = Vec::new();
    for name in spec_names(&mut zip)? {
        let mut bytes = read(&mut zip, &name)?.ok_or_else(|| missing(&name))?;
        let bom = bytes.len() - without_bom(&bytes).len();
        bytes.drain(..bom);
        parts.push(SpecPart { name, bytes });
    }
    Ok(parts)
}

/// The most one spec part may inflate to where it is read as it inflates and never
/// held whole (an XML part, read item by item): 4 GiB.
pub const MAX_STREAMED_PART_BYTES: u64 = 4 << 30;

/// Hands `each` the spec parts of package `bytes` one at a time, in the order
/// [`spec_payloads`] gives them: each part's name and a reader that inflates it as it
/// is read (a byte order mark included), and fails past `limit` bytes with an error of
/// kind `FileTooLarge` that says so.
pub fn each_spec_part<E: From<Error>>(
    bytes: &[u8],
    limit: u64,
    mut each: impl FnMut(&str, &mut dyn Read) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut zip = archive(bytes)?;
    for name in spec_names(&mut zip)? {
        let entry = entry_of(&zip, &name).ok_or_else(|| missing(&name))?;
        let (_, mut part) = open_part(&mut zip, &entry, limit)?;
        each(&name, &mut part)?;
    }
    Ok(())
}

/// The bytes the spec parts of package `bytes` inflate to, as the package declares
/// them (for a progress bar: the inflating is bounded by [`each_spec_part`]).
pub fn spec_parts_size(bytes: &[u8]) -> Result<u64> {
    let mut zip = archive(bytes)?;
    let mut size = 0u64;
    for name in spec_names(&mut zip)? {
        let entry = entry_of(&zip, &name).ok_or_else(|| missing(&name))?;
        let part = (zip.by_name(&entry))
            .map_err(|e| package_error(format_args!("cannot read part {entry}: {e}")))?;
        size = size.saturating_add(part.size());
    }
    Ok(size)
}

fn archive(bytes: &[u8]) -> Result<Archive<'_>> {
    ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| package_error(format_args!("not a readable AASX (zip) package: {e}")))
}

/// The names of the spec parts of a package; of one that names none (zipped by hand),
/// the part `spec_json` reads too; none at all is an error that says so.
fn spec_names(zip: &mut Archive) -> Result<Vec<String>> {
    let mut names = spec_parts(zip)?;
    if names.is_empty() {
        names.extend(unlisted_spec(zip));
    }
    if names.is_empty() {
        return Err(package_error(
            "the package names no AAS spec part (_rels/.rels → aasx-origin → aas-spec) and holds no JSON or XML part",
        ));
    }
    Ok(names)
}

fn missing(name: &str) -> Error {
    package_error(format_args!("the spec part /{name} is missing"))
}

/// A part's bytes, `None` if the package has no such part. Part names in
/// relationships are URIs, so a percent-encoded name is tried decoded too.
fn read(zip: &mut Archive, name: &str) -> Result<Option<Vec<u8>>> {
    let mut bytes = None;
    each_part(zip, name, |_, declared, part| {
        // Room for the declared size at once: a large part is not grown (and copied)
        // step by step to twice its size.
        let mut read = Vec::with_capacity(declared);
        part.read_to_end(&mut read)?;
        bytes = Some(read);
        Ok(())
    })?;
    Ok(bytes)
}

/// Hands `take` the part `name` (or, failing that, its percent-decoded name, or either
/// in another case) as found in the package, with its declared size and a reader that
/// inflates it within [`MAX_FILE_BYTES`]; nothing if there is no such part. The
/// reader's checksum is checked if `take` reads it to the end.
fn each_part(
    zip: &mut Archive,
    name: &str,
    take: impl FnOnce(&str, usize, &mut dyn Read) -> std::io::Result<()>,
) -> Result<()> {
    let Some(entry) = entry_of(zip, name) else {
        return Ok(());
    };
    let (declared, mut part) = open_part(zip, &entry, MAX_FILE_BYTES)?;
    take(&entry, declared, &mut part).map_err(|e| part_error(&entry, &e))
}

/// The entry of the package that holds part `name`: by its name, its percent-decoded
/// name (part names in relationships are URIs), or either in another ASCII case (OPC
/// compares part names so).
fn entry_of(zip: &Archive, name: &str) -> Option<String> {
    let decoded = percent_decode_str(name).decode_utf8_lossy().into_owned();
    let exact = [name, decoded.as_str()]
        .into_iter()
        .find(|candidate| zip.index_for_name(candidate).is_some())
        .map(str::to_owned);
    exact.or_else(|| {
        zip.file_names()
            .find(|e| e.eq_ignore_ascii_case(name) || e.eq_ignore_ascii_case(&decoded))
            .map(str::to_owned)
    })
}

/// Entry `entry` of the package (which holds it), its declared size, and a reader that
/// inflates it and fails past `limit` bytes (`FileTooLarge`, which [`part_error`] words).
fn open_part<'z, 'b>(
    zip: &'z mut Archive<'b>,
    entry: &str,
    limit: u64,
) -> Result<(usize, PartReader<'z, 'b>)> {
    let part = zip
        .by_name(entry)
        .map_err(|e| package_error(format_args!("cannot read part {entry}: {e}")))?;
    // The declared size is the package's word: checked first, and the inflating is cut
    // at the limit whatever it says.
    if part.size() > limit {
        return Err(package_error(too_large(entry, limit)));
    }
    // Within the limit, so room for it may be made at once.
    let declared = usize::try_from(part.size()).unwrap_or(0);
    let part = Bounded {
        inner: part,
        bytes: 0,
        limit,
        entry: entry.to_owned(),
    };
    Ok((declared, part))
}

fn too_large(entry: &str, limit: u64) -> String {
    format!(
        "part {entry} inflates to more than {} MiB, the most this app reads",
        limit >> 20
    )
}

/// The error of reading part `entry`: a part past its limit is said as such.
fn part_error(entry: &str, e: &std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::FileTooLarge {
        package_error(e)
    } else {
        package_error(format_args!("cannot read part {entry}: {e}"))
    }
}

/// What reads a part of a package held in memory.
type PartReader<'z, 'b> = Bounded<zip::read::ZipFile<'z, Cursor<&'b [u8]>>>;

/// A part's reader that fails once more than `limit` bytes came through it, so that a
/// part that inflates further is never read whole, whatever reads it.
struct Bounded<R> {
    inner: R,
    bytes: u64,
    limit: u64,
    entry: String,
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // One byte past the limit is enough to know.
        let room = (self.limit + 1).saturating_sub(self.bytes);
        let room = usize::try_from(room).map_or(buf.len(), |room| room.min(buf.len()));
        let n = self.inner.read(&mut buf[..room])?;
        self.bytes += n as u64;
        if self.bytes > self.limit {
            return Err(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                too_large(&self.entry, self.limit),
            ));
        }
        Ok(n)
    }
}

/// Targets of the relationships in `rels` whose type is `wanted`, as part names (no
/// leading `/`) resolved against `base`, the directory of the source part.
fn targets(rels: &[u8], wanted: &dyn Fn(&str) -> bool, base: &str) -> Result<Vec<String>> {
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
                    if wanted(&t) {
                        let target = target.split('#').next().unwrap_or_default();
                        found.push(resolve(base, target));
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
/// `http://www.admin-shell.io/…`, V3's `http://admin-shell.io/…`), and the spec part
/// (`aasx/data.json`, or `aasx/data.xml` for [`Flavour::V3Xml`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    V2,
    V3,
    /// V3 with its environment as XML.
    V3Xml,
}

impl Flavour {
    fn relationship(self, name: &str) -> String {
        let host = match self {
            Flavour::V2 => "www.admin-shell.io",
            Flavour::V3 | Flavour::V3Xml => "admin-shell.io",
        };
        format!("http://{host}/aasx/relationships/{name}")
    }

    /// The part holding the environment.
    fn spec_part(self) -> &'static str {
        match self {
            Flavour::V2 | Flavour::V3 => "aasx/data.json",
            Flavour::V3Xml => "aasx/data.xml",
        }
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
        Self::begin(zip::ZipWriter::new_stream(out), flavour, &[], |_| Ok(()))
    }
}

impl<W: Write + Seek> Package<W> {
    /// Writes the parts before the spec (the supplementary files among them); the
    /// errors are the output's (a zip's own are given as I/O errors too). A
    /// supplementary file whose name [`is_carried_part`] refuses is an error.
    pub fn new(out: W, flavour: Flavour, supplementary: &[Supplementary]) -> std::io::Result<Self> {
        let names: Vec<&str> = supplementary.iter().map(|s| s.name.as_str()).collect();
        Self::begin(zip::ZipWriter::new(out), flavour, &names, |zip| {
            for s in supplementary {
                zip.start_file(s.name.as_str(), deflated())?;
                zip.write_all(&s.bytes)?;
            }
            Ok(())
        })
    }

    /// Like [`Package::new`], with the parts of another package that `carried` holds
    /// copied into it as they are compressed there: one part at a time passes through
    /// (none is inflated or held), so memory does not grow with their size or number.
    pub fn carrying(out: W, flavour: Flavour, carried: Carried<'_>) -> std::io::Result<Self> {
        let Carried { mut zip, parts } = carried;
        let names: Vec<&str> = parts.iter().map(|(_, name)| name.as_str()).collect();
        Self::begin(zip::ZipWriter::new(out), flavour, &names, |out| {
            for (entry, name) in &parts {
                let part = zip.by_name(entry)?;
                out.raw_copy_file_rename(part, name)?;
            }
            Ok(())
        })
    }

    /// Writes the package's own parts, then has `carry` write the supplementary files
    /// `names` (their content types and relationships are written here).
    fn begin(
        mut zip: zip::ZipWriter<W>,
        flavour: Flavour,
        names: &[&str],
        carry: impl FnOnce(&mut zip::ZipWriter<W>) -> std::io::Result<()>,
    ) -> std::io::Result<Self> {
        // The callers carry only such names; a last guard against a path leaving the
        // folder a package is unpacked to, or a clash with the package's own parts.
        if let Some(bad) = names.iter().find(|name| !is_carried_part(name)) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{bad:?} cannot be a part of the package: not a safe part name, or one of the package's own"),
            ));
        }
        let overrides: String = names
            .iter()
            .map(|name| {
                format!(
                    r#"<Override PartName="/{}" ContentType="application/octet-stream" />"#,
                    xml_escape(name)
                )
            })
            .collect();
        // V3 readers (BaSyx) tell a spec part's format by its content type.
        let (extension, spec_type) = match flavour {
            Flavour::V2 => ("json", "text/plain"),
            Flavour::V3 => ("json", "application/json"),
            Flavour::V3Xml => ("xml", "text/xml"),
        };
        let content_types = format!(
            r#"<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml" /><Default Extension="{extension}" ContentType="{spec_type}" /><Override PartName="/aasx/aasx-origin" ContentType="text/plain" />{overrides}</Types>"#
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
        let spec_part = flavour.spec_part();
        let origin_rels = rels(&[(flavour.relationship("aas-spec"), format!("/{spec_part}"))]);
        let suppl: Vec<(String, String)> = names
            .iter()
            .map(|name| (flavour.relationship("aas-suppl"), format!("/{name}")))
            .collect();
        let spec_rels = rels(&suppl);
        let mut parts: Vec<(&str, &[u8])> = vec![
            ("[Content_Types].xml", content_types.as_bytes()),
            ("_rels/.rels", root_rels.as_bytes()),
            ("aasx/aasx-origin", b"Intentionally empty."),
            ("aasx/_rels/aasx-origin.rels", origin_rels.as_bytes()),
        ];
        let spec_rels_part = format!("aasx/_rels/{}.rels", &spec_part["aasx/".len()..]);
        if !names.is_empty() {
            parts.push((spec_rels_part.as_str(), spec_rels.as_bytes()));
        }
        for (name, bytes) in parts {
            zip.start_file(name, deflated())?;
            zip.write_all(bytes)?;
        }
        carry(&mut zip)?;
        zip.start_file(spec_part, deflated())?;
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

/// The names of the parts a package holds that may be carried into another (as part
/// names): OPC bookkeeping, and what [`is_carried_part`] refuses, are left out, so a
/// File naming one of those is a File whose part the package lacks.
pub fn part_names(bytes: &[u8]) -> Result<std::collections::HashSet<String>> {
    let zip = archive(bytes)?;
    Ok(zip
        .file_names()
        .filter(|name| !is_packaging(name) && is_carried_part(name))
        .map(str::to_owned)
        .collect())
}

/// The parts a package written here makes itself (its spec part of either
/// serialisation), and the names OPC keeps for its bookkeeping (`[Content_Types].xml`,
/// relationships in `_rels` folders).
const OWN_PARTS: [&str; 5] = [
    "[Content_Types].xml",
    "_rels",
    "aasx/aasx-origin",
    "aasx/data.json",
    "aasx/data.xml",
];

/// Whether `name` (a part name without its leading `/`) may be written into a package
/// beside the environment: a part name as OPC has them, whose segments are not empty,
/// `.` or `..`, end in no dot, and hold no backslash, colon (a drive letter, an NTFS
/// stream) or control character, and still so once percent-decoded; and none of the
/// package's own parts ([`OWN_PARTS`], in any case, nor a folder of one or a part under
/// one). Anything else could leave the folder a package is unpacked to, or clash with
/// a part the writer makes.
pub fn is_carried_part(name: &str) -> bool {
    fn safe(name: &str) -> bool {
        !name.is_empty()
            && name.split('/').all(|segment| {
                !segment.is_empty()
                    && !segment.ends_with('.')
                    && !segment
                        .chars()
                        .any(|c| c == '\\' || c == ':' || c.is_control())
            })
    }
    let decoded = percent_decode_str(name).decode_utf8_lossy();
    if !safe(name) || !safe(&decoded) {
        return false;
    }
    let lower = decoded.to_lowercase();
    let under = |folder: &str, part: &str| {
        part.strip_prefix(folder)
            .is_some_and(|rest| rest.starts_with('/'))
    };
    !OWN_PARTS.iter().any(|own| {
        let own = own.to_lowercase();
        lower == own || under(&own, &lower) || under(&lower, &own)
    }) && !lower.split('/').any(|segment| segment == "_rels")
}

/// Parts of a package to carry into a package being written ([`Package::carrying`]):
/// each was checked whole (it inflates within [`MAX_FILE_BYTES`] and its checksum
/// holds) but is not kept; it is copied as it is compressed when the package is
/// written.
#[allow(missing_debug_implementations)] // the zip reader has no Debug
pub struct Carried<'a> {
    zip: Archive<'a>,
    /// The entry in the package read, and the part name it is written under.
    parts: Vec<(String, String)>,
}

/// The parts of the package `bytes` named in `names` that it holds, to be carried into
/// a package being written, in the order asked; a name it lacks, or whose name
/// [`is_carried_part`] refuses, is skipped. Each is inflated once to nowhere, as
/// [`read`] would read it (bounded): one past the limit, or unreadable, is an error.
pub fn carried<'a>(bytes: &'a [u8], names: &[String]) -> Result<Carried<'a>> {
    let mut zip = archive(bytes)?;
    let mut parts = Vec::new();
    for name in names.iter().filter(|name| is_carried_part(name)) {
        let mut found = None;
        each_part(&mut zip, name, |entry, _, part| {
            std::io::copy(part, &mut std::io::sink())?;
            found = Some(entry.to_owned());
            Ok(())
        })?;
        if let Some(entry) = found {
            parts.push((entry, name.clone()));
        }
    }
    Ok(Carried { zip, parts })
}

/// The parts of a package named in `names` that it holds (each read as [`read`] reads
/// one: bounded, and those [`is_carried_part`] refuses left out), in the order asked; a
/// name it lacks is skipped. All are held at once: a reader's tool, not a converter's
/// ([`carried`] is).
pub fn parts(bytes: &[u8], names: &[String]) -> Result<Vec<Supplementary>> {
    let mut zip = archive(bytes)?;
    let mut found = Vec::new();
    for name in names.iter().filter(|name| is_carried_part(name)) {
        if let Some(bytes) = read(&mut zip, name)? {
            found.push(Supplementary {
                name: name.clone(),
                bytes,
            });
        }
    }
    Ok(found)
}

/// Deflate at level 5, not the usual 6: on an export's spec part (XML or JSON, highly
/// repetitive) zlib-rs's level 5 takes 30% less time for a part 0.15% larger
/// (bench/RESULTS.md, "The V3.1 XML package at 1.5×").
fn deflated() -> zip::write::SimpleFileOptions {
    zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(5))
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
            targets(
                rels.as_bytes(),
                &|t| relationship_kind(t) == Some(SPEC),
                "aasx/"
            )
            .expect("well-formed"),
            ["aasx/data.json", "other/b.xml"]
        );
    }

    #[test]
    fn only_safe_part_names_other_than_the_packages_own_are_carried() {
        for name in [
            "aasx/files/manual.pdf",
            "aasx/Handbuch Pumpe (DE).pdf",
            "aasx/files/100%25.pdf",
            "aasx/data.json.bak",
            "aasx/aasx-origin2",
            "docs/a.b/c",
        ] {
            assert!(is_carried_part(name), "{name:?}");
        }
        for name in [
            "",
            "../../escaped.txt",
            "aasx/../../x",
            "aasx\\..\\..\\back.txt",
            "aasx/./x",
            "aasx//x",
            "aasx/x/",
            "/aasx/x",
            "aasx/x.",
            "aasx/%2e%2e/%2e%2e/x",
            "aasx%2F..%2Fx",
            "aasx/%5C..%5Cx",
            "C:/x",
            "aasx/x:stream",
            "aasx/x\0y",
            "aasx/aasx-origin",
            "aasx/data.json",
            "AASX/Data.JSON",
            "aasx/data.json/inside",
            "aasx",
            "[Content_Types].xml",
            "_rels/.rels",
            "aasx/_rels/data.json.rels",
            "files/_rels/x",
        ] {
            assert!(!is_carried_part(name), "{name:?}");
        }
    }

    #[test]
    fn parts_are_carried_as_they_are_compressed_and_unsafe_names_never() {
        let manual = b"%PDF-1.4 a manual".repeat(1000);
        let mut source = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for name in [
            "aasx/files/manual.pdf",
            "../../escaped.txt",
            "aasx/data.json",
        ] {
            source.start_file(name, deflated()).expect("part");
            source.write_all(&manual).expect("part");
        }
        let source = source.finish().expect("zip").into_inner();
        let names: Vec<String> = ["aasx/files/manual.pdf", "../../escaped.txt", "aasx/missing"]
            .map(str::to_owned)
            .to_vec();
        let carried = carried(&source, &names).expect("checked");
        let mut package =
            Package::carrying(Cursor::new(Vec::new()), Flavour::V3, carried).expect("started");
        package.write_all(b"{}").expect("spec");
        let written = package.finish().expect("finished").into_inner();
        let mut zip = ZipArchive::new(Cursor::new(written.as_slice())).expect("a zip");
        let mut names: Vec<&str> = zip.file_names().collect();
        names.sort();
        assert_eq!(
            names,
            [
                "[Content_Types].xml",
                "_rels/.rels",
                "aasx/_rels/aasx-origin.rels",
                "aasx/_rels/data.json.rels",
                "aasx/aasx-origin",
                "aasx/data.json",
                "aasx/files/manual.pdf"
            ]
        );
        assert_eq!(
            read(&mut zip, "aasx/files/manual.pdf").expect("read"),
            Some(manual)
        );
        assert_eq!(
            read(&mut zip, "aasx/data.json").expect("read"),
            Some(b"{}".to_vec())
        );
        // The writer refuses such a name whoever hands it one.
        let unsafe_part = [Supplementary {
            name: "../x".into(),
            bytes: Vec::new(),
        }];
        assert!(Package::new(Cursor::new(Vec::new()), Flavour::V3, &unsafe_part).is_err());
        assert_eq!(
            part_names(&source).expect("names"),
            ["aasx/files/manual.pdf".to_owned()].into()
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
