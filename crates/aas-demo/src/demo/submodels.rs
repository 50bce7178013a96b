//! The six submodels of one demo asset. Structure and semanticIds follow the published
//! templates where one exists (ZVEI Digital Nameplate 1.0 or IDTA Digital Nameplate
//! 3.0, ZVEI Technical Data 1.2, VDI 2770 Documentation 1.0, IDTA Hierarchical
//! Structures 1.0), but for the gaps `gaps` seeds; operational data and capabilities
//! use the demo platform's own concepts. Every V2.0.1 element type occurs.

use base64::Engine;
use serde_json::Value;

use super::elements::*;
use super::gaps::{Gap, Nameplate};
use super::Subject;

const NAMEPLATE: &str = "https://admin-shell.io/zvei/nameplate/1/0/Nameplate";
const NAMEPLATE_3: &str = "https://admin-shell.io/idta/nameplate/3/0/Nameplate";
const CONTACT: &str = "https://admin-shell.io/zvei/nameplate/1/0/ContactInformations";
const MANUFACTURER_NAME: &str = "0173-1#02-AAO677#002";
const PRODUCT_DESIGNATION: &str = "0173-1#02-AAW338#001";
const TECHNICAL_DATA: &str = "https://admin-shell.io/ZVEI/TechnicalData";
const VDI_2770: &str = "https://admin-shell.io/vdi/2770/1/0";
const HIERARCHY: &str = "https://admin-shell.io/idta/HierarchicalStructures";

/// A concept of the demo platform, which publishes no template for these.
fn own(path: &str) -> String {
    format!("https://demo-platform.example/aas/semantics/{path}/1/0")
}

fn technical(name: &str) -> String {
    format!("{TECHNICAL_DATA}/{name}/1/1")
}

fn hierarchy(name: &str) -> String {
    format!("{HIERARCHY}/{name}/1/0")
}

pub(super) fn nameplate(s: &Subject) -> Value {
    match s.nameplate {
        Nameplate::Zvei1 => nameplate_zvei_1(s),
        Nameplate::Idta3 => nameplate_idta_3(s),
    }
}

/// Five elements, `ManufacturerName` first: clients and end-to-end tests rely on it.
fn nameplate_zvei_1(s: &Subject) -> Value {
    let m = s.manufacturer;
    let elements = vec![
        property("ManufacturerName", MANUFACTURER_NAME, "string", m.name),
        mlp(
            "ManufacturerProductDesignation",
            PRODUCT_DESIGNATION,
            &s.designation(),
        ),
        property(
            "SerialNumber",
            "0173-1#02-AAM556#002",
            "string",
            &s.facts.serial,
        ),
        property(
            "YearOfConstruction",
            "0173-1#02-AAP906#001",
            "int",
            s.facts.year.to_string(),
        ),
        collection(
            "Address",
            "0173-1#02-AAQ832#005",
            vec![
                property("Street", "0173-1#02-AAO128#002", "string", m.street),
                property("Zipcode", "0173-1#02-AAO129#002", "string", m.zipcode),
                property("CityTown", "0173-1#02-AAO132#002", "string", m.city),
                property("NationalCode", "0173-1#02-AAO134#002", "string", m.country),
            ],
        ),
    ];
    let elements = without(
        elements,
        "YearOfConstruction",
        s.gap == Some(Gap::NameplateElementMissing),
    );
    submodel("Nameplate", &s.sm_id("Nameplate"), NAMEPLATE, elements)
}

/// IDTA 02006-3-0, with the address of IDTA 02002 Contact Information.
fn nameplate_idta_3(s: &Subject) -> Value {
    let (m, f) = (s.manufacturer, &s.facts);
    let same = |text: &'static str| [("en", text), ("de", text)];
    let address = collection(
        "AddressInformation",
        &format!("{CONTACT}/AddressInformation"),
        vec![
            mlp("Street", "0173-1#02-AAO128#002", &same(m.street)),
            mlp("Zipcode", "0173-1#02-AAO129#002", &same(m.zipcode)),
            mlp("CityTown", "0173-1#02-AAO132#002", &same(m.city)),
            mlp("NationalCode", "0173-1#02-AAO134#002", &same(m.country)),
        ],
    );
    let marking = collection(
        "Marking01",
        "0112/2///61360_7#AAS009#001",
        vec![
            property("MarkingName", "0112/2///61987#ABA231#009", "string", "CE"),
            file(
                "MarkingFile",
                "0112/2///61987#ABO100#002",
                "image/png",
                &s.file_path("marking_ce.png"),
            ),
        ],
    );
    let uri = format!(
        "https://demo-platform.example/products/{}/{}",
        s.asset_type, s.code
    );
    let elements = vec![
        property(
            "URIOfTheProduct",
            "0112/2///61987#ABN590#002",
            "anyURI",
            uri,
        ),
        mlp(
            "ManufacturerName",
            "0112/2///61987#ABA565#009",
            &same(m.name),
        ),
        mlp(
            "ManufacturerProductDesignation",
            "0112/2///61987#ABA567#009",
            &s.designation(),
        ),
        address,
        property(
            "OrderCodeOfManufacturer",
            "0112/2///61987#ABA950#008",
            "string",
            format!("OC-{}-{}", s.code, f.year),
        ),
        property(
            "SerialNumber",
            "0112/2///61987#ABA951#009",
            "string",
            &f.serial,
        ),
        property(
            "YearOfConstruction",
            "0112/2///61987#ABP000#002",
            "string",
            f.year.to_string(),
        ),
        collection("Markings", "0112/2///61360_7#AAS006#001", vec![marking]),
    ];
    let gap = s.gap == Some(Gap::NameplateElementMissing);
    let elements = without(elements, "OrderCodeOfManufacturer", gap);
    submodel("Nameplate", &s.sm_id("Nameplate"), NAMEPLATE_3, elements)
}

