//! The bound every name the preferences keep is held to (profile, plant, asset type,
//! column, column set): a page cannot grow the preferences file without end.

use crate::{Error, Result};

/// Longest name kept.
pub(crate) const MAX_NAME: usize = 2048;

pub(crate) fn check_name(name: &str) -> Result<()> {
    if name.len() > MAX_NAME {
        return Err(Error::BadRequest(format!(
            "a name longer than {MAX_NAME} bytes is not remembered"
        )));
    }
    Ok(())
}
