//! Where the page's tree reads from: the live service or one snapshot. Either answers
//! the same questions with the same outline nodes, so the page browses a snapshot as it
//! browses the service, offline too.

use aas_client::NodePath;
use aas_model::{parse_list, AssetType, Identifier, OutlineNode, Parsed};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::{App, Error, Result, SnapshotRef};

/// A source of answers: `{"from": "live", "plant": "P"}` or
/// `{"from": "snapshot", "id": 7, "store": "here"}` (a snapshot's plant is its own; the
/// store, `here` or `team`, is `here` when not said).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum Source {
    Live { plant: String },
    Snapshot(SnapshotRef),
}

/// What the tree asks of a source: `{"what": "children", "source", "node"}`,
/// `{"what": "shell_count", "source", "asset_type"}` (an asset type's chip) or
/// `{"what": "shell_json", "source", "asset_type", "aas_id"}`.
#[derive(Debug, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum TreeAsk {
    Children {
        source: Source,
        node: NodePath,
    },
    ShellCount {
        source: Source,
        asset_type: AssetType,
    },
    ShellJson {
        source: Source,
        asset_type: AssetType,
        aas_id: String,
    },
}

/// The answer to a [`TreeAsk`]: the nodes, the count, or the shell's JSON text.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum TreeAnswer {
    Children(Vec<OutlineNode>),
    ShellCount(usize),
    ShellJson(String),
}

impl App {
    /// Answers what the tree asks (see [`TreeAsk`]).
    pub async fn tree(&self, ask: TreeAsk) -> Result<TreeAnswer> {
        Ok(match ask {
            TreeAsk::Children { source, node } => {
                TreeAnswer::Children(self.children(&source, &node).await?)
            }
            TreeAsk::ShellCount { source, asset_type } => {
                TreeAnswer::ShellCount(self.shell_count(&source, asset_type).await?)
            }
            TreeAsk::ShellJson {
                source,
                asset_type,
                aas_id,
            } => TreeAnswer::ShellJson(self.shell_json(&source, asset_type, &aas_id).await?),
        })
    }

    /// The nodes below `node` in `source`: a plant's shells of one asset type, a
    /// shell's submodels, a submodel's elements.
    pub async fn children(&self, source: &Source, node: &NodePath) -> Result<Vec<OutlineNode>> {
        let at = match source {
            Source::Live { plant } => return self.live_children(plant, node).await,
            Source::Snapshot(at) => *at,
        };
        Ok(match node {
            NodePath::AasList { .. } => outline(self.stored(at, node)?, OutlineNode::shell),
            NodePath::Submodels { .. } => outline(self.stored(at, node)?, OutlineNode::submodel),
            NodePath::Elements { .. } => outline(self.stored(at, node)?, OutlineNode::element),
            NodePath::Registry => return Err(no_registry()),
        })
    }

    async fn live_children(&self, plant: &str, node: &NodePath) -> Result<Vec<OutlineNode>> {
        let client = self.session().client;
        Ok(match node {
            NodePath::AasList { asset_type } => outline(
                client.aas_list(*asset_type, plant).await?,
                OutlineNode::shell,
            ),
            NodePath::Submodels { aas_id } => {
                outline(client.submodels(aas_id).await?, OutlineNode::submodel)
            }
            NodePath::Elements { aas_id, submodel } => outline(
                client.elements(aas_id, submodel).await?,
                OutlineNode::element,
            ),
            NodePath::Registry => return Err(no_registry()),
        })
    }

    /// How many shells of `asset_type` the plant has in `source`: what an asset type's
    /// chip shows, without the page keeping the lists of types nobody opened (80,000
    /// shells of a big plant held 42 MB in the page).
    pub async fn shell_count(&self, source: &Source, asset_type: AssetType) -> Result<usize> {
        Ok(match source {
            Source::Live { plant } => {
                let client = self.session().client;
                client.aas_list_len(asset_type, plant).await?
            }
            Source::Snapshot(at) => {
                let list = self.stored_raw(*at, &NodePath::AasList { asset_type })?;
                aas_model::count_list(&list).map_err(unreadable)?
            }
        })
    }

    /// The JSON of one shell: live from the gateway, or from the AAS list of
    /// `asset_type` its snapshot holds.
    pub async fn shell_json(
        &self,
        source: &Source,
        asset_type: AssetType,
        aas_id: &str,
    ) -> Result<String> {
        let at = match source {
            Source::Live { .. } => {
                return Ok(self.session().client.aas(aas_id).await?.raw().to_owned())
            }
            Source::Snapshot(at) => *at,
        };
        let id = at.id;
        // Each shell's identifier only: reading 10,000 whole shells to find one took
        // 13-20 ms of parsing a click, a read of their identifiers about 6.
        self.stored::<Identified>(at, &NodePath::AasList { asset_type })?
            .iter()
            .find(|shell| {
                shell
                    .view()
                    .is_ok_and(|shell| shell.identification.id == aas_id)
            })
            .map(|shell| shell.raw().to_owned())
            .ok_or_else(|| Error::NotInSnapshot(format!("snapshot {id} has no shell {aas_id}")))
    }

    /// The list snapshot `at` holds at `node`, read as the live answer is.
    fn stored<T: DeserializeOwned>(
        &self,
        at: SnapshotRef,
        node: &NodePath,
    ) -> Result<Vec<Parsed<T>>> {
        parse_list(&self.stored_raw(at, node)?).map_err(unreadable)
    }

    /// The answer snapshot `at` holds at `node`, as the service sent it.
    fn stored_raw(&self, at: SnapshotRef, node: &NodePath) -> Result<String> {
        let id = at.id;
        let store = self.store_at(at.store)?;
        store.read(|store| store.answer(id, node))?.ok_or_else(|| {
            Error::NotInSnapshot(format!(
                "snapshot {id} does not hold this node (it failed or was not reached when the snapshot was taken)"
            ))
        })
    }
}

fn unreadable(e: aas_model::Error) -> Error {
    Error::BadData(format!("the stored answer cannot be read: {e}"))
}

fn outline<T>(list: Vec<Parsed<T>>, node: fn(&Parsed<T>) -> OutlineNode) -> Vec<OutlineNode> {
    list.iter().map(node).collect()
}

fn no_registry() -> Error {
    Error::BadRequest("the tree has no registry level: it starts at a plant's shells".into())
}

/// A shell read for its identifier alone.
#[derive(Deserialize)]
struct Identified {
    identification: Identifier,
}
