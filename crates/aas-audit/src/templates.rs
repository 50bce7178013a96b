//! The templates an audit judges by: the built-in ones (derived from the published
//! IDTA files, `templates/*.json`) and a user's own.

use std::path::Path;

use crate::template::MAX_TEMPLATE_BYTES;
use crate::{Error, Result, Template};

/// The built-in templates' files, as `scripts/derive-templates.py` writes them.
const BUILTIN: [(&str, &str); 8] = [
    (
        "digital-nameplate-1.0.json",
        include_str!("../templates/digital-nameplate-1.0.json"),
    ),
    (
        "digital-nameplate-2.0.json",
        include_str!("../templates/digital-nameplate-2.0.json"),
    ),
    (
        "digital-nameplate-3.0.json",
        include_str!("../templates/digital-nameplate-3.0.json"),
    ),
    (
        "technical-data-1.2.json",
        include_str!("../templates/technical-data-1.2.json"),
    ),
    (
        "technical-data-2.0.json",
        include_str!("../templates/technical-data-2.0.json"),
    ),
    (
        "handover-documentation-1.2.json",
        include_str!("../templates/handover-documentation-1.2.json"),
    ),
    (
        "handover-documentation-2.0.json",
        include_str!("../templates/handover-documentation-2.0.json"),
    ),
    (
        "contact-information-1.0.json",
        include_str!("../templates/contact-information-1.0.json"),
    ),
];

/// What the templates call a concept ([`Templates::concept_name`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ConceptName {
    /// The idShort the first template publishes for it (a submodel's: its name).
    pub name: String,
    /// Each template that names it, by title.
    pub templates: Vec<String>,
}

/// The idShort `nodes` (or their children) publish for the normalised `semantic_id`.
fn named<'n>(nodes: &'n [crate::template::Node], semantic_id: &str) -> Option<&'n str> {
    nodes.iter().find_map(|node| {
        let here = node.semantic_id.as_deref() == Some(semantic_id) && !node.label.starts_with('[');
        if here {
            Some(node.label.as_str())
        } else {
            named(&node.elements, semantic_id)
        }
    })
}

/// A set of templates, at most one per name and version.
#[derive(Debug, Clone, Default)]
pub struct Templates {
    list: Vec<Template>,
}

impl Templates {
    /// No templates.
    pub fn new() -> Self {
        Templates::default()
    }

    /// The built-in templates.
    pub fn builtin() -> Self {
        let mut templates = Templates::new();
        for (file, text) in BUILTIN {
            let template = Template::parse(text, &format!("built in: {file}"))
                .expect("a built-in template reads (every_builtin_template_reads)");
            templates.add(template);
        }
        templates
    }

    /// Adds `template`; one of the same name and version is replaced (a user's own file
    /// wins over the built-in one).
    pub fn add(&mut self, template: Template) -> &Template {
        let same = |t: &Template| {
            t.name.eq_ignore_ascii_case(&template.name) && t.version == template.version
        };
        let at = match self.list.iter().position(same) {
            Some(at) => {
                self.list[at] = template;
                at
            }
            None => {
                self.list.push(template);
                self.list.len() - 1
            }
        };
        &self.list[at]
    }

    /// Adds the template in a file: a regular file of at most [`MAX_TEMPLATE_BYTES`]
    /// (a FIFO would hang the audit, `/dev/zero` or a huge file fill memory).
    pub fn add_file(&mut self, path: &Path) -> Result<&Template> {
        let text =
            aas_model::read_small_text(path, MAX_TEMPLATE_BYTES).map_err(|e| Error::Template {
                path: path.to_owned(),
                message: e.to_string(),
            })?;
        let template = Template::parse(&text, &path.display().to_string())?;
        Ok(self.add(template))
    }

