//! The V3 version a conversion writes. V3.1 (IDTA-01001-3-1) is V3.0 with a few rules
//! relaxed or changed; of those a conversion meets only the idShort's (id_short.rs):
//! what V3.0 holds, V3.1 holds too, as aas-core3.1 judges the demo plant's files.

/// AAS V3.0 or V3.1.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types)] // the versions' own names
pub enum Target {
    #[default]
    V3_0,
    V3_1,
}

impl Target {
    /// `3.0` or `3.1`, as reports and file names say it.
    pub fn version(self) -> &'static str {
        match self {
            Target::V3_0 => "3.0",
            Target::V3_1 => "3.1",
        }
    }
}
