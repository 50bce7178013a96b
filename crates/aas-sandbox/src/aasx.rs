//! Finding the AAS spec part of an AASX package (an OPC zip): through the package
//! relationships (`_rels/.rels` → aasx-origin → its aas-spec parts) when present,
//! otherwise the first JSON part.

use std::io::{Cursor, Read};

use percent_encoding::percent_decode_str;
use zip::result::ZipError;
use zip::ZipArchive;

type Package<'a> = ZipArchive<Cursor<&'a [u8]>>;

/// Zip files start with a local file header.
pub(crate) fn is_package(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// The bytes of the package's JSON spec part; the error says why there is none.
pub(crate) fn spec_json(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut zip = ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| format!("not a readable AASX (zip) package: {e}"))?;
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
        return read(&mut zip, json)?.ok_or_else(|| format!("the spec part {json} is missing"));
    }
    match candidates.iter().find(|n| has_ext(n, ".xml")) {
        Some(xml) => Err(format!(
            "the package holds its AAS as XML ({xml}), which is not read: only JSON spec parts are"
        )),
        None => Err("the package holds no AAS spec part".to_owned()),
    }
}

/// OPC bookkeeping parts, never an AAS spec.
fn is_packaging(name: &str) -> bool {
    name == "[Content_Types].xml" || name.ends_with(".rels") || name.starts_with("docProps/")
}

/// The spec parts named by the relationships, in their order; empty without them.
fn spec_parts(zip: &mut Package) -> Result<Vec<String>, String> {
    let Some(root) = read(zip, "_rels/.rels")? else {
        return Ok(Vec::new());
    };
    let mut specs = Vec::new();
    for origin in targets(&String::from_utf8_lossy(&root), "aasx-origin", "") {
        let (dir, file) = origin.rsplit_once('/').unwrap_or(("", &origin));
        let dir = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        if let Some(rels) = read(zip, &format!("{dir}_rels/{file}.rels"))? {
            specs.extend(targets(&String::from_utf8_lossy(&rels), "aas-spec", &dir));
        }
    }
    Ok(specs)
}

/// A part's bytes, `None` if the package has no such part. Part names in
/// relationships are URIs, so a percent-encoded name is tried decoded too.
fn read(zip: &mut Package, name: &str) -> Result<Option<Vec<u8>>, String> {
    let decoded = percent_decode_str(name).decode_utf8_lossy().into_owned();
    for candidate in [name, decoded.as_str()] {
        match zip.by_name(candidate) {
            Ok(mut part) => {
                let mut bytes = Vec::new();
                part.read_to_end(&mut bytes)
                    .map_err(|e| format!("cannot read part {candidate}: {e}"))?;
                return Ok(Some(bytes));
            }
            Err(ZipError::FileNotFound) => continue,
            Err(e) => return Err(format!("cannot read part {candidate}: {e}")),
        }
    }
    Ok(None)
}

/// Targets of the relationships in `rels` whose type ends in `/{kind}`, as part names
/// (no leading `/`) resolved against `base`, the directory of the source part.
fn targets(rels: &str, kind: &str, base: &str) -> Vec<String> {
    let suffix = format!("/{kind}");
    rels.split("<Relationship")
        .skip(1)
        .map(attributes)
        .filter(|attrs| attr(attrs, "Type").is_some_and(|t| t.ends_with(&suffix)))
        .filter_map(|attrs| attr(&attrs, "Target").map(|t| resolve(base, t)))
        .collect()
}

fn attr<'a>(attrs: &[(&str, &'a str)], name: &str) -> Option<&'a str> {
    attrs.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// The `name="value"` pairs at the start of an XML tag's text (up to its end).
fn attributes(tag: &str) -> Vec<(&str, &str)> {
    let mut rest = tag;
    let mut found = Vec::new();
    loop {
        rest = rest.trim_start();
        let Some((name, after)) = rest.split_once('=') else {
            break;
        };
        let after = after.trim_start();
        let Some(quote) = after.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            break;
        };
        let Some((value, tail)) = after[1..].split_once(quote) else {
            break;
        };
        if name.contains(['<', '>', '/']) {
            break;
        }
        found.push((name.trim(), value));
        rest = tail;
    }
    found
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
            targets(rels, "aas-spec", "aasx/"),
            ["aasx/data.json", "other/b.xml"]
        );
    }
}
