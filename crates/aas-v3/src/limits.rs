//! V3.0's longest texts: names (idShort, qualifier types, content types) and
//! descriptions.

pub(crate) const NAME_MAX: usize = 128;
pub(crate) const TEXT_MAX: usize = 1023;
