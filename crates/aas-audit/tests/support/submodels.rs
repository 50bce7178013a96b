//! Hand-made submodels of each built-in template, complete (every required element,
//! some optional ones), as a platform serves them: AAS V2.0.1 JSON, texts in English
//! and German. Each takes the name of the shell it is for (ids are per shell).

use serde_json::Value;

use super::*;

fn sem_dn1(name: &str) -> String {
    format!("https://admin-shell.io/zvei/nameplate/1/0/Nameplate/{name}")
}

pub fn nameplate_1_0(shell: &str) -> Value {
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

pub fn nameplate_2_0(shell: &str) -> Value {
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

pub fn nameplate_3_0(shell: &str) -> Value {
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

pub fn technical_data_1_2(shell: &str) -> Value {
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

pub fn technical_data_2_0(shell: &str) -> Value {
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
pub fn handover_1_2(shell: &str) -> Value {
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
pub fn handover_2_0(shell: &str) -> Value {
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

pub fn contact_information_1_0(shell: &str) -> Value {
    let sem = "https://admin-shell.io/zvei/nameplate/1/0/ContactInformations";
    submodel_of(
        shell,
        "ContactInformation",
        sem,
        vec![contact("ContactInformation01")],
    )
}
