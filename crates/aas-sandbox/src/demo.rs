//! A small, deterministic demo plant: every asset type, a few assets each, and
//! submodels (nameplate, technical data, documentation) that use the common element
//! types, shaped as AAS V2.0.1 JSON the way BaSyx V1 servers return it.

use aas_model::AssetType;
use serde_json::{json, Value};

use crate::plant::{Asset, Plant};

const PLATFORM: &str = "urn:demo-platform:acme";
const MANUFACTURERS: [&str; 4] = [
    "Muster Maschinenbau GmbH",
    "Acme Tools Inc.",
    "Nordlicht Antriebe AG",
    "Fabbrica Rossi S.p.A.",
];

/// The plant the built-in demo profile shows.
pub const DEMO_PLANT: &str = "DEMO-01";

/// `assets` assets spread round-robin over the eight asset types.
pub fn demo_plant(code: &str, assets: usize) -> Plant {
    let assets = (0..assets)
        .map(|i| {
            let asset_type = AssetType::ALL[i % AssetType::ALL.len()];
            demo_asset(code, asset_type, i / AssetType::ALL.len() + 1)
        })
        .collect();
    Plant {
        code: code.to_owned(),
        assets,
    }
}

fn demo_asset(plant: &str, asset_type: AssetType, n: usize) -> Asset {
    let prefix = asset_type.code()[..1].to_uppercase();
    let code = format!("{prefix}-{n:04}");
    let aas_id = format!("{PLATFORM}:{plant}:aas:{asset_type}#{code}");
    let asset_id = format!("{PLATFORM}:{plant}:asset:{asset_type}#{code}");
    let (noun, noun_de) = noun(asset_type);
    let manufacturer = MANUFACTURERS[n % MANUFACTURERS.len()];
    let sm_id = |name: &str| format!("{PLATFORM}:{plant}:sm:{asset_type}#{code}/{name}");

    let nameplate = submodel(
        "Nameplate",
        &sm_id("Nameplate"),
        "https://admin-shell.io/zvei/nameplate/1/0/Nameplate",
        vec![
            property("ManufacturerName", "string", json!(manufacturer)),
            mlp(
                "ManufacturerProductDesignation",
                &[("en", noun), ("de", noun_de)],
            ),
            property(
                "SerialNumber",
                "string",
                json!(format!("SN-{code}-{}", 1000 + n)),
            ),
            property(
                "YearOfConstruction",
                "int",
                json!((2015 + n % 10).to_string()),
            ),
            collection(
                "Address",
                vec![
                    property("Street", "string", json!("Hauptstraße 1")),
                    property("Zipcode", "string", json!("70173")),
                    property("CityTown", "string", json!("Stuttgart")),
                    property("NationalCode", "string", json!("DE")),
                ],
            ),
        ],
    );
    let technical = submodel(
        "TechnicalData",
        &sm_id("TechnicalData"),
        "https://admin-shell.io/ZVEI/TechnicalData/Submodel/1/2",
        vec![
            property("Weight", "double", json!(format!("{}.5", 10 * n + 2))),
            range(
                "OperatingTemperature",
                "double",
                -10,
                40 + (n % 3) as i64 * 10,
            ),
            collection(
                "GeneralInformation",
                vec![
                    property(
                        "ManufacturerArticleNumber",
                        "string",
                        json!(format!("A-{code}")),
                    ),
                    file(
                        "ProductImage",
                        "image/png",
                        &format!("/aasx/{code}/image.png"),
                    ),
                ],
            ),
        ],
    );
    let documentation = submodel(
        "Documentation",
        &sm_id("Documentation"),
        "https://admin-shell.io/vdi/2770/1/0/Documentation",
        vec![collection(
            "OperatingManual",
            vec![
                mlp(
                    "Title",
                    &[("en", "Operating manual"), ("de", "Betriebsanleitung")],
                ),
                file(
                    "DigitalFile",
                    "application/pdf",
                    &format!("/aasx/{code}/manual.pdf"),
                ),
            ],
        )],
    );
    let submodels = vec![nameplate, technical, documentation];

    let shell = json!({
        "modelType": {"name": "AssetAdministrationShell"},
        "idShort": format!("{}_{}", capitalised(asset_type.code()), code.replace('-', "")),
        "identification": {"idType": "Custom", "id": aas_id},
        "administration": {"version": "1", "revision": "0"},
        "description": [{"language": "en", "text": format!("{noun} {code} in plant {plant}")}],
        "asset": {"keys": [key("Asset", &asset_id)]},
        "submodels": submodels.iter().map(|sm| json!({"keys": [key("Submodel", sm["identification"]["id"].as_str().unwrap_or_default())]})).collect::<Vec<_>>(),
    });
    Asset {
        asset_type,
        code,
        aas_id,
        asset: json!({
            "modelType": {"name": "Asset"},
            "idShort": format!("Asset_{}", capitalised(asset_type.code())),
            "identification": {"idType": "Custom", "id": asset_id},
            "kind": "Instance",
        }),
        shell,
        submodels,
    }
}

