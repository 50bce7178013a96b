//! What the audit found: one gap of one shell's submodel against its template. A large
//! plant has hundreds of thousands, so a finding is small: the shell and the template
//! are indexes, and the texts that repeat (submodel, paths, rules) are shared.

use std::collections::HashSet;
use std::sync::Arc;

use serde::Serialize;

/// What kind of gap a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// An element the template requires (One, OneToMany) is not there.
    Missing,
    /// More elements than the cardinality allows (One, ZeroToOne).
    TooMany,
    /// The element is of another model type than the template's.
    WrongModelType,
    /// The value is not in the value type's lexical space (the template's or the
    /// element's own): a date that is not a date.
    ValueNotOfType,
    /// The element declares another value type than the template's.
    WrongValueType,
    /// A required element has no value.
    EmptyValue,
    /// A multi-language text lacks languages the plant uses.
    MissingLanguage,
    /// The submodel's semanticId is another version of a template, or a typo of one.
    NearMiss,
    /// An element that cannot be read as a submodel element.
    Unreadable,
}

/// `error`: the data breaks the template; `warning`: it keeps the template's letter but
/// not what a reader can rely on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
}

impl Kind {
    /// Missing, too many, wrong model type, a value not of its type, an empty required
    /// value and an unreadable element break the template: errors. A value type other
    /// than the template's (its value may still read), a missing language and a near
    /// miss (the submodel is not judged) are warnings.
    pub fn severity(self) -> Severity {
        match self {
            Kind::Missing
            | Kind::TooMany
            | Kind::WrongModelType
            | Kind::ValueNotOfType
            | Kind::EmptyValue
            | Kind::Unreadable => Severity::Error,
            Kind::WrongValueType | Kind::MissingLanguage | Kind::NearMiss => Severity::Warning,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Missing => "missing",
            Kind::TooMany => "too_many",
            Kind::WrongModelType => "wrong_model_type",
            Kind::ValueNotOfType => "value_not_of_type",
            Kind::WrongValueType => "wrong_value_type",
            Kind::EmptyValue => "empty_value",
            Kind::MissingLanguage => "missing_language",
            Kind::NearMiss => "near_miss",
            Kind::Unreadable => "unreadable",
        }
    }
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One gap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Index into [`crate::Audit::shells`].
    pub shell: u32,
    /// Index into [`crate::Audit::templates`].
    pub template: u16,
    /// The submodel's idShort.
    pub submodel: Arc<str>,
    /// The element's idShort path in the data (`Document01/DocumentVersion01/Title`);
    /// for a missing element, its parent's path and the template's idShort. Empty for
    /// the submodel itself.
    pub path: Arc<str>,
    /// The same place in the template's words (`Document__00__/…`): findings at one
    /// template path are one gap repeated.
    pub template_path: Arc<str>,
    pub kind: Kind,
    /// What the template says there (`cardinality One`, `value type xs:date`).
    pub rule: Arc<str>,
    /// What the data holds instead.
    pub seen: Box<str>,
}

impl Finding {
    pub fn severity(&self) -> Severity {
        self.kind.severity()
    }
}

/// A shared text as a JSON string (serde's `rc` feature is not on).
pub(crate) fn text<S: serde::Serializer>(text: &Arc<str>, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(text)
}

/// One shared copy of each text the findings repeat.
#[derive(Debug, Default)]
pub(crate) struct Strings(HashSet<Arc<str>>);

impl Strings {
    pub fn get(&mut self, text: &str) -> Arc<str> {
        if let Some(shared) = self.0.get(text) {
            return shared.clone();
        }
        let shared: Arc<str> = text.into();
        self.0.insert(shared.clone());
        shared
    }
}
