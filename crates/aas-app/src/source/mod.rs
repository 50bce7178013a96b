//! Where the page's tree reads from. The page names the source on screen
//! ([`SourceRef`]); [`App::browse`] opens it as a [`Browse`], the one door every kind of
//! source answers the tree through with the same outline nodes, so the page browses a
//! snapshot as it browses the service, offline too. A new kind of source is one module
//! here and one arm of [`App::browse`].

mod file;
mod gateway;
mod stored;

use std::future::Future;
use std::pin::Pin;

use aas_model::{AssetType, OutlineNode, Parsed};
use aas_source::NodePath;
use serde::{Deserialize, Serialize};

use crate::{App, Error, Result, SnapshotRef};

/// A source as the page names it: `{"from": "live", "plant": "P"}`,
/// `{"from": "snapshot", "id": 7, "store": "here"}` (a snapshot's plant is its own; the
/// store, `here` or `team`, is `here` when not said) or `{"from": "file", "file": 2}`
/// (a file opened, by the number [`App::open_file`] gave it: the page never names a
/// path).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum SourceRef {
    Live { plant: String },
    Snapshot(SnapshotRef),
    File { file: u32 },
}

/// What the tree reads of a source, node by node.
pub(crate) trait Browse: Send + Sync {
    /// Whether its answers come from the platform's service (and so say that it is
    /// reachable), not from this computer.
    fn is_the_service(&self) -> bool;
    /// The nodes below `node`: a plant's shells of one asset type, a shell's
    /// submodels, a submodel's elements.
    fn children<'a>(&'a self, node: &'a NodePath) -> Reply<'a, Vec<OutlineNode>>;
    /// How many shells of `asset_type` the plant has: what an asset type's chip shows,
    /// without the page keeping the lists of types nobody opened (80,000 shells of a big
    /// plant held 42 MB in the page).
    fn shell_count<'a>(&'a self, asset_type: &'a AssetType) -> Reply<'a, usize>;
    /// The JSON of one shell, as sent.
    fn shell_json<'a>(&'a self, asset_type: &'a AssetType, aas_id: &'a str) -> Reply<'a, String>;
}

/// What a [`Browse`] answers, later.
pub(crate) type Reply<'a, T> = Pin<Box<dyn Future<Output = Result<T>> + Send + 'a>>;

/// What the tree asks of a source: `{"what": "children", "source", "node"}`,
/// `{"what": "shell_count", "source", "asset_type"}` (an asset type's chip) or
/// `{"what": "shell_json", "source", "asset_type", "aas_id"}`.
#[derive(Debug, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum TreeAsk {
    Children {
        source: SourceRef,
        node: NodePath,
    },
    ShellCount {
        source: SourceRef,
        asset_type: AssetType,
    },
    ShellJson {
        source: SourceRef,
        asset_type: AssetType,
        aas_id: String,
    },
}

impl TreeAsk {
    fn source(&self) -> &SourceRef {
        match self {
            TreeAsk::Children { source, .. }
            | TreeAsk::ShellCount { source, .. }
            | TreeAsk::ShellJson { source, .. } => source,
        }
    }
}

/// The answer to a [`TreeAsk`], and whether the service gave it: the page learns from
/// the reply, not from the kind of source it asked, whether the service answered.
#[derive(Debug, Serialize)]
pub struct TreeReply {
    pub answer: TreeAnswer,
    pub from_service: bool,
}

/// The nodes, the count, or the shell's JSON text.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum TreeAnswer {
    Children(Vec<OutlineNode>),
    ShellCount(usize),
    ShellJson(String),
}

impl App {
    /// Answers what the tree asks (see [`TreeAsk`]).
    pub async fn tree(&self, ask: TreeAsk) -> Result<TreeReply> {
        let source = self.browse(ask.source())?;
        let answer = match &ask {
            TreeAsk::Children { node, .. } => TreeAnswer::Children(source.children(node).await?),
            TreeAsk::ShellCount { asset_type, .. } => {
                TreeAnswer::ShellCount(source.shell_count(asset_type).await?)
            }
            TreeAsk::ShellJson {
                asset_type, aas_id, ..
            } => TreeAnswer::ShellJson(source.shell_json(asset_type, aas_id).await?),
        };
        Ok(TreeReply {
            answer,
            from_service: source.is_the_service(),
        })
    }

    /// The nodes below `node` in `source` (see [`Browse::children`]).
    pub async fn children(&self, source: &SourceRef, node: &NodePath) -> Result<Vec<OutlineNode>> {
        self.browse(source)?.children(node).await
    }

    /// How many shells of `asset_type` the plant has in `source` (see
    /// [`Browse::shell_count`]).
    pub async fn shell_count(&self, source: &SourceRef, asset_type: &AssetType) -> Result<usize> {
        self.browse(source)?.shell_count(asset_type).await
    }

    /// The JSON of one shell in `source`: live from the gateway, or from the AAS list
    /// of `asset_type` its snapshot holds.
    pub async fn shell_json(
        &self,
        source: &SourceRef,
        asset_type: &AssetType,
        aas_id: &str,
    ) -> Result<String> {
        self.browse(source)?.shell_json(asset_type, aas_id).await
    }

    /// The source `source` names, opened for the tree: the one place that knows every
    /// kind of source.
    fn browse(&self, source: &SourceRef) -> Result<Box<dyn Browse>> {
        Ok(match source {
            SourceRef::Live { plant } => {
                Box::new(gateway::Gateway::new(self.session().client, plant.clone()))
            }
            SourceRef::Snapshot(at) => {
                Box::new(stored::Stored::new(self.store_at(at.store)?, at.id))
            }
            SourceRef::File { file } => Box::new(self.opened_file(*file)?),
        })
    }
}

/// The outline nodes of a list answer's items.
fn outline<T>(list: Vec<Parsed<T>>, node: fn(&Parsed<T>) -> OutlineNode) -> Vec<OutlineNode> {
    list.iter().map(node).collect()
}

fn no_registry() -> Error {
    Error::BadRequest("the tree has no registry level: it starts at a plant's shells".into())
}
