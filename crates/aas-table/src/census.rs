//! The column picker's list: every element path that occurs in the plant's shells (of
//! one asset type, or all), with how many shells have it, in the order the elements
//! first occur, so a template's elements stay together.

use std::collections::HashMap;

use aas_client::{NodeLevel, NodePath};
use aas_export::{answer_text, Answers};
use aas_model::{parse_list, AssetType, Submodel};
use serde::Serialize;

use crate::build::{shells, walk, Units};
use crate::column::Column;
use crate::Result;

/// An element path a column can show.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Offered {
    pub column: Column,
    /// The semanticId of its first element.
    pub semantic_id: Option<String>,
    pub model_type: String,
    pub value_type: Option<String>,
    /// The unit its elements agree on.
    pub unit: Option<String>,
    /// How many shells have an element at this path.
    pub shells: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Census {
    /// The shells looked at.
    pub shells: usize,
    pub columns: Vec<Offered>,
}

/// The element paths of the shells of `asset_type` (all when `None`) in `answers`.
pub fn census(answers: &dyn Answers, asset_type: Option<AssetType>) -> Result<Census> {
    let shells = shells(answers, asset_type)?;
    let rows: HashMap<&str, usize> = shells
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.as_str(), i))
        .collect();
    // Per path: what it offers, its units, and the last row counted (a shell counts once).
    let mut seen: Vec<(Offered, Units, usize)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    answers.each(NodeLevel::Submodels, &mut |path, url, body| {
        let NodePath::Submodels { aas_id } = path else {
            return Ok(());
        };
        let Some(&row) = rows.get(aas_id.as_str()) else {
            return Ok(());
        };
        let Ok(submodels) = parse_list::<Submodel>(&answer_text(body, url)?) else {
            return Ok(());
        };
        for submodel in submodels.iter().filter_map(|s| s.view().ok()) {
            let mut at = vec![submodel.id_short.clone()];
            walk(&submodel.elements(), &mut at, &mut |at, element| {
                let key = at.join("/");
                let i = *index.entry(key).or_insert_with(|| {
                    let (submodel, path) = at.split_first().expect("a submodel and an element");
                    seen.push((
                        Offered {
                            column: Column::Path {
                                submodel: submodel.clone(),
                                path: path.to_vec(),
                            },
                            semantic_id: element
                                .semantic_id
                                .as_ref()
                                .and_then(|r| r.target())
                                .map(str::to_owned),
                            model_type: element.model_type.name.clone(),
                            value_type: element.value_type(),
                            unit: None,
                            shells: 0,
                        },
                        Units::default(),
                        usize::MAX,
                    ));
                    seen.len() - 1
                });
                let (offered, units, last) = &mut seen[i];
                units.add(element);
                if *last != row {
                    *last = row;
                    offered.shells += 1;
                }
                true
            });
        }
        Ok(())
    })?;
    Ok(Census {
        shells: shells.len(),
        columns: seen
            .into_iter()
            .map(|(offered, units, _)| Offered {
                unit: units.agreed(),
                ..offered
            })
            .collect(),
    })
}

/// The nameplate's key properties, in the order a default table shows them.
const KEY_PROPERTIES: [&str; 6] = [
    "ManufacturerName",
    "ManufacturerProductDesignation",
    "SerialNumber",
    "YearOfConstruction",
    "HardwareVersion",
    "FirmwareVersion",
];

impl Census {
    /// The columns a table has before the user chose any: the shell's idShort and the
    /// key properties of a nameplate (a submodel whose idShort says Nameplate), those
    /// the plant's shells have.
    pub fn default_columns(&self) -> Vec<Column> {
        let mut columns = vec![Column::Shell(crate::ShellField::IdShort)];
        for key in KEY_PROPERTIES {
            let found = self.columns.iter().find(|o| match &o.column {
                Column::Path { submodel, path } => {
                    submodel.to_ascii_lowercase().contains("nameplate") && path == &[key]
                }
                _ => false,
            });
            columns.extend(found.map(|o| o.column.clone()));
        }
        columns
    }
}
