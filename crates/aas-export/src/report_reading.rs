//! A conversion report read back for a person (the app's *Show report*): its header,
//! and its changes grouped by rule, the first few of each. The report is read as a
//! stream, so one of millions of changes takes no more memory than one of ten.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use aas_model::FileError;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::{Error, Result};

/// A value shown is cut after this many characters (the report keeps it whole).
const SHOWN_CHARS: usize = 300;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ConversionReport {
    /// What was converted, and to which file (the report's own words).
    pub source: String,
    pub written: String,
    /// `AAS V3.0` or `AAS V3.1`.
    pub target: String,
    pub created: String,
    pub total: u64,
    /// Rule by rule, in the report's order.
    pub rules: Vec<RuleChanges>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RuleChanges {
    /// The rule's name in the report (`value-type`).
    pub rule: String,
    /// What it did, in a sentence (empty for a rule this version does not know).
    pub meaning: &'static str,
    /// How many changes the rule made in all.
    pub count: u64,
    /// The first of them (as many as asked for).
    pub changes: Vec<ShownChange>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShownChange {
    /// Where it was in the source (a JSON path).
    pub path: String,
    /// The source's value and what the file holds instead, as JSON texts, cut short.
    pub was: String,
    pub now: Option<String>,
}

/// Reads the report at `path`, keeping the first `per_rule` changes of each rule.
pub fn read_report(path: &Path, per_rule: usize) -> Result<ConversionReport> {
    let unreadable = |source: std::io::Error| {
        Error::File(FileError {
            action: "read the conversion report",
            path: path.to_owned(),
            source,
        })
    };
    let file = File::open(path).map_err(unreadable)?;
    let mut reading = serde_json::Deserializer::from_reader(BufReader::new(file));
    let report = ReportSeed { per_rule }
        .deserialize(&mut reading)
        .map_err(|e| unreadable(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))?;
    Ok(report)
}

struct ReportSeed {
    per_rule: usize,
}

impl<'de> DeserializeSeed<'de> for ReportSeed {
    type Value = ConversionReport;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ReportSeed {
    type Value = ConversionReport;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a conversion report")
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        let mut report = ConversionReport::default();
        // The summary in the report's order (serde_json keeps it): the rules' order.
        let mut counts: Vec<(String, u64)> = Vec::new();
        let mut shown: BTreeMap<String, Vec<ShownChange>> = BTreeMap::new();
        let mut counted: BTreeMap<String, u64> = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "source" => report.source = map.next_value()?,
                "written" => report.written = map.next_value()?,
                "target" => report.target = map.next_value()?,
                "created" => report.created = map.next_value()?,
                "total" => report.total = map.next_value()?,
                "summary" => {
                    let summary: serde_json::Map<String, serde_json::Value> = map.next_value()?;
                    counts = (summary.into_iter())
                        .map(|(rule, n)| (rule, n.as_u64().unwrap_or_default()))
                        .collect();
                }
                "changes" => {
                    map.next_value_seed(ChangesSeed {
                        per_rule: self.per_rule,
                        shown: &mut shown,
                        counted: &mut counted,
                    })?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        // A rule only the changes name follows the summary's.
        for (rule, count) in counts {
            let changes = shown.remove(&rule).unwrap_or_default();
            report.rules.push(RuleChanges {
                meaning: meaning(&rule),
                rule,
                count,
                changes,
            });
        }
        for (rule, changes) in shown {
            report.rules.push(RuleChanges {
                meaning: meaning(&rule),
                count: counted.get(&rule).copied().unwrap_or_default(),
                rule,
                changes,
            });
        }
        Ok(report)
    }
}

struct ChangesSeed<'s> {
    per_rule: usize,
    shown: &'s mut BTreeMap<String, Vec<ShownChange>>,
    /// Every change of each rule, counted (a rule the summary lacks is counted here).
    counted: &'s mut BTreeMap<String, u64>,
}

impl<'de> DeserializeSeed<'de> for ChangesSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ChangesSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the report's changes")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<(), A::Error> {
        #[derive(Deserialize)]
        struct Line {
            path: String,
            rule: String,
            was: Box<RawValue>,
            now: Option<Box<RawValue>>,
        }
        while let Some(line) = seq.next_element::<Line>()? {
            *self.counted.entry(line.rule.clone()).or_default() += 1;
            let kept = self.shown.entry(line.rule).or_default();
            if kept.len() < self.per_rule {
                kept.push(ShownChange {
                    path: line.path,
                    was: cut(line.was.get()),
                    now: line.now.map(|now| cut(now.get())),
                });
            }
        }
        Ok(())
    }
}

fn meaning(rule: &str) -> &'static str {
    aas_v3::Rule::named(rule).map_or("", aas_v3::Rule::meaning)
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}
