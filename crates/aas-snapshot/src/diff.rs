//! What changed between two snapshots. Answers are paired by their place in the tree
//! and compared by hash first: only those that differ are read and parsed. Shells come
//! from the asset lists (a removed shell is one entry, nothing listed below it),
//! submodels from each shell's submodel list (by idShort), elements from each
//! submodel's elements answer (by idShort path; of an added or removed subtree only its
//! top). The registry gives no entries. A node that failed in either snapshot is never
//! reported removed: a warning names it instead; nor is one a partial snapshot lacks
//! (a cancelled crawl never reached it): a warning counts those.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use aas_source::{ids_in_list, IdPaths, NodeLevel, NodePath, ID_SHORT, SHELL_ID};
use serde::Serialize;

use crate::backend::level_at;
use crate::index::{element_rows, Cut, ElementRow};
use crate::store::Store;
use crate::Result;

/// One difference, at the finest level that changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub change: ChangeKind,
    pub aas_id: String,
    pub submodel: Option<String>,
    pub path: Vec<String>,
    /// The value before (an element's value or language texts), when there was one.
    pub old: Option<String>,
    pub new: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Added,
    Removed,
    Changed,
}

impl ChangeKind {
    /// As JSON and CSV name it.
    pub fn word(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Changed => "changed",
        }
    }
}

/// The changes, sorted by shell, submodel and path, and what could not be compared.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diff {
    pub changes: Vec<Change>,
    pub warnings: Vec<String>,
}

/// An answer of one side: its body's id, or `None` when that side lacks it.
type Side = Option<i64>;

impl Store {
    /// What changed from snapshot `old` to snapshot `new`.
    pub fn diff(&self, old: i64, new: i64) -> Result<Diff> {
        let partial = [!self.snapshot(old)?.complete, !self.snapshot(new)?.complete];
        // Answers a partial snapshot lacks that the other holds: not compared, counted.
        let mut unreached = [0usize; 2];
        let failed_old = self.failed(old)?;
        let failed_new = self.failed(new)?;
        let failed = |path: &NodePath| failed_old.contains(path) || failed_new.contains(path);
        let a_list_failed =
            (failed_old.iter().chain(&failed_new)).any(|f| f.level() == NodeLevel::AasList);
        let mut diff = Diff::default();
        let mut differing: Vec<(NodePath, Side, Side)> = self.differing(old, new)?;
        // Lists before the shells and submodels below them.
        differing.sort_by_key(|(path, _, _)| path.level());
        let mut gone_or_new: HashSet<String> = HashSet::new();
        let mut submodels_gone_or_new: HashSet<(String, String)> = HashSet::new();
        for (path, before, after) in differing {
            if failed(&path) {
                diff.warnings.push(format!(
                    "{} failed in one of the snapshots: not compared",
                    describe(&path)
                ));
                continue;
            }
            // A list a cancelled crawl never reached is no sign its shells were removed.
            // Lacking an answer is explained by its shell or submodel gone or new, or by a
            // failure above it (a failed list's type is not known below it: any will do).
            let explained = || match &path {
                NodePath::Submodels { aas_id } => gone_or_new.contains(aas_id) || a_list_failed,
                NodePath::Elements { aas_id, submodel } => {
                    gone_or_new.contains(aas_id)
                        || submodels_gone_or_new.contains(&(aas_id.clone(), submodel.clone()))
                        || failed(&NodePath::Submodels {
                            aas_id: aas_id.clone(),
                        })
                        || a_list_failed
                }
                NodePath::Registry | NodePath::AasList { .. } => false,
            };
            if let Some(side) = [before, after].iter().position(Option::is_none) {
                if partial[side] && !explained() {
                    unreached[side] += 1;
                    continue;
                }
            }
            match &path {
                NodePath::Registry => {}
                NodePath::AasList { .. } => {
                    let ids = |side: &Side| self.ids(side, SHELL_ID);
                    let (was, is) = (ids(&before)?, ids(&after)?);
                    for (aas_id, change) in added_removed(&was, &is) {
                        gone_or_new.insert(aas_id.clone());
                        diff.changes
                            .push(entry(change, aas_id, None, Vec::new(), None, None));
                    }
                }
                NodePath::Submodels { aas_id } => {
                    if gone_or_new.contains(aas_id) || before.is_none() || after.is_none() {
                        continue;
                    }
                    let ids = |side: &Side| self.ids(side, ID_SHORT);
                    let (was, is) = (ids(&before)?, ids(&after)?);
                    for (submodel, change) in added_removed(&was, &is) {
                        submodels_gone_or_new.insert((aas_id.clone(), submodel.clone()));
                        diff.changes.push(entry(
                            change,
                            aas_id.clone(),
                            Some(submodel),
                            Vec::new(),
                            None,
                            None,
                        ));
                    }
                }
                NodePath::Elements { aas_id, submodel } => {
                    let pair = (aas_id.clone(), submodel.clone());
                    if gone_or_new.contains(aas_id)
                        || submodels_gone_or_new.contains(&pair)
                        || before.is_none()
                        || after.is_none()
                    {
                        continue;
                    }
                    let rows = |side: &Side| self.element_rows(side);
                    let (was, is) = (rows(&before)?, rows(&after)?);
                    diff.changes
                        .extend(element_changes(aas_id, submodel, &was, &is));
                }
            }
        }
        diff.changes.sort_by(|a, b| {
            (&a.aas_id, &a.submodel, &a.path, a.change).cmp(&(
                &b.aas_id,
                &b.submodel,
                &b.path,
                b.change,
            ))
        });
        diff.warnings.sort();
        for (side, count) in ["older", "newer"].into_iter().zip(unreached) {
            let (answers, are) = match count {
                0 => continue,
                1 => ("answer", "is"),
                _ => ("answers", "are"),
            };
            diff.warnings.push(format!(
                "the {side} snapshot is partial (its crawl was cancelled or cut short): {count} {answers} the other holds {are} not in it and not compared; compare complete snapshots to see them"
            ));
        }
        Ok(diff)
    }

