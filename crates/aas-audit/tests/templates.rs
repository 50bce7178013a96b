//! Each built-in template against hand-made submodels, as the platform serves them (AAS
//! V2.0.1 JSON from a real demo service, crawled over loopback): one that passes, and one
//! for each kind of finding, each in a shell of its own.

mod support;

use std::collections::BTreeSet;

use aas_audit::{audit, Finding, Kind, Languages, Options, Templates};
use serde_json::Value;
use support::*;

/// One template's hand-made submodel and the places each edit of it goes.
struct Case {
    /// The template's title; also the shells' name prefix.
    template: &'static str,
    /// Makes the submodel that passes, for a shell of this name.
    make: fn(&str) -> Value,
    /// A required element: removed, it is missing.
    required: &'static str,
    /// An element allowed once, and the idShort of a twin (with its semanticId) that
    /// makes it too many.
    single: (&'static str, &'static str),
    /// A required `xs:string` Property: emptied; made a MultiLanguageProperty; declared
    /// an `int` (its value still fits both).
    property: &'static str,
    /// An element given a value not of the value type it declares, and whether that
    /// type is not the template's.
    typed: (&'static str, &'static str, &'static str, bool),
    /// A multi-language text: left with English only.
    text: &'static str,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            template: "Digital Nameplate 1.0",
            make: nameplate_1_0,
            required: "Address/CityTown",
            single: ("SerialNumber", "SerialNumber2"),
            property: "YearOfConstruction",
            typed: ("YearOfConstruction", "gYear", "20x4", true),
            text: "ManufacturerName",
        },
        Case {
            template: "Digital Nameplate 2.0",
            make: nameplate_2_0,
            required: "ContactInformation/Street",
            single: ("DateOfManufacture", "ManufacturingDate"),
            property: "URIOfTheProduct",
            typed: ("DateOfManufacture", "date", "01.03.2019", false),
            text: "ContactInformation/CityTown",
        },
        Case {
            template: "Digital Nameplate 3.0",
            make: nameplate_3_0,
            required: "Markings/Marking01/MarkingFile",
            single: ("URIOfTheProduct", "ProductURI"),
            property: "OrderCodeOfManufacturer",
            typed: ("URIOfTheProduct", "anyURI", "not a URI", false),
            text: "ManufacturerProductDesignation",
        },
        Case {
            template: "Technical Data 1.2",
            make: technical_data_1_2,
            required: "GeneralInformation/ManufacturerOrderCode",
            single: ("FurtherInformation", "MoreInformation"),
            property: "GeneralInformation/ManufacturerArticleNumber",
            typed: ("FurtherInformation/ValidDate", "date", "2024-02-30", false),
            text: "FurtherInformation/TextStatement01",
        },
        Case {
            template: "Technical Data 2.0",
            make: technical_data_2_0,
            required: "ProductClassifications/ProductClassification01/ProductClassCodedName",
            single: ("GeneralInformation/ManufacturerName", "Manufacturer"),
            property: "GeneralInformation/ManufacturerOrderCode",
            typed: ("FurtherInformation/ValidDate", "date", "31/01/2024", false),
            text: "GeneralInformation/ManufacturerProductDesignation",
        },
        Case {
            template: "Handover Documentation 1.2",
            make: handover_1_2,
            required: "Document01/DocumentVersion01/DigitalFile01/DocumentPath",
            single: ("Document01/DocumentVersion01/Title", "Title"),
            property: "Document01/DocumentId01/ValueId",
            typed: ("Document01/DocumentId01/IsPrimary", "boolean", "yes", false),
            text: "Document01/DocumentVersion01/Summary",
        },
        Case {
            template: "Handover Documentation 2.0",
            make: handover_2_0,
            required: "Documents/Document01/DocumentClassifications",
            single: (
                "Documents/Document01/DocumentVersions/DocumentVersion01/Version",
                "Version2",
            ),
            property: "Documents/Document01/DocumentVersions/DocumentVersion01/StatusValue",
            typed: (
                "Documents/Document01/DocumentVersions/DocumentVersion01/StatusSetDate",
                "date",
                "6 Feb 2020",
                false,
            ),
            text: "Documents/Document01/DocumentVersions/DocumentVersion01/Title",
        },
        Case {
            template: "Contact Information 1.0",
            make: contact_information_1_0,
            required: "ContactInformation01/Phone/TelephoneNumber",
            single: ("ContactInformation01/TimeZone", "TimeZone2"),
            property: "ContactInformation01/Email/EmailAddress",
            typed: ("ContactInformation01/TimeZone", "int", "+01:00x", true),
            text: "ContactInformation01/Street",
        },
    ]
}

