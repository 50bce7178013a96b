//! Reading the answers, one at a time, as text.

use aas_client::{NodeLevel, NodePath};
use aas_export::Answers;

use crate::{Error, Result};

/// Calls `visit` with each answer at `level` as text, one at a time; an error of
/// `visit` ends the walk and is returned.
pub(crate) fn each(
    answers: &dyn Answers,
    level: NodeLevel,
    mut visit: impl FnMut(&NodePath, &str) -> Result<()>,
) -> Result<()> {
    let mut failed = None;
    let mut text = String::new();
    let walked = answers.each(level, &mut |path, url, body| {
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
    });
    match (failed, walked) {
        (Some(e), _) => Err(e),
        (None, walked) => Ok(walked?),
    }
}
