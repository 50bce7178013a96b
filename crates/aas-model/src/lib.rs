//! Serde types of the AAS V2.0.1 metamodel, as far as the browser needs them, and the
//! rule that every node keeps the exact JSON the server sent ([`Parsed`]).
//!
//! Types are tolerant: optional fields default, unknown fields are ignored by the typed
//! view but never lost, because the raw JSON travels beside it.

mod common;
mod element;
mod error;
mod outline;
mod parsed;
mod shell;
mod tolerant;
mod url_segment;

pub use common::{AssetType, Identifier, Key, LangString, ModelType, Reference, UnknownAssetType};
pub use element::{ElementKind, SubmodelElement};
pub use error::{Error, Result};
pub use outline::OutlineNode;
pub use parsed::{parse, parse_list, Parsed};
pub use shell::{AasDescriptor, AssetAdministrationShell, Submodel, SubmodelDescriptor};
pub use url_segment::encode_segment;
