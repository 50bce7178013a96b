//! Reading the answers, one at a time, as text.

use std::collections::HashSet;
use std::io::Read;

use aas_client::{NodeLevel, NodePath};
use aas_export::Answers;

use crate::{Error, Result};

/// Calls `visit` with each answer at `level` (of the shells `only` names, when given) as
/// text, one at a time; an error of `visit` ends the walk and is returned.
pub(crate) fn each(
    answers: &dyn Answers,
    level: NodeLevel,
    only: Option<&HashSet<&str>>,
    mut visit: impl FnMut(&NodePath, &str) -> Result<()>,
) -> Result<()> {
    let mut failed = None;
    let mut text = String::new();
    let mut one = |path: &NodePath, url: &str, body: &mut dyn Read| {
        text.clear();
        let read = body
            .read_to_string(&mut text)
            .map_err(|source| Error::Read {
                url: url.to_owned(),
                source,
            });
        read.and_then(|_| visit(path, &text)).map_err(|e| {
            failed = Some(e);
            // Only ends the walk: the reason waits in `failed`.
            aas_export::Error::Stopped
        })
    };
    let walked = match only {
        Some(shells) => answers.each_of_shells(level, shells, &mut one),
        None => answers.each(level, &mut one),
    };
    match (failed, walked) {
        (Some(e), _) => Err(e),
        (None, walked) => Ok(walked?),
    }
}