    /// Adds every `*.json` file of a folder (not its subfolders), in name order; how
    /// many. A folder that does not exist holds none.
    pub fn add_folder(&mut self, dir: &Path) -> Result<usize> {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => {
                return Err(Error::Template {
                    path: dir.to_owned(),
                    message: e.to_string(),
                })
            }
        };
        let mut files: Vec<_> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for file in &files {
            self.add_file(file)?;
        }
        Ok(files.len())
    }

    pub fn iter(&self) -> impl Iterator<Item = &Template> {
        self.list.iter()
    }

    /// What the templates call the concept `semantic_id` (an element's, compared as the
    /// audit compares them): the idShort they publish for it, and the templates that do
    /// (`Digital Nameplate 2.0`); a submodel's, the template's name. `None` when no
    /// template names it.
    pub fn concept_name(&self, semantic_id: &str) -> Option<ConceptName> {
        let wanted = crate::semantic::normalise(semantic_id);
        let mut found: Option<ConceptName> = None;
        for template in &self.list {
            let name = if template
                .semantic_ids
                .iter()
                .any(|id| crate::semantic::normalise(id) == wanted)
            {
                Some(template.name.clone())
            } else {
                named(&template.elements, &wanted).map(str::to_owned)
            };
            let Some(name) = name else { continue };
            let named_by = found.get_or_insert_with(|| ConceptName {
                name,
                templates: Vec::new(),
            });
            named_by.templates.push(template.title());
        }
        found
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The templates `names` select, in their order here: each a name (every version:
    /// `Digital Nameplate`) or a name and version (`Digital Nameplate 3.0`), in any
    /// case; none selects all. A name that selects nothing is an error.
    pub(crate) fn select(&self, names: &[String]) -> Result<Vec<Template>> {
        if names.is_empty() {
            return Ok(self.list.clone());
        }
        let names: Vec<&str> = names.iter().map(|n| n.trim()).collect();
        let named = |t: &Template, name: &str| {
            t.name.eq_ignore_ascii_case(name) || t.title().eq_ignore_ascii_case(name)
        };
        if let Some(unknown) = names
            .iter()
            .find(|n| !self.list.iter().any(|t| named(t, n)))
        {
            let known: Vec<String> = self.list.iter().map(Template::title).collect();
            return Err(Error::UnknownTemplate {
                name: (*unknown).to_owned(),
                known: known.join(", "),
            });
        }
        Ok((self.list.iter())
            .filter(|t| names.iter().any(|n| named(t, n)))
            .cloned()
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_concept_is_named_as_the_templates_publish_it() {
        let all = Templates::builtin();
        let maker = all
            .concept_name(" 0173-1#02-AAO677#002 ")
            .expect("the nameplates name it");
        assert_eq!(maker.name, "ManufacturerName");
        assert!(
            maker
                .templates
                .contains(&"Digital Nameplate 2.0".to_owned()),
            "{maker:?}"
        );
        let nameplate = all
            .concept_name("https://admin-shell.io/zvei/nameplate/2/0/Nameplate/")
            .expect("a submodel's");
        assert_eq!(nameplate.name, "Digital Nameplate");
        assert_eq!(all.concept_name("0173-1#02-NOTHING#001"), None);
    }

    #[test]
    fn every_builtin_template_reads() {
        for (file, text) in BUILTIN {
            let t = Template::parse(text, file).expect("a built-in template reads");
            assert!(!t.elements.is_empty(), "{file}");
            let source = t.source.expect("a built-in template names its source");
            assert_eq!(source.commit.len(), 40, "{file}");
        }
        let titles: Vec<String> = Templates::builtin().iter().map(Template::title).collect();
        assert_eq!(
            titles,
            [
                "Digital Nameplate 1.0",
                "Digital Nameplate 2.0",
                "Digital Nameplate 3.0",
                "Technical Data 1.2",
                "Technical Data 2.0",
                "Handover Documentation 1.2",
                "Handover Documentation 2.0",
                "Contact Information 1.0"
            ]
        );
    }

    #[test]
    fn a_name_selects_every_version_and_a_title_one() {
        let all = Templates::builtin();
        let titles = |name: &str| -> Vec<String> {
            let chosen = all.select(&[name.to_owned()]).expect("known");
            chosen.iter().map(Template::title).collect()
        };
        assert_eq!(
            titles("digital nameplate"),
            [
                "Digital Nameplate 1.0",
                "Digital Nameplate 2.0",
                "Digital Nameplate 3.0"
            ]
        );
        assert_eq!(titles("Technical Data 2.0"), ["Technical Data 2.0"]);
        let err = (all.select(&["Nameplate".to_owned()])).expect_err("no such template");
        assert!(err.to_string().contains("Contact Information 1.0"), "{err}");
        assert_eq!(all.select(&[]).expect("all").len(), 8);
    }

    /// Cardinality in the order the published files name it: `Multiplicity` (ZVEI
    /// Nameplate 1.0; Contact Information, as a ConceptQualifier), `Cardinality`
    /// (Technical Data 1.2), `SMT/Cardinality` (Nameplate 3.0).
    #[test]
    fn cardinalities_come_from_every_qualifier_name() {
        let all = Templates::builtin();
        let cardinality = |title: &str, path: &[&str]| {
            let template = all.iter().find(|t| t.title() == title).expect("built in");
            let mut rules = &template.elements;
            let mut found = None;
            for name in path {
                let rule = (rules.iter())
                    .find(|r| r.label == *name)
                    .unwrap_or_else(|| panic!("{title}: {name}"));
                found = Some(rule.cardinality);
                rules = &rule.elements;
            }
            found.expect("a path")
        };
        use crate::Cardinality::*;
        assert_eq!(cardinality("Digital Nameplate 1.0", &["Address"]), One);
        assert_eq!(
            cardinality("Digital Nameplate 1.0", &["SerialNumber"]),
            ZeroToOne
        );
        let contact = ["ContactInformation", "Phone"];
        assert_eq!(
            cardinality("Contact Information 1.0", &contact[..1]),
            OneToMany
        );
        assert_eq!(cardinality("Contact Information 1.0", &contact), ZeroToOne);
        let general = ["GeneralInformation", "ProductImage"];
        assert_eq!(cardinality("Technical Data 1.2", &general[..1]), One);
        assert_eq!(cardinality("Technical Data 1.2", &general), ZeroToMany);
        assert_eq!(
            cardinality("Digital Nameplate 3.0", &["ManufacturerName"]),
            One
        );
        // No qualifier at all: no bound (the published Marking of Nameplate 2.0).
        let marking = ["Markings", "Marking"];
        assert_eq!(cardinality("Digital Nameplate 2.0", &marking), ZeroToMany);
    }

    #[test]
    fn a_users_files_are_added_and_replace_a_builtin_of_the_same_name_and_version() {
        let dir = tempfile::tempdir().expect("temp dir");
        let own = r#"{"format": "aas-audit-template/1", "name": "Digital nameplate",
            "version": "3.0", "semantic_ids": ["urn:own:nameplate"],
            "elements": [{"id_short": "Owner", "model_type": "Property",
                          "value_type": "string", "cardinality": "One"}]}"#;
        let plant = own
            .replace("Digital nameplate", "Plant Sheet")
            .replace("urn:own:nameplate", "urn:own:sheet");
        std::fs::write(dir.path().join("b.json"), own).expect("write");
        std::fs::write(dir.path().join("a.json"), plant).expect("write");
        std::fs::write(dir.path().join("notes.txt"), "not a template").expect("write");
        let mut all = Templates::builtin();
        assert_eq!(all.add_folder(dir.path()).expect("read"), 2);
        assert_eq!(all.len(), 9);
        let mine = all
            .iter()
            .find(|t| t.title() == "Digital nameplate 3.0")
            .expect("mine");
        assert_eq!(mine.semantic_ids, ["urn:own:nameplate"]);
        assert_eq!(mine.elements[0].value_type, Some("xs:string"));
        assert!(mine.origin.ends_with("b.json"), "{}", mine.origin);
        assert!(all.iter().all(|t| t.title() != "Digital Nameplate 3.0"));
        let none = dir.path().join("absent");
        assert_eq!(all.add_folder(&none).expect("no folder, no templates"), 0);
    }

    #[test]
    fn a_file_that_is_no_template_is_refused_with_its_name_and_why() {
        let dir = tempfile::tempdir().expect("temp dir");
        for (name, text, why) in [
            ("syntax.json", "{", "EOF"),
            (
                "format.json",
                r#"{"format": "x", "name": "n", "version": "1", "semantic_ids": ["a"], "elements": []}"#,
                "format \"x\"",
            ),
            (
                "ids.json",
                r#"{"format": "aas-audit-template/1", "name": "n", "version": "1", "semantic_ids": [], "elements": []}"#,
                "no semantic_ids",
            ),
            (
                "type.json",
                r#"{"format": "aas-audit-template/1", "name": "n", "version": "1", "semantic_ids": ["a"], "elements": [{"id_short": "A", "model_type": "Property", "value_type": "xs:text"}]}"#,
                "/A: \"xs:text\" is no XSD value type",
            ),
            (
                "typo.json",
                r#"{"format": "aas-audit-template/1", "name": "n", "version": "1", "semantic_ids": ["a"], "elements": [{"id_short": "A", "model_type": "Property", "cardinalty": "One"}]}"#,
                "unknown field `cardinalty`",
            ),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, text).expect("write");
            let err = Templates::new()
                .add_file(&path)
                .expect_err(name)
                .to_string();
            assert!(err.contains(name) && err.contains(why), "{err}");
        }
    }
}
