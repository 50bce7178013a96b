//! idShorts as V3.0 wants them (`[a-zA-Z][a-zA-Z0-9_]*`, at most 128 characters,
//! unique among siblings): a V2 idShort outside that is renamed deterministically:
//! every other character becomes `_`, a first character that is not a letter gets an
//! `x` before it, and a name a sibling already has gets `_2`, `_3`, … after it.

use std::collections::HashSet;

use serde_json::Value;

use crate::limits::NAME_MAX;

pub(crate) fn valid(id_short: &str) -> bool {
    id_short.len() <= NAME_MAX
        && id_short.starts_with(|c: char| c.is_ascii_alphabetic())
        && id_short
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The idShorts of one set of siblings.
pub(crate) struct Siblings {
    /// Names kept as they are, reserved before any rename is chosen.
    kept: HashSet<String>,
    taken: HashSet<String>,
}

impl Siblings {
    /// Siblings whose V2 objects are `items`: the first of each valid idShort keeps it.
    pub fn of<'v>(items: impl IntoIterator<Item = &'v Value>) -> Self {
        let kept = items
            .into_iter()
            .filter_map(|item| item.get("idShort")?.as_str())
            .filter(|s| valid(s))
            .map(str::to_owned)
            .collect();
        Siblings {
            kept,
            taken: HashSet::new(),
        }
    }

    /// The idShort this sibling gets for `given` (its V2 idShort, if any).
    pub fn name(&mut self, given: Option<&str>) -> String {
        if let Some(given) = given.filter(|g| valid(g) && !self.taken.contains(*g)) {
            self.taken.insert(given.to_owned());
            return given.to_owned();
        }
        let mut base: String = given
            .unwrap_or_default()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if !base.starts_with(|c: char| c.is_ascii_alphabetic()) {
            base.insert(0, 'x');
        }
        base.truncate(NAME_MAX - 4);
        let mut name = base.clone();
        let mut n = 2;
        while self.kept.contains(&name) || self.taken.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn invalid_and_repeated_names_are_renamed_the_same_way_every_time() {
        let items = [
            json!({"idShort": "Motor-Speed"}),
            json!({"idShort": "Motor_Speed"}),
            json!({"idShort": "3D model"}),
            json!({"idShort": "Temp"}),
            json!({"idShort": "Temp"}),
            json!({}),
        ];
        let mut siblings = Siblings::of(&items);
        let names: Vec<String> = items
            .iter()
            .map(|i| siblings.name(i.get("idShort").and_then(Value::as_str)))
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
