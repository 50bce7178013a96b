//! What every source of AAS data shares, below every transport and store: where a node
//! sits ([`NodePath`]), an answer as sent ([`Body`], [`Fetched`]) beside what could not
//! be had of it ([`Failure`], [`Unreadable`]), what the user picked ([`Selection`]), the
//! one door every feature reads a whole source through ([`Source`]), and the kinds of
//! failure every crate's error is sorted into ([`ErrorKind`]).

mod answer;
mod body;
mod error;
mod error_kind;
mod list_ids;
mod node;
mod selection;
mod source;

pub use answer::{Failure, Fetched, Unreadable};
pub use body::{check_json, Body, Receiving, Spool, DEFAULT_MAX_STREAMED, SPOOL_AT};
pub use error::{Error, Result};
pub use error_kind::{ErrorKind, Heard};
pub use list_ids::{ids_in_list, IdPaths, ID_SHORT, SHELL_ID};
pub use node::{NodeLevel, NodePath};
pub use selection::{Pick, Selection};
pub use source::{
    each_answer, each_answer_of, read_text, read_text_into, unreadable_body, Coverage, Source,
    Visit, WalkReport,
};