    /// The answers whose body differs between the two snapshots, or that only one has.
    /// Answers are paired by their place in the tree (a node's URL may differ).
    fn differing(&self, old: i64, new: i64) -> Result<Vec<(NodePath, Side, Side)>> {
        let differing = self.db.differing(old, new)?.into_iter();
        Ok(differing
            .filter_map(|(at, keys, before, after)| {
                let path = NodePath::from_keys(level_at(at)?, keys.each_ref().map(String::as_str))?;
                Some((path, before, after))
            })
            .collect())
    }

    /// The nodes that failed in snapshot `id`.
    fn failed(&self, id: i64) -> Result<HashSet<NodePath>> {
        Ok(self.failures_of(id)?.into_iter().map(|f| f.path).collect())
    }

    /// The ids at one of `key_path`'s paths in a list answer (none for a missing or unreadable one).
    fn ids(&self, side: &Side, key_path: IdPaths) -> Result<BTreeSet<String>> {
        let Some(content) = side else {
            return Ok(BTreeSet::new());
        };
        let raw = self.content(*content)?.unwrap_or_default();
        Ok(ids_in_list(&raw, key_path)
            .unwrap_or_default()
            .into_iter()
            .collect())
    }

    fn element_rows(&self, side: &Side) -> Result<Vec<ElementRow>> {
        let Some(content) = side else {
            return Ok(Vec::new());
        };
        Ok(element_rows(&self.content(*content)?.unwrap_or_default()))
    }
}

/// Ids only in `was` (removed) and only in `is` (added).
fn added_removed(was: &BTreeSet<String>, is: &BTreeSet<String>) -> Vec<(String, ChangeKind)> {
    let removed = was
        .difference(is)
        .map(|id| (id.clone(), ChangeKind::Removed));
    let added = is.difference(was).map(|id| (id.clone(), ChangeKind::Added));
    removed.chain(added).collect()
}

/// The element changes of one submodel: added and removed subtrees by their top,
/// changed values.
/// An element as the diff compares it: what it shows, its model type, and for a value
/// cut in the index its length and digest (two values with the same start may differ).
type Compared<'r> = (Option<String>, (&'r str, Option<&'r Cut>));

fn by_path(rows: &[ElementRow]) -> BTreeMap<Vec<String>, Compared<'_>> {
    rows.iter()
        .map(|r| {
            let compared = (r.model_type.as_str(), r.cut.as_ref());
            (r.path.clone(), (shown(r), compared))
        })
        .collect()
}

fn element_changes(
    aas_id: &str,
    submodel: &str,
    was: &[ElementRow],
    is: &[ElementRow],
) -> Vec<Change> {
    let (before, after) = (by_path(was), by_path(is));
    let mut changes = Vec::new();
    let change = |kind, path: &Vec<String>, old, new| {
        entry(
            kind,
            aas_id.to_owned(),
            Some(submodel.to_owned()),
            path.clone(),
            old,
            new,
        )
    };
    for (path, (old, old_type)) in &before {
        match after.get(path) {
            None if !has_parent_in(path, &before, &after, false) => {
                changes.push(change(ChangeKind::Removed, path, old.clone(), None));
            }
            None => {}
            Some((new, new_type)) if new != old || new_type != old_type => {
                changes.push(change(ChangeKind::Changed, path, old.clone(), new.clone()));
            }
            Some(_) => {}
        }
    }
    for (path, (new, _)) in &after {
        if !before.contains_key(path) && !has_parent_in(path, &before, &after, true) {
            changes.push(change(ChangeKind::Added, path, None, new.clone()));
        }
    }
    changes
}

/// Whether an ancestor of `path` was itself added (`added`) or removed: then only that
/// ancestor is reported.
fn has_parent_in<V>(
    path: &[String],
    before: &BTreeMap<Vec<String>, V>,
    after: &BTreeMap<Vec<String>, V>,
    added: bool,
) -> bool {
    (1..path.len()).any(|n| {
        let ancestor = &path[..n];
        if added {
            !before.contains_key(ancestor) && after.contains_key(ancestor)
        } else {
            before.contains_key(ancestor) && !after.contains_key(ancestor)
        }
    })
}

/// An element's value as the diff shows it: the value, or its language texts.
fn shown(row: &ElementRow) -> Option<String> {
    match (&row.value, row.texts.is_empty()) {
        (Some(value), _) => Some(value.clone()),
        (None, false) => Some(row.texts.clone()),
        (None, true) => None,
    }
}

fn entry(
    change: ChangeKind,
    aas_id: String,
    submodel: Option<String>,
    path: Vec<String>,
    old: Option<String>,
    new: Option<String>,
) -> Change {
    Change {
        aas_id,
        submodel,
        path,
        change,
        old,
        new,
    }
}

fn describe(path: &NodePath) -> String {
    match path {
        NodePath::Registry => "the registry".into(),
        NodePath::AasList { asset_type } => format!("the {} list", asset_type.code()),
        NodePath::Submodels { aas_id } => format!("the submodels of {aas_id}"),
        NodePath::Elements { aas_id, submodel } => format!("the elements of {aas_id} {submodel}"),
    }
}
