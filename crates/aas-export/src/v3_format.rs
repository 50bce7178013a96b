//! What a V3 export writes: the version, in a package or not, as JSON or XML.

use aas_v3::Target;

/// How a V3 environment is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Serialisation {
    Json,
    Xml,
}

/// What a V3 format writes: the version, in a package or not, as JSON or XML.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct V3Format {
    pub target: Target,
    pub packaged: bool,
    pub serialisation: Serialisation,
}

impl V3Format {
    /// `target` as `serialisation`, in a package when `packaged`.
    pub fn new(target: Target, packaged: bool, serialisation: Serialisation) -> Self {
        V3Format {
            target,
            packaged,
            serialisation,
        }
    }
}
