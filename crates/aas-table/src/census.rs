//! The column picker's list: every element path that occurs in the plant's shells (of
//! one asset type, or all), with how many shells have it, in the order the elements
//! first occur, so a template's elements stay together.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use aas_source::Source;
use serde::Serialize;

use crate::build::{walk, Shell, Units};
use crate::column::Column;
use crate::each_shell::{each_shell, RowAnswer};
use crate::outline::{Outline, Outlines};
use crate::submodels::{self, SubmodelElements};
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

/// The element paths of `shells` (as [`crate::listed`] reads them) in `answers`, and
/// where each shell's submodels lie in its answer (for the builds after it).
pub fn census(answers: &dyn Source, shells: &[Shell]) -> Result<(Census, Outlines)> {
    let rows: HashMap<&str, usize> = shells
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.as_str(), i))
        .collect();
    let work = |batch: &[RowAnswer]| {
        let mut paths = Paths::default();
        for answer in batch {
            paths.count(answer.row, &answer.json);
        }
        paths
    };
    let mut paths = Paths::default();
    let mut outlines = Outlines::new(shells.len());
    each_shell(answers, &rows, &work, &mut |mut batch| {
        for (row, outline) in std::mem::take(&mut batch.outlines) {
            outlines.set(row, outline);
        }
        paths.merge(batch);
    })?;
    let census = Census {
        shells: shells.len(),
        columns: (paths.seen.into_iter())
            .map(|path| Offered {
                unit: path.units.agreed(),
                ..path.offered
            })
            .collect(),
    };
    Ok((census, outlines))
}

/// The paths seen in some shells, in the order they first occur, and those shells'
/// outlines.
#[derive(Default)]
struct Paths {
    seen: Vec<Path>,
    index: HashMap<String, usize>,
    outlines: Vec<(usize, Outline)>,
    /// The submodels' idShorts, each kept once for these outlines.
    names: HashSet<Arc<str>>,
}

/// A path (`Submodel/a/b`), what its first element offers, its units, and the first and
/// last row counted (a shell counts once).
struct Path {
    key: String,
    offered: Offered,
    units: Units,
    first_row: usize,
    last_row: usize,
}

impl Paths {
    /// Counts the paths of the elements in one row's submodels answer.
    fn count(&mut self, row: usize, json: &str) {
        let Some(submodels) = submodels::read(json) else {
            return;
        };
        if let Some(outline) = Outline::of(json, &submodels, &mut self.names) {
            self.outlines.push((row, outline));
        }
        for SubmodelElements { id_short, elements } in submodels {
            let Some(id_short) = id_short else {
                continue;
            };
            let mut at = vec![id_short.into_owned()];
            let elements = &mut elements.iter().map(|raw| raw.get());
            walk(elements, &mut at, &|_| true, &mut |at, element| {
                let key = at.join("/");
                // Most paths were seen before: the key is copied only for a new one.
                let known = self.index.get(&key).copied();
                let i = known.unwrap_or_else(|| {
                    self.index.insert(key.clone(), self.seen.len());
                    let (submodel, path) = at.split_first().expect("a submodel and an element");
                    self.seen.push(Path {
                        key,
                        offered: Offered {
                            column: Column::Path {
                                submodel: submodel.clone(),
                                path: path.to_vec(),
                            },
                            semantic_id: (element.semantic_id.as_ref())
                                .and_then(|r| r.target())
                                .map(str::to_owned),
                            model_type: element.model_type.name.clone(),
                            value_type: element.value_type(),
                            unit: None,
                            shells: 1,
                        },
                        units: Units::default(),
                        first_row: row,
                        last_row: row,
                    });
                    self.seen.len() - 1
                });
                let path = &mut self.seen[i];
                path.units.add(element.unit());
                if path.last_row != row {
                    path.last_row = row;
                    path.offered.shells += 1;
                }
                true
            });
        }
    }

    /// Adds the paths `then` saw after these.
    fn merge(&mut self, then: Paths) {
        for path in then.seen {
            match self.index.get(&path.key) {
                Some(&i) => {
                    let seen = &mut self.seen[i];
                    seen.units.merge(path.units);
                    let again = usize::from(seen.last_row == path.first_row);
                    seen.offered.shells += path.offered.shells - again;
                    seen.last_row = path.last_row;
                }
                None => {
                    self.index.insert(path.key.clone(), self.seen.len());
                    self.seen.push(path);
                }
            }
        }
    }
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
