//! Constraints on an element or submodel (`qualifiers`): qualifiers and formulas.

use std::fmt;

use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::model_typed::{self, Body};
use crate::{ModelType, Nullable, OtherFields, Reference, ValueType};

/// A qualifier or formula. V3's qualifiers name no model type (`None`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Constraint {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_type: Option<ModelType>,
    #[serde(flatten)]
    pub body: ConstraintBody,
    #[serde(flatten)]
    pub extra: OtherFields,
}

/// The type-specific part of a constraint, chosen by `modelType.name`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ConstraintBody {
    Qualifier(Box<Qualifier>),
    Formula(Formula),
    /// Any other model type: its fields are in the constraint's `extra`.
    Other,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Qualifier {
    /// What the qualifier says (`"Multiplicity"`, …).
    #[serde(rename = "type", skip_serializing_if = "Nullable::is_absent")]
    pub qualifier_type: Nullable<String>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_type: Nullable<ValueType>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<Value>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub value_id: Nullable<Reference>,
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub semantic_id: Nullable<Reference>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Formula {
    #[serde(skip_serializing_if = "Nullable::is_absent")]
    pub depends_on: Nullable<Vec<Reference>>,
}

impl<'de> Body<'de> for ConstraintBody {
    fn read_as<D: Deserializer<'de>>(model_type: &str, fields: D) -> Result<Self, D::Error> {
        Ok(match model_type {
            "Qualifier" => ConstraintBody::Qualifier(Deserialize::deserialize(fields)?),
            "Formula" => ConstraintBody::Formula(Deserialize::deserialize(fields)?),
            _ => {
                IgnoredAny::deserialize(fields)?;
                ConstraintBody::Other
            }
        })
    }
}

impl<'de> Deserialize<'de> for Constraint {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct ConstraintVisitor;

        impl<'de> Visitor<'de> for ConstraintVisitor {
            type Value = Constraint;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a qualifier or formula")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Constraint, A::Error> {
                let typed = model_typed::read_or(map, &mut (), Some("Qualifier"))?;
                Ok(Constraint {
                    model_type: typed.model_type,
                    body: typed.body,
                    extra: typed.extra,
                })
            }
        }

        de.deserialize_map(ConstraintVisitor)
    }
}
