//! The tree's levels from the live service or from one snapshot: the same outline
//! nodes either way, so the page browses a snapshot as it browses the service, offline
//! too.

use aas_client::NodePath;
use aas_model::{parse_list, AssetType, OutlineNode, Parsed};
use serde::de::DeserializeOwned;

use crate::{App, Error, Result};

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
                let of = self.store()?.snapshot(id)?.plant;
                if of != plant {
                    return Err(Error::BadRequest(format!(
                        "snapshot {id} is of plant {of}, not {plant}"
                    )));
                }
                self.stored(id, NodePath::AasList { asset_type })?
            }
        };
        Ok(shells.iter().map(OutlineNode::shell).collect())
    }

    /// The submodels of shell `aas_id`, live or as `snapshot` holds them.
    pub async fn submodels(&self, snapshot: Option<i64>, aas_id: &str) -> Result<Vec<OutlineNode>> {
        let submodels = match snapshot {
            None => self.session().client.submodels(aas_id).await?,
            Some(id) => self.stored(
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
            Some(id) => self.stored(
                id,
                NodePath::Elements {
                    aas_id: aas_id.to_owned(),
                    submodel: submodel.to_owned(),
                },
            )?,
        };
        Ok(elements.iter().map(OutlineNode::element).collect())
    }

    /// The list snapshot `id` holds at `path`, read as the live answer is.
    fn stored<T: DeserializeOwned>(&self, id: i64, path: NodePath) -> Result<Vec<Parsed<T>>> {
        let raw = self.store()?.answer(id, &path)?.ok_or_else(|| {
            Error::NotInSnapshot(format!(
                "snapshot {id} does not hold this node (it failed or was not reached when the snapshot was taken)"
            ))
        })?;
        parse_list(&raw)
            .map_err(|e| Error::BadData(format!("the stored answer cannot be read: {e}")))
    }
}
