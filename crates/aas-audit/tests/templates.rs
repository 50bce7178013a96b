//! Each built-in template against hand-made submodels, as the platform serves them (AAS
//! V2.0.1 JSON from a real sandbox, crawled over loopback): one that passes, and one
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

fn sem_dn1(name: &str) -> String {
    format!("https://admin-shell.io/zvei/nameplate/1/0/Nameplate/{name}")
}

fn nameplate_1_0(shell: &str) -> Value {
    let address = collection(
        "Address",
        "0173-1#02-AAQ832#005",
        vec![
            mlp("Street", "0173-1#02-AAO128#002", &texts("Hafenweg 3")),
            mlp("Zipcode", "0173-1#02-AAO129#002", &texts("24103")),
            mlp("CityTown", "0173-1#02-AAO132#002", &texts("Kiel")),
            mlp("NationalCode", "0173-1#02-AAO134#002", &texts("DE")),
        ],
    );
    let marking = collection(
        "Marking01",
        &sem_dn1("Markings/Marking"),
        vec![
            property(
                "MarkingName",
                &sem_dn1("Markings/Marking/MarkingName"),
                "string",
                "CE",
            ),
            file(
                "MarkingFile",
                &sem_dn1("Markings/Marking/MarkingFile"),
                "image/png",
                "/ce.png",
            ),
        ],
    );
    let elements = vec![
        mlp(
            "ManufacturerName",
            "0173-1#02-AAO677#002",
            &texts("Nordlicht Antriebe AG"),
        ),
        mlp(
            "ManufacturerProductDesignation",
            "0173-1#02-AAW338#001",
            &texts("Servo"),
        ),
        address,
        mlp(
            "ManufacturerProductFamily",
            "0173-1#02-AAU731#001",
            &texts("Servo"),
        ),
        property("SerialNumber", "0173-1#02-AAM556#002", "string", "SN-1"),
        property(
            "YearOfConstruction",
            "0173-1#02-AAP906#001",
            "string",
            "2019",
        ),
        collection("Markings", &sem_dn1("Markings"), vec![marking]),
    ];
    let sem = "https://admin-shell.io/zvei/nameplate/1/0/Nameplate";
    submodel_of(shell, "Nameplate", sem, elements)
}

fn contact(id_short: &str) -> Value {
    let phone = collection(
        "Phone",
        "https://admin-shell.io/zvei/nameplate/1/0/ContactInformations/ContactInformation/Phone",
        vec![mlp(
            "TelephoneNumber",
            "0173-1#02-AAO136#002",
            &texts("+49 431 0"),
        )],
    );
    collection(
        id_short,
        "https://admin-shell.io/zvei/nameplate/1/0/ContactInformations/ContactInformation",
        vec![
            mlp("NationalCode", "0173-1#02-AAO134#002", &texts("DE")),
            mlp("CityTown", "0173-1#02-AAO132#002", &texts("Kiel")),
            mlp("Street", "0173-1#02-AAO128#002", &texts("Hafenweg 3")),
            mlp("Zipcode", "0173-1#02-AAO129#002", &texts("24103")),
            property("TimeZone", "https://admin-shell.io/zvei/nameplate/1/0/ContactInformations/ContactInformation/TimeZone", "string", "+01:00"),
            phone,
            collection(
                "Email",
                "0173-1#02-AAQ836#005",
                vec![property("EmailAddress", "0173-1#02-AAO198#002", "string", "info@example.com")],
            ),
        ],
    )
}

fn nameplate_2_0(shell: &str) -> Value {
    let elements = vec![
        property(
            "URIOfTheProduct",
            "0173-1#02-AAY811#001",
            "string",
            "https://example.com/p/1",
        ),
        mlp(
            "ManufacturerName",
            "0173-1#02-AAO677#002",
            &texts("Nordlicht Antriebe AG"),
        ),
        mlp(
            "ManufacturerProductDesignation",
            "0173-1#02-AAW338#001",
            &texts("Servo"),
        ),
        contact("ContactInformation"),
        property("SerialNumber", "0173-1#02-AAM556#002", "string", "SN-1"),
        property(
            "YearOfConstruction",
            "0173-1#02-AAP906#001",
            "string",
            "2019",
        ),
        property(
            "DateOfManufacture",
            "0173-1#02-AAR972#002",
            "date",
            "2019-03-01",
        ),
    ];
    let sem = "https://admin-shell.io/zvei/nameplate/2/0/Nameplate";
    submodel_of(shell, "Nameplate", sem, elements)
}

