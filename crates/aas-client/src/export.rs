//! Writing what a crawl fetched: a raw bundle (the exact answers), an AAS V2.0.1
//! environment JSON, an AASX package of it, or a CSV of property-like elements. Every
//! file is written beside its target and renamed over it, so an interrupted export
//! leaves the previous file intact.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::time::SystemTime;

use aas_model::{parse_list, ElementKind, Parsed, SubmodelElement};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::crawl::{Crawl, NodePath};
use crate::spreadsheet::SafeCsv;
use crate::{Error, Result, Selection};

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
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "raw" => Ok(Format::Raw),
            "env" => Ok(Format::Env),
            "aasx" => Ok(Format::Aasx),
            "csv" => Ok(Format::Csv),
            _ => Err(format!(
                "unknown format {s:?}; expected raw, env, aasx or csv"
            )),
        }
    }
}

/// Writes `crawl` to `path` in `format`; `profile` names the connection in the raw
/// bundle's manifest. Returns the number of bytes written.
pub fn export(crawl: &Crawl, format: Format, profile: &str, path: &Path) -> Result<u64> {
    let bytes = match format {
        // Streamed: the answers are most of a bundle, and they are written as they are.
        Format::Raw => return write_atomically_with(path, |out| raw_bundle(crawl, profile, out)),
        Format::Env => environment(crawl)?,
        Format::Aasx => aas_model::aasx::write(&environment(crawl)?)?,
        Format::Csv => csv(crawl)?,
    };
    write_atomically(path, &bytes)?;
    Ok(bytes.len() as u64)
}

/// A crawled answer that no longer reads as the list it was read as.
pub(crate) fn unreadable(e: serde_json::Error) -> Error {
    Error::BadData(aas_model::Error::Decode {
        path: ".".into(),
        message: e.to_string(),
    })
}

/// The CSV is built in memory before it is written: a failure there is no file's.
fn csv_failed(e: csv::Error) -> Error {
    Error::Io {
        action: "build",
        path: "the CSV in memory".into(),
        source: e.into(),
    }
}

/// A process-wide count, so two writers in one process never share a temporary file.
static TEMP_FILES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Writes a temporary file beside `path`, syncs it, then renames it over `path`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomically_with(path, |out| out.write_all(bytes)).map(drop)
}

/// [`write_atomically`] of what `write` writes (buffered); returns the file's size.
fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<u64> {
    let name = path
        .file_name()
        .ok_or_else(|| Error::Settings(format!("{} is not a file path", path.display())))?;
    let tmp = path.with_file_name(format!(
        ".{}.tmp-{}-{}",
        name.to_string_lossy(),
        std::process::id(),
        TEMP_FILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let written = (|| -> std::io::Result<u64> {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
        write(&mut out)?;
        let file = out
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        file.sync_all()?;
        let size = file.metadata()?.len();
        std::fs::rename(&tmp, path)?;
        Ok(size)
    })();
    written.map_err(|source| {
        let _ = std::fs::remove_file(&tmp);
        Error::Io {
            action: "write",
            path: path.to_owned(),
            source,
        }
    })
}

fn rfc3339(t: SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()
}

#[derive(Serialize)]
struct Manifest<'c> {
    format: &'static str,
    created: String,
    crawl_started: String,
    profile: &'c str,
    plant: &'c str,
    asset_types: &'c [aas_model::AssetType],
    cancelled: bool,
    /// The plant had more nodes than the crawl's limit; those past it are missing.
    node_limit_reached: bool,
    /// The picked shells and submodels; `null` when everything was loaded.
    selection: &'c Selection,
    nodes: usize,
    failures: &'c [crate::crawl::Failure],
}

/// `{"manifest": {…}, "nodes": [{"path", "url", "json"}, …]}`. Each answer goes in as
/// the server sent it, unparsed: the crawl read every fetched answer as JSON when it
/// arrived (`Client::get_reading`), so it is not parsed a second time here.
fn raw_bundle(crawl: &Crawl, profile: &str, out: &mut dyn Write) -> std::io::Result<()> {
    let manifest = Manifest {
        format: "aas-browser-raw-bundle/1",
        created: rfc3339(SystemTime::now()),
        crawl_started: rfc3339(crawl.started),
        profile,
        plant: &crawl.plan.plant,
        asset_types: &crawl.plan.asset_types,
        cancelled: crawl.cancelled,
        node_limit_reached: crawl.node_limit_reached,
        selection: &crawl.selection,
        nodes: crawl.fetched.len(),
        failures: &crawl.failures,
    };
    out.write_all(b"{\"manifest\":")?;
    serde_json::to_writer(&mut *out, &manifest)?;
    out.write_all(b",\"nodes\":[")?;
    for (i, f) in crawl.fetched.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(b"{\"path\":")?;
        serde_json::to_writer(&mut *out, &f.path)?;
        out.write_all(b",\"url\":")?;
        serde_json::to_writer(&mut *out, &f.url)?;
        out.write_all(b",\"json\":")?;
        out.write_all(f.raw.as_bytes())?;
        out.write_all(b"}")?;
    }
    out.write_all(b"]}")
}

/// The items of every answer at one level, each exactly as sent, that the crawl's
/// selection wants.
fn items<'c>(
    crawl: &'c Crawl,
    level: impl Fn(&NodePath) -> bool + 'c,
) -> Result<Vec<&'c RawValue>> {
    let mut out = Vec::new();
    for f in crawl.at(level) {
        // The crawl already read each of these as a list.
        let list: Vec<&RawValue> = serde_json::from_str(&f.raw).map_err(unreadable)?;
        if crawl.selection.is_everything() {
            out.extend(list);
        } else {
            out.extend(
                list.into_iter()
                    .filter(|item| selected(&crawl.selection, &f.path, item)),
            );
        }
    }
    Ok(out)
}

