//! What the user ticked in the tree: whole shells, or some submodels of a shell. A crawl
//! with a selection fetches only that (plus the lists that lead to it), and an export
//! of it writes only that.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// Which shells and submodels to load and export. The default is everything.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "Option<Vec<Pick>>", into = "Option<Vec<Pick>>")]
pub struct Selection {
    /// `None`: everything. Otherwise the picked shells by id, each with `None` for the
    /// whole shell or the idShorts of the picked submodels.
    shells: Option<BTreeMap<String, Option<BTreeSet<String>>>>,
}

/// One picked shell, as the UI sends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pick {
    pub aas_id: String,
    /// The picked submodels' idShorts; `None` (or absent) for the whole shell.
    #[serde(default)]
    pub submodels: Option<Vec<String>>,
}

impl Selection {
    pub fn everything() -> Self {
        Selection::default()
    }

    pub fn is_everything(&self) -> bool {
        self.shells.is_none()
    }

    pub fn wants_shell(&self, aas_id: &str) -> bool {
        self.shells.as_ref().is_none_or(|s| s.contains_key(aas_id))
    }

    pub fn wants_submodel(&self, aas_id: &str, id_short: &str) -> bool {
        match &self.shells {
            None => true,
            Some(shells) => match shells.get(aas_id) {
                None => false,
                Some(None) => true,
                Some(Some(submodels)) => submodels.contains(id_short),
            },
        }
    }

    /// How many shells were picked (`None` for everything).
    pub fn shell_count(&self) -> Option<usize> {
        self.shells.as_ref().map(BTreeMap::len)
    }
}

impl From<Option<Vec<Pick>>> for Selection {
    fn from(picks: Option<Vec<Pick>>) -> Self {
        let shells = picks.map(|picks| {
            let mut shells: BTreeMap<String, Option<BTreeSet<String>>> = BTreeMap::new();
            for pick in picks {
                let entry = shells.entry(pick.aas_id).or_insert(Some(BTreeSet::new()));
                match (entry.as_mut(), pick.submodels) {
                    // The whole shell wins over any list of its submodels.
                    (_, None) => *entry = None,
                    (Some(set), Some(list)) => set.extend(list),
                    (None, Some(_)) => {}
                }
            }
            shells
        });
        Selection { shells }
    }
}

impl From<Selection> for Option<Vec<Pick>> {
    fn from(selection: Selection) -> Self {
        selection.shells.map(|shells| {
            shells
                .into_iter()
                .map(|(aas_id, submodels)| Pick {
                    aas_id,
                    submodels: submodels.map(|s| s.into_iter().collect()),
                })
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picks(json: &str) -> Selection {
        serde_json::from_str(json).expect("picks")
    }

    #[test]
    fn null_is_everything() {
        let s = picks("null");
        assert!(s.is_everything());
        assert!(s.wants_shell("any") && s.wants_submodel("any", "Nameplate"));
    }

    #[test]
    fn a_whole_shell_or_some_of_its_submodels() {
        let s = picks(
            r#"[{"aas_id":"a"},{"aas_id":"b","submodels":["Nameplate"]},
                {"aas_id":"a","submodels":["X"]}]"#,
        );
        assert_eq!(s.shell_count(), Some(2));
        assert!(s.wants_shell("a") && s.wants_shell("b") && !s.wants_shell("c"));
        assert!(s.wants_submodel("a", "anything"), "a was picked whole");
        assert!(s.wants_submodel("b", "Nameplate"));
        assert!(!s.wants_submodel("b", "TechnicalData"));
        assert!(!s.wants_submodel("c", "Nameplate"));
    }

    #[test]
    fn an_empty_list_picks_nothing() {
        let s = picks("[]");
        assert!(!s.is_everything());
        assert!(!s.wants_shell("a"));
    }

    #[test]
    fn round_trips_through_json() {
        let s = picks(r#"[{"aas_id":"a","submodels":["N","M"]},{"aas_id":"b"}]"#);
        let again: Selection =
            serde_json::from_str(&serde_json::to_string(&s).expect("json")).expect("picks");
        assert_eq!(s, again);
    }
}
