//! What the app remembers of the plant table: per profile, plant and asset type the
//! columns chosen and the tab shown last (Details, Table, …); and the column sets the
//! user named, for any plant. Bounded: a hostile or runaway page cannot grow the
//! preferences file without end.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::preference_bounds::check_name;
use crate::{Error, Result};

/// Columns in one list.
const MAX_COLUMNS: usize = 500;
/// Named column sets.
const MAX_SETS: usize = 200;
/// Plant and asset type pairs remembered per profile.
const MAX_VIEWS: usize = 1000;
/// The tabs of the details pane.
const TABS: [&str; 5] = ["details", "raw", "changes", "table", "quality"];

/// One plant and asset type's table as last left.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableView {
    /// The columns chosen; empty: the defaults.
    #[serde(default)]
    pub columns: Vec<String>,
    /// The tab shown last for it (`details`, `table`, …).
    #[serde(default)]
    pub tab: Option<String>,
}

/// Per profile, per `plant|asset type` (`plant|*`: every type).
pub type TableViews = BTreeMap<String, BTreeMap<String, TableView>>;
/// Column sets by the name the user gave.
pub type ColumnSets = BTreeMap<String, Vec<String>>;

/// A change of one plant and asset type's table: the parts given replace.
#[derive(Debug, Clone, Deserialize)]
pub struct TableChange {
    pub profile: String,
    pub plant: String,
    #[serde(default)]
    pub asset_type: Option<String>,
    /// Empty: back to the defaults.
    #[serde(default)]
    pub columns: Option<Vec<String>>,
    #[serde(default)]
    pub tab: Option<String>,
}

/// `plant|asset type`, the key of a profile's table views.
fn view_key(plant: &str, asset_type: Option<&str>) -> String {
    format!("{plant}|{}", asset_type.unwrap_or("*"))
}

pub(crate) fn apply_table(views: &mut TableViews, change: TableChange) -> Result<()> {
    for name in [&change.profile, &change.plant] {
        check_name(name)?;
    }
    if let Some(columns) = &change.columns {
        check_columns(columns)?;
    }
    if let Some(tab) = &change.tab {
        if !TABS.contains(&tab.as_str()) {
            return Err(Error::BadRequest(format!("there is no tab {tab:?}")));
        }
    }
    let key = view_key(&change.plant, change.asset_type.as_deref());
    check_name(&key)?;
    let profile = views.entry(change.profile).or_default();
    // Past the bound the first in order goes: a page cannot grow the file without end.
    if !profile.contains_key(&key) && profile.len() >= MAX_VIEWS {
        profile.pop_first();
    }
    let view = profile.entry(key).or_default();
    if let Some(columns) = change.columns {
        view.columns = columns;
    }
    if let Some(tab) = change.tab {
        view.tab = Some(tab);
    }
    Ok(())
}

/// Names a column set (`columns` `None` or empty: forgets it).
pub(crate) fn apply_column_set(
    sets: &mut ColumnSets,
    name: &str,
    columns: Option<Vec<String>>,
) -> Result<()> {
    let name = name.trim();
    let columns = columns.filter(|c| !c.is_empty());
    let Some(columns) = columns else {
        sets.remove(name);
        return Ok(());
    };
    if name.is_empty() {
        return Err(Error::BadRequest("a column set needs a name".into()));
    }
    check_name(name)?;
    check_columns(&columns)?;
    if !sets.contains_key(name) && sets.len() >= MAX_SETS {
        return Err(Error::BadRequest(format!(
            "{MAX_SETS} column sets are kept at most: delete one first"
        )));
    }
    sets.insert(name.to_owned(), columns);
    Ok(())
}

/// Stored views and sets as far as they keep the bounds; the rest is dropped.
pub(crate) fn within_bounds(views: TableViews, sets: ColumnSets) -> (TableViews, ColumnSets) {
    let views = views
        .into_iter()
        .filter(|(profile, _)| check_name(profile).is_ok())
        .map(|(profile, tables)| {
            let tables = tables
                .into_iter()
                .filter(|(key, view)| {
                    check_name(key).is_ok()
                        && check_columns(&view.columns).is_ok()
                        && view.tab.as_deref().is_none_or(|t| TABS.contains(&t))
                })
                .take(MAX_VIEWS)
                .collect();
            (profile, tables)
        })
        .collect();
    let sets = sets
        .into_iter()
        .filter(|(name, columns)| check_name(name).is_ok() && check_columns(columns).is_ok())
        .take(MAX_SETS)
        .collect();
    (views, sets)
}

