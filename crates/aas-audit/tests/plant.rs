//! A plant's audit as a whole: the languages read from the data, the options, progress
//! and cancelling, the findings written as CSV and JSON, and the built-in demo plant.

mod support;

use std::sync::Arc;

use aas_audit::{audit, audit_with_progress, Error, Kind, Languages, Options, Templates};
use aas_client::{Client, Connection, CrawlPlan};
use aas_demo::{Config, DemoService, DEMO_PLANT};
use aas_model::AssetType;
use support::*;
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn the_plants_languages_are_read_from_its_texts() {
    let mut english_only = nameplate_3_0("english-only");
    at(&mut english_only, "ManufacturerName")["value"] =
        serde_json::json!([{"language": "en-GB", "text": "Nordlicht"}]);
    let crawl = crawl(vec![
        machine("a", vec![nameplate_3_0("a")]),
        machine("b", vec![nameplate_3_0("b")]),
        machine("english-only", vec![english_only]),
    ])
    .await;
    let audit = audit(&crawl, &Templates::builtin(), &Options::default()).expect("audit");
    assert_eq!(audit.languages, ["de", "en"]);
    let found: Vec<(&str, &str, &str)> = (audit.findings.iter())
        .map(|f| (audit.shell(f).id_short.as_str(), &*f.path, &*f.seen))
        .collect();
    assert_eq!(
        found,
        [("english-only", "ManufacturerName", "has en; lacks de")]
    );
    assert_eq!(audit.findings[0].kind, Kind::MissingLanguage);
    assert!(!audit.has_errors(), "a missing language is a warning");
}

#[tokio::test]
async fn options_choose_the_asset_type_and_the_templates() {
    let mut nameplate = nameplate_3_0("m");
    remove(&mut nameplate, "OrderCodeOfManufacturer");
    let mut technical = technical_data_2_0("t");
    remove(&mut technical, "GeneralInformation");
    let crawl = crawl(vec![
        machine("m", vec![nameplate]),
        asset(AssetType::TOOL, "t", vec![technical]),
    ])
    .await;
    let templates = Templates::builtin();
    let tools = Options {
        asset_type: Some(AssetType::TOOL),
        ..Options::default()
    };
    let audit_of_tools = audit(&crawl, &templates, &tools).expect("audit");
    assert_eq!(audit_of_tools.shells.len(), 1);
    assert_eq!(audit_of_tools.shells[0].asset_type, Some(AssetType::TOOL));
    let paths: Vec<&str> = audit_of_tools.findings.iter().map(|f| &*f.path).collect();
    assert_eq!(paths, ["GeneralInformation"]);

    let nameplates = Options {
        templates: vec!["digital nameplate".into()],
        ..Options::default()
    };
    let audit_of_nameplates = audit(&crawl, &templates, &nameplates).expect("audit");
    let titles: Vec<String> = audit_of_nameplates
        .templates
        .iter()
        .map(|t| t.title())
        .collect();
    assert_eq!(
        titles,
        [
            "Digital Nameplate 1.0",
            "Digital Nameplate 2.0",
            "Digital Nameplate 3.0"
        ]
    );
    let paths: Vec<&str> = audit_of_nameplates
        .findings
        .iter()
        .map(|f| &*f.path)
        .collect();
    assert_eq!(paths, ["OrderCodeOfManufacturer"]);
    assert_eq!(audit_of_nameplates.verdict.without_template, 1, "the tool");

    let two = Options {
        templates: vec!["Technical Data 2.0".into(), "digital nameplate 3.0".into()],
        ..Options::default()
    };
    let audit_of_two = audit(&crawl, &templates, &two).expect("audit");
    let titles: Vec<String> = audit_of_two.templates.iter().map(|t| t.title()).collect();
    assert_eq!(titles, ["Digital Nameplate 3.0", "Technical Data 2.0"]);
    assert_eq!(audit_of_two.findings.len(), 2, "both gaps");

    let unknown = Options {
        templates: vec!["Digital Nameplate 3.0".into(), "Battery Passport".into()],
        ..Options::default()
    };
    let err = audit(&crawl, &templates, &unknown).expect_err("no such template");
    assert!(matches!(err, Error::UnknownTemplate { .. }), "{err}");
}

#[tokio::test]
async fn progress_is_told_per_shell_and_stops_the_audit_when_asked() {
    let crawl = crawl(vec![
        machine("a", vec![nameplate_3_0("a")]),
        machine("b", vec![nameplate_3_0("b")]),
        machine("c", vec![nameplate_3_0("c")]),
    ])
    .await;
    let (templates, options) = (Templates::builtin(), Options::default());
    let mut seen = Vec::new();
    audit_with_progress(&crawl, &templates, &options, &mut |p| {
        seen.push((p.shells_done, p.shells));
        true
    })
    .expect("audit");
    assert_eq!(seen, [(1, 3), (2, 3), (3, 3)]);
    let stopped = audit_with_progress(&crawl, &templates, &options, &mut |p| p.shells_done < 2);
    assert!(matches!(stopped, Err(Error::Cancelled)), "{stopped:?}");
}

