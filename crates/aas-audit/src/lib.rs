//! The template audit (issue 28): every submodel of a plant is judged against the
//! submodel template its semanticId names (IDTA and ZVEI templates, derived from the
//! published files into `templates/`, plus a user's own), element by element:
//! cardinality, model type, value type, empty mandatory values, the plant's languages.
//! The result is a list of findings and the plant's verdict (per template, how many
//! shells carry it and how many are complete).
//!
//! It reads any source of answers ([`aas_source::Source`]: a crawl, a snapshot, the team
//! store) one answer at a time, so a plant of any size is audited in bounded memory.

mod audit;
mod cardinality;
mod error;
mod finding;
mod id_short;
mod judge;
mod languages;
mod output;
mod read;
mod row;
mod semantic;
mod shells;
mod template;
mod templates;
mod value;
mod verdict;
mod xlsx;

pub use audit::{audit, audit_with_progress, Audit, Options, Progress};
pub use cardinality::Cardinality;
pub use error::{Error, Result};
pub use finding::{Finding, Kind, Severity};
pub use languages::Languages;
pub use output::Format;
pub use shells::Shell;
pub use template::{Source, Template, MAX_TEMPLATE_BYTES};
pub use templates::{ConceptName, Templates};
pub use verdict::{Group, TemplateVerdict, Verdict};
