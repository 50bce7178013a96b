//! The tree's levels from the live service or from one snapshot: the same outline
//! nodes either way, so the page browses a snapshot as it browses the service, offline
//! too.

use aas_client::NodePath;
use aas_model::{parse_list, AssetType, Identifier, OutlineNode, Parsed};
use aas_snapshot::Store;
use serde::de::DeserializeOwned;

use crate::{App, Error, Result};

/// One shell of an AAS list as the page names it: live (`snapshot` null) or in a
/// snapshot.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct ShellOf {
    pub asset_type: String,
    pub aas_id: String,
    pub snapshot: Option<i64>,
}

impl App {
    /// The shells of `asset_type` in `plant`, live or as `snapshot` holds them.
    pub async fn aas_list(
        &self,
        snapshot: Option<i64>,
        asset_type: &str,
        plant: &str,
    ) -> Result<Vec<OutlineNode>> {
        let asset_type: AssetType = asset_type.parse()?;
        let shells = match snapshot {
            None => self.session().client.aas_list(asset_type, plant).await?,
            Some(id) => {
                let store = self.store()?;
                let of = store.snapshot(id)?.plant;
                if of != plant {
                    return Err(Error::BadRequest(format!(
                        "snapshot {id} is of plant {of}, not {plant}"
                    )));
                }
                stored(&store, id, NodePath::AasList { asset_type })?
            }
        };
        Ok(shells.iter().map(OutlineNode::shell).collect())
    }

    /// The JSON of one shell: live from the gateway, or from the AAS list its snapshot
    /// holds.
    pub async fn shell_json(&self, of: &ShellOf) -> Result<String> {
        let Some(id) = of.snapshot else {
            return Ok(self
                .session()
                .client
                .aas(&of.aas_id)
                .await?
                .raw()
                .to_owned());
        };
        let asset_type: AssetType = of.asset_type.parse()?;
        // Each shell's identifier only: reading 10,000 whole shells to find one took
        // 13-20 ms of parsing a click, a read of their identifiers about 6.
        stored::<Identified>(&self.store()?, id, NodePath::AasList { asset_type })?
            .iter()
            .find(|shell| {
                shell
                    .view()
                    .is_ok_and(|shell| shell.identification.id == of.aas_id)
            })
            .map(|shell| shell.raw().to_owned())
            .ok_or_else(|| {
                Error::NotInSnapshot(format!("snapshot {id} has no shell {}", of.aas_id))
            })
    }

    /// The submodels of shell `aas_id`, live or as `snapshot` holds them.
    pub async fn submodels(&self, snapshot: Option<i64>, aas_id: &str) -> Result<Vec<OutlineNode>> {
        let submodels = match snapshot {
            None => self.session().client.submodels(aas_id).await?,
            Some(id) => stored(
                &self.store()?,
                id,
                NodePath::Submodels {
                    aas_id: aas_id.to_owned(),
                },
            )?,
        };
        Ok(submodels.iter().map(OutlineNode::submodel).collect())
    }

    /// The elements of a submodel, live or as `snapshot` holds them.
    pub async fn elements(
        &self,
        snapshot: Option<i64>,
        aas_id: &str,
        submodel: &str,
    ) -> Result<Vec<OutlineNode>> {
        let elements = match snapshot {
            None => self.session().client.elements(aas_id, submodel).await?,
            Some(id) => stored(
                &self.store()?,
                id,
                NodePath::Elements {
                    aas_id: aas_id.to_owned(),
                    submodel: submodel.to_owned(),
                },
            )?,
        };
        Ok(elements.iter().map(OutlineNode::element).collect())
    }
}

/// A shell read for its identifier alone.
#[derive(serde::Deserialize)]
struct Identified {
    identification: Identifier,
}

/// The list snapshot `id` holds at `path`, read as the live answer is.
fn stored<T: DeserializeOwned>(store: &Store, id: i64, path: NodePath) -> Result<Vec<Parsed<T>>> {
    let raw = store.answer(id, &path)?.ok_or_else(|| {
        Error::NotInSnapshot(format!(
            "snapshot {id} does not hold this node (it failed or was not reached when the snapshot was taken)"
        ))
    })?;
    parse_list(&raw).map_err(|e| Error::BadData(format!("the stored answer cannot be read: {e}")))
}
