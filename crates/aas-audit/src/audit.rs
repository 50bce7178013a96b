//! The walk: the AAS lists name the shells, then each shell's submodel list is read, one
//! answer at a time, and each submodel whose semanticId names a template is judged.

use std::collections::HashSet;

use aas_model::{parse_list, AssetType, Reference, Submodel};
use aas_source::Source;
use aas_source::{NodeLevel, NodePath};
use serde::Serialize;

use crate::finding::Strings;
use crate::judge::Judge;
use crate::languages::LanguageCheck;
use crate::read::each;
use crate::semantic::{Index, Named};
use crate::shells::ShellTable;
use crate::verdict::Tally;
use crate::{Error, Finding, Kind, Languages, Result, Shell, Template, Templates, Verdict};

/// What to audit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Only the shells of this asset type; all when `None`.
    pub asset_type: Option<AssetType>,
    /// Only the templates of these names (`Digital Nameplate`) or names and versions
    /// (`Digital Nameplate 3.0`); all when empty.
    pub templates: Vec<String>,
    /// The languages multi-language texts should carry.
    pub languages: Languages,
}

/// How far an audit is, after each shell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Progress {
    pub shells_done: usize,
    pub shells: usize,
}

/// What an audit found.
#[derive(Debug, Clone)]
pub struct Audit {
    /// The templates judged by; findings point here.
    pub templates: Vec<Template>,
    /// The shells audited; findings point here.
    pub shells: Vec<Shell>,
    /// In the order of the shells, then the language findings.
    pub findings: Vec<Finding>,
    /// The plant's languages, as given or read from the data.
    pub languages: Vec<String>,
    pub verdict: Verdict,
    /// The answers lack part of the plant (a cancelled crawl, failed requests, the node
    /// limit): the verdict is of what was there.
    pub partial: bool,
}

impl Audit {
    /// Whether some finding is an error (`aasmd audit` exits 1).
    pub fn has_errors(&self) -> bool {
        self.findings
            .iter()
            .any(|f| f.severity() == crate::Severity::Error)
    }

    pub fn shell(&self, finding: &Finding) -> &Shell {
        &self.shells[finding.shell as usize]
    }

    pub fn template(&self, finding: &Finding) -> &Template {
        &self.templates[usize::from(finding.template)]
    }
}

/// Audits every shell in `answers` against `templates`.
pub fn audit(answers: &dyn Source, templates: &Templates, options: &Options) -> Result<Audit> {
    audit_with_progress(answers, templates, options, &mut |_| true)
}

/// [`audit`], calling `progress` after each shell; when it returns `false` the audit
/// stops with [`Error::Cancelled`].
pub fn audit_with_progress(
    answers: &dyn Source,
    templates: &Templates,
    options: &Options,
    progress: &mut dyn FnMut(Progress) -> bool,
) -> Result<Audit> {
    let templates = templates.select(&options.templates)?;
    let mut shells = ShellTable::read(answers, options.asset_type.as_ref())?;
    let mut walk = Walk {
        index: Index::new(
            (templates.iter().enumerate())
                .map(|(i, t)| (i, t.semantic_ids.as_slice(), t.version.as_str())),
        ),
        tally: Tally::new(templates.len()),
        templates: &templates,
        strings: Strings::default(),
        languages: LanguageCheck::new(&options.languages),
        findings: Vec::new(),
    };
    let selection = answers.coverage().selection;
    let mut done = Progress {
        shells_done: 0,
        shells: shells.list.len(),
    };
    // One asset type's audit reads its shells' answers alone.
    // (The ids are copied: the walk adds to `shells`.)
    let ids: Option<Vec<String>> =
        (options.asset_type.as_ref()).map(|_| shells.list.iter().map(|s| s.id.clone()).collect());
    let only: Option<HashSet<&str>> =
        (ids.as_ref()).map(|ids| ids.iter().map(String::as_str).collect());
    each(
        answers,
        NodeLevel::Submodels,
        only.as_ref(),
        |path, text| {
            let NodePath::Submodels { aas_id } = path else {
                return Ok(());
            };
            let Some(shell) = shells.index(aas_id, options.asset_type.is_some()) else {
                return Ok(());
            };
            let submodels = parse_list::<Submodel>(text)?;
            let wanted = (submodels.iter())
                .filter_map(|sm| sm.view().ok())
                .filter(|sm| selection.wants_submodel(aas_id, &sm.id_short));
            walk.shell(shell, wanted);
            done.shells_done += 1;
            done.shells = done.shells.max(done.shells_done);
            if progress(done) {
                Ok(())
            } else {
                Err(Error::Cancelled)
            }
        },
    )?;
    let (languages, late) = walk.languages.finish(&mut walk.strings);
    let mut findings = walk.findings;
    findings.extend(late);
    let coverage = answers.coverage();
    Ok(Audit {
        verdict: walk.tally.verdict(shells.list.len(), &findings),
        templates,
        shells: shells.list,
        findings,
        languages,
        partial: !coverage.complete,
    })
}

/// What the walk keeps between shells.
struct Walk<'t> {
    templates: &'t [Template],
    index: Index,
    tally: Tally,
    strings: Strings,
    languages: LanguageCheck,
    findings: Vec<Finding>,
}

impl Walk<'_> {
    fn shell<'s>(&mut self, shell: u32, submodels: impl Iterator<Item = &'s Submodel>) {
        let (mut judged, mut near) = (Vec::new(), Vec::new());
        for sm in submodels {
            let semantic_id = sm.semantic_id.as_ref().and_then(Reference::target);
            match self.index.name(semantic_id.unwrap_or_default()) {
                Named::Template(t) => {
                    let errors = self.judge(shell, t, sm);
                    judged.push((t, errors));
                }
                Named::NearMiss(t, nearness) => {
                    near.push(t);
                    let template = &self.templates[t];
                    let rule = format!("semanticId {}", template.semantic_ids.join(" or "));
                    let seen = format!(
                        "{} ({})",
                        semantic_id.unwrap_or_default(),
                        nearness.describe()
                    );
                    self.findings.push(Finding {
                        shell,
                        template: template_index(t),
                        submodel: self.strings.get(&sm.id_short),
                        path: self.strings.get(""),
                        template_path: self.strings.get(""),
                        kind: Kind::NearMiss,
                        rule: self.strings.get(&rule),
                        seen: seen.into(),
                    });
                }
                Named::Nothing => {}
            }
        }
        self.tally.shell(&judged, &near);
    }

    /// Judges one submodel; whether an error was found.
    fn judge(&mut self, shell: u32, t: usize, sm: &Submodel) -> bool {
        let mut judge = Judge {
            shell,
            template: template_index(t),
            submodel: self.strings.get(&sm.id_short),
            strings: &mut self.strings,
            languages: &mut self.languages,
            findings: &mut self.findings,
            errors: false,
        };
        judge.submodel(&self.templates[t].elements, &sm.elements());
        judge.errors
    }
}

/// Templates are few; an index past u16 cannot occur.
fn template_index(t: usize) -> u16 {
    u16::try_from(t).unwrap_or(u16::MAX)
}
