//! A reading's shells, each told as listed, then handed on again, by its id, once every
//! submodel it names has come (or could not be had), with them: a server is read into
//! the store shell by shell, never held whole, and the shells' text is not held here at
//! all. Submodels come in whatever order the server lists them; while a shell waits, its
//! submodels wait with it, within a bound of bytes beyond which a submodel that
//! completes no shell is left to be fetched by its id at the end.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::items::{item_id, shell_refs, Item};

/// Bytes of submodels held for shells still waiting, at most (beyond it they are asked
/// for by id once the listing has ended).
const HELD_MAX: usize = 64 << 20;

/// What a reading hands on as it goes.
#[derive(Debug)]
pub enum ReadStep {
    /// A shell listed: each id once, in the order the server (or its registry) listed
    /// them, the first at place 0 ([`GatheredShell::at`]).
    Listed(Item),
    /// Every shell is listed (not told when the listing was cut short): their
    /// submodels follow.
    AllListed,
    /// A shell whose submodels are in (in no fixed order).
    Gathered(GatheredShell),
}

/// A shell listed before, with the submodels it names that could be read, in the order
/// named.
#[derive(Debug)]
pub struct GatheredShell {
    /// Its place among the shells listed.
    pub at: usize,
    pub aas_id: String,
    pub submodels: Vec<Arc<Item>>,
}

/// What a reading hands each step to.
pub type EachStep<'e> = dyn FnMut(ReadStep) + Send + 'e;

/// What hears of every shell once all are listed ([`ReadStep::AllListed`]), before their
/// submodels (a window shows them then), in the order listed.
pub type ShellsRead<'e> = dyn FnMut(Vec<Item>) + Send + 'e;

/// A shell that waits for some of the submodels it names.
struct Waiting {
    aas_id: String,
    /// The submodels named, each once, in order, with the one read where it was.
    named: Vec<(Arc<str>, Option<Arc<Item>>)>,
    left: usize,
    held: usize,
}

pub(super) struct Gathering<'g, 'e> {
    each: &'g mut EachStep<'e>,
    shell_ids: HashSet<String>,
    /// By their place.
    waiting: HashMap<usize, Waiting>,
    /// Each submodel not had yet, and the places of the shells that wait for it.
    wanted: HashMap<Arc<str>, Vec<usize>>,
    held: usize,
    /// Shells and submodels read so far.
    pub shells: usize,
    pub submodels: usize,
}

impl<'g, 'e> Gathering<'g, 'e> {
    /// Hands each step to `each`.
    pub fn new(each: &'g mut EachStep<'e>) -> Self {
        Gathering {
            each,
            shell_ids: HashSet::new(),
            waiting: HashMap::new(),
            wanted: HashMap::new(),
            held: 0,
            shells: 0,
            submodels: 0,
        }
    }

    /// Takes a shell (every shell before any submodel) and tells it. One without an id,
    /// or whose id came before, is left out; one naming no submodel is gathered at once.
    pub fn shell(&mut self, shell: Item) {
        let Some((aas_id, refs)) = shell_refs(&shell) else {
            return;
        };
        if !self.shell_ids.insert(aas_id.clone()) {
            return;
        }
        let at = self.shells;
        self.shells += 1;
        (self.each)(ReadStep::Listed(shell));
        let mut once = HashSet::new();
        let named: Vec<(Arc<str>, Option<Arc<Item>>)> = (refs.into_iter())
            .filter(|id| once.insert(id.clone()))
            .map(|id| (Arc::from(id), None))
            .collect();
        if named.is_empty() {
            (self.each)(ReadStep::Gathered(GatheredShell {
                at,
                aas_id,
                submodels: Vec::new(),
            }));
            return;
        }
        for (id, _) in &named {
            self.wanted.entry(Arc::clone(id)).or_default().push(at);
        }
        let left = named.len();
        let waiting = Waiting {
            aas_id,
            named,
            left,
            held: 0,
        };
        self.waiting.insert(at, waiting);
    }

    /// Every shell is listed.
    pub fn all_listed(&mut self) {
        (self.each)(ReadStep::AllListed);
    }

    /// Whether any shell still waits for a submodel.
    pub fn waits(&self) -> bool {
        !self.wanted.is_empty()
    }

    /// Takes a submodel as a listing gave it: kept for the shells that wait for it,
    /// unless the bound of bytes is reached and it completes none of them (it is asked
    /// for by id later). One no shell waits for is let go.
    pub fn submodel_listed(&mut self, submodel: Item) {
        let Some(id) = item_id(&submodel) else {
            return;
        };
        let Some(places) = self.wanted.get(id.as_str()) else {
            return;
        };
        let completes = (places.iter()).any(|at| self.waiting.get(at).is_some_and(|w| w.left == 1));
        if completes || self.held + submodel.get().len() <= HELD_MAX {
            self.fetched(id, submodel);
        }
    }

