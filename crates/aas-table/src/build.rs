//! Building a table: the shells of the AAS lists are its rows, in the lists' order;
//! each shell's submodels answer fills its cells. One answer is read at a time, and a
//! shell whose answer cannot be read keeps missing cells (and is counted) instead of
//! failing the table.

use std::borrow::Cow;
use std::collections::HashMap;

use aas_model::{AssetType, SubmodelElement};
use aas_source::Source;
use serde_json::value::RawValue;

use crate::cell::Cell;
use crate::column::{Column, ShellField};
use crate::each_shell::{each_shell, RowAnswer};
use crate::outline::{Outline, Outlines};
use crate::submodels;
use crate::Result;

/// What to build: the columns, and the languages a MultiLanguageProperty is shown in,
/// most wanted first.
#[derive(Debug, Clone, Default)]
pub struct Query {
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
    /// The element's idShort (a semanticId column's first element's), or a shell field's
    /// name: the page's header, with the column on hover.
    pub name: String,
    /// The header of a written table: the name, or the whole column as written when two
    /// columns have the same name.
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
    pub(crate) cells: Vec<Cell>,
    /// Shells whose submodels could not be read: their cells are missing.
    pub unreadable: usize,
}

impl Table {
    pub fn cell(&self, row: usize, column: usize) -> &Cell {
        &self.cells[row * self.columns.len() + column]
    }

    /// The header of column `i`: its label, with its unit when the plant agrees on one.
    pub fn header(&self, i: usize) -> String {
        self.header_naming(i, "")
    }

