//! The V3 exports (V3.0 or V3.1): the environment of a plant's answers converted shell by shell and
//! submodel by submodel (a few batches at a time in memory, as the V2 exports read one
//! answer at a time), its Assets taken from the registry's descriptors, and the
//! conversion report beside it.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use aas_in_order::InOrder;
use aas_model::aasx::Flavour;
use aas_output::stage_with;
use aas_source::{read_text, NodeLevel, Source};
use aas_v3::{Changes, Tally};
use serde_json::value::RawValue;

use crate::answers::{each_answer, each_descriptor, rfc3339, unreadable};
use crate::output::{package, Stop, Written};
use crate::report::{put_in_place_with_report, Conversion, Exported, Spool};
use crate::v3_format::{Serialisation, V3Format};
use crate::Result;
use workers::{convert, AssetsByShell, Context, Converted, List, Part, BATCHES};
use xml::{item_xml, XmlLists};

/// Writes `environment` (V3 JSON) as `target`'s XML.
pub(crate) fn environment_xml(
    out: &mut dyn Write,
    target: aas_v3::Target,
    environment: &serde_json::Value,
) -> std::io::Result<()> {
    let mut xml = XmlLists::begin(out, target)?;
    for list in [
        "assetAdministrationShells",
        "submodels",
        "conceptDescriptions",
    ] {
        let items = environment.get(list).and_then(serde_json::Value::as_array);
        for item in items.into_iter().flatten() {
            xml.item(list, &item_xml(item))?;
        }
    }
    xml.end()
}

mod workers;
mod xml;

/// Writes the V3 environment of `answers` as `format` says (its version, JSON or XML,
/// in a V3 AASX package or not) and its report.
pub(crate) fn export(answers: &dyn Source, format: V3Format, path: &Path) -> Result<Exported> {
    let V3Format {
        target,
        packaged,
        serialisation,
    } = format;
    let mut spool = Spool::new(path)?;
    let mut tally = Tally::default();
    // Each list's items so far: the index of the next one, for the report's paths.
    let (mut shells, mut submodels) = (0, 0);
    let mut done = |converted: Converted, lists: &mut Lists<'_>| -> Written {
        for item in converted.items {
            let i = match item.list {
                List::Shells => &mut shells,
                List::Submodels => &mut submodels,
            };
            if let Some(written) = &item.written {
                lists.item(item.list.name(), written)?;
            }
            for change in item.place(*i) {
                spool.record(change)?;
            }
            *i += 1;
        }
        tally.merge(&converted.tally);
        Ok(())
    };
    let staged = stage_with(path, |mut out| match packaged {
        true => {
            let flavour = match serialisation {
                Serialisation::Json => Flavour::V3,
                Serialisation::Xml => Flavour::V3Xml,
            };
            package(out, flavour, |p| environment(answers, format, p, &mut done))
        }
        false => environment(answers, format, out.writer(), &mut done),
    })?;
    let coverage = answers.coverage();
    let source = format!(
        "plant {} as read at {}",
        coverage.plant,
        rfc3339(coverage.read_at)
    );
    let (bytes, report) = put_in_place_with_report(path, staged, &source, target, &tally, spool)?;
    Ok(Exported {
        bytes,
        conversion: Some(Conversion {
            target,
            tally,
            report,
        }),
    })
}