pub(super) fn technical_data(s: &Subject) -> Value {
    let f = &s.facts;
    let general = vec![
        property(
            "ManufacturerName",
            MANUFACTURER_NAME,
            "string",
            s.manufacturer.name,
        ),
        mlp(
            "ManufacturerProductDesignation",
            PRODUCT_DESIGNATION,
            &s.designation(),
        ),
        property(
            "ManufacturerArticleNumber",
            "0173-1#02-AAO676#003",
            "string",
            format!("A-{}", s.code),
        ),
        property(
            "ManufacturerOrderCode",
            "0173-1#02-AAO227#002",
            "string",
            match s.gap {
                Some(Gap::OrderCodeEmpty) => String::new(),
                _ => format!("OC-{}-{}", s.code, f.year),
            },
        ),
        file(
            "ProductImage",
            &technical("ProductImage"),
            "image/png",
            &s.file_path("image.png"),
        ),
    ];
    let gap = s.gap == Some(Gap::ArticleNumberMissing);
    let general = collection(
        "GeneralInformation",
        &technical("GeneralInformation"),
        without(general, "ManufacturerArticleNumber", gap),
    );
    let weight = (f.weight_kg.as_ref()).map(|kg| {
        let weight = property("Weight", "0173-1#02-AAB713#005", "double", kg);
        with_iec61360(
            weight,
            &[("en", "Weight"), ("de", "Gewicht")],
            "kg",
            "REAL_MEASURE",
        )
    });
    let ambient = range(
        "AmbientTemperature",
        &own("TechnicalData/AmbientTemperature"),
        "double",
        &f.ambient_min.to_string(),
        &f.ambient_max.to_string(),
    );
    let properties = collection(
        "TechnicalProperties",
        &technical("TechnicalProperties"),
        weight.into_iter().chain([ambient]).collect(),
    );
    let further = collection(
        "FurtherInformation",
        &technical("FurtherInformation"),
        vec![
            mlp(
                "TextStatement01",
                &technical("TextStatement"),
                &[
                    ("en", "Values measured at 20 °C ambient temperature."),
                    ("de", "Werte gemessen bei 20 °C Umgebungstemperatur."),
                ],
            ),
            valid_date(s),
        ],
    );
    let sem = format!("{TECHNICAL_DATA}/Submodel/1/2");
    let id = s.sm_id("TechnicalData");
    submodel(
        "TechnicalData",
        &id,
        &sem,
        vec![general, properties, further],
    )
}

/// ValidDate, an `xs:date`; mistyped, a German date in a `string`.
fn valid_date(s: &Subject) -> Value {
    let date = &s.facts.valid_date;
    match s.gap {
        Some(Gap::ValidDateMistyped) => {
            let german: Vec<&str> = date.split('-').rev().collect();
            property(
                "ValidDate",
                &technical("ValidDate"),
                "string",
                german.join("."),
            )
        }
        _ => property("ValidDate", &technical("ValidDate"), "date", date),
    }
}

/// `elements` without the one named `id_short` when `gone`.
fn without(mut elements: Vec<Value>, id_short: &str, gone: bool) -> Vec<Value> {
    if gone {
        elements.retain(|e| e["idShort"] != id_short);
    }
    elements
}