fn nameplate_3_0(shell: &str) -> Value {
    let marking = collection(
        "Marking01",
        "0112/2///61360_7#AAS009#001",
        vec![
            property("MarkingName", "0112/2///61987#ABA231#009", "string", "CE"),
            file(
                "MarkingFile",
                "0112/2///61987#ABO100#002",
                "image/png",
                "/ce.png",
            ),
        ],
    );
    let address = collection(
        "AddressInformation",
        "https://admin-shell.io/zvei/nameplate/1/0/ContactInformations/AddressInformation",
        vec![mlp("Street", "0173-1#02-AAO128#002", &texts("Hafenweg 3"))],
    );
    let elements = vec![
        property(
            "URIOfTheProduct",
            "0112/2///61987#ABN590#002",
            "anyURI",
            "https://example.com/p/1",
        ),
        mlp(
            "ManufacturerName",
            "0112/2///61987#ABA565#009",
            &texts("Nordlicht Antriebe AG"),
        ),
        mlp(
            "ManufacturerProductDesignation",
            "0112/2///61987#ABA567#009",
            &texts("Servo"),
        ),
        address,
        property(
            "OrderCodeOfManufacturer",
            "0112/2///61987#ABA950#008",
            "string",
            "OC-1",
        ),
        property(
            "DateOfManufacture",
            "0112/2///61987#ABB757#007",
            "date",
            "2019-03-01",
        ),
        collection("Markings", "0112/2///61360_7#AAS006#001", vec![marking]),
    ];
    let sem = "https://admin-shell.io/idta/nameplate/3/0/Nameplate";
    submodel_of(shell, "Nameplate", sem, elements)
}

fn td(name: &str) -> String {
    format!("https://admin-shell.io/ZVEI/TechnicalData/{name}/1/1")
}

fn technical_data_1_2(shell: &str) -> Value {
    let general = collection(
        "GeneralInformation",
        &td("GeneralInformation"),
        vec![
            property(
                "ManufacturerName",
                "0173-1#02-AAO677#002",
                "string",
                "Nordlicht",
            ),
            mlp(
                "ManufacturerProductDesignation",
                "0173-1#02-AAW338#001",
                &texts("Servo"),
            ),
            property(
                "ManufacturerArticleNumber",
                "0173-1#02-AAO676#003",
                "string",
                "A-1",
            ),
            property(
                "ManufacturerOrderCode",
                "0173-1#02-AAO227#002",
                "string",
                "OC-1",
            ),
        ],
    );
    let properties = collection(
        "TechnicalProperties",
        &td("TechnicalProperties"),
        vec![property("Weight", "0173-1#02-AAB713#005", "double", "12.5")],
    );
    // The template gives ValidDate the semanticId of ManufacturerOrderCode (a slip in
    // the published file): data that gets it right is matched by idShort.
    let further = collection(
        "FurtherInformation",
        &td("FurtherInformation"),
        vec![
            mlp(
                "TextStatement01",
                &td("TextStatement"),
                &texts("Measured at 20 °C"),
            ),
            property("ValidDate", &td("ValidDate"), "date", "2024-01-31"),
        ],
    );
    let sem = "https://admin-shell.io/ZVEI/TechnicalData/Submodel/1/2";
    submodel_of(
        shell,
        "TechnicalData",
        sem,
        vec![general, properties, further],
    )
}

fn technical_data_2_0(shell: &str) -> Value {
    let general = collection(
        "GeneralInformation",
        "0173-1#02-ABK161#002/0173-1#01-AHX838#002",
        vec![
            property(
                "ManufacturerName",
                "0173-1#02-AAO677#004",
                "string",
                "Nordlicht",
            ),
            mlp(
                "ManufacturerProductDesignation",
                "0173-1#02-AAW338#003",
                &texts("Servo"),
            ),
            property(
                "ManufacturerArticleNumber",
                "0173-1#02-AAO676#005",
                "string",
                "A-1",
            ),
            property(
                "ManufacturerOrderCode",
                "0173-1#02-AAO227#004",
                "string",
                "OC-1",
            ),
        ],
    );
    let classification = collection(
        "ProductClassification01",
        "0173-1#02-ABK162#002/0173-1#01-AHX839#002",
        vec![
            property(
                "ClassificationSystem",
                "0173-1#02-ABL424#001",
                "string",
                "ECLASS",
            ),
            property(
                "ProductClassId",
                "0173-1#02-ABG776#003",
                "string",
                "27-02-31-01",
            ),
            property(
                "ProductClassCodedName",
                "0173-1#02-ABK128#002",
                "string",
                "Servo motor",
            ),
        ],
    );
    let further = collection(
        "FurtherInformation",
        "0173-1#02-ABK164#002",
        vec![property(
            "ValidDate",
            "0173-1#02-ABL775#001",
            "date",
            "2024-01-31",
        )],
    );
    let elements = vec![
        general,
        collection(
            "ProductClassifications",
            "0173-1#02-ABK162#002",
            vec![classification],
        ),
        further,
    ];
    submodel_of(shell, "TechnicalData", "0173-1#01-AHX837#002", elements)
}

