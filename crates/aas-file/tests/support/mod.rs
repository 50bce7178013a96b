//! What the tests of the shared files share: where they are, and what `SOURCES.md`
//! counts in each.

use std::path::{Path, PathBuf};

/// `../shared` beside the clone.
pub fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

/// The counts `SOURCES.md` gives a file (shells, submodels).
pub fn counted(file: &Path) -> (usize, usize) {
    let sources =
        std::fs::read_to_string(shared().join("aas-files/SOURCES.md")).expect("SOURCES.md");
    let name = file
        .strip_prefix(shared().join("aas-files"))
        .expect("under aas-files")
        .to_string_lossy()
        .into_owned();
    let row = sources
        .lines()
        .find(|line| line.starts_with(&format!("| {name} |")))
        .unwrap_or_else(|| panic!("{name} in SOURCES.md"));
    let cell = row.split('|').nth(9).expect("the S/SM/suppl column").trim();
    let mut counts = cell
        .split('/')
        .map(|n| n.trim().parse::<usize>().expect("a count"));
    (
        counts.next().expect("shells"),
        counts.next().expect("submodels"),
    )
}
