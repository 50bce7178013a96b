//! The one door every feature reads a whole source through: its answers level by level
//! in a fixed order, what they cover, and, only where something was fetched, what the
//! walk that fetched them did.

use std::collections::HashSet;
use std::io::Read;
use std::ops::ControlFlow;
use std::time::SystemTime;

use aas_model::{AssetType, FileError};

use crate::{Failure, NodeLevel, NodePath, Result, Selection, Unreadable};

/// A source of answers read whole: a crawl of the platform held in memory, a snapshot
/// in the store. Each level comes in a fixed order, by [`NodePath::keys`] compared byte
/// by byte, so every source of the same answers exports the same file.
pub trait Source {
    /// What the answers cover: the plant, what was asked and what could not be had.
    fn coverage(&self) -> Coverage<'_>;
    /// What the walk that fetched the answers did; `None` for a source that fetched
    /// nothing (a stored snapshot does not pretend to have crawled).
    fn walk(&self) -> Option<WalkReport> {
        None
    }
    /// The answers held, all levels together.
    fn count(&self) -> usize;
    /// Hands `visit` each answer at `level` in the fixed order, its body as a reader (a
    /// large answer need not be in memory whole), until `visit` breaks.
    fn each(&self, level: NodeLevel, visit: &mut Visit<'_>) -> Result<ControlFlow<()>>;
    /// As [`Source::each`], but only the answers of the shells `shells` names (by id;
    /// the submodels and elements levels): a store reads no other.
    fn each_of_shells(
        &self,
        level: NodeLevel,
        shells: &HashSet<&str>,
        visit: &mut Visit<'_>,
    ) -> Result<ControlFlow<()>> {
        self.each(
            level,
            &mut |path, url, body| match shells.contains(path.keys()[1]) {
                true => visit(path, url, body),
                false => ControlFlow::Continue(()),
            },
        )
    }
}

/// What [`Source::each`] calls with each answer: its place, its URL and its body.
pub type Visit<'v> = dyn FnMut(&NodePath, &str, &mut dyn Read) -> ControlFlow<()> + 'v;

/// What a source's answers cover, whichever kind of source holds them.
#[derive(Debug, Clone, Copy)]
pub struct Coverage<'s> {
    pub plant: &'s str,
    /// The asset types whose lists were asked.
    pub asset_types: &'s [AssetType],
    /// What of them was wanted (everything, or the shells and submodels ticked).
    pub selection: &'s Selection,
    /// When the answers were read from the server.
    pub read_at: SystemTime,
    pub failures: &'s [Failure],
    /// Parts of answers that could not be read (the answers are held).
    pub unreadable: &'s [Unreadable],
    /// Every node wanted was answered, and nothing ended the reading early.
    pub complete: bool,
}

/// What a walk of a server did, beside what it fetched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkReport {
    pub started: SystemTime,
    pub finished: SystemTime,
    pub cancelled: bool,
    /// The source had more nodes than the walk's limit: those past it were not fetched.
    pub node_limit_reached: bool,
    /// Requests repeated after a transient failure.
    pub retries: u64,
    /// Requests made to learn whether a silent server was back.
    pub probes: u64,
}

/// Calls `visit` with every answer of `source` at `level`; the first error `visit`
/// returns ends the walk and is returned, as is the source's own.
pub fn each_answer<E: From<crate::Error>>(
    source: &dyn Source,
    level: NodeLevel,
    visit: impl FnMut(&NodePath, &str, &mut dyn Read) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    each_answer_of(source, level, None, visit)
}

/// As [`each_answer`], of the shells `only` names (all when `None`).
pub fn each_answer_of<E: From<crate::Error>>(
    source: &dyn Source,
    level: NodeLevel,
    only: Option<&HashSet<&str>>,
    mut visit: impl FnMut(&NodePath, &str, &mut dyn Read) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut failed = None;
    let mut one = |path: &NodePath, url: &str, body: &mut dyn Read| match visit(path, url, body) {
        Ok(()) => ControlFlow::Continue(()),
        Err(e) => {
            failed = Some(e);
            ControlFlow::Break(())
        }
    };
    // A break means `visit` failed: its error waits in `failed`.
    let _ = match only {
        Some(shells) => source.each_of_shells(level, shells, &mut one)?,
        None => source.each(level, &mut one)?,
    };
    failed.map_or(Ok(()), Err)
}

/// An answer's body as text, in `text` (emptied first): a reader that reads many reuses
/// one string's memory instead of having new pages zeroed for each body. A body that
/// cannot be read is named by its URL.
pub fn read_text_into(body: &mut dyn Read, url: &str, text: &mut String) -> Result<()> {
    text.clear();
    body.read_to_string(text)
        .map_err(|e| unreadable_body(url, e))?;
    Ok(())
}

/// An answer's body as text (see [`read_text_into`]).
pub fn read_text(body: &mut dyn Read, url: &str) -> Result<String> {
    let mut text = String::new();
    read_text_into(body, url, &mut text)?;
    Ok(text)
}

/// Reading the answer at `url` failed where the source keeps it.
pub fn unreadable_body(url: &str, source: std::io::Error) -> crate::Error {
    crate::Error::Body(FileError {
        action: "read the stored answer of",
        path: url.into(),
        source,
    })
}