    /// The header of column `i` with `part` (` (min)`) between its label and its unit.
    pub(crate) fn header_naming(&self, i: usize, part: &str) -> String {
        let column = &self.columns[i];
        match &column.unit {
            Some(unit) => format!("{}{part} [{unit}]", column.label),
            None => format!("{}{part}", column.label),
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
    /// What an element's unit, if it has one, adds to what was seen.
    pub(crate) fn add(&mut self, unit: Option<&str>) {
        match (&*self, unit.filter(|u| !u.is_empty())) {
            (_, None) | (Units::Disagree, _) => {}
            // Copied only the first time: most elements of a column agree.
            (Units::One(seen), Some(unit)) if seen == unit => {}
            (Units::None, Some(unit)) => *self = Units::One(unit.to_owned()),
            (Units::One(_), Some(_)) => *self = Units::Disagree,
        }
    }

    /// What was seen here and, after it, `then`.
    pub(crate) fn merge(&mut self, then: Units) {
        *self = match (std::mem::take(self), then) {
            (Units::None, then) => then,
            (seen, Units::None) => seen,
            (Units::One(seen), Units::One(unit)) if seen == unit => Units::One(seen),
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

/// Builds the table `query` asks for from `answers`, a row for each of `shells` (as
/// [`listed`] reads them: a caller that builds again for the same shells keeps them).
/// `outlines`, a census's of these shells, spares reading the submodels no column wants.
pub fn build(
    answers: &dyn Source,
    shells: Vec<Shell>,
    outlines: Option<&Outlines>,
    query: &Query,
) -> Result<Table> {
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
    let mut found = Found::new(width);
    let mut unreadable = 0;
    let wanted = Wanted::of(query);
    let work = |batch: &[RowAnswer]| {
        let mut found = Found::new(width);
        let filled: Vec<(usize, Option<Vec<Option<Cell>>>)> = (batch.iter())
            .map(|answer| {
                let outline = outlines.and_then(|o| o.of(answer.row));
                let cells = fill(&answer.json, outline, query, &wanted, &mut found);
                (answer.row, cells)
            })
            .collect();
        (filled, found)
    };
    // Placed in the answers' order, a cell once: as one thread would.
    each_shell(answers, &rows, &work, &mut |(filled, then)| {
        found.merge(then);
        for (row, row_cells) in filled {
            let Some(row_cells) = row_cells else {
                unreadable += 1;
                continue;
            };
            let row_cells = (cells[row * width..(row + 1) * width].iter_mut()).zip(row_cells);
            for (cell, filled) in row_cells {
                if let (Cell::Missing, Some(new)) = (&cell, filled) {
                    *cell = new;
                }
            }
        }
    })?;
    let mut columns: Vec<TableColumn> = (query.columns.iter().zip(found.0))
        .map(|(column, facts)| {
            let name = facts.label.unwrap_or_else(|| match column {
                Column::Shell(ShellField::IdShort) => "idShort".to_owned(),
                Column::Shell(ShellField::Id) => "id".to_owned(),
                Column::Shell(ShellField::AssetType) => "asset type".to_owned(),
                Column::SemanticId(id) => id.clone(),
                Column::Path { path, .. } => path.last().cloned().unwrap_or_default(),
            });
            TableColumn {
                label: name.clone(),
                name,
                column: column.clone(),
                unit: facts.units.agreed(),
                semantic_id: facts.semantic_id,
            }
        })
        .collect();
    distinct_labels(&mut columns);
    Ok(Table {
        columns,
        shells,
        cells,
        unreadable,
    })
}

/// A label two columns share says their whole column (path or semanticId) instead; the
/// name stays the element's.
fn distinct_labels(columns: &mut [TableColumn]) {
    let names: Vec<String> = columns.iter().map(|c| c.name.clone()).collect();
    for column in columns {
        if names.iter().filter(|n| **n == column.name).count() > 1 {
            column.label = column.column.to_string();
        }
    }
}

/// What a row's columns look for: an element of a named submodel by its path, or any
/// element with a semanticId.
struct Wanted<'q> {
    /// The path columns: their index, submodel and idShort path.
    by_path: Vec<(usize, &'q str, Vec<Needle<'q>>)>,
    /// The semanticId columns: their index and the semanticId.
    by_semantic: Vec<(usize, Needle<'q>)>,
}

/// Text to look for, and its searcher, made once for every answer it is looked for in.
struct Needle<'q> {
    text: &'q str,
    finder: memchr::memmem::Finder<'q>,
}

impl<'q> Needle<'q> {
    fn new(text: &'q str) -> Self {
        Needle {
            text,
            finder: memchr::memmem::Finder::new(text),
        }
    }
}

impl<'q> Wanted<'q> {
    fn of(query: &'q Query) -> Self {
        let mut wanted = Wanted {
            by_path: Vec::new(),
            by_semantic: Vec::new(),
        };
        for (i, column) in query.columns.iter().enumerate() {
            match column {
                Column::Path { submodel, path } => {
                    let path = path.iter().map(|id_short| Needle::new(id_short));
                    wanted.by_path.push((i, submodel, path.collect()));
                }
                Column::SemanticId(id) => wanted.by_semantic.push((i, Needle::new(id))),
                Column::Shell(_) => {}
            }
        }
        wanted
    }

    /// Whether `json` may hold a semanticId some column looks for.
    fn may_hold_a_semantic_id(&self, json: &str, text: Text) -> bool {
        self.by_semantic
            .iter()
            .any(|(_, id)| text.may_hold(json, id))
    }
}

/// What finding text in an answer's JSON says without typing it: a part of the answer
/// may hold a string only if the text occurs in it, unless the part has escapes (then
/// any string in it may be written otherwise). Finding text is far cheaper than typing
/// the elements.
#[derive(Clone, Copy)]
struct Text {
    /// Whether the answer has an escape anywhere; most have none, and then no part of
    /// it needs looking at for them.
    escaped: bool,
}

impl Text {
    fn of(answer: &str) -> Self {
        Text {
            escaped: answer.contains('\\'),
        }
    }

    /// Whether `json`, a part of the answer, may hold the string `text` looks for.
    fn may_hold(self, json: &str, text: &Needle) -> bool {
        (self.escaped && json.contains('\\')) || text.finder.find(json.as_bytes()).is_some()
    }
}

/// What the elements found in each column say about it, a [`Facts`] a column: gathered
/// per batch of rows on its worker, then merged in the rows' order (copying each
/// element's semanticId and unit for the cell was a quarter million strings a build).
struct Found(Vec<Facts>);

/// What the elements found in one column say about it.
#[derive(Default)]
struct Facts {
    units: Units,
    label: Option<String>,
    semantic_id: Option<String>,
}

impl Found {
    fn new(width: usize) -> Self {
        Found((0..width).map(|_| Facts::default()).collect())
    }

    /// What `element`, found for `column` (by the idShort `label` when the column does
    /// not say it), says about it.
    fn saw(&mut self, column: usize, element: &SubmodelElement, label: Option<&str>) {
        let facts = &mut self.0[column];
        facts.units.add(element.unit());
        if facts.semantic_id.is_none() {
            facts.semantic_id = (element.semantic_id.as_ref())
                .and_then(|r| r.target())
                .map(str::to_owned);
        }
        if facts.label.is_none() {
            facts.label = label.map(str::to_owned);
        }
    }

    /// Adds what the rows after these saw.
    fn merge(&mut self, then: Found) {
        for (facts, then) in self.0.iter_mut().zip(then.0) {
            facts.units.merge(then.units);
            facts.semantic_id = facts.semantic_id.take().or(then.semantic_id);
            facts.label = facts.label.take().or(then.label);
        }
    }
}

/// One shell's cells from its submodels answer (`None` when it cannot be read), reading
/// only the submodels a column may find something in when `outline`, the census's
/// outline of this answer, says where they are. What the cells' elements say about
/// their columns goes to `found`.
fn fill(
    json: &str,
    outline: Option<&Outline>,
    query: &Query,
    wanted: &Wanted,
    found: &mut Found,
) -> Option<Vec<Option<Cell>>> {
    let text = Text::of(json);
    if let Some(submodels) = outline.and_then(|o| o.submodels(json)) {
        let submodels =
            submodels.map(|(name, list)| (Cow::Borrowed(name), Elements::Unsplit(list)));
        // Only an answer other than the census's fails here: then it is read whole.
        if let Some(cells) = fill_from(submodels, text, query, wanted, found) {
            return Some(cells);
        }
    }
    let submodels = (submodels::read(json)?.into_iter())
        .filter_map(|s| Some((s.id_short?, Elements::Split(s.elements))));
    fill_from(submodels, text, query, wanted, found)
}

/// A submodel's elements: each one's JSON, or their list's, split only when a column
/// may find something in it.
enum Elements<'a> {
    Split(Vec<&'a RawValue>),
    Unsplit(&'a str),
}

impl<'a> Elements<'a> {
    /// Whether they may hold one of `ids`.
    fn may_hold<'n>(&self, text: Text, mut ids: impl Iterator<Item = &'n Needle<'n>>) -> bool {
        match self {
            Elements::Split(_) => true,
            Elements::Unsplit(list) => ids.any(|id| text.may_hold(list, id)),
        }
    }

    fn split(self) -> Option<Vec<&'a RawValue>> {
        match self {
            Elements::Split(elements) => Some(elements),
            Elements::Unsplit(list) => serde_json::from_str(list).ok(),
        }
    }
}

/// One shell's cells from its named submodels, in the answer's order.
fn fill_from<'a>(
    submodels: impl Iterator<Item = (Cow<'a, str>, Elements<'a>)>,
    text: Text,
    query: &Query,
    wanted: &Wanted,
    found: &mut Found,
) -> Option<Vec<Option<Cell>>> {
    let languages = &query.languages;
    let mut cells: Vec<Option<Cell>> = query.columns.iter().map(|_| None).collect();
    for (id_short, elements) in submodels {
        let by_path: Vec<(usize, &[Needle])> = (wanted.by_path.iter())
            .filter(|(i, name, _)| *name == id_short && cells[*i].is_none())
            .map(|(i, _, path)| (*i, path.as_slice()))
            .collect();
        let mut unfound: Vec<(usize, &Needle)> = (wanted.by_semantic.iter())
            .filter(|(i, _)| cells[*i].is_none())
            .map(|(i, id)| (*i, id))
            .collect();
        let semantic = !unfound.is_empty() && elements.may_hold(text, unfound.iter().map(|u| u.1));
        if by_path.is_empty() && !semantic {
            continue;
        }
        let elements = elements.split()?;
        find(
            &mut elements.iter().map(|raw| raw.get()),
            by_path,
            text,
            &mut |i, element| {
                cells[i] = Some(Cell::of(element, languages));
                found.saw(i, element, None);
            },
        );
        if !semantic {
            continue;
        }
        let mut at = vec![id_short.into_owned()];
        let elements = &mut elements.iter().map(|raw| raw.get());
        let may_matter = |json: &str| wanted.may_hold_a_semantic_id(json, text);
        walk(elements, &mut at, &may_matter, &mut |path, element| {
            let semantic = element.semantic_id.as_ref().and_then(|r| r.target());
            unfound.retain(|&(i, id)| {
                if semantic != Some(id.text) {
                    return true;
                }
                let cell = match Cell::of(element, languages) {
                    Cell::Value {
                        text, typed, ends, ..
                    } => Cell::Value {
                        text,
                        typed,
                        at: Some(path.join("/").into()),
                        ends,
                    },
                    Cell::Missing => Cell::Missing,
                };
                cells[i] = Some(cell);
                found.saw(i, element, Some(&element.id_short));
                false
            });
            !unfound.is_empty()
        });
    }
    Some(cells)
}

/// Hands `found` each column of `paths` (its index, and its idShort path below
/// `elements`) with the first element among `elements` that has the path's first
/// idShort, or the element at the rest of the path within that one. Columns below one
/// element share its typing, and only the elements that may have an idShort looked for
/// are typed.
fn find<'e>(
    elements: &mut dyn Iterator<Item = &'e str>,
    mut paths: Vec<(usize, &[Needle])>,
    text: Text,
    found: &mut dyn FnMut(usize, &SubmodelElement),
) {
    paths.retain(|(_, path)| !path.is_empty());
    for raw in elements {
        if paths.is_empty() {
            return;
        }
        if !(paths.iter()).any(|(_, path)| text.may_hold(raw, &path[0])) {
            continue;
        }
        let Ok(element) = aas_model::parse::<SubmodelElement>(raw) else {
            continue;
        };
        let (here, others): (Vec<_>, Vec<_>) =
            (paths.into_iter()).partition(|(_, path)| path[0].text == element.id_short);
        paths = others;
        let mut below = Vec::new();
        for (i, path) in here {
            match path {
                [_] => found(i, &element),
                [_, rest @ ..] => below.push((i, rest)),
                [] => {}
            }
        }
        if !below.is_empty() {
            find(
                &mut element.nested().map(|(_, raw)| raw.get()),
                below,
                text,
                found,
            );
        }
    }
}

/// Calls `visit` with each element among `elements` and below, in document order, and
/// its idShort path (`at` holds the submodel's, and the parents'); stops when `visit`
/// says so. An element whose JSON `may_matter` says no to is passed over with all below
/// it, untyped. The walk ends at [`aas_model::MAX_ELEMENT_DEPTH`].
pub(crate) fn walk<'e>(
    elements: &mut dyn Iterator<Item = &'e str>,
    at: &mut Vec<String>,
    may_matter: &dyn Fn(&str) -> bool,
    visit: &mut dyn FnMut(&[String], &SubmodelElement) -> bool,
) -> bool {
    if at.len() > aas_model::MAX_ELEMENT_DEPTH {
        return true;
    }
    for raw in elements.filter(|raw| may_matter(raw)) {
        let Ok(element) = aas_model::parse::<SubmodelElement>(raw) else {
            continue;
        };
        at.push(element.id_short.clone());
        let go = visit(at, &element)
            && walk(
                &mut element.nested().map(|(_, raw)| raw.get()),
                at,
                may_matter,
                visit,
            );
        at.pop();
        if !go {
            return false;
        }
    }
    true
}