fn noun(t: AssetType) -> (&'static str, &'static str) {
    match t {
        AssetType::Machine => ("CNC milling machine", "CNC-Fräsmaschine"),
        AssetType::Tool => ("Twist drill", "Spiralbohrer"),
        AssetType::Product => ("Gearbox", "Getriebe"),
        AssetType::Material => ("Steel sheet", "Stahlblech"),
        AssetType::Component => ("Servo motor", "Servomotor"),
        AssetType::User => ("Machine operator", "Maschinenbediener"),
        AssetType::Company => ("Supplier", "Lieferant"),
        AssetType::Site => ("Assembly hall", "Montagehalle"),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn key(key_type: &str, value: &str) -> Value {
    json!({"type": key_type, "local": true, "value": value, "idType": "Custom"})
}

fn semantic(iri: &str) -> Value {
    json!({"keys": [{"type": "GlobalReference", "local": false, "value": iri, "idType": "IRI"}]})
}

fn submodel(id_short: &str, id: &str, semantic_id: &str, elements: Vec<Value>) -> Value {
    json!({
        "modelType": {"name": "Submodel"},
        "idShort": id_short,
        "identification": {"idType": "Custom", "id": id},
        "kind": "Instance",
        "semanticId": semantic(semantic_id),
        "submodelElements": elements,
    })
}

fn element(id_short: &str, model_type: &str) -> Value {
    json!({
        "modelType": {"name": model_type},
        "idShort": id_short,
        "kind": "Instance",
        "semanticId": semantic(&format!("https://admin-shell.io/demo/{id_short}")),
    })
}

fn with(mut base: Value, extra: Value) -> Value {
    if let (Some(b), Value::Object(e)) = (base.as_object_mut(), extra) {
        b.extend(e);
    }
    base
}

fn property(id_short: &str, value_type: &str, value: Value) -> Value {
    with(
        element(id_short, "Property"),
        json!({"valueType": value_type, "value": value}),
    )
}

fn mlp(id_short: &str, texts: &[(&str, &str)]) -> Value {
    let value: Vec<Value> = texts
        .iter()
        .map(|(l, t)| json!({"language": l, "text": t}))
        .collect();
    with(
        element(id_short, "MultiLanguageProperty"),
        json!({"value": value}),
    )
}

fn range(id_short: &str, value_type: &str, min: i64, max: i64) -> Value {
    with(
        element(id_short, "Range"),
        json!({"valueType": value_type, "min": min.to_string(), "max": max.to_string()}),
    )
}

fn file(id_short: &str, mime_type: &str, path: &str) -> Value {
    with(
        element(id_short, "File"),
        json!({"mimeType": mime_type, "value": path}),
    )
}

fn collection(id_short: &str, elements: Vec<Value>) -> Value {
    with(
        element(id_short, "SubmodelElementCollection"),
        json!({"ordered": false, "allowDuplicates": false, "value": elements}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_spec_shape_and_every_type_is_present() {
        let plant = demo_plant(DEMO_PLANT, 16);
        assert_eq!(plant.assets.len(), 16);
        for t in AssetType::ALL {
            assert_eq!(plant.assets.iter().filter(|a| a.asset_type == t).count(), 2);
        }
        let first = &plant.assets[0];
        assert_eq!(
            first.aas_id,
            "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001"
        );
        assert_eq!(first.shell["identification"]["id"], first.aas_id.as_str());
    }

    #[test]
    fn the_same_input_gives_the_same_plant() {
        let a = serde_json::to_string(&demo_plant("P", 9).assets[8].submodels).expect("json");
        let b = serde_json::to_string(&demo_plant("P", 9).assets[8].submodels).expect("json");
        assert_eq!(a, b);
    }
}
