//! The V3.0 exports: the environment of a plant's answers converted shell by shell and
//! submodel by submodel (one at a time in memory, as the V2 exports), its Assets taken
//! from the registry's descriptors, and the conversion report beside it.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use aas_client::NodeLevel;
use aas_model::aasx::Flavour;
use aas_v3::{Asset, Converter};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::answers::{each_answer, each_descriptor, rfc3339, selected, text, unreadable, Answers};
use crate::output::{package, write_with, Written};
use crate::report::{write_report, Conversion, Exported, Spool};
use crate::{Error, Result};

/// Writes the V3.0 environment of `answers` (as JSON, or in a V3.0 AASX package when
/// `packaged`) and its report.
pub(crate) fn export(answers: &dyn Answers, packaged: bool, path: &Path) -> Result<Exported> {
    let mut spool = Spool::new(path)?;
    let mut converter = Converter::new(&mut spool);
    if packaged {
        // The service serves no files: the package holds the environment alone.
        converter = converter.in_package(Default::default());
    }
    let bytes = write_with(path, |mut out| match packaged {
        true => package(out, Flavour::V3, |p| {
            environment(answers, &mut converter, p)
        }),
        false => environment(answers, &mut converter, out.writer()),
    })?;
    let tally = converter.tally().clone();
    let crawl = answers.crawl();
    let source = format!(
        "plant {} as crawled at {} (AAS V2.0.1)",
        crawl.plan.plant,
        rfc3339(crawl.started)
    );
    let report = write_report(path, &source, &tally, spool)?;
    Ok(Exported {
        bytes,
        conversion: Some(Conversion { tally, report }),
    })
}

/// `{"assetAdministrationShells": […], "submodels": […]}`, a list left out when it
/// would be empty (V3.0 wants none rather than an empty one). Paths in the report are
/// those of the V2 environment export of the same answers.
fn environment(
    answers: &dyn Answers,
    converter: &mut Converter<'_>,
    out: &mut dyn Write,
) -> Written {
    let assets = assets_by_shell(answers)?;
    let mut lists = Lists::new(out)?;
    each_item(answers, NodeLevel::AasList, |shell, i| {
        let at = format!("assetAdministrationShells[{i}]");
        let id = shell["identification"]["id"].as_str().unwrap_or_default();
        let asset = match assets.get(id) {
            Some(raw) => {
                let value: Value = serde_json::from_str(raw.get()).map_err(unreadable)?;
                let asset_id = value["identification"]["id"]
                    .as_str()
                    .unwrap_or(id)
                    .to_owned();
                Some(Asset {
                    value,
                    at: format!("assets[?(@.identification.id=={})]", Value::from(asset_id)),
                })
            }
            None => None,
        };
        if let Some(shell) = converter.shell(shell, &at, asset).map_err(Error::from)? {
            lists.item("assetAdministrationShells", &shell)?;
        }
        Ok(())
    })?;
    each_item(answers, NodeLevel::Submodels, |submodel, i| {
        let at = format!("submodels[{i}]");
        if let Some(submodel) = converter.submodel(submodel, &at).map_err(Error::from)? {
            lists.item("submodels", &submodel)?;
        }
        Ok(())
    })?;
    lists.end()
}

/// Hands `visit` each selected item of the list answers at `level` (shells, or
/// submodels) and its index among them, one item in memory at a time.
fn each_item(
    answers: &dyn Answers,
    level: NodeLevel,
    mut visit: impl FnMut(Value, usize) -> Written,
) -> Written {
    let selection = &answers.crawl().selection;
    let mut i = 0;
    each_answer(answers, level, |path, url, body| {
        let raw = text(body, url)?;
        let list: Vec<&RawValue> = serde_json::from_str(&raw).map_err(unreadable)?;
        for item in list {
            if selection.is_everything() || selected(selection, path, item) {
                visit(serde_json::from_str(item.get()).map_err(unreadable)?, i)?;
                i += 1;
            }
        }
        Ok(())
    })
}

/// The Asset of each shell the selection wants, as the registry sent it, by shell id:
/// held whole (about 300 bytes an asset), since a shell needs its Asset before it is
/// written.
fn assets_by_shell(
    answers: &dyn Answers,
) -> std::result::Result<HashMap<String, Box<RawValue>>, crate::output::Stop> {
    let selection = &answers.crawl().selection;
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

/// An environment's lists, each opened when its first item comes.
struct Lists<'w> {
    out: &'w mut dyn Write,
    open: Option<&'static str>,
    items: usize,
}

impl<'w> Lists<'w> {
    fn new(out: &'w mut dyn Write) -> std::io::Result<Self> {
        out.write_all(b"{")?;
        Ok(Lists {
            out,
            open: None,
            items: 0,
        })
    }

    fn item(&mut self, list: &'static str, item: &impl Serialize) -> Written {
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
        Ok(serde_json::to_writer(&mut *self.out, item)?)
    }

    fn end(self) -> Written {
        if self.open.is_some() {
            self.out.write_all(b"]")?;
        }
        Ok(self.out.write_all(b"}")?)
    }
}