/// Handover Documentation 1.2, named by idShort only (no element semanticIds), with
/// numbered placeholders: `Document01` for `Document__00__`.
fn handover_1_2(shell: &str) -> Value {
    let id = collection(
        "DocumentId01",
        "",
        vec![
            property("DocumentDomainId", "", "string", "ACME"),
            property("ValueId", "", "string", "DOC-1"),
            property("IsPrimary", "", "boolean", "true"),
        ],
    );
    let class = collection(
        "DocumentClassification01",
        "",
        vec![
            property("ClassId", "", "string", "03-02"),
            mlp("ClassName", "", &texts("Operation")),
            property("ClassificationSystem", "", "string", "VDI2770:2018"),
        ],
    );
    let digital = collection(
        "DigitalFile01",
        "",
        vec![
            property("MimeType", "", "string", "application/pdf"),
            property("DocumentPath", "", "string", "/manual.pdf"),
        ],
    );
    let version = collection(
        "DocumentVersion01",
        "",
        vec![
            property("Language01", "", "string", "en"),
            property("DocumentVersionId", "", "string", "1.0"),
            mlp("Title", "", &texts("Operating manual")),
            mlp("Summary", "", &texts("How to operate it")),
            mlp("KeyWords", "", &texts("operation")),
            property("StatusSetDate", "", "date", "2020-02-06"),
            property("StatusValue", "", "string", "Released"),
            property("OrganizationName", "", "string", "Nordlicht"),
            property(
                "OrganizationOfficialName",
                "",
                "string",
                "Nordlicht Antriebe AG",
            ),
            digital,
        ],
    );
    let document = unnamed_tree(collection("Document01", "", vec![id, class, version]));
    submodel_of(
        shell,
        "HandoverDocumentation",
        "0173-1#01-AHF578#001",
        vec![document],
    )
}

/// An element and all below it without semanticIds.
fn unnamed_tree(element: Value) -> Value {
    let mut element = unnamed(element);
    if let Some(children) = element.get_mut("value").and_then(Value::as_array_mut) {
        for child in children.iter_mut() {
            *child = unnamed_tree(child.take());
        }
    }
    element
}

/// Handover Documentation 2.0: its lists are collections in V2 data.
fn handover_2_0(shell: &str) -> Value {
    let item = |id_short: &str, sem: &str, children| collection(id_short, sem, children);
    let ids = item(
        "DocumentIds",
        "0173-1#02-ABI501#003",
        vec![item(
            "DocumentId01",
            "0173-1#02-ABI501#003/0173-1#01-AHF580#003",
            vec![
                property("DocumentDomainId", "0173-1#02-ABH994#003", "string", "ACME"),
                property(
                    "DocumentIdentifier",
                    "0173-1#02-AAO099#004",
                    "string",
                    "DOC-1",
                ),
            ],
        )],
    );
    let classes = item(
        "DocumentClassifications",
        "0173-1#02-ABI502#003",
        vec![item(
            "DocumentClassification01",
            "0173-1#02-ABI502#003/0173-1#01-AHF581#003",
            vec![
                property("ClassId", "0173-1#02-ABH996#003", "string", "03-02"),
                mlp("ClassName", "0173-1#02-ABJ219#002", &texts("Operation")),
                property(
                    "ClassificationSystem",
                    "0173-1#02-ABH997#003",
                    "string",
                    "VDI2770:2020",
                ),
            ],
        )],
    );
    let version = item(
        "DocumentVersion01",
        "0173-1#02-ABI503#003/0173-1#01-AHF582#003",
        vec![
            item(
                "Language",
                "0173-1#02-AAN468#008",
                vec![property(
                    "Language01",
                    "0173-1#02-AAN468#008",
                    "string",
                    "en",
                )],
            ),
            property("Version", "0173-1#02-AAP003#005", "string", "1.0"),
            mlp("Title", "0173-1#02-ABG940#003", &texts("Operating manual")),
            mlp(
                "Description",
                "0173-1#02-AAN466#004",
                &texts("How to operate it"),
            ),
            property(
                "StatusSetDate",
                "0173-1#02-ABI000#003",
                "date",
                "2020-02-06",
            ),
            property("StatusValue", "0173-1#02-ABI001#003", "string", "Released"),
            property(
                "OrganizationShortName",
                "https://api.eclass-cdp.com/0173-1-02-ABI002-003",
                "string",
                "Nordlicht",
            ),
            property(
                "OrganizationOfficialName",
                "0173-1#02-ABI004#003",
                "string",
                "Nordlicht Antriebe AG",
            ),
            item(
                "DigitalFiles",
                "0173-1#02-ABK126#002",
                vec![file(
                    "DigitalFile01",
                    "0173-1#02-ABK126#002",
                    "application/pdf",
                    "/manual.pdf",
                )],
            ),
        ],
    );
    let versions = item("DocumentVersions", "0173-1#02-ABI503#003", vec![version]);
    let document = item(
        "Document01",
        "0173-1#02-ABI500#003/0173-1#01-AHF579#003",
        vec![ids, classes, versions],
    );
    let documents = item("Documents", "0173-1#02-ABI500#003", vec![document]);
    submodel_of(
        shell,
        "HandoverDocumentation",
        "0173-1#01-AHF578#003",
        vec![documents],
    )
}

fn contact_information_1_0(shell: &str) -> Value {
    let sem = "https://admin-shell.io/zvei/nameplate/1/0/ContactInformations";
    submodel_of(
        shell,
        "ContactInformation",
        sem,
        vec![contact("ContactInformation01")],
    )
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