    /// Takes submodel `id`, fetched by its id (or listed and kept): for every shell
    /// that waits for it.
    pub fn fetched(&mut self, id: String, submodel: Item) {
        let Some(places) = self.wanted.remove(id.as_str()) else {
            return;
        };
        self.submodels += 1;
        let size = submodel.get().len();
        let submodel = Arc::new(submodel);
        for at in places {
            self.fill(at, &id, Some(Arc::clone(&submodel)), size);
        }
    }

    /// A submodel that could not be had: the shells waiting for it wait no more.
    pub fn failed(&mut self, id: &str) {
        for at in self.wanted.remove(id).unwrap_or_default() {
            self.fill(at, id, None, 0);
        }
    }

    fn fill(&mut self, at: usize, id: &str, submodel: Option<Arc<Item>>, size: usize) {
        let Some(waiting) = self.waiting.get_mut(&at) else {
            return;
        };
        if let Some(slot) = waiting.named.iter_mut().find(|(named, _)| &**named == id) {
            slot.1 = submodel;
        }
        waiting.left -= 1;
        waiting.held += size;
        self.held += size;
        if waiting.left == 0 {
            self.hand_on(at);
        }
    }

    fn hand_on(&mut self, at: usize) {
        let Some(waiting) = self.waiting.remove(&at) else {
            return;
        };
        self.held -= waiting.held;
        (self.each)(ReadStep::Gathered(GatheredShell {
            at,
            aas_id: waiting.aas_id,
            submodels: waiting.named.into_iter().filter_map(|(_, s)| s).collect(),
        }));
    }

    /// Each submodel still wanted, with the first shell (by place) that waits for it,
    /// in the order the shells name them.
    pub fn missing(&self) -> Vec<(String, String)> {
        let mut places: Vec<&usize> = self.waiting.keys().collect();
        places.sort();
        let mut seen = HashSet::new();
        let mut missing = Vec::new();
        for at in places {
            let waiting = &self.waiting[at];
            for (id, got) in &waiting.named {
                if got.is_none() && self.wanted.contains_key(id) && seen.insert(id) {
                    missing.push((waiting.aas_id.clone(), id.to_string()));
                }
            }
        }
        missing
    }

    /// Hands on every shell still waiting, with what it has (the reading ended early).
    pub fn finish(mut self) {
        let mut places: Vec<usize> = self.waiting.keys().copied().collect();
        places.sort_unstable();
        for at in places {
            self.hand_on(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(text: &str) -> Item {
        serde_json::value::RawValue::from_string(text.to_owned()).expect("JSON")
    }

    fn shell(id: &str, submodels: &[&str]) -> Item {
        let refs: Vec<String> = (submodels.iter())
            .map(|s| format!(r#"{{"keys": [{{"type": "Submodel", "value": "{s}"}}]}}"#))
            .collect();
        item(&format!(
            r#"{{"id": "{id}", "submodels": [{}]}}"#,
            refs.join(",")
        ))
    }

    fn submodel(id: &str) -> Item {
        item(&format!(r#"{{"id": "{id}"}}"#))
    }

    /// Each shell handed on (its id, its submodels' ids), in the order handed on.
    fn gathered(steps: impl FnOnce(&mut Gathering<'_, '_>)) -> Vec<(usize, Vec<String>)> {
        let mut out = Vec::new();
        let mut each = |step| {
            if let ReadStep::Gathered(g) = step {
                let ids = g.submodels.iter().filter_map(|s| item_id(s)).collect();
                out.push((g.at, ids));
            }
        };
        let mut gathering = Gathering::new(&mut each);
        steps(&mut gathering);
        gathering.finish();
        out
    }

    #[test]
    fn a_shell_is_handed_on_once_its_submodels_are_in_with_them_in_the_order_named() {
        let out = gathered(|g| {
            g.shell(shell("urn:s0", &["urn:b", "urn:a", "urn:b"]));
            g.shell(shell("urn:s1", &[]));
            g.shell(shell("urn:s2", &["urn:a", "urn:gone"]));
            g.shell(shell("urn:s0", &["urn:c"]));
            assert!(g.waits());
            g.submodel_listed(submodel("urn:a"));
            g.submodel_listed(submodel("urn:unnamed"));
            g.submodel_listed(submodel("urn:b"));
            assert_eq!(g.missing(), [("urn:s2".into(), "urn:gone".into())]);
            g.failed("urn:gone");
            assert!(!g.waits());
        });
        assert_eq!(
            out,
            [
                (1, vec![]),
                (0, vec!["urn:b".into(), "urn:a".into()]),
                (2, vec!["urn:a".into()]),
            ]
        );
    }

    #[test]
    fn shells_still_waiting_when_the_reading_ends_are_handed_on_with_what_they_have() {
        let out = gathered(|g| {
            g.shell(shell("urn:s0", &["urn:a", "urn:b"]));
            g.fetched("urn:a".into(), submodel("urn:a"));
        });
        assert_eq!(out, [(0, vec!["urn:a".into()])]);
    }
}
