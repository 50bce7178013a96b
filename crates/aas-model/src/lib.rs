//! Serde types of the AAS metamodel V2.0.1 (shells, assets, submodels, every submodel
//! element, constraints, IEC 61360 data specifications, concept descriptions, the
//! environment) and of the registry's descriptors, plus the rule that every node keeps
//! the JSON the server sent ([`Parsed`]).
//!
//! Reading is tolerant and lossless: what V2.0.1 requires may be missing, legacy shapes
//! are accepted, unknown keys and element types are kept (`extra`, `Other`), and
//! [`Nullable`] tells an absent field from a `null` one, so writing a typed value back
//! gives the same JSON value that was read.

pub mod aasx;
mod asset_type;
mod checking;
mod common;
mod concept_description;
mod constraint;
mod data_specification;
mod depth;
mod descriptor;
mod duplicate_keys;
mod element;
mod environment;
mod error;
mod file_error;
pub mod inspect;
mod model_typed;
mod new_file;
mod nullable;
mod outline;
mod parsed;
mod record;
mod reference;
mod shell;
mod small_file;
mod submodel;
mod url_segment;
mod value_type;

pub use asset_type::{AssetType, UnknownAssetType};
pub use common::{
    AdministrativeInformation, Identified, Identifier, LangString, ModelType, OtherFields,
};
pub use concept_description::ConceptDescription;
pub use constraint::{Constraint, ConstraintBody, Formula, Qualifier};
pub use data_specification::{
    DataSpecificationIec61360, EmbeddedDataSpecification, ValueList, ValueReferencePair,
};
pub use depth::{check_depth, DepthScan, TooDeep, MAX_DEPTH, MAX_ELEMENT_DEPTH};
pub use descriptor::{AasDescriptor, Endpoint, SubmodelDescriptor};
pub use duplicate_keys::{duplicate_keys, DuplicateKey};
pub use element::{
    languages_text, range_text, scalar_text, AnnotatedRelationshipElement, Annotation, BasicEvent,
    Blob, Capability, ElementBody, ElementKind, Entity, File, MultiLanguageProperty, Operation,
    OperationVariable, Place, Property, Range, RawElement, ReferenceElement, RelationshipElement,
    SubmodelElement, SubmodelElementCollection,
};
pub use environment::Environment;
pub use error::{Error, Result};
pub use file_error::FileError;
pub use new_file::{put_in_place_together, Access, NewFile, NotPutInPlace};
pub use nullable::Nullable;
pub use outline::OutlineNode;
pub use parsed::{count_list, parse, parse_list, Parsed};
pub use reference::{Key, Reference};
pub use shell::{Asset, AssetAdministrationShell, ConceptDictionary, View};
pub use small_file::{read_small_file, read_small_text};
pub use submodel::Submodel;
pub use url_segment::encode_segment;
pub use value_type::{DataObjectType, LegacyValueType, ValueType};