fn shell_field(shell: &Shell, field: ShellField) -> &str {
    match field {
        ShellField::IdShort => &shell.id_short,
        ShellField::Id => &shell.id,
        ShellField::AssetType => shell.asset_type.code(),
    }
}

/// A table's rows: the shells of the AAS lists of `asset_type` (all when `None`), in
/// the lists' order; a list that no longer reads adds no rows. (A list of 10,000 shells
/// is about 12 MB of JSON.)
pub fn listed(answers: &dyn Source, asset_type: Option<&AssetType>) -> Result<Vec<Shell>> {
    Ok(aas_export::listed_shells(answers, asset_type)?.shells)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A submodels answer of one submodel holding a collection with one property,
    /// written as `property` says.
    fn answer(property: &str) -> String {
        format!(
            r#"[{{"idShort":"Nameplate","modelType":{{"name":"Submodel"}},"submodelElements":[
                {{"idShort":"Other","modelType":{{"name":"Property"}},"valueType":"string","value":"x"}},
                {{"idShort":"Address","modelType":{{"name":"SubmodelElementCollection"}},"value":[{property}]}}]}}]"#
        )
    }

    fn cells(json: &str, columns: &[&str]) -> Vec<Option<String>> {
        let query = Query {
            columns: columns
                .iter()
                .map(|c| c.parse().expect("a column"))
                .collect(),
            ..Query::default()
        };
        let wanted = Wanted::of(&query);
        let mut found = Found::new(columns.len());
        let filled = fill(json, None, &query, &wanted, &mut found).expect("readable");
        // The same read only where the answer's outline says a column may find something.
        let read = submodels::read(json).expect("a list");
        let outline = Outline::of(json, &read, &mut Default::default()).expect("outlined");
        let outlined = fill(json, Some(&outline), &query, &wanted, &mut found);
        assert_eq!(outlined.as_ref(), Some(&filled));
        let shown = |f: Option<Cell>| f.and_then(|cell| cell.shown().map(str::to_owned));
        filled.into_iter().map(shown).collect()
    }

    #[test]
    fn elements_written_with_escapes_are_found_by_path_and_by_semantic_id() {
        let columns = [
            "Nameplate/Address/CityTown",
            "semanticId:0173-1#02-AAO132#002",
        ];
        let plain = r#"{"idShort":"CityTown","modelType":{"name":"Property"},"valueType":"string","value":"Ulm",
            "semanticId":{"keys":[{"type":"ConceptDescription","local":true,"value":"0173-1#02-AAO132#002","idType":"IRDI"}]}}"#;
        let found = vec![Some("Ulm".to_owned()), Some("Ulm".to_owned())];
        assert_eq!(cells(&answer(plain), &columns), found);
        // The same JSON value: an idShort and a semanticId no longer occur as text.
        let escaped = plain
            .replace("CityTown", r"City\u0054own")
            .replace("AAO132#002", r"AAO132\u0023002");
        assert_eq!(cells(&answer(&escaped), &columns), found);
        // Absent, the cells stay missing.
        let other = plain
            .replace("CityTown", "Street")
            .replace("AAO132", "AAO128");
        assert_eq!(cells(&answer(&other), &columns), [None, None]);
    }

    #[test]
    fn columns_below_one_element_share_the_first_element_with_its_id_short() {
        let json = r#"[{"idShort":"Nameplate","modelType":{"name":"Submodel"},"submodelElements":[
            {"idShort":"Address","modelType":{"name":"SubmodelElementCollection"},"value":[
                {"idShort":"CityTown","modelType":{"name":"Property"},"valueType":"string","value":"Ulm"},
                {"idShort":"Street","modelType":{"name":"Property"},"valueType":"string","value":"Hauptstr. 1"}]},
            {"idShort":"Address","modelType":{"name":"SubmodelElementCollection"},"value":[
                {"idShort":"ZipCode","modelType":{"name":"Property"},"valueType":"string","value":"89073"}]},
            {"idShort":"Serial","modelType":{"name":"Property"},"valueType":"string","value":"S-1"}]}]"#;
        let columns = [
            "Nameplate/Address/Street",
            "Nameplate/Serial",
            "Nameplate/Address/CityTown",
            // Only in the second Address: a path names the first element of each idShort.
            "Nameplate/Address/ZipCode",
            "Nameplate/Address/CityTown/Below",
        ];
        let shown = |s: &str| Some(s.to_owned());
        assert_eq!(
            cells(json, &columns),
            [shown("Hauptstr. 1"), shown("S-1"), shown("Ulm"), None, None]
        );
    }

    #[test]
    fn a_shared_name_labels_the_columns_by_path_and_keeps_the_name() {
        let column = |text: &str, name: &str| TableColumn {
            column: text.parse().expect("a column"),
            name: name.to_owned(),
            label: name.to_owned(),
            unit: None,
            semantic_id: None,
        };
        let mut columns = [
            column("Nameplate/Address/CityTown", "CityTown"),
            column("Nameplate/AddressInformation/CityTown", "CityTown"),
            column("Nameplate/SerialNumber", "SerialNumber"),
        ];
        distinct_labels(&mut columns);
        let labels: Vec<_> = columns.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "Nameplate/Address/CityTown",
                "Nameplate/AddressInformation/CityTown",
                "SerialNumber"
            ]
        );
        let names: Vec<_> = columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["CityTown", "CityTown", "SerialNumber"]);
    }

    #[test]
    fn a_unit_holds_while_the_elements_agree_and_not_after() {
        let mut units = Units::None;
        for unit in [None, Some(""), Some("kg"), None, Some("kg")] {
            units.add(unit);
        }
        assert!(matches!(&units, Units::One(u) if u == "kg"));
        units.add(Some("g"));
        units.add(Some("kg"));
        assert!(matches!(units, Units::Disagree));
    }

    #[test]
    fn what_batches_found_merges_in_their_order() {
        let element = |json: &str| aas_model::parse::<SubmodelElement>(json).expect("an element");
        let with = |id: &str| {
            element(&format!(
                r#"{{"idShort":"W","modelType":{{"name":"Property"}},"value":"1",
                    "semanticId":{{"keys":[{{"type":"ConceptDescription","local":true,"value":"{id}","idType":"IRDI"}}]}}}}"#
            ))
        };
        let (mut first, mut second) = (Found::new(2), Found::new(2));
        first.saw(1, &with("first"), Some("Weight"));
        second.saw(0, &with("only"), None);
        second.saw(1, &with("second"), Some("Mass"));
        first.merge(second);
        let semantic_ids: Vec<_> = first.0.iter().map(|f| f.semantic_id.as_deref()).collect();
        assert_eq!(semantic_ids, [Some("only"), Some("first")]);
        let labels: Vec<_> = first.0.iter().map(|f| f.label.as_deref()).collect();
        assert_eq!(labels, [None, Some("Weight")]);
    }
}
