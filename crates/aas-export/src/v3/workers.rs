//! The conversion on every core ([`InOrder`](aas_in_order::InOrder)): each worker
//! parses, selects and converts the items of the list answers in its batch, and the
//! file and the report come out in the order a single thread would write them.

use std::collections::HashMap;

use aas_in_order::Batches;
use aas_source::{NodePath, Selection};
use aas_v3::{Asset, Change, Converter, Node, Tally, Target};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::answers::{unreadable, wanted};
use crate::v3_format::Serialisation;
use crate::Result;

/// A batch is sent on when it holds this many bytes of V2 JSON, or this many answers.
pub(super) const BATCHES: Batches = Batches {
    bytes: 1 << 20,
    items: 512,
};
/// The root of the paths a worker records: the item's place in the environment is
/// known only when its batch comes back (see [`Done::place`]).
const ITEM: &str = "$";

/// The environment's two lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum List {
    Shells,
    Submodels,
}

impl List {
    pub fn name(self) -> &'static str {
        match self {
            List::Shells => "assetAdministrationShells",
            List::Submodels => "submodels",
        }
    }
}

/// V2 JSON to convert: a list answer whole, or one item of a list answer too large to
/// hand over whole; with where it was answered (for the selection).
pub(super) struct Part {
    pub list: List,
    pub path: NodePath,
    pub v2: Box<str>,
    pub whole: bool,
}

/// A selected item, converted: written as V3 JSON or XML (none when nothing of it is
/// kept), and its changes with paths relative to it.
pub(super) struct Done {
    pub list: List,
    pub written: Option<Vec<u8>>,
    pub changes: Vec<Change>,
}

impl Done {
    /// The changes, their paths placed at the item's index `i` in its list.
    pub fn place(self, i: usize) -> impl Iterator<Item = Change> {
        let list = self.list.name();
        self.changes.into_iter().map(move |mut change| {
            // Changes of the shell's Asset have their own root.
            if let Some(rest) = change.path.strip_prefix(ITEM) {
                change.path = format!("{list}[{i}]{rest}");
            }
            change
        })
    }
}

/// A converted batch: its selected items in order, and the count of its changes.
pub(super) struct Converted {
    pub items: Vec<Done>,
    pub tally: Tally,
}

/// The Assets of the shells, by shell id, as the registry sent them.
pub(super) type AssetsByShell = HashMap<String, Box<RawValue>>;

/// What every worker reads.
pub(super) struct Context<'c> {
    pub assets: &'c AssetsByShell,
    pub selection: &'c Selection,
    pub target: Target,
    pub packaged: bool,
    pub serialisation: Serialisation,
}

pub(super) fn convert(batch: Vec<Part>, context: &Context) -> Result<Converted> {
    let mut converted = Converted {
        items: Vec::new(),
        tally: Tally::default(),
    };
    for part in &batch {
        // The trees borrow their texts from the V2 JSON, which outlives them.
        let items = match (part.whole, Node::from_json(&part.v2).map_err(unreadable)?) {
            (true, Node::List(items)) => items,
            (true, _) => return Err(unreadable("not a list")),
            (false, item) => vec![item],
        };
        for v2 in items {
            let id_short = || v2.get("idShort").and_then(Node::as_str);
            if context.selection.is_everything()
                || wanted(context.selection, &part.path, identifier(&v2), id_short())
            {
                converted
                    .items
                    .push(item(v2, part.list, context, &mut converted.tally)?);
            }
        }
    }
    Ok(converted)
}

fn item(v2: Node, list: List, context: &Context, tally: &mut Tally) -> Result<Done> {
    let mut changes = Vec::new();
    // A V3 source's item (a V3 file taken in, a V3 server) is V3 already: kept as read
    // but for what the target version holds otherwise.
    if v2.get("modelType").and_then(Node::as_str).is_some() {
        let mut converter = Converter::new(&mut changes).target(context.target);
        let v3 = converter.retarget_identifiable(v2, ITEM)?;
        tally.merge(converter.tally());
        return Ok(Done {
            list,
            written: Some(written(&v3, context)?),
            changes,
        });
    }
    let mut converter = Converter::new(&mut changes).target(context.target);
    if context.packaged {
        // The service serves no files: the package holds the environment alone.
        converter = converter.in_package(Default::default());
    }
    let value = match list {
        List::Shells => {
            let asset = asset_of(&v2, context.assets)?;
            converter.shell(v2, ITEM, asset)?
        }
        List::Submodels => converter.submodel(v2, ITEM)?,
    };
    tally.merge(converter.tally());
    let written = value.map(|value| written(&value, context)).transpose()?;
    Ok(Done {
        list,
        written,
        changes,
    })
}

/// A V3 item as the export writes it: JSON, or XML.
fn written(item: &Node, context: &Context) -> Result<Vec<u8>> {
    Ok(match context.serialisation {
        Serialisation::Json => serde_json::to_vec(item).map_err(unreadable)?,
        Serialisation::Xml => super::item_xml(item),
    })
}

/// The Asset of `shell`, with its path in the V2 environment export.
fn asset_of<'a>(shell: &Node, assets: &'a AssetsByShell) -> Result<Option<Asset<'a>>> {
    let id = identification_id(shell).unwrap_or_default();
    let Some(raw) = assets.get(id) else {
        return Ok(None);
    };
    let value = Node::from_json(raw.get()).map_err(unreadable)?;
    let asset_id = identification_id(&value).unwrap_or(id);
    let at = format!("assets[?(@.identification.id=={})]", Value::from(asset_id));
    Ok(Some(Asset { value, at }))
}

/// `identification.id` of a V2 identifiable.
fn identification_id<'n>(identifiable: &'n Node) -> Option<&'n str> {
    identifiable.get("identification")?.get("id")?.as_str()
}

/// The identifier of a V2 or a V3 identifiable.
fn identifier<'n>(identifiable: &'n Node) -> Option<&'n str> {
    identification_id(identifiable).or_else(|| identifiable.get("id")?.as_str())
}