/// Whether `item` of the list answered at `path` (a shell or a submodel) was selected.
fn selected(selection: &Selection, path: &NodePath, item: &RawValue) -> bool {
    #[derive(serde::Deserialize)]
    struct Ids {
        #[serde(rename = "idShort")]
        id_short: Option<String>,
        identification: Option<Identification>,
    }
    #[derive(serde::Deserialize)]
    struct Identification {
        id: Option<String>,
    }
    let Ok(ids) = serde_json::from_str::<Ids>(item.get()) else {
        return false;
    };
    match path {
        NodePath::AasList { .. } => ids
            .identification
            .and_then(|i| i.id)
            .is_some_and(|id| selection.wants_shell(&id)),
        NodePath::Submodels { aas_id } => ids
            .id_short
            .is_some_and(|s| selection.wants_submodel(aas_id, &s)),
        NodePath::Registry | NodePath::Elements { .. } => true,
    }
}

fn environment(crawl: &Crawl) -> Result<Vec<u8>> {
    let shells = items(crawl, |p| matches!(p, NodePath::AasList { .. }))?;
    let submodels = items(crawl, |p| matches!(p, NodePath::Submodels { .. }))?;
    let assets = assets_of(crawl, &shells)?;
    let mut out =
        Vec::with_capacity(crawl.fetched.iter().map(|f| f.raw.len()).sum::<usize>() + 128);
    out.extend_from_slice(b"{\"assetAdministrationShells\":");
    join(&mut out, &shells);
    out.extend_from_slice(b",\"assets\":");
    join(&mut out, &assets);
    out.extend_from_slice(b",\"submodels\":");
    join(&mut out, &submodels);
    out.extend_from_slice(b",\"conceptDescriptions\":[]}");
    Ok(out)
}

fn join(out: &mut Vec<u8>, raws: &[&RawValue]) {
    out.push(b'[');
    for (i, raw) in raws.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(raw.get().as_bytes());
    }
    out.push(b']');
}

/// The Asset objects of the exported AAS, from the registry's descriptors (the gateway
/// does not serve assets), each once.
fn assets_of<'c>(crawl: &'c Crawl, shells: &[&RawValue]) -> Result<Vec<&'c RawValue>> {
    #[derive(serde::Deserialize)]
    struct Descriptor<'a> {
        identification: Value,
        #[serde(borrow)]
        asset: Option<&'a RawValue>,
    }
    #[derive(serde::Deserialize)]
    struct AssetId {
        identification: Option<Value>,
    }
    let wanted: HashSet<String> = shells
        .iter()
        .filter_map(|raw| serde_json::from_str::<Value>(raw.get()).ok())
        .filter_map(|v| v["identification"]["id"].as_str().map(str::to_owned))
        .collect();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for f in crawl.at(|p| *p == NodePath::Registry) {
        let descriptors: Vec<Descriptor> = serde_json::from_str(&f.raw).map_err(unreadable)?;
        for d in descriptors {
            let Some(asset) = d.asset else { continue };
            let aas_id = d.identification["id"].as_str().unwrap_or_default();
            let asset_id = serde_json::from_str::<AssetId>(asset.get())
                .ok()
                .and_then(|a| a.identification)
                .map(|i| i["id"].to_string());
            if wanted.contains(aas_id) && seen.insert(asset_id.unwrap_or_else(|| aas_id.to_owned()))
            {
                out.push(asset);
            }
        }
    }
    Ok(out)
}

/// One row per property-like element (Property, MultiLanguageProperty, Range, File,
/// Blob, ReferenceElement), walking into collections and entities.
fn csv(crawl: &Crawl) -> Result<Vec<u8>> {
    let mut types = HashMap::new();
    for f in crawl.at(|p| matches!(p, NodePath::AasList { .. })) {
        if let NodePath::AasList { asset_type } = f.path {
            for shell in parse_list::<aas_model::AssetAdministrationShell>(&f.raw)? {
                if let Ok(s) = shell.view() {
                    types.insert(s.identification.id.clone(), asset_type);
                }
            }
        }
    }
    let mut out = SafeCsv::new(Vec::new());
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
    ])
    .map_err(csv_failed)?;
    for f in crawl.at(|p| matches!(p, NodePath::Submodels { .. })) {
        let NodePath::Submodels { aas_id } = &f.path else {
            continue;
        };
        let asset_type = types.get(aas_id).map(|t| t.code()).unwrap_or_default();
        for sm in parse_list::<aas_model::Submodel>(&f.raw)? {
            let Ok(sm) = sm.view() else { continue };
            if !crawl.selection.wants_submodel(aas_id, &sm.id_short) {
                continue;
            }
            let row = Row {
                aas_id,
                asset_type,
                submodel: &sm.id_short,
            };
            rows(&mut out, &row, "", &sm.elements())?;
        }
    }
    out.into_inner().map_err(|e| csv_failed(e.into()))
}

struct Row<'a> {
    aas_id: &'a str,
    asset_type: &'a str,
    submodel: &'a str,
}

fn rows(
    out: &mut SafeCsv<Vec<u8>>,
    row: &Row,
    prefix: &str,
    elements: &[Parsed<SubmodelElement>],
) -> Result<()> {
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
            ])
            .map_err(csv_failed)?;
        }
        rows(out, row, &path, &e.children().unwrap_or_default())?;
    }
    Ok(())
}
