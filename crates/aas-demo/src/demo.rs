//! A realistic, deterministic demo plant of any size: all eight asset types, each
//! asset with nameplate, technical data, documentation, operational data, bill of
//! material and capabilities, as AAS V2.0.1 JSON the way BaSyx V1 servers return it.
//! The seed varies values (serials, weights, temperatures, years), never structure.
//! Nameplates follow ZVEI 1.0 or IDTA 3.0, and a share of the assets has gaps against
//! the templates (`gaps`), by the asset's number, so the template audit has work.

pub mod elements;
mod gaps;
mod submodels;

use aas_model::AssetType;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

use crate::plant::{Asset, Plant};
use elements::{administration, identification, key, model_type, object, reference};

const PLATFORM: &str = "urn:demo-platform:acme";

/// The plant the built-in demo profile shows.
pub const DEMO_PLANT: &str = "DEMO-01";

struct Manufacturer {
    name: &'static str,
    street: &'static str,
    zipcode: &'static str,
    city: &'static str,
    country: &'static str,
}

/// Asset number `n` of each type is made by `MANUFACTURERS[n % 4]`, so `M-0001` is
/// always Acme's (tests and demos rely on that).
const MANUFACTURERS: [Manufacturer; 4] = [
    Manufacturer {
        name: "Muster Maschinenbau GmbH",
        street: "Industriestraße 12",
        zipcode: "20095",
        city: "Hamburg",
        country: "DE",
    },
    Manufacturer {
        name: "Acme Tools Inc.",
        street: "Hauptstraße 1",
        zipcode: "70173",
        city: "Stuttgart",
        country: "DE",
    },
    Manufacturer {
        name: "Nordlicht Antriebe AG",
        street: "Hafenweg 3",
        zipcode: "24103",
        city: "Kiel",
        country: "DE",
    },
    Manufacturer {
        name: "Fabbrica Rossi S.p.A.",
        street: "Via Roma 21",
        zipcode: "20121",
        city: "Milano",
        country: "IT",
    },
];

/// What the demo says about every asset of one type.
struct Profile {
    noun: (&'static str, &'static str),
    parts: [&'static str; 2],
    capabilities: &'static [&'static str],
    /// None where a weight makes no sense (people, companies, sites).
    weight_kg: Option<(f64, f64)>,
}

fn profile(t: &AssetType) -> Profile {
    let (noun, parts, capabilities, weight_kg): (_, _, &'static [&'static str], _) = match t.code()
    {
        "tool" => (
            ("Twist drill", "Spiralbohrer"),
            ["Shank", "CuttingEdge"],
            &["Drilling"],
            Some((0.05, 1.5)),
        ),
        "product" => (
            ("Gearbox", "Getriebe"),
            ["GearSet", "Housing"],
            &["TorqueConversion"],
            Some((12.0, 180.0)),
        ),
        "material" => (
            ("Steel sheet", "Stahlblech"),
            ["BaseMetal", "Coating"],
            &["DeepDrawing", "Welding"],
            Some((8.0, 40.0)),
        ),
        "component" => (
            ("Servo motor", "Servomotor"),
            ["Stator", "Encoder"],
            &["PositionControl"],
            Some((1.5, 25.0)),
        ),
        "user" => (
            ("Machine operator", "Maschinenbediener"),
            ["Workstation", "SafetyEquipment"],
            &["MachineOperation", "QualityInspection"],
            None,
        ),
        "company" => (
            ("Supplier", "Lieferant"),
            ["Headquarters", "Warehouse"],
            &["Supplying"],
            None,
        ),
        "site" => (
            ("Assembly hall", "Montagehalle"),
            ["AssemblyLine", "TestBench"],
            &["Assembly", "EndOfLineTest"],
            None,
        ),
        // The demo makes only the platform's eight: the machine is the last of them.
        _ => (
            ("CNC milling machine", "CNC-Fräsmaschine"),
            ["MainSpindle", "ServoDrive"],
            &["Milling", "Drilling"],
            Some((2500.0, 9000.0)),
        ),
    };
    Profile {
        noun,
        parts,
        capabilities,
        weight_kg,
    }
}

const STATES: [[(&str, &str); 2]; 3] = [
    [("en", "Running"), ("de", "In Betrieb")],
    [("en", "Idle"), ("de", "Bereit")],
    [("en", "Maintenance"), ("de", "Wartung")],
];

/// The values the seed chooses for one asset.
struct Facts {
    serial: String,
    year: u32,
    weight_kg: Option<String>,
    ambient_min: i32,
    ambient_max: i32,
    current_temperature: String,
    valid_date: String,
    document_version: String,
    operating_hours: u32,
    state: [(&'static str, &'static str); 2],
    config_revision: u32,
    bulk_counts: [u32; 2],
}

