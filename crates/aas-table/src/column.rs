//! What a column shows, written as users write it on the command line and as the app
//! saves column sets: `Nameplate/SerialNumber` (a submodel's idShort, then the element's
//! idShort path), `semanticId:0173-1#02-AAM556#002` (the first element of the shell
//! with that semanticId, whatever its idShort), or `shell:idShort`, `shell:id`,
//! `shell:assetType` (the shell's own fields). A colon cannot occur in an idShort, so
//! the three forms never collide.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Error;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Column {
    Shell(ShellField),
    /// An element by the idShorts from its submodel down.
    Path {
        submodel: String,
        path: Vec<String>,
    },
    /// The first element (in document order) whose semanticId's last key is this.
    SemanticId(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShellField {
    IdShort,
    Id,
    AssetType,
}

const SEMANTIC: &str = "semanticId:";
const SHELL: &str = "shell:";

impl ShellField {
    const ALL: [(ShellField, &'static str); 3] = [
        (ShellField::IdShort, "idShort"),
        (ShellField::Id, "id"),
        (ShellField::AssetType, "assetType"),
    ];

    fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(f, _)| *f == self)
            .map_or("", |(_, name)| name)
    }
}

impl Column {
    /// An element column from its path's idShorts, submodel first.
    pub fn at(submodel: &str, path: &[&str]) -> Column {
        Column::Path {
            submodel: submodel.to_owned(),
            path: path.iter().map(|s| (*s).to_owned()).collect(),
        }
    }
}

impl FromStr for Column {
    type Err = Error;

    fn from_str(text: &str) -> Result<Column, Error> {
        let refuse = |reason| Error::Column {
            text: text.to_owned(),
            reason,
        };
        if let Some(id) = text.strip_prefix(SEMANTIC) {
            return match id.trim() {
                "" => Err(refuse("names no semanticId after `semanticId:`")),
                id => Ok(Column::SemanticId(id.to_owned())),
            };
        }
        if let Some(field) = text.strip_prefix(SHELL) {
            return ShellField::ALL
                .iter()
                .find(|(_, name)| *name == field)
                .map(|(f, _)| Column::Shell(*f))
                .ok_or_else(|| {
                    refuse("is not a shell field (shell:idShort, shell:id or shell:assetType)")
                });
        }
        let mut parts = text.split('/');
        let submodel = parts.next().unwrap_or_default().to_owned();
        let path: Vec<String> = parts.map(str::to_owned).collect();
        if submodel.is_empty() || path.is_empty() || path.iter().any(String::is_empty) {
            return Err(refuse(
                "is not SUBMODEL/ELEMENT[/…] (idShorts), semanticId:ID or shell:idShort|id|assetType",
            ));
        }
        Ok(Column::Path { submodel, path })
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Column::Shell(field) => write!(f, "{SHELL}{}", field.name()),
            Column::Path { submodel, path } => write!(f, "{submodel}/{}", path.join("/")),
            Column::SemanticId(id) => write!(f, "{SEMANTIC}{id}"),
        }
    }
}

impl Serialize for Column {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Column {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Column, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_back_as_written() {
        for text in [
            "Nameplate/SerialNumber",
            "TechnicalData/GeneralInformation/ManufacturerName",
            "semanticId:0173-1#02-AAM556#002",
            "semanticId:https://admin-shell.io/x/1/0",
            "shell:idShort",
            "shell:id",
            "shell:assetType",
        ] {
            let column: Column = text.parse().expect(text);
            assert_eq!(column.to_string(), text);
        }
    }

    #[test]
    fn what_names_nothing_is_refused_with_the_forms() {
        for text in [
            "",
            "Nameplate",
            "Nameplate/",
            "/x",
            "a//b",
            "semanticId:",
            "shell:name",
        ] {
            let e = text.parse::<Column>().expect_err(text);
            assert!(e.to_string().contains(&format!("{text:?}")), "{e}");
        }
    }
}