/// `{"assetAdministrationShells": […], "submodels": […]}`, a list left out when it
/// would be empty (V3.0 wants none rather than an empty one), converted on every core
/// and handed to `done` in order. Paths in the report are those of the V2 environment
/// export of the same answers.
fn environment(
    answers: &dyn Source,
    format: V3Format,
    out: &mut dyn Write,
    done: &mut impl FnMut(Converted, &mut Lists<'_>) -> Written,
) -> Written {
    let assets = assets_by_shell(answers)?;
    let context = Context {
        assets: &assets,
        selection: answers.coverage().selection,
        target: format.target,
        packaged: format.packaged,
        serialisation: format.serialisation,
    };
    let mut lists = Lists::new(out, format)?;
    let work = |batch| convert(batch, &context);
    std::thread::scope(|scope| {
        let mut workers = InOrder::start(scope, BATCHES, &work);
        let mut done = |converted: Result<Converted>| done(converted?, &mut lists);
        for (level, list) in [
            (NodeLevel::AasList, List::Shells),
            (NodeLevel::Submodels, List::Submodels),
        ] {
            each_part(answers, level, list, |part| {
                let bytes = part.v2.len();
                workers.push(part, bytes, &mut done)
            })?;
        }
        workers.finish(&mut done)
    })?;
    lists.end()
}

/// Hands `visit` the list answers at `level` (shells, or submodels) in order: each
/// whole, but for one too large to hand over whole (a large plant's shells of one type),
/// which goes item by item.
fn each_part(
    answers: &dyn Source,
    level: NodeLevel,
    list: List,
    mut visit: impl FnMut(Part) -> Written,
) -> Written {
    each_answer(answers, level, |path, url, body| {
        let raw = read_text(body, url)?;
        let part = |v2, whole| Part {
            list,
            path: path.clone(),
            v2,
            whole,
        };
        if raw.len() <= BATCHES.bytes {
            return visit(part(raw.into_boxed_str(), true));
        }
        let items: Vec<&RawValue> = serde_json::from_str(&raw).map_err(unreadable)?;
        for item in items {
            visit(part(item.get().into(), false))?;
        }
        Ok(())
    })
}

/// The Asset of each shell the selection wants, as the registry sent it, by shell id:
/// held whole (about 300 bytes an asset), since a shell needs its Asset before it is
/// written.
fn assets_by_shell(answers: &dyn Source) -> std::result::Result<AssetsByShell, Stop> {
    let selection = answers.coverage().selection;
    let mut assets = HashMap::new();
    each_answer(answers, NodeLevel::Registry, |_, url, body| {
        each_descriptor(body, url, |aas_id, asset| {
            if selection.wants_shell(aas_id) {
                assets.entry(aas_id.to_owned()).or_insert(asset);
            }
            true
        })
    })?;
    Ok(assets)
}

/// An environment's lists, written as JSON or as XML.
enum Lists<'w> {
    Json(JsonLists<'w>),
    Xml(XmlLists<'w>),
}

impl<'w> Lists<'w> {
    fn new(out: &'w mut dyn Write, format: V3Format) -> std::io::Result<Self> {
        Ok(match format.serialisation {
            Serialisation::Json => Lists::Json(JsonLists::new(out)?),
            Serialisation::Xml => Lists::Xml(XmlLists::begin(out, format.target)?),
        })
    }

    /// Adds `item`, an item of `list` as the workers wrote it (JSON or XML).
    fn item(&mut self, list: &'static str, item: &[u8]) -> Written {
        match self {
            Lists::Json(lists) => lists.item(list, item),
            Lists::Xml(lists) => Ok(lists.item(list, item)?),
        }
    }

    fn end(self) -> Written {
        match self {
            Lists::Json(lists) => lists.end(),
            Lists::Xml(lists) => Ok(lists.end()?),
        }
    }
}

/// An environment's lists as JSON, each opened when its first item comes.
struct JsonLists<'w> {
    out: &'w mut dyn Write,
    open: Option<&'static str>,
    items: usize,
}

impl<'w> JsonLists<'w> {
    fn new(out: &'w mut dyn Write) -> std::io::Result<Self> {
        out.write_all(b"{")?;
        Ok(JsonLists {
            out,
            open: None,
            items: 0,
        })
    }

    /// Adds `json`, an item of `list`.
    fn item(&mut self, list: &'static str, json: &[u8]) -> Written {
        if self.open != Some(list) {
            if self.open.is_some() {
                self.out.write_all(b"],")?;
            }
            serde_json::to_writer(&mut *self.out, list)?;
            self.out.write_all(b":[")?;
            self.open = Some(list);
            self.items = 0;
        }
        if self.items > 0 {
            self.out.write_all(b",")?;
        }
        self.items += 1;
        Ok(self.out.write_all(json)?)
    }

    fn end(self) -> Written {
        if self.open.is_some() {
            self.out.write_all(b"]")?;
        }
        Ok(self.out.write_all(b"}")?)
    }
}
