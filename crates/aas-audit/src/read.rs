//! Reading the answers, one at a time, as text.

use std::collections::HashSet;
use std::io::Read;

use aas_source::{NodeLevel, NodePath, Source};

use crate::{Error, Result};

/// Calls `visit` with each answer at `level` (of the shells `only` names, when given) as
/// text, one at a time; an error of `visit` ends the walk and is returned.
pub(crate) fn each(
    answers: &dyn Source,
    level: NodeLevel,
    only: Option<&HashSet<&str>>,
    mut visit: impl FnMut(&NodePath, &str) -> Result<()>,
) -> Result<()> {
    let mut text = String::new();
    aas_source::each_answer_of(answers, level, only, |path, url, body: &mut dyn Read| {
        text.clear();
        body.read_to_string(&mut text)
            .map_err(|source| Error::Read {
                url: url.to_owned(),
                source,
            })?;
        visit(path, &text)
    })
}
