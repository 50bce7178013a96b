//! What a conversion changed: one [`Change`] for each thing V3.0 could not hold as it
//! was, with where it was in the V2 source, what it was and what the V3 file holds
//! instead. The mapping itself (`identification` → `id`, `modelType` as a string,
//! `xs:` value types, key types, the IEC 61360 template's V3 reference) is not a change.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// One thing the V3 file does not hold as the source did.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    /// Where it was in the V2 source: a JSON path (`submodels[2].submodelElements[0]`).
    pub path: String,
    pub rule: Rule,
    /// The source's value, whole: what the report keeps of something the file does not.
    /// Its JSON text, exact: a number keeps every digit the source wrote, and a field
    /// the conversion never read is its text as written.
    pub was: Box<RawValue>,
    /// What the V3 file holds there instead; absent when it holds nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub now: Option<Box<RawValue>>,
}

/// The same change: the same place, rule and JSON texts.
impl PartialEq for Change {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
            && self.rule == other.rule
            && self.was.get() == other.was.get()
            && self.now.as_ref().map(|n| n.get()) == other.now.as_ref().map(|n| n.get())
    }
}

/// The kinds of change, each with a stable name in the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// A field V3.0 has no place for (`views`, `conceptDictionaries`, a Formula, BaSyx's
    /// `parent`, a field no version of the metamodel has): left out.
    NotInV3,
    /// A field of the V2 Asset that the shell's `assetInformation` cannot hold.
    AssetField,
    /// `ordered` or `allowDuplicates` true: V3.0 collections are unordered, their
    /// idShorts unique (the elements keep their order in the file).
    CollectionOrder,
    /// `kind: Template` on an element: V3.0 keeps `kind` on submodels only.
    ElementKind,
    /// A `category` V3.0 rejects there (data elements allow CONSTANT, PARAMETER and
    /// VARIABLE; a concept description's must agree with its IEC 61360 data type).
    Category,
    /// A valueType V3.0 has no equivalent for, or a value that is not of its valueType:
    /// the value is kept and its type becomes `xs:string`.
    ValueType,
    /// An idShort V3.0 rejects (or a sibling's twin): renamed deterministically.
    IdShort,
    /// An empty text where V3.0 wants none or a non-empty one: left out.
    Empty,
    /// A language tag that is missing or not BCP 47: `und` (undetermined) or the
    /// tag with `_` as `-`.
    Language,
    /// A text longer than V3.0 allows there: the file holds its beginning.
    TooLong,
    /// Characters XML cannot carry (control characters): left out of the text.
    Characters,
    /// A version or revision that is not a plain number, as V3.0 wants: `1.0` with no
    /// revision becomes version 1, revision 0; anything else is left out.
    Version,
    /// A reference or key V3.0 cannot hold (no value, a chain of keys no V3.0
    /// reference has): left out, or written as an external reference.
    Reference,
    /// Embedded data specification content V3.0 cannot hold (not IEC 61360, no
    /// preferred name in English, a data type V3.0 lacks): left out.
    DataSpecification,
    /// Something V3.0 requires that the source does not give: set, and said so.
    Required,
    /// A second qualifier of the same type, or a language given twice: left out.
    Duplicate,
    /// A key given twice in one JSON object (`"idShort": "P1", "idShort": "P2"`): which
    /// value is meant is not known. The conversion reads the last, as JSON readers do;
    /// each value before it is reported (`aasmd inspect` names the same key).
    DuplicateKey,
    /// A File that names a part of an AASX package which the package written does not
    /// hold (the service serves no files): its value is left out, so that readers can
    /// open the package.
    MissingFile,
}

impl Rule {
    /// The rule a report names (`not-in-v3`, …).
    pub fn named(name: &str) -> Option<Rule> {
        serde_json::from_value(serde_json::Value::from(name)).ok()
    }

