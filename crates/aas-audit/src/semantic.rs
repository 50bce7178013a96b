//! Which template a submodel's semanticId names. Real data writes the template's id in
//! several ways: with or without a `/Submodel` segment
//! (`https://admin-shell.io/ZVEI/TechnicalData/Submodel/1/2`), without its version
//! (`…/zvei/nameplate/Nameplate`), in other case, with stray spaces. Those are judged
//! by the template. An id that is another version of a known one, or a typo of one, is
//! a near miss: reported, not judged, never silently skipped.

use std::collections::HashMap;

/// What a submodel's semanticId names, by index into the templates it was built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Named {
    Template(usize),
    NearMiss(usize, Nearness),
    Nothing,
}

/// Why a semanticId is a near miss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Nearness {
    /// The same id with another version.
    OtherVersion,
    /// An id a few characters away.
    Typo,
}

impl Nearness {
    pub fn describe(self) -> &'static str {
        match self {
            Nearness::OtherVersion => "another version of the template",
            Nearness::Typo => "a few characters off the template's",
        }
    }
}

/// An id without spaces, in lower case, without a trailing `/`: ids that differ only
/// so name the same thing.
pub(crate) fn normalise(id: &str) -> String {
    let mut id: String = id
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    while id.ends_with('/') {
        id.pop();
    }
    id
}

/// The forms of one id that matching compares.
#[derive(Debug, Clone)]
struct Forms {
    /// Without `submodel` segments (for an IRI).
    variant: String,
    /// Also without its version (`/1/0` segments of an IRI, `#002` of an IRDI).
    versionless: String,
    /// The version's numbers.
    version: Vec<u32>,
    iri: bool,
}

impl Forms {
    fn of(id: &str) -> Forms {
        let id = normalise(id);
        let iri = id.contains("://") || id.starts_with("urn:") || !id.contains('#');
        if !iri {
            // An IRDI: `0173-1#01-AHF578#001`, maybe with an instance suffix `*01`.
            let bare = id.split('*').next().unwrap_or_default();
            let (versionless, version) = match bare.rsplit_once('#') {
                Some((head, v)) if is_number(v) => (head, vec![number(v)]),
                _ => (bare, Vec::new()),
            };
            return Forms {
                variant: bare.to_owned(),
                versionless: versionless.to_owned(),
                version,
                iri,
            };
        }
        let segments: Vec<&str> = id.split('/').filter(|s| *s != "submodel").collect();
        let (numbers, words): (Vec<&str>, Vec<&str>) = segments.iter().partition(|s| is_number(s));
        Forms {
            variant: segments.join("/"),
            versionless: words.join("/"),
            version: numbers.into_iter().map(number).collect(),
            iri,
        }
    }

    fn has_version(&self) -> bool {
        !self.version.is_empty()
    }

    /// How far another version is: its numbers' differences, the first one first.
    fn distance(&self, other: &Forms) -> Vec<u32> {
        let at = |v: &[u32], i: usize| v.get(i).copied().unwrap_or(0);
        let len = self.version.len().max(other.version.len());
        (0..len)
            .map(|i| at(&self.version, i).abs_diff(at(&other.version, i)))
            .collect()
    }
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

fn number(text: &str) -> u32 {
    text.parse().unwrap_or(u32::MAX)
}

/// The templates' ids, and what each semanticId seen so far named (a plant repeats a
/// handful of ids many thousand times).
#[derive(Debug)]
pub(crate) struct Index {
    /// (template, forms of one of its ids, its version as numbers), newest version last.
    ids: Vec<(usize, Forms, Vec<u32>)>,
    seen: HashMap<String, Named>,
}

impl Index {
    /// `templates` are (index, semanticIds, version) of the templates to judge by.
    pub fn new<'t>(templates: impl IntoIterator<Item = (usize, &'t [String], &'t str)>) -> Self {
        let mut ids: Vec<(usize, Forms, Vec<u32>)> = templates
            .into_iter()
            .flat_map(|(t, ids, version)| {
                let version = version_numbers(version);
                ids.iter()
                    .map(move |id| (t, Forms::of(id), version.clone()))
            })
            .collect();
        ids.sort_by(|a, b| a.2.cmp(&b.2));
        Index {
            ids,
            seen: HashMap::new(),
        }
    }

    pub fn name(&mut self, semantic_id: &str) -> Named {
        if let Some(named) = self.seen.get(semantic_id) {
            return *named;
        }
        let named = self.look_up(&Forms::of(semantic_id));
        self.seen.insert(semantic_id.to_owned(), named);
        named
    }