pub(super) fn documentation(s: &Subject) -> Value {
    let vdi = |name: &str| format!("{VDI_2770}/{name}");
    let version = collection(
        "DocumentVersion",
        &vdi("DocumentVersion"),
        vec![
            property("Language", &vdi("DocumentVersion/Language"), "string", "en"),
            property(
                "DocumentVersionId",
                &vdi("DocumentVersion/DocumentVersionId"),
                "string",
                &s.facts.document_version,
            ),
            mlp(
                "Title",
                &vdi("DocumentDescription/Title"),
                &[("en", "Operating manual"), ("de", "Betriebsanleitung")],
            ),
            file(
                "DigitalFile",
                &vdi("StoredDocumentRepresentation/DigitalFile"),
                "application/pdf",
                &s.file_path("manual.pdf"),
            ),
        ],
    );
    let manual = collection(
        "OperatingManual",
        &vdi("Document"),
        vec![
            property(
                "DocumentId",
                &vdi("DocumentId/Id"),
                "string",
                format!("DOC-{}-OM", s.code),
            ),
            property(
                "DocumentClassId",
                &vdi("DocumentClassification/ClassId"),
                "string",
                "03-02",
            ),
            mlp(
                "DocumentClassName",
                &vdi("DocumentClassification/ClassName"),
                &[("en", "Operation"), ("de", "Bedienung")],
            ),
            property(
                "DocumentClassificationSystem",
                &vdi("DocumentClassification/ClassificationSystem"),
                "string",
                "VDI2770:2018",
            ),
            version,
        ],
    );
    let id = s.sm_id("Documentation");
    submodel("Documentation", &id, &vdi("Documentation"), vec![manual])
}

pub(super) fn operational_data(s: &Subject) -> Value {
    let f = &s.facts;
    let id = s.sm_id("OperationalData");
    let sem = |name: &str| own(&format!("OperationalData/{name}"));
    let config = format!(
        r#"{{"program":"P-{}","revision":{}}}"#,
        s.code, f.config_revision
    );
    let elements = vec![
        property(
            "OperatingHours",
            &sem("OperatingHours"),
            "int",
            f.operating_hours.to_string(),
        ),
        mlp("OperatingState", &sem("OperatingState"), &f.state),
        property(
            "CurrentTemperature",
            &sem("CurrentTemperature"),
            "double",
            &f.current_temperature,
        ),
        range(
            "TemperatureLimits",
            &sem("TemperatureLimits"),
            "double",
            &f.ambient_min.to_string(),
            &f.ambient_max.to_string(),
        ),
        basic_event(
            "OperatingStateChanged",
            &sem("OperatingStateChanged"),
            element_ref(&id, &[("MultiLanguageProperty", "OperatingState")]),
        ),
        operation(
            "RequestMaintenance",
            &sem("RequestMaintenance"),
            vec![
                property("Reason", &sem("MaintenanceReason"), "string", ""),
                property("Priority", &sem("MaintenancePriority"), "int", "1"),
            ],
            vec![property(
                "TicketId",
                &sem("MaintenanceTicketId"),
                "string",
                "",
            )],
        ),
        blob(
            "LastConfiguration",
            &sem("LastConfiguration"),
            "application/json",
            &base64::engine::general_purpose::STANDARD.encode(config),
        ),
        reference_element(
            "NameplateRef",
            &sem("NameplateRef"),
            reference(vec![key("Submodel", &s.sm_id("Nameplate"))]),
        ),
    ];
    submodel("OperationalData", &id, &sem("Submodel"), elements)
}

/// A one-level bill of material: the asset (entry node) has two parts, one linked by a
/// plain, one by an annotated `HasPart` relationship.
pub(super) fn bill_of_material(s: &Subject) -> Value {
    let id = s.sm_id("BillOfMaterial");
    let [(first_part, first_count), (second_part, second_count)] = s.parts();
    let node = |part: &str, count: u32| {
        entity(
            part,
            &hierarchy("Node"),
            None,
            vec![property(
                "BulkCount",
                &hierarchy("BulkCount"),
                "int",
                count.to_string(),
            )],
        )
    };
    let entry = [("Entity", "EntryNode")];
    let to_part = |part: &str| element_ref(&id, &[("Entity", "EntryNode"), ("Entity", part)]);
    let statements = vec![
        node(first_part, first_count),
        node(second_part, second_count),
        relationship(
            "HasPart01",
            &hierarchy("HasPart"),
            element_ref(&id, &entry),
            to_part(first_part),
        ),
        annotated_relationship(
            "HasPart02",
            &hierarchy("HasPart"),
            element_ref(&id, &entry),
            to_part(second_part),
            vec![property(
                "InstallationDate",
                &own("BillOfMaterial/InstallationDate"),
                "date",
                &s.facts.valid_date,
            )],
        ),
    ];
    let asset = reference(vec![key("Asset", &s.asset_id)]);
    let elements = vec![
        property("ArcheType", &hierarchy("ArcheType"), "string", "OneDown"),
        entity(
            "EntryNode",
            &hierarchy("EntryNode"),
            Some(asset),
            statements,
        ),
    ];
    submodel(
        "BillOfMaterial",
        &id,
        &format!("{HIERARCHY}/1/0/Submodel"),
        elements,
    )
}

pub(super) fn capabilities(s: &Subject) -> Value {
    let elements = s
        .profile
        .capabilities
        .iter()
        .map(|name| capability(name, &own(&format!("Capabilities/{name}"))))
        .collect();
    let id = s.sm_id("Capabilities");
    submodel("Capabilities", &id, &own("Capabilities/Submodel"), elements)
}