    /// What the rule did, in a sentence for a person reading a report.
    pub fn meaning(self) -> &'static str {
        match self {
            Rule::NotInV3 => "Fields V3 has no place for (views, concept dictionaries, a formula, BaSyx's parent): left out.",
            Rule::AssetField => "Fields of the V2 Asset that the shell's assetInformation cannot hold: left out.",
            Rule::CollectionOrder => "Collections marked ordered or allowing duplicates: V3 collections are unordered, their idShorts unique (the elements keep their order in the file).",
            Rule::ElementKind => "kind Template on an element: V3 keeps kind on submodels only.",
            Rule::Category => "A category V3 does not allow there: left out.",
            Rule::ValueType => "A value type V3 has no equivalent for, or a value not of its type: the value is kept, its type becomes xs:string.",
            Rule::IdShort => "An idShort the target version does not allow (or a sibling's twin): renamed.",
            Rule::Empty => "An empty text where V3 wants none or a non-empty one: left out.",
            Rule::Language => "A missing or malformed language tag: und (undetermined), or the tag with - for _.",
            Rule::TooLong => "A text longer than V3 allows there: its beginning is kept.",
            Rule::Characters => "Characters XML cannot carry (control characters): left out of the text.",
            Rule::Version => "A version or revision that is not a plain number: made one where it reads as one, else left out.",
            Rule::Reference => "A reference or key V3 cannot hold: left out, or written as an external reference.",
            Rule::DataSpecification => "Embedded data specification content V3 cannot hold: left out.",
            Rule::Required => "Something V3 requires that the source does not give: set, and said so.",
            Rule::Duplicate => "A second qualifier of the same type, or a language given twice: left out.",
            Rule::DuplicateKey => "A key given twice in one JSON object: the last is read, as JSON readers do.",
            Rule::MissingFile => "A File naming a package part the package written does not hold: its value is left out.",
        }
    }

    /// The rule's name in the report (`not-in-v3`, …).
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    }
}

/// Where a conversion's changes go as they are found: a list held in memory, or a
/// spool on disk for a plant too large to hold them.
pub trait Changes {
    fn record(&mut self, change: Change) -> std::io::Result<()>;
}

impl Changes for Vec<Change> {
    fn record(&mut self, change: Change) -> std::io::Result<()> {
        self.push(change);
        Ok(())
    }
}

/// How many changes of each rule, in the order the rules are declared, those with none
/// left out.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Tally(pub std::collections::BTreeMap<Rule, u64>);

impl Tally {
    pub fn add(&mut self, rule: Rule) {
        *self.0.entry(rule).or_default() += 1;
    }

    /// Adds the counts of `other` (a part of the same conversion done elsewhere).
    pub fn merge(&mut self, other: &Tally) {
        for (rule, n) in &other.0 {
            *self.0.entry(*rule).or_default() += n;
        }
    }

    pub fn total(&self) -> u64 {
        self.0.values().sum()
    }

    /// `3 changes (2 collection-order, 1 not-in-v3)`, or `no changes`.
    pub fn summary(&self) -> String {
        match self.total() {
            0 => "no changes".to_owned(),
            total => {
                let parts: Vec<String> = self
                    .0
                    .iter()
                    .map(|(rule, n)| format!("{n} {}", rule.name()))
                    .collect();
                let s = if total == 1 { "" } else { "s" };
                format!("{total} change{s} ({})", parts.join(", "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_named_back_and_has_a_meaning() {
        let mut tally = Tally::default();
        for name in [
            "not-in-v3",
            "asset-field",
            "collection-order",
            "element-kind",
            "category",
            "value-type",
            "id-short",
            "empty",
            "language",
            "too-long",
            "characters",
            "version",
            "reference",
            "data-specification",
            "required",
            "duplicate",
            "duplicate-key",
            "missing-file",
        ] {
            let rule = Rule::named(name).expect(name);
            assert_eq!(rule.name(), name);
            assert!(rule.meaning().ends_with('.'));
            tally.add(rule);
        }
        assert_eq!(tally.0.len(), 18, "every rule once");
        assert_eq!(Rule::named("nothing"), None);
    }
}
