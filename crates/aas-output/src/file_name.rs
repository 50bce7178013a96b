//! File names Windows refuses, in one place: the check (which runs on every platform,
//! so its tests run here) and a safe version of a name the app proposes. Windows
//! forbids the device names (`CON`, `aux.json`: writing "to" one silently writes to the
//! device), the characters `< > : " / \ | ? *` and control characters, and a name that
//! ends in a space or a dot (Windows drops them, so the file gets another name).

use std::path::Path;

use crate::{Error, Result};

/// What Windows refuses in a name, besides control characters.
const FORBIDDEN: &[char] = &['<', '>', ':', '"', '/', '\\', '|', '?', '*'];

/// Device names, alone or before any extension. Microsoft lists the superscript digits
/// and 0 too (`COM¹`, `LPT0`).
fn is_device_name(base: &str) -> bool {
    let upper = base.trim_end_matches(' ').to_uppercase();
    match upper.as_str() {
        "CON" | "PRN" | "AUX" | "NUL" => true,
        _ => ["COM", "LPT"].iter().any(|prefix| {
            upper.strip_prefix(prefix).is_some_and(|digit| {
                let mut digit = digit.chars();
                let one = digit
                    .next()
                    .is_some_and(|c| c.is_ascii_digit() || "¹²³".contains(c));
                one && digit.next().is_none()
            })
        }),
    }
}

/// The part before the first dot, which decides whether a name is a device's.
fn base(name: &str) -> &str {
    name.split('.').next().unwrap_or(name)
}

/// Why Windows refuses `name` (one component of a path), in words; `None` when it
/// takes it.
pub fn windows_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("the name is empty".into());
    }
    if is_device_name(base(name)) {
        return Some(format!(
            "{} is the name of a device on Windows, with any extension",
            base(name).trim_end_matches(' ')
        ));
    }
    if let Some(c) = name.chars().find(|c| FORBIDDEN.contains(c)) {
        return Some(format!("Windows does not allow {c:?} in a file name"));
    }
    if name.chars().any(char::is_control) {
        return Some("it holds a control character".into());
    }
    if name.ends_with([' ', '.']) {
        return Some("Windows drops a space or a dot at the end of a name".into());
    }
    None
}

/// `name` as Windows takes it, for a name the app proposes (built from a plant code, an
/// idShort): forbidden and control characters become `_`, a device name gets a `_`
/// (`CON.csv` → `CON_.csv`), a space or dot at the end becomes `_`.
pub fn windows_safe_name(name: &str) -> String {
    let mut safe: String = name
        .chars()
        .map(|c| {
            if FORBIDDEN.contains(&c) || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if is_device_name(base(&safe)) {
        safe.insert(base(&safe).len(), '_');
    }
    let kept = safe.trim_end_matches([' ', '.']).len();
    if kept < safe.len() || safe.is_empty() {
        safe.truncate(kept);
        safe.push('_');
    }
    safe
}

/// Refuses a path whose file name Windows refuses, saying why and what would do.
pub(crate) fn check_file_name(path: &Path) -> Result<()> {
    let Some(name) = path.file_name() else {
        return Ok(()); // no file name at all: the writer says so
    };
    let name = name.to_string_lossy();
    match windows_name_problem(&name) {
        None => Ok(()),
        Some(why) => Err(Error::ForbiddenName {
            path: path.to_owned(),
            why,
            suggestion: windows_safe_name(&name),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REFUSED: &[&str] = &[
        "CON",
        "con",
        "Prn",
        "AUX",
        "nul",
        "COM1",
        "com9",
        "LPT1",
        "lpt9",
        "COM¹",
        "aux.json",
        "NUL.tar.gz",
        "Con .csv",
        "a<b",
        "a>b",
        "C:plant",
        "a\"b",
        "a/b",
        "a\\b",
        "a|b",
        "what?",
        "star*",
        "tab\there",
        "bell\u{7}",
        "plant ",
        "plant.",
        "...",
        "",
    ];
    const TAKEN: &[&str] = &[
        "plant.json",
        "DEMO-01-findings.csv",
        "CONSOLE.txt",
        "COM10",
        "LPT",
        "auxiliary.json",
        "con-findings.csv",
        "Anlage Süd.xlsx",
        ".hidden",
        "a b.csv",
    ];

    #[test]
    fn names_windows_refuses_are_refused_with_words() {
        for name in REFUSED {
            assert!(windows_name_problem(name).is_some(), "{name:?} passed");
        }
        for name in TAKEN {
            assert_eq!(windows_name_problem(name), None, "{name:?}");
        }
        let why = windows_name_problem("aux.json").expect("refused");
        assert!(why.starts_with("aux is the name of a device"), "{why}");
        let why = windows_name_problem("a:b.json").expect("refused");
        assert!(why.contains("':'"), "{why}");
    }

    #[test]
    fn a_safe_name_is_one_windows_takes_and_changes_only_what_it_must() {
        for name in REFUSED {
            let safe = windows_safe_name(name);
            assert_eq!(
                windows_name_problem(&safe),
                None,
                "{name:?} became {safe:?}"
            );
        }
        for name in TAKEN.iter().filter(|n| !n.is_empty()) {
            assert_eq!(windows_safe_name(name), *name);
        }
        assert_eq!(windows_safe_name("CON"), "CON_");
        assert_eq!(windows_safe_name("aux.json"), "aux_.json");
        assert_eq!(
            windows_safe_name("A/B:C-findings.csv"),
            "A_B_C-findings.csv"
        );
        assert_eq!(windows_safe_name("plant."), "plant_");
    }

    #[test]
    fn a_path_is_judged_by_its_file_name() {
        let refused = check_file_name(Path::new("exports/nul.csv")).expect_err("refused");
        let words = refused.to_string();
        assert!(
            words.contains("exports/nul.csv") && words.contains("nul_.csv"),
            "{words}"
        );
        assert!(
            check_file_name(Path::new("con/plant.json")).is_ok(),
            "folders are Windows' own to judge"
        );
        assert!(check_file_name(Path::new("exports/")).is_ok());
    }
}
