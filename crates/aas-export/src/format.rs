//! Writing what a crawl fetched: a raw bundle (the exact answers), an AAS V2.0.1
//! environment JSON, an AASX package of it, or a CSV of property-like elements, each
//! through [`aas_output::write_with`] (atomic for a file, straight through for a pipe).

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::path::Path;
use std::time::SystemTime;

use aas_model::aasx::Flavour;
use aas_model::{parse_list, ElementKind, Parsed, SubmodelElement};
use aas_output::{write_with, SafeCsv};
use aas_source::{
    ids_in_list, read_text, unreadable_body, Failure, NodeLevel, NodePath, Selection, Source,
    Unreadable, SHELL_ID,
};
use aas_v3::Target;

use crate::v3_format::{Serialisation, V3Format};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::answers::{each_answer, each_descriptor, rfc3339, selected, unreadable};
use crate::output::{package, Written};
use crate::report::Exported;
use crate::{Error, Result};

/// The export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Every answer exactly as received, with a manifest.
    Raw,
    /// An AAS V2.0.1 environment (`assetAdministrationShells`, `assets`, `submodels`).
    Env,
    /// An AASX package holding the environment JSON.
    Aasx,
    /// One row per property-like element.
    Csv,
    /// An AAS V3 environment (V3.0 or V3.1, JSON or XML, in a package or not), with a
    /// conversion report beside it.
    V3(V3Format),
}

impl Format {
    /// Whether the format is AAS V3, converted, with a report.
    pub fn is_v3(self) -> bool {
        matches!(self, Format::V3(_))
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        use Serialisation::{Json, Xml};
        let v3 = |target, packaged, serialisation| {
            Format::V3(V3Format::new(target, packaged, serialisation))
        };
        match s {
            "raw" => Ok(Format::Raw),
            "env" => Ok(Format::Env),
            "aasx" => Ok(Format::Aasx),
            "csv" => Ok(Format::Csv),
            // The V3.0 formats' first names stay theirs.
            "v3-env" | "v3.0-json" => Ok(v3(Target::V3_0, false, Json)),
            "v3-aasx" | "v3.0-aasx" => Ok(v3(Target::V3_0, true, Json)),
            "v3.0-xml" => Ok(v3(Target::V3_0, false, Xml)),
            "v3.0-aasx-xml" => Ok(v3(Target::V3_0, true, Xml)),
            "v3.1-json" => Ok(v3(Target::V3_1, false, Json)),
            "v3.1-aasx" => Ok(v3(Target::V3_1, true, Json)),
            "v3.1-xml" => Ok(v3(Target::V3_1, false, Xml)),
            "v3.1-aasx-xml" => Ok(v3(Target::V3_1, true, Xml)),
            _ => Err(format!(
                "unknown format {s:?}; expected raw, env, aasx, csv, or AAS V3: v3.0-json \
                 (v3-env), v3.0-aasx (v3-aasx), v3.0-xml, v3.0-aasx-xml, v3.1-json, \
                 v3.1-aasx, v3.1-xml or v3.1-aasx-xml"
            )),
        }
    }
}

/// Writes `answers` to `path` in `format`; `profile` names the connection in the raw
/// bundle's manifest. Every format is streamed: one answer is in memory at a time. A
/// V3.0 format also writes its conversion report beside `path`.
pub fn export(
    answers: &dyn Source,
    format: Format,
    profile: &str,
    path: &Path,
) -> Result<Exported> {
    // Checked before a byte is written: an output that is a pipe keeps what it gets.
    if matches!(format, Format::Env | Format::Aasx) && holds_v3(answers)? {
        return Err(Error::NotV2);
    }

    let bytes = match format {
        Format::Raw => write_with(path, |mut out| raw_bundle(answers, profile, out.writer()))?,
        Format::Env => write_with(path, |mut out| environment(answers, out.writer()))?,
        Format::Aasx => write_with(path, |out| {
            package(out, Flavour::V2, |p| environment(answers, p))
        })?,
        Format::Csv => write_with(path, |mut out| csv(answers, out.writer()))?,
        Format::V3(v3) => return crate::v3::export(answers, v3, path),
    };
    Ok(Exported {
        bytes,
        conversion: None,
    })
}

#[derive(Serialize)]
struct Manifest<'c> {
    format: &'static str,
    created: String,
    /// When the answers were read from the server.
    crawl_started: String,
    profile: &'c str,
    plant: &'c str,
    asset_types: &'c [aas_model::AssetType],
    /// Every node wanted was answered, and nothing ended the reading early.
    complete: bool,
    /// Said only by an export of a walk (not of a stored snapshot, which keeps no such
    /// record): it was cancelled.
    #[serde(skip_serializing_if = "Option::is_none")]
    cancelled: Option<bool>,
    /// As `cancelled`: the plant had more nodes than the walk's limit; those past it
    /// are missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    node_limit_reached: Option<bool>,
    /// The picked shells and submodels; `null` when everything was loaded.
    selection: &'c Selection,
    nodes: usize,
    failures: &'c [Failure],
    /// Parts of answers that could not be read, with their JSON paths.
    unreadable: &'c [Unreadable],
}