    fn look_up(&self, id: &Forms) -> Named {
        let newest = |same: &dyn Fn(&Forms) -> bool| {
            self.ids
                .iter()
                .rev()
                .find(|(_, f, _)| same(f))
                .map(|(t, ..)| *t)
        };
        if let Some(t) = newest(&|f| f.variant == id.variant) {
            return Named::Template(t);
        }
        if !id.has_version() {
            if let Some(t) = newest(&|f| f.versionless == id.versionless) {
                return Named::Template(t);
            }
        }
        // Another version: the nearest one, the newer of two as near.
        let other = (self.ids.iter().rev())
            .filter(|(_, f, _)| f.versionless == id.versionless)
            .min_by_key(|(_, f, _)| id.distance(f));
        if let Some((t, ..)) = other {
            return Named::NearMiss(*t, Nearness::OtherVersion);
        }
        // Typos are looked for in IRIs only: an IRDI a character away is another concept.
        let typo = (self.ids.iter())
            .filter(|(_, f, _)| id.iri && f.iri)
            .map(|(t, f, _)| (edit_distance(&id.variant, &f.variant), *t))
            .min();
        match typo {
            Some((d, t)) if d <= typo_limit(&id.variant) => Named::NearMiss(t, Nearness::Typo),
            _ => Named::Nothing,
        }
    }
}

/// A typo is a few characters: one in a short id, up to three in a long one.
fn typo_limit(id: &str) -> usize {
    (id.len() / 15).clamp(1, 3)
}

fn version_numbers(version: &str) -> Vec<u32> {
    version.split('.').map(|n| n.parse().unwrap_or(0)).collect()
}

/// Levenshtein distance over bytes (ids are ASCII but for the odd typo).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(x != y))
                .min(row[j] + 1)
                .min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> Index {
        let ids = |id: &str| vec![id.to_owned()];
        let (dn1, dn2, dn3, td12, hd12, hd20) = (
            ids("https://admin-shell.io/zvei/nameplate/1/0/Nameplate"),
            ids("https://admin-shell.io/zvei/nameplate/2/0/Nameplate"),
            ids("https://admin-shell.io/idta/nameplate/3/0/Nameplate"),
            ids("https://admin-shell.io/ZVEI/TechnicalData/Submodel/1/2"),
            ids("0173-1#01-AHF578#001"),
            ids("0173-1#01-AHF578#003"),
        );
        Index::new([
            (0, &dn1[..], "1.0"),
            (1, &dn2[..], "2.0"),
            (2, &dn3[..], "3.0"),
            (3, &td12[..], "1.2"),
            (4, &hd12[..], "1.2"),
            (5, &hd20[..], "2.0"),
        ])
    }

    #[test]
    fn the_template_id_and_the_variants_real_data_carries_name_the_template() {
        let mut index = index();
        for (id, template) in [
            ("https://admin-shell.io/zvei/nameplate/1/0/Nameplate", 0),
            (
                "https://admin-shell.io/zvei/nameplate/2/0/Nameplate/Submodel",
                1,
            ),
            (" HTTPS://admin-shell.io/ZVEI/nameplate/2/0/Nameplate/ ", 1),
            ("https://admin-shell.io/ZVEI/TechnicalData/1/2", 3),
            ("https://admin-shell.io/ZVEI/TechnicalData/Submodel/1/2", 3),
            // Without a version: the newest template of those ids.
            ("https://admin-shell.io/zvei/nameplate/Nameplate", 1),
            ("https://admin-shell.io/ZVEI/TechnicalData/Submodel", 3),
            ("0173-1#01-AHF578#001", 4),
            ("0173-1#01-AHF578", 5),
        ] {
            assert_eq!(index.name(id), Named::Template(template), "{id}");
        }
    }

    #[test]
    fn other_versions_and_typos_are_near_misses_and_the_rest_is_nothing() {
        let mut index = index();
        for (id, named) in [
            (
                "https://admin-shell.io/zvei/nameplate/1/1/Nameplate",
                Named::NearMiss(0, Nearness::OtherVersion),
            ),
            (
                "https://admin-shell.io/zvei/nameplate/2/1/Nameplate",
                Named::NearMiss(1, Nearness::OtherVersion),
            ),
            (
                "https://admin-shell.io/ZVEI/TechnicalData/Submodel/1/1",
                Named::NearMiss(3, Nearness::OtherVersion),
            ),
            (
                "0173-1#01-AHF578#002",
                Named::NearMiss(5, Nearness::OtherVersion),
            ),
            (
                "https://admin-shell.io/idta/nameplate/3/0/Nameplat",
                Named::NearMiss(2, Nearness::Typo),
            ),
            (
                "https://admin-shell.io/idta/namplate/3/0/Nameplat",
                Named::NearMiss(2, Nearness::Typo),
            ),
            ("0173-1#01-AHF579#001", Named::Nothing),
            (
                "https://admin-shell.io/vdi/2770/1/0/Documentation",
                Named::Nothing,
            ),
            (
                "https://admin-shell.io/idta/HierarchicalStructures/1/0/Submodel",
                Named::Nothing,
            ),
            ("", Named::Nothing),
        ] {
            assert_eq!(index.name(id), named, "{id}");
            assert_eq!(index.name(id), named, "{id}, asked again");
        }
    }

    #[test]
    fn edit_distance_counts_insertions_deletions_and_changes() {
        assert_eq!(edit_distance("nameplate", "nameplate"), 0);
        assert_eq!(edit_distance("nameplate", "namplate"), 1);
        assert_eq!(edit_distance("nameplate", "nameplates"), 1);
        assert_eq!(edit_distance("nameplate", "nameplata"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
