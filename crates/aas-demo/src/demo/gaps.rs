//! What of its master data a demo asset lacks or holds wrongly, so that the template
//! audit (issue 28) has gaps to show: by the asset's number and type alone, never by
//! the seed, so a plant's gaps are the same at any seed and size. The first asset of
//! each type is whole: tests and demos rely on it.

use aas_model::AssetType;

/// The nameplate template an asset's nameplate follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Nameplate {
    /// ZVEI Digital Nameplate 1.0, as many V2 servers write it: texts as Properties
    /// where the template wants MultiLanguageProperties, the year an `int`.
    Zvei1,
    /// IDTA 02006-3-0, every element as the template wants it.
    Idta3,
}

/// One gap, in one submodel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Gap {
    /// The nameplate lacks a required element (YearOfConstruction in 1.0,
    /// OrderCodeOfManufacturer in 3.0).
    NameplateElementMissing,
    /// Technical data's ManufacturerOrderCode is there, empty.
    OrderCodeEmpty,
    /// Technical data's ValidDate is a German date in a `string`, not an `xs:date`.
    ValidDateMistyped,
    /// Technical data lacks ManufacturerArticleNumber.
    ArticleNumberMissing,
}

/// Every third asset has an IDTA 3.0 nameplate, beside the ZVEI 1.0 ones.
pub(super) fn nameplate(n: usize) -> Nameplate {
    if n.is_multiple_of(3) {
        Nameplate::Idta3
    } else {
        Nameplate::Zvei1
    }
}

/// One asset in five (past the first of its type) has a gap; the type shifts which, so
/// that the 24-asset built-in demo shows each kind.
pub(super) fn gap(asset_type: &AssetType, n: usize) -> Option<Gap> {
    if n < 2 {
        return None;
    }
    let t = AssetType::PLATFORM
        .iter()
        .position(|a| a == asset_type)
        .unwrap_or(0);
    match (n + t) % 20 {
        3 => Some(Gap::NameplateElementMissing),
        5 => Some(Gap::OrderCodeEmpty),
        7 => Some(Gap::ValidDateMistyped),
        9 => Some(Gap::ArticleNumberMissing),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifth_of_the_assets_has_a_gap_and_the_first_of_each_type_none() {
        let assets = (1..=1000).flat_map(|n| AssetType::PLATFORM.map(|t| (t, n)));
        let gaps = assets.clone().filter(|(t, n)| gap(t, *n).is_some()).count();
        // A fifth of 8,000, but for the first tool, product and user, which are spared.
        assert_eq!(gaps, 8 * 1000 / 5 - 3);
        assert!(AssetType::PLATFORM.iter().all(|t| gap(t, 1).is_none()));
        let shown: Vec<Option<Gap>> = (2..=3)
            .flat_map(|n| AssetType::PLATFORM.map(|t| gap(&t, n)))
            .collect();
        for kind in [
            Gap::NameplateElementMissing,
            Gap::OrderCodeEmpty,
            Gap::ValidDateMistyped,
            Gap::ArticleNumberMissing,
        ] {
            assert!(shown.contains(&Some(kind)), "{kind:?} in the built-in demo");
        }
        assert_eq!(nameplate(1), Nameplate::Zvei1);
        assert_eq!(nameplate(3), Nameplate::Idta3);
    }
}