/// `{"manifest": {…}, "nodes": [{"path", "url", "json"}, …]}`, level by level. Each
/// answer goes in as the server sent it, unparsed: the crawl read every fetched answer
/// as JSON when it arrived (`Client::get_reading`), so it is not parsed a second time.
fn raw_bundle(answers: &dyn Source, profile: &str, out: &mut dyn Write) -> Written {
    let coverage = answers.coverage();
    let walk = answers.walk();
    let manifest = Manifest {
        format: "aas-browser-raw-bundle/1",
        created: rfc3339(SystemTime::now()),
        crawl_started: rfc3339(coverage.read_at),
        profile,
        plant: coverage.plant,
        asset_types: coverage.asset_types,
        complete: coverage.complete,
        cancelled: walk.map(|w| w.cancelled),
        node_limit_reached: walk.map(|w| w.node_limit_reached),
        selection: coverage.selection,
        nodes: answers.count(),
        failures: coverage.failures,
        unreadable: coverage.unreadable,
    };
    out.write_all(b"{\"manifest\":")?;
    serde_json::to_writer(&mut *out, &manifest)?;
    out.write_all(b",\"nodes\":[")?;
    let mut first = true;
    // One buffer for every answer's copy (a new one each was 64 KB zeroed 600,000
    // times for a large plant).
    let mut buffer = vec![0; 64 * 1024];
    for level in NodeLevel::ALL {
        each_answer(answers, level, |path, url, body| {
            if !std::mem::take(&mut first) {
                out.write_all(b",")?;
            }
            out.write_all(b"{\"path\":")?;
            serde_json::to_writer(&mut *out, path)?;
            out.write_all(b",\"url\":")?;
            serde_json::to_writer(&mut *out, url)?;
            out.write_all(b",\"json\":")?;
            copy(body, url, out, &mut buffer)?;
            Ok(out.write_all(b"}")?)
        })?;
    }
    Ok(out.write_all(b"]}")?)
}

fn copy(body: &mut dyn Read, url: &str, out: &mut dyn Write, buffer: &mut [u8]) -> Written {
    loop {
        let n = body.read(buffer).map_err(|e| unreadable_body(url, e))?;
        if n == 0 {
            return Ok(());
        }
        out.write_all(&buffer[..n])?;
    }
}

/// `{"assetAdministrationShells", "assets", "submodels", "conceptDescriptions"}`: the
/// shells of the AAS lists, the assets of the registry's descriptors of those shells,
/// the submodels of the shells' submodel lists, each item exactly as sent.
fn environment(answers: &dyn Source, out: &mut dyn Write) -> Written {
    let selection = answers.coverage().selection;
    let mut shells = HashSet::new();
    out.write_all(b"{\"assetAdministrationShells\":[")?;
    let mut first = true;
    each_answer(answers, NodeLevel::AasList, |path, url, body| {
        let raw = read_text(body, url)?;
        let ids = ids_in_list(&raw, SHELL_ID).map_err(unreadable)?;
        shells.extend(ids.into_iter().filter(|id| selection.wants_shell(id)));
        items(&raw, selection, path, &mut first, out)
    })?;
    out.write_all(b"],\"assets\":[")?;
    let mut first = true;
    each_answer(answers, NodeLevel::Registry, |_, url, body| {
        assets_of(body, url, &shells, &mut first, out)
    })?;
    out.write_all(b"],\"submodels\":[")?;
    let mut first = true;
    each_answer(answers, NodeLevel::Submodels, |path, url, body| {
        let raw = read_text(body, url)?;
        items(&raw, selection, path, &mut first, out)
    })?;
    Ok(out.write_all(b"],\"conceptDescriptions\":[]}")?)
}

/// The items of one list answer that `selection` wants, each exactly as sent, with a
/// comma before each but the first of the whole array.
fn items(
    raw: &str,
    selection: &Selection,
    path: &NodePath,
    first: &mut bool,
    out: &mut dyn Write,
) -> Written {
    // The crawl already read each of these as a list.
    let list: Vec<&RawValue> = serde_json::from_str(raw).map_err(unreadable)?;
    let everything = selection.is_everything();
    for item in list {
        if everything || selected(selection, path, item) {
            if !std::mem::take(first) {
                out.write_all(b",")?;
            }
            out.write_all(item.get().as_bytes())?;
        }
    }
    Ok(())
}

/// Whether the shells of `answers` are AAS V3 (a V3 file taken in), which a V2 file
/// cannot hold.
fn holds_v3(answers: &dyn Source) -> Result<bool> {
    let mut v3 = false;
    aas_source::each_answer(answers, NodeLevel::AasList, |_, url, body| -> Result<()> {
        let raw = read_text(body, url)?;
        let list: Vec<&RawValue> = serde_json::from_str(&raw).unwrap_or_default();
        v3 |= list.iter().any(|item| names_v3_type(item));
        Ok(())
    })?;
    Ok(v3)
}

