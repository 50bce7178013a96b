//! AAS V3.0 (or V3.1: [`Target`]) from AAS V2.0.1 JSON (and the BaSyx V1 dialect): shells, submodels,
//! concept descriptions and whole files, converted object by object ([`Converter`]), so
//! that a plant is never in memory whole, each as a [`Node`] tree whose texts borrow
//! from its V2 JSON. Whatever V3.0 cannot hold as it was is reported as a [`Change`]
//! with its JSON path in the source and the source's value; values V3.0's types reject
//! are kept, and what had to change so that the file still verifies (a value type
//! relaxed to `xs:string`, an idShort renamed) is said. With [`Converter::strict`], the
//! first change fails the conversion instead.

mod change;
mod convert;
mod document;
mod element;
mod fields;
mod id_short;
mod identifiables;
mod iec61360;
mod language;
mod limits;
pub mod metamodel;
mod node;
mod read;
mod reference;
mod retarget;
mod target;
pub mod xsd;

pub use change::{Change, Changes, Rule, Tally};
pub use convert::{package_part, Converter};
pub use identifiables::Asset;
pub use node::Node;
pub use target::Target;

/// Why a conversion stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A strict conversion met something V3.0 cannot hold as it is.
    #[error("V3.0 cannot hold {} as it is ({}): {}; nothing was written", display_path(&.0.path), .0.rule.name(), shown(&.0.was))]
    Strict(Box<Change>),
    /// The changes could not be recorded (the report's spool).
    #[error("the conversion report could not be written: {0}")]
    Report(std::io::Error),
    /// The text is not JSON: why, and at which byte.
    #[error("not JSON: {0}")]
    NotJson(String),
    /// The file holds nothing this converter reads.
    #[error("{0}")]
    NotAas(String),
    /// The file is V3 already (its object at the path named is written as V3 writes it).
    #[error("the file is AAS V3 already ({0} is written as V3); only V2 files are converted, and nothing was written")]
    AlreadyV3(String),
}

fn display_path(path: &str) -> &str {
    if path.is_empty() {
        "the top of the file"
    } else {
        path
    }
}

/// A value in a message: its JSON, cut short.
fn shown(value: &serde_json::value::RawValue) -> String {
    let mut text = value.get().to_owned();
    if let Some((cut, _)) = text.char_indices().nth(200) {
        text.truncate(cut);
        text.push('…');
    }
    text
}

pub type Result<T> = std::result::Result<T, Error>;
