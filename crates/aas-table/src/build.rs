//! Building a table: the shells of the AAS lists are its rows, in the lists' order;
//! each shell's submodels answer fills its cells. One answer is read at a time, and a
//! shell whose answer cannot be read keeps missing cells (and is counted) instead of
//! failing the table.

use std::collections::{HashMap, HashSet};

use aas_client::{NodeLevel, NodePath};
use aas_export::{answer_text, Answers};
use aas_model::{AssetType, Parsed, Submodel, SubmodelElement};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::cell::Cell;
use crate::column::{Column, ShellField};
use crate::Result;

/// What to build: the shells of one asset type (or all), the columns, and the languages
/// a MultiLanguageProperty is shown in, most wanted first.
#[derive(Debug, Clone, Default)]
pub struct Query {
    pub asset_type: Option<AssetType>,
    pub columns: Vec<Column>,
    pub languages: Vec<String>,
}

/// A row's shell: as its AAS list names it.
pub type Shell = aas_export::ListedShell;

/// A column as built: what it shows, its header, and what the plant's elements in it
/// agree on.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TableColumn {
    pub column: Column,
    /// The header: the element's idShort (a semanticId column's first element's), or a
    /// shell field's name; the whole column as written when two headers would be the
    /// same.
    pub label: String,
    /// The unit every element in the column that has one gives (IEC 61360); none when
    /// they disagree.
    pub unit: Option<String>,
    /// The semanticId of the column's first element.
    pub semantic_id: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Table {
    pub columns: Vec<TableColumn>,
    pub shells: Vec<Shell>,
    /// Row after row.
    cells: Vec<Cell>,
    /// Shells whose submodels could not be read: their cells are missing.
    pub unreadable: usize,
}

impl Table {
    pub fn cell(&self, row: usize, column: usize) -> &Cell {
        &self.cells[row * self.columns.len() + column]
    }

    /// The header of column `i`: its label, with its unit when the plant agrees on one.
    pub fn header(&self, i: usize) -> String {
        let column = &self.columns[i];
        match &column.unit {
            Some(unit) => format!("{} [{unit}]", column.label),
            None => column.label.clone(),
        }
    }

    pub fn row(&self, row: usize) -> &[Cell] {
        let n = self.columns.len();
        &self.cells[row * n..(row + 1) * n]
    }
}

/// The units seen in a column so far.
#[derive(Debug, Default)]
pub(crate) enum Units {
    #[default]
    None,
    One(String),
    Disagree,
}

impl Units {
    pub(crate) fn add(&mut self, element: &SubmodelElement) {
        let Some(unit) = element.unit().filter(|u| !u.is_empty()) else {
            return;
        };
        *self = match std::mem::take(self) {
            Units::None => Units::One(unit.to_owned()),
            Units::One(seen) if seen == unit => Units::One(seen),
            _ => Units::Disagree,
        };
    }

    /// The unit every element that has one agrees on.
    pub(crate) fn agreed(self) -> Option<String> {
        match self {
            Units::One(unit) => Some(unit),
            Units::None | Units::Disagree => None,
        }
    }
}

/// Builds the table `query` asks for from `answers`.
pub fn build(answers: &dyn Answers, query: &Query) -> Result<Table> {
    let shells = shells(answers, query.asset_type)?;
    let width = query.columns.len();
    let mut cells = Vec::with_capacity(shells.len() * width);
    for shell in &shells {
        cells.extend(query.columns.iter().map(|c| match c {
            Column::Shell(field) => Cell::text(shell_field(shell, *field)),
            _ => Cell::Missing,
        }));
    }
    let rows: HashMap<&str, usize> = shells
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.as_str(), i))
        .collect();
    let mut found = Found {
        units: query.columns.iter().map(|_| Units::None).collect(),
        labels: vec![None; width],
        semantic_ids: vec![None; width],
    };
    let mut unreadable = 0;
    let every_submodel = query
        .columns
        .iter()
        .any(|c| matches!(c, Column::SemanticId(_)));
    let submodels: HashSet<&str> = (query.columns.iter())
        .filter_map(|c| match c {
            Column::Path { submodel, .. } => Some(submodel.as_str()),
            _ => None,
        })
        .collect();
    answers.each(NodeLevel::Submodels, &mut |path, url, body| {
        let NodePath::Submodels { aas_id } = path else {
            return Ok(());
        };
        let Some(&row) = rows.get(aas_id.as_str()) else {
            return Ok(());
        };
        let Ok(items) = aas_model::parse::<Vec<Box<RawValue>>>(&answer_text(body, url)?) else {
            unreadable += 1;
            return Ok(());
        };
        // Only the submodels a column may read are typed: most columns name theirs.
        let submodels: Vec<Parsed<Submodel>> = items
            .into_iter()
            .filter(|raw| {
                every_submodel || named(raw).is_some_and(|n| submodels.contains(n.as_str()))
            })
            .map(Parsed::new)
            .collect();
        let row_cells = &mut cells[row * width..(row + 1) * width];
        fill(row_cells, &submodels, query, &mut found);
        Ok(())
    })?;
    let mut columns: Vec<TableColumn> = query
        .columns
        .iter()
        .zip(found.units)
        .zip(found.labels.into_iter().zip(found.semantic_ids))
        .map(|((column, units), (label, semantic_id))| TableColumn {
            label: label.unwrap_or_else(|| match column {
                Column::Shell(ShellField::IdShort) => "idShort".to_owned(),
                Column::Shell(ShellField::Id) => "id".to_owned(),
                Column::Shell(ShellField::AssetType) => "asset type".to_owned(),
                Column::SemanticId(id) => id.clone(),
                Column::Path { path, .. } => path.last().cloned().unwrap_or_default(),
            }),
            column: column.clone(),
            unit: units.agreed(),
            semantic_id,
        })
        .collect();
    // A header two columns share says their whole path (or semanticId) instead.
    let labels: Vec<String> = columns.iter().map(|c| c.label.clone()).collect();
    for column in &mut columns {
        if labels.iter().filter(|l| **l == column.label).count() > 1 {
            column.label = column.column.to_string();
        }
    }
    Ok(Table {
        columns,
        shells,
        cells,
        unreadable,
    })
}

