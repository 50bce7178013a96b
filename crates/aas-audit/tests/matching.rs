//! Which template judges a submodel, and which template element an element is: the
//! forms of semanticIds real data carries, near misses, matching by semanticId before
//! idShort, and children required only where their parent is.

mod support;

use std::collections::BTreeSet;

use aas_audit::{audit, Audit, Kind, Languages, Options, Templates};
use serde_json::Value;
use support::*;

async fn audited(assets: Vec<aas_demo::Asset>) -> Audit {
    let crawl = crawl(assets).await;
    let options = Options {
        languages: Languages::Given(vec!["en".into(), "de".into()]),
        ..Options::default()
    };
    audit(&crawl, &Templates::builtin(), &options).expect("audit")
}

/// (kind, path, template title) of each finding of `shell`.
fn findings(audit: &Audit, shell: &str) -> BTreeSet<(Kind, String, String)> {
    (audit.findings.iter())
        .filter(|f| audit.shell(f).id_short == shell)
        .map(|f| (f.kind, f.path.to_string(), audit.template(f).title()))
        .collect()
}

fn with_semantic_id(mut sm: Value, id: &str) -> Value {
    sm["semanticId"]["keys"][0]["value"] = id.into();
    sm
}

#[tokio::test]
async fn a_submodel_is_judged_by_the_template_its_semantic_id_names_in_any_form() {
    let named = |shell: &str, make: fn(&str) -> Value, id: &str| {
        machine(shell, vec![with_semantic_id(make(shell), id)])
    };
    let audit = audited(vec![
        named(
            "exact",
            nameplate_3_0,
            "https://admin-shell.io/idta/nameplate/3/0/Nameplate",
        ),
        named(
            "with-submodel",
            nameplate_2_0,
            "https://admin-shell.io/zvei/nameplate/2/0/Nameplate/Submodel",
        ),
        named(
            "versionless",
            nameplate_2_0,
            "https://admin-shell.io/zvei/nameplate/Nameplate",
        ),
        named(
            "other-case",
            technical_data_1_2,
            "HTTPS://ADMIN-SHELL.IO/zvei/technicaldata/submodel/1/2 ",
        ),
        named(
            "other-version",
            nameplate_3_0,
            "https://admin-shell.io/idta/nameplate/3/1/Nameplate",
        ),
        named(
            "typo",
            nameplate_3_0,
            "https://admin-shell.io/idta/nameplate/3/0/Nameplat",
        ),
        named(
            "vdi-2770",
            nameplate_3_0,
            "https://admin-shell.io/vdi/2770/1/0/Documentation",
        ),
    ])
    .await;
    for shell in [
        "exact",
        "with-submodel",
        "versionless",
        "other-case",
        "vdi-2770",
    ] {
        assert_eq!(findings(&audit, shell), BTreeSet::new(), "{shell}");
    }
    let dn3 = "Digital Nameplate 3.0".to_owned();
    assert_eq!(
        findings(&audit, "other-version"),
        BTreeSet::from([(Kind::NearMiss, String::new(), dn3.clone())])
    );
    assert_eq!(
        findings(&audit, "typo"),
        BTreeSet::from([(Kind::NearMiss, String::new(), dn3)])
    );
    let seen: Vec<&str> = (audit.findings.iter())
        .filter(|f| f.kind == Kind::NearMiss)
        .map(|f| &*f.seen)
        .collect();
    assert_eq!(
        seen,
        [
            "https://admin-shell.io/idta/nameplate/3/1/Nameplate (another version of the template)",
            "https://admin-shell.io/idta/nameplate/3/0/Nameplat (a few characters off the template's)",
        ]
    );
    let counts = |title: &str| {
        let v = (audit.verdict.templates.iter())
            .find(|v| audit.templates[usize::from(v.template)].title() == title)
            .expect("a template of the verdict");
        (v.shells, v.complete, v.near_misses)
    };
    assert_eq!(counts("Digital Nameplate 3.0"), (1, 1, 2));
    assert_eq!(counts("Digital Nameplate 2.0"), (2, 2, 0));
    assert_eq!(counts("Technical Data 1.2"), (1, 1, 0));
    // Near misses are not judged: their shells, like the VDI 2770 one, carry no known
    // template.
    assert_eq!(audit.verdict.shells, 7);
    assert_eq!(audit.verdict.without_template, 3);
}

#[tokio::test]
async fn a_child_is_required_only_where_its_parent_is() {
    let no_markings = {
        let mut sm = nameplate_1_0("no-markings");
        remove(&mut sm, "Markings");
        sm
    };
    let empty_markings = {
        let mut sm = nameplate_1_0("empty-markings");
        remove(&mut sm, "Markings/Marking01");
        sm
    };
    let bare_marking = {
        let mut sm = nameplate_1_0("bare-marking");
        remove(&mut sm, "Markings/Marking01/MarkingName");
        remove(&mut sm, "Markings/Marking01/MarkingFile");
        sm
    };
    let audit = audited(vec![
        machine("no-markings", vec![no_markings]),
        machine("empty-markings", vec![empty_markings]),
        machine("bare-marking", vec![bare_marking]),
    ])
    .await;
    let dn1 = || "Digital Nameplate 1.0".to_owned();
    assert_eq!(findings(&audit, "no-markings"), BTreeSet::new());
    assert_eq!(
        findings(&audit, "empty-markings"),
        BTreeSet::from([(Kind::Missing, "Markings/Marking".into(), dn1())])
    );
    assert_eq!(
        findings(&audit, "bare-marking"),
        BTreeSet::from([
            (
                Kind::Missing,
                "Markings/Marking01/MarkingFile".into(),
                dn1()
            ),
            (
                Kind::Missing,
                "Markings/Marking01/MarkingName".into(),
                dn1()
            ),
        ])
    );
    let missing = (audit.findings.iter())
        .find(|f| f.path.as_ref() == "Markings/Marking01/MarkingFile")
        .expect("the missing file");
    assert_eq!(&*missing.template_path, "Markings/Marking/MarkingFile");
    assert_eq!(&*missing.rule, "cardinality One");
}

#[tokio::test]
async fn elements_are_matched_by_semantic_id_before_id_short_and_unreadable_ones_said() {
    let mut renamed = nameplate_3_0("renamed");
    at(&mut renamed, "ManufacturerName")["idShort"] = "Hersteller".into();
    // Named by idShort only, and an idShort in other case: still those elements.
    let mut by_name = nameplate_3_0("by-name");
    *at(&mut by_name, "OrderCodeOfManufacturer") =
        unnamed(at(&mut by_name, "OrderCodeOfManufacturer").clone());
    at(&mut by_name, "URIOfTheProduct")["idShort"] = "UriOfTheProduct".into();
    let mut unreadable = nameplate_3_0("unreadable");
    let broken = serde_json::json!({"idShort": "Broken", "modelType": {"name": "MultiLanguageProperty"}, "value": "not a list"});
    at(&mut unreadable, "Markings/Marking01")["value"]
        .as_array_mut()
        .expect("a collection")
        .push(broken);
    let audit = audited(vec![
        machine("renamed", vec![renamed]),
        machine("by-name", vec![by_name]),
        machine("unreadable", vec![unreadable]),
    ])
    .await;
    assert_eq!(findings(&audit, "renamed"), BTreeSet::new());
    assert_eq!(findings(&audit, "by-name"), BTreeSet::new());
    let found = findings(&audit, "unreadable");
    assert_eq!(
        found,
        BTreeSet::from([(
            Kind::Unreadable,
            "Markings/Marking01".into(),
            "Digital Nameplate 3.0".into()
        )])
    );
}
