//! The plant's verdict: per template, how many shells carry it and how many of those
//! are complete (no error in any of their submodels of it); the findings grouped by
//! template, template path and kind, most frequent first, each with its shells; and the
//! shells that carry no known template, counted rather than hidden.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;

use crate::{Finding, Kind, Severity};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The shells audited.
    pub shells: usize,
    /// Shells with no submodel of a known template.
    pub without_template: usize,
    /// In the order of [`crate::Audit::templates`].
    pub templates: Vec<TemplateVerdict>,
    /// Most frequent first.
    pub groups: Vec<Group>,
}

/// "Digital Nameplate 3.0: 8,212 of 10,000 shells complete".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TemplateVerdict {
    /// Index into [`crate::Audit::templates`].
    pub template: u16,
    /// Shells with a submodel judged by it.
    pub shells: usize,
    /// Of those, the shells without an error finding in them.
    pub complete: usize,
    /// Shells with a submodel whose semanticId is a near miss of it.
    pub near_misses: usize,
}

/// One gap, repeated: the findings at one place of one template, of one kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Group {
    pub template: u16,
    #[serde(serialize_with = "crate::finding::text")]
    pub template_path: Arc<str>,
    pub kind: Kind,
    pub severity: Severity,
    /// Findings in the group.
    pub count: usize,
    /// The shells they are in, as indexes into [`crate::Audit::shells`], in order.
    #[serde(skip)]
    pub shells: Vec<u32>,
}

/// Counts shells as they are judged.
#[derive(Debug)]
pub(crate) struct Tally {
    carriers: Vec<usize>,
    complete: Vec<usize>,
    near_misses: Vec<usize>,
    with_template: usize,
}

impl Tally {
    pub fn new(templates: usize) -> Self {
        Tally {
            carriers: vec![0; templates],
            complete: vec![0; templates],
            near_misses: vec![0; templates],
            with_template: 0,
        }
    }

    /// One shell: the templates its submodels were judged by, each with whether an
    /// error was found (a template may come twice), and those it nearly named.
    pub fn shell(&mut self, judged: &[(usize, bool)], near: &[usize]) {
        let mut seen = vec![None::<bool>; self.carriers.len()];
        for &(t, errors) in judged {
            let any = seen[t].get_or_insert(false);
            *any |= errors;
        }
        for (t, errors) in seen.into_iter().enumerate() {
            if let Some(errors) = errors {
                self.carriers[t] += 1;
                self.complete[t] += usize::from(!errors);
            }
        }
        let mut near = near.to_vec();
        near.sort_unstable();
        near.dedup();
        for t in near {
            self.near_misses[t] += 1;
        }
        self.with_template += usize::from(!judged.is_empty());
    }

    pub fn verdict(self, shells: usize, findings: &[Finding]) -> Verdict {
        let templates = (0..self.carriers.len())
            .map(|t| TemplateVerdict {
                template: u16::try_from(t).unwrap_or(u16::MAX),
                shells: self.carriers[t],
                complete: self.complete[t],
                near_misses: self.near_misses[t],
            })
            .collect();
        Verdict {
            shells,
            without_template: shells.saturating_sub(self.with_template),
            templates,
            groups: groups(findings),
        }
    }
}

fn groups(findings: &[Finding]) -> Vec<Group> {
    let mut by_place: HashMap<(u16, &Arc<str>, Kind), Group> = HashMap::new();
    for f in findings {
        let group = by_place
            .entry((f.template, &f.template_path, f.kind))
            .or_insert_with(|| Group {
                template: f.template,
                template_path: f.template_path.clone(),
                kind: f.kind,
                severity: f.kind.severity(),
                count: 0,
                shells: Vec::new(),
            });
        group.count += 1;
        if group.shells.last() != Some(&f.shell) {
            group.shells.push(f.shell);
        }
    }
    let mut groups: Vec<Group> = by_place.into_values().collect();
    for g in &mut groups {
        g.shells.sort_unstable();
        g.shells.dedup();
    }
    let order = |g: &Group| (g.severity, g.template, g.template_path.clone(), g.kind);
    groups.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| order(a).cmp(&order(b))));
    groups
}
