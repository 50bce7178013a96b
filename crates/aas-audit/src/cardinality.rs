//! Cardinality, as templates state it for each element.

use serde::{Deserialize, Serialize};

/// How many of an element its parent holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cardinality {
    One,
    ZeroToOne,
    ZeroToMany,
    OneToMany,
}

impl Cardinality {
    pub fn min(self) -> usize {
        match self {
            Cardinality::One | Cardinality::OneToMany => 1,
            Cardinality::ZeroToOne | Cardinality::ZeroToMany => 0,
        }
    }

    /// `None`: any number.
    pub fn max(self) -> Option<usize> {
        match self {
            Cardinality::One | Cardinality::ZeroToOne => Some(1),
            Cardinality::ZeroToMany | Cardinality::OneToMany => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Cardinality::One => "One",
            Cardinality::ZeroToOne => "ZeroToOne",
            Cardinality::ZeroToMany => "ZeroToMany",
            Cardinality::OneToMany => "OneToMany",
        }
    }
}
