//! Where a node sits in every source's tree: a plant's registry, the shells of one
//! asset type, a shell's submodels, a submodel's elements.

use aas_model::AssetType;
use serde::Serialize;

/// Where an answer sits in the tree (for a server: the request that fetched it).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(tag = "level", rename_all = "snake_case")]
pub enum NodePath {
    /// The registry (the assets' descriptors).
    Registry,
    /// The AAS of one asset type in the plant.
    AasList { asset_type: AssetType },
    /// The submodels of one AAS.
    Submodels { aas_id: String },
    /// The elements of one submodel.
    Elements { aas_id: String, submodel: String },
}

/// The levels of the tree, top down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeLevel {
    Registry,
    AasList,
    Submodels,
    Elements,
}

impl NodeLevel {
    pub const ALL: [NodeLevel; 4] = [
        NodeLevel::Registry,
        NodeLevel::AasList,
        NodeLevel::Submodels,
        NodeLevel::Elements,
    ];
}

impl NodePath {
    pub fn level(&self) -> NodeLevel {
        match self {
            NodePath::Registry => NodeLevel::Registry,
            NodePath::AasList { .. } => NodeLevel::AasList,
            NodePath::Submodels { .. } => NodeLevel::Submodels,
            NodePath::Elements { .. } => NodeLevel::Elements,
        }
    }

    /// The asset type's code, the AAS id and the submodel's idShort, `""` where the
    /// level has none. Compared byte by byte they give answers their fixed order in an
    /// export, whichever source holds them.
    pub fn keys(&self) -> [&str; 3] {
        match self {
            NodePath::Registry => ["", "", ""],
            NodePath::AasList { asset_type } => [asset_type.code(), "", ""],
            NodePath::Submodels { aas_id } => ["", aas_id, ""],
            NodePath::Elements { aas_id, submodel } => ["", aas_id, submodel],
        }
    }

    /// The path of `level` with `keys` (as [`NodePath::keys`] gives them); `None` for
    /// an unknown asset type.
    pub fn from_keys(level: NodeLevel, [asset_type, aas_id, submodel]: [&str; 3]) -> Option<Self> {
        Some(match level {
            NodeLevel::Registry => NodePath::Registry,
            NodeLevel::AasList => NodePath::AasList {
                asset_type: AssetType::named(asset_type),
            },
            NodeLevel::Submodels => NodePath::Submodels {
                aas_id: aas_id.to_owned(),
            },
            NodeLevel::Elements => NodePath::Elements {
                aas_id: aas_id.to_owned(),
                submodel: submodel.to_owned(),
            },
        })
    }
}