/// Whether `item` is AAS V3: it names its model type by a string.
fn names_v3_type(item: &RawValue) -> bool {
    #[derive(serde::Deserialize)]
    struct Typed<'a> {
        #[serde(rename = "modelType", borrow)]
        model_type: Option<&'a RawValue>,
    }
    serde_json::from_str::<Typed>(item.get())
        .is_ok_and(|t| t.model_type.is_some_and(|m| m.get().starts_with('"')))
}

/// The Asset objects of `shells`, from the registry's descriptors (the gateway does not
/// serve assets), each once.
fn assets_of(
    registry: &mut dyn Read,
    url: &str,
    shells: &HashSet<String>,
    first: &mut bool,
    out: &mut dyn Write,
) -> Written {
    #[derive(serde::Deserialize)]
    struct AssetId {
        identification: Option<Value>,
    }
    let mut seen = HashSet::new();
    let mut written = Ok(());
    each_descriptor(registry, url, |aas_id, asset| {
        let asset_id = serde_json::from_str::<AssetId>(asset.get())
            .ok()
            .and_then(|a| a.identification)
            .map(|i| i["id"].to_string());
        if shells.contains(aas_id) && seen.insert(asset_id.unwrap_or_else(|| aas_id.to_owned())) {
            let comma: &[u8] = if std::mem::take(first) { b"" } else { b"," };
            written = out
                .write_all(comma)
                .and_then(|()| out.write_all(asset.get().as_bytes()));
        }
        written.is_ok()
    })?;
    Ok(written?)
}

/// One row per property-like element (Property, MultiLanguageProperty, Range, File,
/// Blob, ReferenceElement), walking into collections and entities.
fn csv(answers: &dyn Source, out: &mut dyn Write) -> Written {
    let mut types = HashMap::new();
    each_answer(answers, NodeLevel::AasList, |path, url, body| {
        if let NodePath::AasList { asset_type } = path {
            let raw = read_text(body, url)?;
            for aas_id in ids_in_list(&raw, SHELL_ID).map_err(unreadable)? {
                types.insert(aas_id, asset_type.clone());
            }
        }
        Ok(())
    })?;
    let selection = answers.coverage().selection;
    let mut out = SafeCsv::new(out);
    out.write_row(&[
        "aas_id",
        "asset_type",
        "submodel",
        "id_short_path",
        "model_type",
        "value_type",
        "value",
        "unit",
        "semantic_id",
    ])?;
    each_answer(answers, NodeLevel::Submodels, |path, url, body| {
        let NodePath::Submodels { aas_id } = path else {
            return Ok(());
        };
        let asset_type = types.get(aas_id).map(|t| t.code()).unwrap_or_default();
        for sm in parse_list::<aas_model::Submodel>(&read_text(body, url)?).map_err(Error::from)? {
            let Ok(sm) = sm.view() else { continue };
            if !selection.wants_submodel(aas_id, &sm.id_short) {
                continue;
            }
            let row = Row {
                aas_id,
                asset_type,
                submodel: &sm.id_short,
            };
            rows(&mut out, &row, "", 1, &sm.elements())?;
        }
        Ok(())
    })?;
    out.into_inner()?;
    Ok(())
}

struct Row<'a> {
    aas_id: &'a str,
    asset_type: &'a str,
    submodel: &'a str,
}

/// The rows of `elements`, `depth` levels below the submodel; the walk stops at
/// [`aas_model::MAX_ELEMENT_DEPTH`] (answers are measured on arrival, but a store
/// written before that may hold a deeper one).
fn rows<W: Write>(
    out: &mut SafeCsv<W>,
    row: &Row,
    prefix: &str,
    depth: usize,
    elements: &[Parsed<SubmodelElement>],
) -> Written {
    if depth > aas_model::MAX_ELEMENT_DEPTH {
        return Ok(());
    }
    for el in elements {
        let Ok(e) = el.view() else { continue };
        let path = if prefix.is_empty() {
            e.id_short.clone()
        } else {
            format!("{prefix}/{}", e.id_short)
        };
        let property_like = matches!(
            e.kind(),
            ElementKind::Property
                | ElementKind::MultiLanguageProperty
                | ElementKind::Range
                | ElementKind::File
                | ElementKind::Blob
                | ElementKind::ReferenceElement
        );
        if property_like {
            let value = e.display_value().ok().flatten().unwrap_or_default();
            let semantic = e
                .semantic_id
                .as_ref()
                .and_then(|r| r.target())
                .unwrap_or_default();
            out.write_row(&[
                row.aas_id,
                row.asset_type,
                row.submodel,
                &path,
                &e.model_type.name,
                &e.value_type().unwrap_or_default(),
                &value,
                e.unit().unwrap_or_default(),
                semantic,
            ])?;
        }
        rows(
            out,
            row,
            &path,
            depth + 1,
            &e.children().unwrap_or_default(),
        )?;
    }
    Ok(())
}