impl Facts {
    fn draw(rng: &mut StdRng, code: &str, profile: &Profile) -> Facts {
        let year = rng.random_range(2012..=2024);
        Facts {
            serial: format!("SN-{code}-{:06}", rng.random_range(0..1_000_000)),
            year,
            weight_kg: profile.weight_kg.map(|(light, heavy)| {
                format!("{:.2}", light + (heavy - light) * rng.random::<f64>())
            }),
            ambient_min: rng.random_range(-20..=5),
            ambient_max: rng.random_range(35..=60),
            current_temperature: format!("{:.1}", rng.random_range(18.0..35.0)),
            valid_date: format!(
                "{}-{:02}-{:02}",
                year + 1,
                rng.random_range(1..=12),
                rng.random_range(1..=28)
            ),
            document_version: format!("1.{}", rng.random_range(0..6)),
            operating_hours: rng.random_range(0..60_000),
            state: STATES[rng.random_range(0..STATES.len())],
            config_revision: rng.random_range(1..100),
            bulk_counts: [rng.random_range(1..=4), rng.random_range(1..=12)],
        }
    }
}

/// The asset being generated, as the submodel builders see it.
struct Subject<'a> {
    plant: &'a str,
    asset_type: AssetType,
    code: String,
    asset_id: String,
    manufacturer: &'static Manufacturer,
    profile: Profile,
    facts: Facts,
    nameplate: gaps::Nameplate,
    gap: Option<gaps::Gap>,
}

impl Subject<'_> {
    fn sm_id(&self, name: &str) -> String {
        let (plant, t, code) = (self.plant, &self.asset_type, &self.code);
        format!("{PLATFORM}:{plant}:sm:{t}#{code}/{name}")
    }

    /// Codes repeat across types (machine and material are both `M-…`), paths don't.
    fn file_path(&self, name: &str) -> String {
        format!("/aasx/{}/{}/{name}", self.asset_type, self.code)
    }

    fn designation(&self) -> [(&'static str, &'static str); 2] {
        let (en, de) = self.profile.noun;
        [("en", en), ("de", de)]
    }

    fn parts(&self) -> [(&'static str, u32); 2] {
        let [a, b] = self.profile.parts;
        let [m, n] = self.facts.bulk_counts;
        [(a, m), (b, n)]
    }
}

/// `assets` assets spread round-robin over the eight asset types; the same
/// (code, assets, seed) always gives the same plant, and a smaller plant is a prefix
/// of a bigger one.
pub fn demo_plant(code: &str, assets: usize, seed: u64) -> Plant {
    let plant_seed = seed ^ fnv1a(code.as_bytes());
    let assets = (0..assets)
        .map(|i| {
            let asset_type = AssetType::PLATFORM[i % AssetType::PLATFORM.len()].clone();
            let mut rng = StdRng::seed_from_u64(plant_seed.wrapping_add(i as u64));
            demo_asset(
                code,
                asset_type,
                i / AssetType::PLATFORM.len() + 1,
                &mut rng,
            )
        })
        .collect();
    Plant {
        code: code.to_owned(),
        assets,
    }
}

