use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The eight asset type codes the gateway's `aasList` accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AssetType {
    Machine,
    Tool,
    Product,
    Material,
    Component,
    User,
    Company,
    Site,
}

impl AssetType {
    pub const ALL: [AssetType; 8] = [
        AssetType::Machine,
        AssetType::Tool,
        AssetType::Product,
        AssetType::Material,
        AssetType::Component,
        AssetType::User,
        AssetType::Company,
        AssetType::Site,
    ];

    pub fn code(self) -> &'static str {
        match self {
            AssetType::Machine => "machine",
            AssetType::Tool => "tool",
            AssetType::Product => "product",
            AssetType::Material => "material",
            AssetType::Component => "component",
            AssetType::User => "user",
            AssetType::Company => "company",
            AssetType::Site => "site",
        }
    }
}

impl fmt::Display for AssetType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The text is not one of the eight asset type codes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownAssetType(pub String);

impl fmt::Display for UnknownAssetType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown asset type {:?}; expected one of machine, tool, product, material, component, user, company, site",
            self.0
        )
    }
}

impl std::error::Error for UnknownAssetType {}

impl FromStr for AssetType {
    type Err = UnknownAssetType;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        AssetType::ALL
            .into_iter()
            .find(|t| t.code() == s)
            .ok_or_else(|| UnknownAssetType(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asset_type_codes_round_trip() {
        for t in AssetType::ALL {
            assert_eq!(t.code().parse::<AssetType>(), Ok(t));
        }
        assert!("Machine".parse::<AssetType>().is_err());
    }
}
