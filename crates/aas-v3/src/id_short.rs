//! idShorts as the target version wants them, at most 128 characters and unique among
//! siblings: V3.0 `[a-zA-Z][a-zA-Z0-9_]*`; V3.1 also allows a hyphen inside, but wants
//! two characters at least and no hyphen at the end (`[a-zA-Z][a-zA-Z0-9_-]*[a-zA-Z0-9_]`).
//! A V2 idShort outside that is renamed deterministically: every other character (and
//! V3.1's hyphen at the end) becomes `_`, a first character that is not a letter gets an
//! `x` before it, V3.1's one character a `_` after it, and a name a sibling already has
//! gets `_2`, `_3`, … after it.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::limits::NAME_MAX;
use crate::node::Node;
use crate::Target;

/// Whether `target` takes `id_short` as it is.
pub(crate) fn valid(target: Target, id_short: &str) -> bool {
    let hyphen = target == Target::V3_1;
    id_short.len() <= NAME_MAX
        && id_short.starts_with(|c: char| c.is_ascii_alphabetic())
        && (id_short.bytes())
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || (hyphen && b == b'-'))
        && (!hyphen || (id_short.len() >= 2 && !id_short.ends_with('-')))
}

/// `given`, an idShort `target` rejects, as it is renamed when no sibling has the new
/// name: a reference's key into the element follows it so.
pub(crate) fn renamed(target: Target, given: &str) -> String {
    let hyphen = target == Target::V3_1;
    let mut name: String = given
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || c == '_' || (hyphen && c == '-') {
                true => c,
                false => '_',
            },
        )
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name.insert(0, 'x');
    }
    // Room for a twin's `_2`…
    name.truncate(NAME_MAX - 4);
    if hyphen {
        if name.ends_with('-') {
            name.pop();
            name.push('_');
        }
        if name.len() < 2 {
            name.push('_');
        }
    }
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
    target: Target,
}

impl<'a> Siblings<'a> {
    /// Siblings whose V2 objects are `items`: the first of each idShort `target` takes
    /// keeps it.
    pub fn of<'v>(target: Target, items: impl IntoIterator<Item = &'v Node<'a>>) -> Self
    where
        'a: 'v,
    {
        let kept = items
            .into_iter()
            .filter_map(|item| item.get("idShort")?.as_text())
            .filter(|s| valid(target, s))
            .cloned()
            .collect();
        Siblings {
            kept,
            kept_set: None,
            taken: HashSet::new(),
            target,
        }
    }

    /// The idShort this sibling gets for `given` (its V2 idShort, if any).
    pub fn name(&mut self, given: Option<&Cow<'a, str>>) -> Cow<'a, str> {
        let target = self.target;
        if let Some(given) = given.filter(|g| valid(target, g) && self.taken.insert((*g).clone())) {
            return given.clone();
        }
        let base = renamed(target, given.map_or("", |g| g.as_ref()));
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
        let mut siblings = Siblings::of(Target::V3_0, &items);
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
        assert!(names.iter().all(|n| valid(Target::V3_0, n)));
    }

    #[test]
    fn v3_1_keeps_hyphens_inside_and_wants_two_characters() {
        let named = |id_short| Node::object([("idShort", Node::text(id_short))]);
        let items = [
            named("Motor-Speed"),
            named("A"),
            named("Speed-"),
            named("3D-model"),
            Node::object([]),
        ];
        let mut siblings = Siblings::of(Target::V3_1, &items);
        let names: Vec<Cow<str>> = items
            .iter()
            .map(|i| siblings.name(i.get("idShort").and_then(Node::as_text)))
            .collect();
        assert_eq!(names, ["Motor-Speed", "A_", "Speed_", "x3D-model", "x_"]);
        assert!(names.iter().all(|n| valid(Target::V3_1, n)));
        assert!(!valid(Target::V3_0, "Motor-Speed"));
    }
}
