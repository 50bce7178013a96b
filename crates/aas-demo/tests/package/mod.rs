//! Test files: scratch paths, and AASX packages built the way AASX Package Explorer
//! and BaSyx write them.

use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

use zip::write::SimpleFileOptions;
use zip::ZipWriter;

const RELS_NS: &str = "http://schemas.openxmlformats.org/package/2006/relationships";
const AASX_RELS: &str = "http://www.admin-shell.io/aasx/relationships";

/// A scratch file path under cargo's per-target temp dir.
pub fn scratch(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

fn relationships(kind: &str, target: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?><Relationships xmlns="{RELS_NS}"><Relationship Type="{AASX_RELS}/{kind}" Target="{target}" Id="R1" /></Relationships>"#
    )
}

/// Writes an AASX whose only spec part is `spec_part` (a part name like
/// `aasx/data.json`) holding `spec`, with a placeholder part for each of `files`
/// (File element values such as `/aasx/M-0001/manual.pdf`).
pub fn write_aasx(path: &Path, spec_part: &str, spec: &[u8], files: &[String]) {
    let content_types = r#"<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml" /><Default Extension="json" ContentType="application/json" /><Default Extension="xml" ContentType="application/xml" /><Override PartName="/aasx/aasx-origin" ContentType="text/plain" /></Types>"#;
    let root_rels = relationships("aasx-origin", "/aasx/aasx-origin");
    let origin_rels = relationships("aas-spec", &format!("/{spec_part}"));
    let parts: [(&str, &[u8]); 5] = [
        ("[Content_Types].xml", content_types.as_bytes()),
        ("_rels/.rels", root_rels.as_bytes()),
        ("aasx/aasx-origin", b"Intentionally empty."),
        ("aasx/_rels/aasx-origin.rels", origin_rels.as_bytes()),
        (spec_part, spec),
    ];
    let placeholders = files
        .iter()
        .map(|f| (f.trim_start_matches('/'), b"placeholder".as_slice()));
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes) in parts.into_iter().chain(placeholders) {
        zip.start_file(name, SimpleFileOptions::default())
            .expect("zip entry");
        zip.write_all(bytes).expect("zip write");
    }
    let bytes = zip.finish().expect("zip finish").into_inner();
    std::fs::write(path, bytes).expect("write aasx");
}
