//! Loading plants from real, published AAS V2 files (`shared/aas-samples`, walked, so a
//! new sample is covered without code changes) and from AASX packages.

mod package;

use std::path::{Path, PathBuf};

use aas_demo::{demo_plant, environment, load_environment, Error};
use aas_model::AssetType;
use serde_json::Value;

fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/aas-samples")
}

fn json_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read samples dir")
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            json_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "json") {
            found.push(path);
        }
    }
}

fn read_json(path: &Path) -> Value {
    let bytes = std::fs::read(path).expect("read sample");
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    serde_json::from_slice(text).expect("sample is JSON")
}

fn by_id<'a>(list: &'a Value, id: &str) -> &'a Value {
    list.as_array()
        .and_then(|items| items.iter().find(|v| v["identification"]["id"] == id))
        .unwrap_or_else(|| panic!("{id} is in the file"))
}

#[test]
fn every_sample_environment_loads_with_its_objects_unchanged() {
    let mut files = Vec::new();
    json_files(&samples_dir(), &mut files);
    let mut environments = 0;
    for path in files {
        let file = read_json(&path);
        if file.get("assetAdministrationShells").is_none() {
            continue;
        }
        environments += 1;
        let assets = load_environment(&path, AssetType::PRODUCT)
            .unwrap_or_else(|e| panic!("{} loads: {e}", path.display()));
        let shells = file["assetAdministrationShells"]
            .as_array()
            .expect("shells");
        assert_eq!(assets.len(), shells.len(), "{}", path.display());
        for (asset, shell) in assets.iter().zip(shells) {
            assert_eq!(&asset.shell, shell, "{}", path.display());
            assert_eq!(
                asset.aas_id,
                shell["identification"]["id"].as_str().expect("id")
            );
            assert_eq!(asset.asset_type, AssetType::PRODUCT);
            let asset_id = shell["asset"]["keys"].as_array().and_then(|k| k.last());
            let listed = (file["assets"].as_array().into_iter().flatten())
                .find(|a| Some(&a["identification"]["id"]) == asset_id.map(|k| &k["value"]));
            match listed {
                Some(listed) => assert_eq!(&asset.asset, listed),
                None => assert_eq!(asset.asset["modelType"]["name"], "Asset"),
            }
            for sm in &asset.submodels {
                let id = sm["identification"]["id"].as_str().expect("submodel id");
                assert_eq!(sm, by_id(&file["submodels"], id), "{}", path.display());
            }
            let referenced = shell["submodels"].as_array().map_or(0, Vec::len);
            assert!(asset.submodels.len() <= referenced);
        }
    }
    assert!(environments > 0, "no sample environments found");
}

#[test]
fn an_aasx_package_loads_through_its_relationships() {
    let plant = demo_plant("X", 10, 5);
    let json = serde_json::to_vec(&environment(&plant)).expect("json");
    let package = package::scratch("samples-demo.aasx");
    package::write_aasx(&package, "aasx/X/X.aas.json", &json, &[]);

    let assets = load_environment(&package, AssetType::MACHINE).expect("aasx loads");
    assert_eq!(assets.len(), plant.assets.len());
    for (loaded, generated) in assets.iter().zip(&plant.assets) {
        assert_eq!(loaded.aas_id, generated.aas_id);
        assert_eq!(loaded.asset, generated.asset);
        assert_eq!(loaded.shell, generated.shell);
        assert_eq!(loaded.submodels, generated.submodels);
    }
}

#[test]
fn an_aasx_package_holding_only_xml_is_refused_by_name() {
    let package = package::scratch("samples-xml-only.aasx");
    package::write_aasx(&package, "aasx/data.xml", b"<aasenv/>", &[]);
    match load_environment(&package, AssetType::MACHINE) {
        Err(e @ Error::Data { .. }) => {
            let message = e.to_string();
            assert!(message.contains("XML (aasx/data.xml)"), "{message}");
        }
        other => panic!("expected a data error, got {other:?}"),
    }
}

#[test]
fn a_missing_file_and_a_non_environment_give_clear_errors() {
    let missing = load_environment(Path::new("/nonexistent/plant.json"), AssetType::SITE);
    assert!(matches!(missing, Err(Error::Read { .. })), "{missing:?}");
    let not_env = samples_dir().join("basyx-v1/basyx-java-sdk/dummySubmodel.json");
    let message = load_environment(&not_env, AssetType::SITE)
        .expect_err("a submodel is not an environment")
        .to_string();
    assert!(message.contains("assetAdministrationShells"), "{message}");
}
