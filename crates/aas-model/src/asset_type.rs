use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};

/// The type of asset a shell describes, by which the tree groups shells: one of the eight
/// codes the platform's gateway `aasList` accepts, or, for a file or a V3 server, what
/// the shell's `assetInformation.assetType` (else its asset kind) says.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AssetType(Cow<'static, str>);

impl AssetType {
    pub const MACHINE: AssetType = AssetType::known("machine");
    pub const TOOL: AssetType = AssetType::known("tool");
    pub const PRODUCT: AssetType = AssetType::known("product");
    pub const MATERIAL: AssetType = AssetType::known("material");
    pub const COMPONENT: AssetType = AssetType::known("component");
    pub const USER: AssetType = AssetType::known("user");
    pub const COMPANY: AssetType = AssetType::known("company");
    pub const SITE: AssetType = AssetType::known("site");

    /// The platform's eight, in the order its screens list them.
    pub const PLATFORM: [AssetType; 8] = [
        AssetType::MACHINE,
        AssetType::TOOL,
        AssetType::PRODUCT,
        AssetType::MATERIAL,
        AssetType::COMPONENT,
        AssetType::USER,
        AssetType::COMPANY,
        AssetType::SITE,
    ];

    const fn known(code: &'static str) -> Self {
        AssetType(Cow::Borrowed(code))
    }

    /// An asset type as a file or a server names it.
    pub fn named(name: impl Into<String>) -> Self {
        AssetType(Cow::Owned(name.into()))
    }

    /// One of the platform's eight by its code.
    pub fn platform(code: &str) -> Result<Self, UnknownAssetType> {
        AssetType::PLATFORM
            .into_iter()
            .find(|t| t.code() == code)
            .ok_or_else(|| UnknownAssetType(code.to_owned()))
    }

    pub fn code(&self) -> &str {
        &self.0
    }

    /// Where it comes in a list: the platform's eight first, in their order, then the
    /// others by name.
    fn rank(&self) -> (usize, &str) {
        let platform = AssetType::PLATFORM.iter().position(|t| t == self);
        (platform.unwrap_or(AssetType::PLATFORM.len()), self.code())
    }
}

impl Ord for AssetType {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for AssetType {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for AssetType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The text is not one of the platform's eight asset type codes.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_platforms_codes_round_trip_and_others_are_named() {
        for t in AssetType::PLATFORM {
            assert_eq!(AssetType::platform(t.code()), Ok(t));
        }
        assert!(AssetType::platform("Machine").is_err());
        let json = serde_json::to_string(&AssetType::TOOL).expect("JSON");
        assert_eq!(json, r#""tool""#);
        let named: AssetType = serde_json::from_str(r#""Servo drive""#).expect("any name");
        assert_eq!(named.code(), "Servo drive");
    }

    #[test]
    fn the_platforms_eight_come_first_in_their_order() {
        let mut types = [
            AssetType::named("Instance"),
            AssetType::SITE,
            AssetType::named("Axis"),
            AssetType::MACHINE,
        ];
        types.sort();
        let codes: Vec<&str> = types.iter().map(AssetType::code).collect();
        assert_eq!(codes, ["machine", "site", "Axis", "Instance"]);
    }
}