/// The edits of a case, each a shell: (shell name, submodel, the findings it must give).
/// One edit of a case's submodel, in a shell of its own.
struct Variant {
    shell: String,
    submodel: Value,
    /// The findings it must give, as (kind, path).
    expected: BTreeSet<(Kind, String)>,
}

fn variants(case: &Case) -> Vec<Variant> {
    let name = |edit: &str| format!("{}-{edit}", case.template.replace(' ', "_"));
    let mut out = Vec::new();
    let mut edit = |edit: &str, change: &dyn Fn(&mut Value), expected: Vec<(Kind, &str)>| {
        let shell = name(edit);
        let mut submodel = (case.make)(&shell);
        change(&mut submodel);
        let expected = (expected.into_iter())
            .map(|(k, p)| (k, p.to_owned()))
            .collect();
        out.push(Variant {
            shell,
            submodel,
            expected,
        });
    };
    edit("passes", &|_| {}, vec![]);
    edit(
        "missing",
        &|sm| remove(sm, case.required),
        vec![(Kind::Missing, case.required)],
    );
    let (single, twin) = case.single;
    edit(
        "too_many",
        &|sm| duplicate(sm, single, twin),
        vec![(Kind::TooMany, single)],
    );
    edit(
        "wrong_model_type",
        &|sm| {
            let el = at(sm, case.property);
            el["modelType"]["name"] = "MultiLanguageProperty".into();
            el["value"] = serde_json::json!([{"language": "en", "text": "x"}, {"language": "de", "text": "x"}]);
        },
        vec![(Kind::WrongModelType, case.property)],
    );
    let (typed, declared, bad, other_type) = case.typed;
    let mut typed_findings = vec![(Kind::ValueNotOfType, typed)];
    if other_type {
        typed_findings.push((Kind::WrongValueType, typed));
    }
    edit(
        "value_not_of_type",
        &|sm| {
            let el = at(sm, typed);
            el["valueType"] = declared.into();
            el["value"] = bad.into();
        },
        typed_findings,
    );
    edit(
        "wrong_value_type",
        &|sm| {
            let el = at(sm, case.property);
            el["valueType"] = "int".into();
            el["value"] = "12".into();
        },
        vec![(Kind::WrongValueType, case.property)],
    );
    edit(
        "empty_value",
        &|sm| at(sm, case.property)["value"] = "".into(),
        vec![(Kind::EmptyValue, case.property)],
    );
    edit(
        "missing_language",
        &|sm| {
            let el = at(sm, case.text);
            el["value"] = serde_json::json!([{"language": "en", "text": "English only"}]);
        },
        vec![(Kind::MissingLanguage, case.text)],
    );
    out
}

#[tokio::test]
async fn each_template_finds_each_kind_of_gap_and_passes_a_complete_submodel() {
    let mut assets = Vec::new();
    let mut expected = Vec::new();
    for case in cases() {
        for variant in variants(&case) {
            assets.push(machine(&variant.shell, vec![variant.submodel]));
            expected.push((case.template, variant.shell, variant.expected));
        }
    }
    let crawl = crawl(assets).await;
    let options = Options {
        languages: Languages::Given(vec!["en".into(), "de".into()]),
        ..Options::default()
    };
    let audit = audit(&crawl, &Templates::builtin(), &options).expect("audit");
    for (template, shell, want) in &expected {
        let found: Vec<&Finding> = (audit.findings.iter())
            .filter(|f| audit.shell(f).id_short == *shell)
            .collect();
        let got: BTreeSet<(Kind, String)> = (found.iter())
            .map(|f| (f.kind, f.path.to_string()))
            .collect();
        assert_eq!(&got, want, "{shell}: {found:#?}");
        for f in found {
            assert_eq!(audit.template(f).title(), *template, "{shell}");
        }
    }
    // Per template: eight shells carry it; complete are those whose only finding is a
    // warning (or none): passes, wrong_value_type, missing_language.
    for v in &audit.verdict.templates {
        let title = audit.templates[usize::from(v.template)].title();
        assert_eq!((v.shells, v.complete, v.near_misses), (8, 3, 0), "{title}");
    }
    assert_eq!(audit.verdict.shells, expected.len());
    assert_eq!(audit.verdict.without_template, 0);
    assert_eq!(audit.languages, ["de", "en"]);
    assert!(audit.has_errors());
}
