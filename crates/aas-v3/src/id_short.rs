//! idShorts as V3.0 wants them (`[a-zA-Z][a-zA-Z0-9_]*`, at most 128 characters,
//! unique among siblings): a V2 idShort outside that is renamed deterministically:
//! every other character becomes `_`, a first character that is not a letter gets an
//! `x` before it, and a name a sibling already has gets `_2`, `_3`, … after it.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::limits::NAME_MAX;
use crate::node::Node;

pub(crate) fn valid(id_short: &str) -> bool {
    id_short.len() <= NAME_MAX
        && id_short.starts_with(|c: char| c.is_ascii_alphabetic())
        && id_short
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `given`, an idShort V3.0 rejects, as it is renamed when no sibling has the new
/// name: a reference's key into the element follows it so.
pub(crate) fn renamed(given: &str) -> String {
    let mut name: String = given
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name.insert(0, 'x');
    }
    // Room for a twin's `_2`…
    name.truncate(NAME_MAX - 4);
    name
}

/// The idShorts of one set of siblings.
pub(crate) struct Siblings<'a> {
    /// Names kept as they are, reserved before any rename is chosen. Only a rename
    /// looks them up, and most siblings have none: listed, and made a set when the
    /// first rename needs one.
    kept: Vec<Cow<'a, str>>,
    kept_set: Option<HashSet<Cow<'a, str>>>,
    taken: HashSet<Cow<'a, str>>,
}

impl<'a> Siblings<'a> {
    /// Siblings whose V2 objects are `items`: the first of each valid idShort keeps it.
    pub fn of<'v>(items: impl IntoIterator<Item = &'v Node<'a>>) -> Self
    where
        'a: 'v,
    {
        let kept = items
            .into_iter()
            .filter_map(|item| item.get("idShort")?.as_text())
            .filter(|s| valid(s))
            .cloned()
            .collect();
        Siblings {
            kept,
            kept_set: None,
            taken: HashSet::new(),
        }
    }

    /// The idShort this sibling gets for `given` (its V2 idShort, if any).
    pub fn name(&mut self, given: Option<&Cow<'a, str>>) -> Cow<'a, str> {
        if let Some(given) = given.filter(|g| valid(g) && self.taken.insert((*g).clone())) {
            return given.clone();
        }
        let base = renamed(given.map_or("", |g| g.as_ref()));
        let kept = &mut self.kept;
        let kept = self
            .kept_set
            .get_or_insert_with(|| kept.drain(..).collect());
        let mut name = base.clone();
        let mut n = 2;
        while kept.contains(name.as_str()) || self.taken.contains(name.as_str()) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.taken.insert(Cow::Owned(name.clone()));
        Cow::Owned(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_and_repeated_names_are_renamed_the_same_way_every_time() {
        let named = |id_short| Node::object([("idShort", Node::text(id_short))]);
        let items = [
            named("Motor-Speed"),
            named("Motor_Speed"),
            named("3D model"),
            named("Temp"),
            named("Temp"),
            Node::object([]),
        ];
        let mut siblings = Siblings::of(&items);
        let names: Vec<Cow<str>> = items
            .iter()
            .map(|i| siblings.name(i.get("idShort").and_then(Node::as_text)))
            .collect();
        assert_eq!(
            names,
            [
                "Motor_Speed_2",
                "Motor_Speed",
                "x3D_model",
                "Temp",
                "Temp_2",
                "x"
            ]
        );
        assert!(names.iter().all(|n| valid(n)));
    }
}
