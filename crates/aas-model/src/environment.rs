use serde::de::MapAccess;
use serde::{Deserialize, Deserializer, Serialize};

use crate::model_typed::Head;
use crate::record::{self, Record};
use crate::{Asset, AssetAdministrationShell, ConceptDescription, Nullable, OtherFields, Submodel};

/// A whole AAS V2.0.1 JSON file: what an AASX package or an export holds.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Environment {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub asset_administration_shells: Nullable<Vec<AssetAdministrationShell>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub assets: Nullable<Vec<Asset>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub submodels: Nullable<Vec<Submodel>>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub concept_descriptions: Nullable<Vec<ConceptDescription>>,
    #[serde(flatten)]
    pub extra: OtherFields,
}

/// Read key by key (not with `flatten`, which would buffer the elements' text away).
impl<'de> Deserialize<'de> for Environment {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        record::deserialize::<D, Environment>(de)
    }
}

impl<'de> Head<'de> for Environment {
    fn read<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "assetAdministrationShells" => self.asset_administration_shells = map.next_value()?,
            "assets" => self.assets = map.next_value()?,
            "submodels" => self.submodels = map.next_value()?,
            "conceptDescriptions" => self.concept_descriptions = map.next_value()?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

impl Record<'_> for Environment {
    type Output = Self;
    const EXPECTING: &'static str = "an AAS environment";

    fn finish<E: serde::de::Error>(mut self, extra: OtherFields) -> Result<Self, E> {
        self.extra = extra;
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    const GOOD: &str = r#"{"value" : 1.50,"idShort":"good","modelType":{"name":"Property"}}"#;

    #[test]
    fn elements_in_an_environment_keep_their_text() {
        let json =
            format!(r#"{{"submodels":[{{"idShort":"S","submodelElements":[{GOOD}]}}],"y":[]}}"#);
        let env = parse::<Environment>(&json).expect("valid");
        assert_eq!(env.extra.len(), 1);
        assert_eq!(env.submodels[0].elements()[0].raw(), GOOD);
    }
}