#[tokio::test]
async fn findings_are_written_as_csv_and_json() {
    let mut sm = nameplate_3_0("shell-1");
    at(&mut sm, "OrderCodeOfManufacturer")["value"] = "".into();
    at(&mut sm, "DateOfManufacture")["value"] = "=1+1".into();
    let crawl = crawl(vec![machine("shell-1", vec![sm])]).await;
    let audit = audit(&crawl, &Templates::builtin(), &Options::default()).expect("audit");

    let mut csv = Vec::new();
    audit.write_csv(&mut csv).expect("csv");
    let csv = String::from_utf8(csv).expect("utf-8");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "shell_id,shell_id_short,asset_type,submodel,path,template,template_version,template_path,kind,severity,rule,seen"
    );
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(
        lines.contains(&"urn:test:AUDIT-01:aas:machine#shell-1,shell-1,machine,Nameplate,OrderCodeOfManufacturer,Digital Nameplate,3.0,OrderCodeOfManufacturer,empty_value,error,\"cardinality One, with a value\",empty"),
        "{csv}"
    );
    assert!(
        csv.contains("value_not_of_type,error,value type xs:date,\"\"\"=1+1\"\"\""),
        "{csv}"
    );

    let mut json = Vec::new();
    audit.write_json(None, &mut json).expect("json");
    let json: serde_json::Value = serde_json::from_slice(&json).expect("JSON");
    assert_eq!(json["format"], "aas-audit/1");
    assert_eq!(json["partial"], false);
    assert_eq!(json["languages"], serde_json::json!(["de", "en"]));
    assert_eq!(json["templates"].as_array().map(Vec::len), Some(8));
    assert_eq!(
        json["templates"][2]["source"]["path"],
        "published/Digital nameplate/3/0/1/IDTA 02006-3-0-1_Template_Digital Nameplate.json"
    );
    let dn3 = &json["verdict"]["templates"][2];
    assert_eq!(
        (
            &dn3["name"],
            &dn3["version"],
            &dn3["shells"],
            &dn3["complete"]
        ),
        (
            &"Digital Nameplate".into(),
            &"3.0".into(),
            &1.into(),
            &0.into()
        )
    );
    let group = &json["verdict"]["groups"][0];
    assert_eq!((&group["count"], &group["shells"]), (&1.into(), &1.into()));
    let findings = json["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 2);
    assert_eq!(findings[0]["shell_id_short"], "shell-1");
    assert_eq!(findings[0]["severity"], "error");
}

/// The built-in demo plant, crawled from a demo service like the app's demo profile.
#[tokio::test]
async fn the_demo_plant_is_audited_through_a_crawl() {
    let demo_service = DemoService::start(Config::default())
        .await
        .expect("demo-service");
    let line = serde_json::to_string(demo_service.info()).expect("start-up line");
    let connection: Connection = serde_json::from_str(&line).expect("connection");
    let client = Arc::new(Client::new(connection).expect("client"));
    let plan = CrawlPlan::new(DEMO_PLANT, AssetType::PLATFORM.to_vec());
    let crawl = client.crawl(&plan, &CancellationToken::new(), |_| {}).await;
    let options = Options {
        languages: Languages::Given(vec!["en".into(), "de".into()]),
        ..Options::default()
    };
    let audit = audit(&crawl, &Templates::builtin(), &options).expect("audit");
    // The demo customer does not share its people: 21 of the 24 assets.
    assert_eq!(audit.verdict.shells, 21);
    assert_eq!(audit.verdict.without_template, 0);
    let verdict = |title: &str| {
        let v = (audit.verdict.templates.iter())
            .find(|v| audit.templates[usize::from(v.template)].title() == title)
            .expect("in the verdict");
        (v.shells, v.complete)
    };
    // Two in three nameplates follow ZVEI 1.0 as V2 servers often write it (texts as
    // Properties where the template wants MultiLanguageProperties): none complete. The
    // third ones follow IDTA 3.0; one lacks its order code.
    assert_eq!(verdict("Digital Nameplate 1.0"), (14, 0));
    assert_eq!(verdict("Digital Nameplate 3.0"), (7, 6));
    // Technical data: five shells with a seeded gap.
    assert_eq!(verdict("Technical Data 1.2"), (21, 16));
    let gaps: Vec<(&str, &str, Kind)> = (audit.findings.iter())
        .filter(|f| !audit.template(f).title().ends_with("1.0"))
        .map(|f| (audit.shell(f).id_short.as_str(), &*f.path, f.kind))
        .collect();
    assert_eq!(
        gaps,
        [
            (
                "Company_C0003",
                "GeneralInformation/ManufacturerArticleNumber",
                Kind::Missing
            ),
            (
                "Component_C0003",
                "FurtherInformation/ValidDate",
                Kind::ValueNotOfType
            ),
            (
                "Component_C0003",
                "FurtherInformation/ValidDate",
                Kind::WrongValueType
            ),
            ("Machine_M0003", "OrderCodeOfManufacturer", Kind::Missing),
            (
                "Material_M0002",
                "GeneralInformation/ManufacturerOrderCode",
                Kind::EmptyValue
            ),
            (
                "Product_P0003",
                "GeneralInformation/ManufacturerOrderCode",
                Kind::EmptyValue
            ),
            (
                "Site_S0002",
                "GeneralInformation/ManufacturerArticleNumber",
                Kind::Missing
            ),
        ]
    );
    let top = &audit.verdict.groups[0];
    assert_eq!((top.count, top.shells.len()), (14, 14));
    assert!(audit.has_errors());
}