/// A stable hash (std's hashers may change between releases), so plant codes vary
/// the values too.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn demo_asset(plant: &str, asset_type: AssetType, n: usize, rng: &mut StdRng) -> Asset {
    let prefix = asset_type.code()[..1].to_uppercase();
    let code = format!("{prefix}-{n:04}");
    let profile = profile(&asset_type);
    let s = Subject {
        plant,
        asset_type: asset_type.clone(),
        asset_id: format!("{PLATFORM}:{plant}:asset:{asset_type}#{code}"),
        manufacturer: &MANUFACTURERS[n % MANUFACTURERS.len()],
        facts: Facts::draw(rng, &code, &profile),
        profile,
        code,
        nameplate: gaps::nameplate(n),
        gap: gaps::gap(&asset_type, n),
    };
    // Nameplate, TechnicalData, Documentation come first: clients rely on that order.
    let submodels = vec![
        submodels::nameplate(&s),
        submodels::technical_data(&s),
        submodels::documentation(&s),
        submodels::operational_data(&s),
        submodels::bill_of_material(&s),
        submodels::capabilities(&s),
    ];
    let aas_id = format!("{PLATFORM}:{plant}:aas:{asset_type}#{}", s.code);
    let type_name = capitalised(asset_type.code());
    let id_short = |prefix: &str| format!("{prefix}_{}", s.code.replace('-', ""));
    let description = format!("{} {} in plant {plant}", s.profile.noun.0, s.code);
    let submodel_refs = (submodels.iter())
        .map(|sm| {
            reference(vec![key(
                "Submodel",
                sm["identification"]["id"].as_str().unwrap_or_default(),
            )])
        })
        .collect();
    let shell = object([
        ("modelType", model_type("AssetAdministrationShell")),
        ("idShort", id_short(&type_name).into()),
        ("identification", identification(&aas_id)),
        ("administration", administration()),
        (
            "description",
            json!([{"language": "en", "text": description}]),
        ),
        ("asset", reference(vec![key("Asset", &s.asset_id)])),
        ("submodels", submodel_refs),
    ]);
    let asset = object([
        ("modelType", model_type("Asset")),
        ("idShort", id_short(&format!("Asset_{type_name}")).into()),
        ("identification", identification(&s.asset_id)),
        ("kind", "Instance".into()),
    ]);
    Asset {
        asset_type,
        code: s.code,
        aas_id,
        asset,
        shell,
        submodels,
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::Value;

    use super::*;

    const ELEMENT_TYPES: [&str; 13] = [
        "Property",
        "MultiLanguageProperty",
        "Range",
        "Blob",
        "File",
        "ReferenceElement",
        "SubmodelElementCollection",
        "RelationshipElement",
        "AnnotatedRelationshipElement",
        "Capability",
        "Entity",
        "BasicEvent",
        "Operation",
    ];

    /// modelType names of every element nested anywhere in `v`.
    fn model_types(v: &Value, found: &mut BTreeSet<String>) {
        match v {
            Value::Object(o) => {
                if let Some(name) = o.get("modelType").and_then(|m| m["name"].as_str()) {
                    found.insert(name.to_owned());
                }
                o.values().for_each(|v| model_types(v, found));
            }
            Value::Array(a) => a.iter().for_each(|v| model_types(v, found)),
            _ => {}
        }
    }

    #[test]
    fn ids_follow_the_spec_shape_and_every_asset_type_is_present() {
        let plant = demo_plant(DEMO_PLANT, 16, 1);
        assert_eq!(plant.assets.len(), 16);
        for t in AssetType::PLATFORM {
            assert_eq!(plant.assets.iter().filter(|a| a.asset_type == t).count(), 2);
        }
        let first = &plant.assets[0];
        assert_eq!(
            first.aas_id,
            "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001"
        );
        assert_eq!(first.shell["identification"]["id"], first.aas_id.as_str());
        assert_eq!(first.shell["idShort"], "Machine_M0001");
    }

    #[test]
    fn the_first_machine_keeps_the_nameplate_that_tests_and_demos_rely_on() {
        let plant = demo_plant(DEMO_PLANT, 8, 42);
        let names: Vec<_> = plant.assets[0]
            .submodels
            .iter()
            .map(|sm| sm["idShort"].as_str().expect("idShort"))
            .collect();
        assert_eq!(
            names,
            [
                "Nameplate",
                "TechnicalData",
                "Documentation",
                "OperationalData",
                "BillOfMaterial",
                "Capabilities"
            ]
        );
        let nameplate = &plant.assets[0].submodels[0]["submodelElements"];
        assert_eq!(nameplate.as_array().map(Vec::len), Some(5));
        assert_eq!(nameplate[0]["idShort"], "ManufacturerName");
        assert_eq!(nameplate[0]["value"], "Acme Tools Inc.");
        assert_eq!(nameplate[1]["idShort"], "ManufacturerProductDesignation");
    }

    #[test]
    fn the_same_input_gives_the_same_plant_and_the_seed_changes_values_only() {
        let json = |seed| serde_json::to_string(&demo_plant("P", 9, seed).assets[8].submodels);
        assert_eq!(json(7).expect("json"), json(7).expect("json"));
        assert_ne!(json(7).expect("json"), json(8).expect("json"));
        let shape = |seed| {
            let mut found = BTreeSet::new();
            model_types(
                &Value::Array(demo_plant("P", 9, seed).assets[8].submodels.clone()),
                &mut found,
            );
            found
        };
        assert_eq!(shape(7), shape(8));
        let small = demo_plant("P", 3, 7);
        let big = demo_plant("P", 30, 7);
        assert_eq!(small.assets[2].submodels, big.assets[2].submodels);
    }

    #[test]
    fn every_element_type_appears_in_every_asset() {
        for asset in demo_plant("P", 8, 3).assets {
            let mut found = BTreeSet::new();
            for sm in &asset.submodels {
                model_types(&sm["submodelElements"], &mut found);
            }
            for t in ELEMENT_TYPES {
                assert!(found.contains(t), "{} lacks {t}", asset.code);
            }
        }
    }
}
