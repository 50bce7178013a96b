//! The conversion on every core: the reading thread gathers the V2 items it reads into
//! batches and hands them to the workers in turn; it takes the converted batches back
//! in the same turn, so the file and the report come out in the order a single thread
//! would write them. A few batches at most are out at a time, which bounds the memory.

use std::collections::HashMap;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::Scope;

use aas_v3::{Asset, Converter, Node, Tally};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::answers::unreadable;
use crate::output::Written;
use crate::report::JsonLines;
use crate::{Error, Result};

/// A batch is sent on when it holds this many bytes of V2 JSON, or this many items.
const BATCH_BYTES: usize = 1 << 20;
const BATCH_ITEMS: usize = 512;
/// Batches out at a time, per worker.
const IN_FLIGHT: usize = 2;

/// A V2 item to convert, with its index in its list of the V2 environment export
/// (for the report's paths).
pub(super) enum Item {
    Shell(Box<RawValue>, usize),
    Submodel(Box<RawValue>, usize),
}

/// A converted batch: each item's list and its V3 JSON, the changes as JSON lines.
pub(super) struct Converted {
    pub items: Vec<(&'static str, Vec<u8>)>,
    pub changes: Vec<u8>,
    pub tally: Tally,
}

/// The Assets of the shells, by shell id, as the registry sent them.
pub(super) type AssetsByShell = HashMap<String, Box<RawValue>>;

pub(super) struct Workers {
    to: Vec<Sender<Vec<Item>>>,
    from: Vec<Receiver<Result<Converted>>>,
    batch: Vec<Item>,
    batch_bytes: usize,
    sent: usize,
    taken: usize,
}

impl Workers {
    /// One worker per core, converting for an AASX package when `packaged`.
    pub fn start<'scope>(
        scope: &'scope Scope<'scope, '_>,
        assets: &'scope AssetsByShell,
        packaged: bool,
    ) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (mut to, mut from) = (Vec::new(), Vec::new());
        for _ in 0..cores {
            let (batch_in, batches) = channel::<Vec<Item>>();
            let (done, done_out) = channel();
            scope.spawn(move || {
                for batch in batches {
                    if done.send(convert(batch, assets, packaged)).is_err() {
                        break;
                    }
                }
            });
            to.push(batch_in);
            from.push(done_out);
        }
        Workers {
            to,
            from,
            batch: Vec::new(),
            batch_bytes: 0,
            sent: 0,
            taken: 0,
        }
    }

    /// Adds `item` to the batch; hands `done` the batches that come back meanwhile.
    pub fn push(&mut self, item: Item, done: &mut impl FnMut(Converted) -> Written) -> Written {
        let (Item::Shell(raw, _) | Item::Submodel(raw, _)) = &item;
        self.batch_bytes += raw.get().len();
        self.batch.push(item);
        if self.batch_bytes >= BATCH_BYTES || self.batch.len() >= BATCH_ITEMS {
            self.send(done)?;
        }
        Ok(())
    }

    /// Sends the last batch and hands `done` every batch still out.
    pub fn finish(mut self, done: &mut impl FnMut(Converted) -> Written) -> Written {
        if !self.batch.is_empty() {
            self.send(done)?;
        }
        while self.taken < self.sent {
            self.take(done)?;
        }
        Ok(())
    }

    fn send(&mut self, done: &mut impl FnMut(Converted) -> Written) -> Written {
        if self.sent - self.taken >= IN_FLIGHT * self.to.len() {
            self.take(done)?;
        }
        let batch = std::mem::take(&mut self.batch);
        self.batch_bytes = 0;
        let worker = self.sent % self.to.len();
        self.to[worker].send(batch).map_err(|_| gone())?;
        self.sent += 1;
        Ok(())
    }

    /// The oldest batch out, back.
    fn take(&mut self, done: &mut impl FnMut(Converted) -> Written) -> Written {
        let worker = self.taken % self.from.len();
        let converted = self.from[worker].recv().map_err(|_| gone())??;
        self.taken += 1;
        done(converted)
    }
}

/// A worker ended before its batches were done: it panicked, which the scope repeats.
fn gone() -> Error {
    Error::Stopped
}

fn convert(batch: Vec<Item>, assets: &AssetsByShell, packaged: bool) -> Result<Converted> {
    let mut changes = JsonLines(Vec::new());
    let mut converter = Converter::new(&mut changes);
    if packaged {
        // The service serves no files: the package holds the environment alone.
        converter = converter.in_package(Default::default());
    }
    let mut items = Vec::with_capacity(batch.len());
    for item in &batch {
        let (Item::Shell(raw, i) | Item::Submodel(raw, i)) = item;
        // The tree borrows its texts from the V2 JSON, which outlives it.
        let v2: Node = serde_json::from_str(raw.get()).map_err(unreadable)?;
        let converted = match item {
            Item::Shell(..) => {
                let asset = asset_of(&v2, assets)?;
                let at = format!("assetAdministrationShells[{i}]");
                converter
                    .shell(v2, &at, asset)?
                    .map(|v| ("assetAdministrationShells", v))
            }
            Item::Submodel(..) => {
                let at = format!("submodels[{i}]");
                converter.submodel(v2, &at)?.map(|v| ("submodels", v))
            }
        };
        if let Some((list, value)) = converted {
            // About as long as the V2 JSON: written without growing.
            let mut json = Vec::with_capacity(raw.get().len());
            serde_json::to_writer(&mut json, &value).map_err(unreadable)?;
            items.push((list, json));
        }
    }
    let tally = converter.tally().clone();
    Ok(Converted {
        items,
        changes: changes.0,
        tally,
    })
}

/// The Asset of `shell`, with its path in the V2 environment export.
fn asset_of<'a>(shell: &Node, assets: &'a AssetsByShell) -> Result<Option<Asset<'a>>> {
    let id = identification_id(shell).unwrap_or_default();
    let Some(raw) = assets.get(id) else {
        return Ok(None);
    };
    let value: Node = serde_json::from_str(raw.get()).map_err(unreadable)?;
    let asset_id = identification_id(&value).unwrap_or(id);
    let at = format!("assets[?(@.identification.id=={})]", Value::from(asset_id));
    Ok(Some(Asset { value, at }))
}

/// `identification.id` of a V2 identifiable.
fn identification_id<'n>(identifiable: &'n Node) -> Option<&'n str> {
    identifiable.get("identification")?.get("id")?.as_str()
}