/// What the elements found in each column say about it.
struct Found {
    units: Vec<Units>,
    labels: Vec<Option<String>>,
    semantic_ids: Vec<Option<String>>,
}

impl Found {
    fn saw(&mut self, column: usize, element: &SubmodelElement, label: Option<&str>) {
        self.units[column].add(element);
        if self.semantic_ids[column].is_none() {
            self.semantic_ids[column] = element
                .semantic_id
                .as_ref()
                .and_then(|r| r.target())
                .map(str::to_owned);
        }
        if self.labels[column].is_none() {
            self.labels[column] = label.map(str::to_owned);
        }
    }
}

/// Fills one shell's cells from its submodels.
fn fill(cells: &mut [Cell], submodels: &[Parsed<Submodel>], query: &Query, found: &mut Found) {
    let languages = &query.languages;
    let by_semantic: Vec<(usize, &str)> = query
        .columns
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match c {
            Column::SemanticId(id) => Some((i, id.as_str())),
            _ => None,
        })
        .collect();
    for submodel in submodels {
        let Ok(submodel) = submodel.view() else {
            continue;
        };
        let elements = submodel.elements();
        for (i, column) in query.columns.iter().enumerate() {
            let Column::Path {
                submodel: name,
                path,
            } = column
            else {
                continue;
            };
            if *name != submodel.id_short || !matches!(cells[i], Cell::Missing) {
                continue;
            }
            find(&elements, path, &mut |element| {
                cells[i] = Cell::of(element, languages);
                found.saw(i, element, None);
            });
        }
        let mut wanted: Vec<(usize, &str)> = by_semantic
            .iter()
            .copied()
            .filter(|(i, _)| matches!(cells[*i], Cell::Missing))
            .collect();
        if wanted.is_empty() {
            continue;
        }
        let mut at = vec![submodel.id_short.clone()];
        walk(&elements, &mut at, &mut |path, element| {
            let semantic = element.semantic_id.as_ref().and_then(|r| r.target());
            wanted.retain(|&(i, id)| {
                if semantic != Some(id) {
                    return true;
                }
                let cell = Cell::of(element, languages);
                cells[i] = match cell {
                    Cell::Value { text, typed, .. } => Cell::Value {
                        text,
                        typed,
                        at: Some(path.join("/").into()),
                    },
                    Cell::Missing => Cell::Missing,
                };
                found.saw(i, element, Some(&element.id_short));
                false
            });
            !wanted.is_empty()
        });
    }
}

/// Hands `found` the element at `path` (idShorts) below `elements`, if there is one.
fn find(
    elements: &[Parsed<SubmodelElement>],
    path: &[String],
    found: &mut dyn FnMut(&SubmodelElement),
) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    let Some(element) = elements
        .iter()
        .filter_map(|e| e.view().ok())
        .find(|e| e.id_short == *first)
    else {
        return;
    };
    if rest.is_empty() {
        found(element);
    } else {
        find(&element.children().unwrap_or_default(), rest, found);
    }
}

/// Calls `visit` with each element below `elements`, in document order, and its idShort
/// path (`at` holds the submodel's, and the parents'); stops when `visit` says so. The
/// walk ends at [`aas_model::MAX_ELEMENT_DEPTH`].
pub(crate) fn walk(
    elements: &[Parsed<SubmodelElement>],
    at: &mut Vec<String>,
    visit: &mut dyn FnMut(&[String], &SubmodelElement) -> bool,
) -> bool {
    if at.len() > aas_model::MAX_ELEMENT_DEPTH {
        return true;
    }
    for element in elements.iter().filter_map(|e| e.view().ok()) {
        at.push(element.id_short.clone());
        let go = visit(at, element) && walk(&element.children().unwrap_or_default(), at, visit);
        at.pop();
        if !go {
            return false;
        }
    }
    true
}

/// A submodel's idShort, read without typing the rest of it.
fn named(raw: &RawValue) -> Option<String> {
    #[derive(Deserialize)]
    struct Named {
        #[serde(rename = "idShort")]
        id_short: String,
    }
    serde_json::from_str::<Named>(raw.get())
        .ok()
        .map(|n| n.id_short)
}

fn shell_field(shell: &Shell, field: ShellField) -> &str {
    match field {
        ShellField::IdShort => &shell.id_short,
        ShellField::Id => &shell.id,
        ShellField::AssetType => shell.asset_type.code(),
    }
}

/// The shells of the AAS lists of `asset_type` (all when `None`), in the lists' order;
/// a list that no longer reads adds no rows.
pub(crate) fn shells(answers: &dyn Answers, asset_type: Option<AssetType>) -> Result<Vec<Shell>> {
    Ok(aas_export::listed_shells(answers, asset_type)?.shells)
}
