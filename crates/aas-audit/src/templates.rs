//! The templates an audit judges by: the built-in ones (derived from the published
//! IDTA files, `templates/*.json`) and a user's own.

use std::path::Path;

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

    /// Adds the template in a file.
    pub fn add_file(&mut self, path: &Path) -> Result<&Template> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::Template {
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

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The templates `name` selects: a name (every version: `Digital Nameplate`) or a
    /// name and version (`Digital Nameplate 3.0`), in any case; `None` selects all.
    pub(crate) fn select(&self, name: Option<&str>) -> Result<Vec<Template>> {
        let Some(name) = name.map(str::trim) else {
            return Ok(self.list.clone());
        };
        let chosen: Vec<Template> = (self.list.iter())
            .filter(|t| t.name.eq_ignore_ascii_case(name) || t.title().eq_ignore_ascii_case(name))
            .cloned()
            .collect();
        if chosen.is_empty() {
            let known: Vec<String> = self.list.iter().map(Template::title).collect();
            return Err(Error::UnknownTemplate {
                name: name.to_owned(),
                known: known.join(", "),
            });
        }
        Ok(chosen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let titles = |name| -> Vec<String> {
            let chosen = all.select(Some(name)).expect("known");
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
        let err = all.select(Some("Nameplate")).expect_err("no such template");
        assert!(err.to_string().contains("Contact Information 1.0"), "{err}");
        assert_eq!(all.select(None).expect("all").len(), 8);
    }
}