fn check_columns(columns: &[String]) -> Result<()> {
    if columns.len() > MAX_COLUMNS {
        return Err(Error::BadRequest(format!(
            "a table shows {MAX_COLUMNS} columns at most"
        )));
    }
    columns.iter().try_for_each(|c| check_name(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preference_bounds::MAX_NAME;

    fn change(columns: Option<Vec<&str>>, tab: Option<&str>) -> TableChange {
        TableChange {
            profile: "P".into(),
            plant: "DEMO-01".into(),
            asset_type: Some("machine".into()),
            columns: columns.map(|c| c.into_iter().map(str::to_owned).collect()),
            tab: tab.map(str::to_owned),
        }
    }

    #[test]
    fn the_parts_given_replace_and_empty_columns_mean_the_defaults() {
        let mut views = TableViews::new();
        apply_table(
            &mut views,
            change(Some(vec!["Nameplate/SerialNumber"]), None),
        )
        .expect("columns");
        apply_table(&mut views, change(None, Some("table"))).expect("tab");
        let view = &views["P"][&view_key("DEMO-01", Some("machine"))];
        assert_eq!(view.columns, ["Nameplate/SerialNumber"]);
        assert_eq!(view.tab.as_deref(), Some("table"));
        apply_table(&mut views, change(Some(vec![]), None)).expect("defaults");
        assert!(views["P"]["DEMO-01|machine"].columns.is_empty());
        assert!(apply_table(&mut views, change(None, Some("settings"))).is_err());
        let long = "x".repeat(MAX_NAME + 1);
        assert!(apply_table(&mut views, change(Some(vec![&long]), None)).is_err());
    }

    #[test]
    fn views_per_profile_are_bounded() {
        let mut views = TableViews::new();
        for n in 0..MAX_VIEWS + 5 {
            let mut c = change(None, Some("table"));
            c.plant = format!("P{n:05}");
            apply_table(&mut views, c).expect("kept");
        }
        assert_eq!(views["P"].len(), MAX_VIEWS);
        assert!(views["P"].contains_key(&view_key(
            &format!("P{:05}", MAX_VIEWS + 4),
            Some("machine")
        )));
    }

    #[test]
    fn column_sets_are_named_replaced_forgotten_and_bounded() {
        let mut sets = ColumnSets::new();
        let cols = |c: &[&str]| Some(c.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        apply_column_set(&mut sets, " Nameplate ", cols(&["Nameplate/SerialNumber"]))
            .expect("named");
        apply_column_set(&mut sets, "Nameplate", cols(&["shell:idShort"])).expect("replaced");
        assert_eq!(sets["Nameplate"], ["shell:idShort"]);
        assert!(apply_column_set(&mut sets, "  ", cols(&["a"])).is_err());
        apply_column_set(&mut sets, "Nameplate", None).expect("forgotten");
        assert!(sets.is_empty());
        for n in 0..MAX_SETS {
            apply_column_set(&mut sets, &format!("S{n}"), cols(&["a"])).expect("kept");
        }
        let e = apply_column_set(&mut sets, "one more", cols(&["a"])).expect_err("bounded");
        assert!(e.to_string().contains("delete one"), "{e}");
    }

    #[test]
    fn stored_values_past_the_bounds_are_dropped() {
        let mut views = TableViews::new();
        views.entry("P".into()).or_default().insert(
            "DEMO-01|machine".into(),
            TableView {
                columns: vec!["a".into()],
                tab: Some("nowhere".into()),
            },
        );
        let mut sets = ColumnSets::new();
        sets.insert("big".into(), vec!["c".into(); MAX_COLUMNS + 1]);
        sets.insert("ok".into(), vec!["c".into()]);
        let (views, sets) = within_bounds(views, sets);
        assert!(views["P"].is_empty());
        assert_eq!(sets.keys().collect::<Vec<_>>(), ["ok"]);
    }
}
