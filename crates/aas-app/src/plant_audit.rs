//! The template audit of a snapshot (issue 28), for both front ends: which templates
//! (the built-in ones, a user's own in the data folder, files named), the audit itself
//! over the snapshot's answers in either store, and what a view shows of it: the
//! verdict per template, the groups of findings most frequent first, and a group's
//! gaps, each placed so the tree can open it. `aasmd audit` prints the same summary
//! the Quality view shows.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub use aas_audit::Progress as AuditProgress;
use aas_audit::{Audit, Finding, Kind, Languages, Options, Progress, Severity, Templates};
use aas_model::AssetType;
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::snapshot_ref::placed;
use crate::{about_snapshot, app_data_dir, Error, PlacedSnapshot, Result, SnapshotStore};

/// An audit the page (or `aasmd audit`) asks for.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditRequest {
    pub plant: String,
    /// The snapshot on screen; `None`: the plant's newest complete one.
    pub snapshot: Option<crate::SnapshotRef>,
    /// `None`: every asset type.
    pub asset_type: Option<AssetType>,
    /// Template names (`Digital Nameplate`) or names and versions (`Digital Nameplate
    /// 3.0`); empty: all.
    #[serde(default)]
    pub templates: Vec<String>,
    /// Template files to judge by besides the built-in ones and the user's folder.
    #[serde(default)]
    pub template_files: Vec<PathBuf>,
    /// The languages multi-language texts should carry; empty: those the plant uses.
    #[serde(default)]
    pub languages: Vec<String>,
}

impl AuditRequest {
    /// The engine's options.
    pub fn options(&self) -> Options {
        Options {
            asset_type: self.asset_type.clone(),
            templates: self.templates.clone(),
            languages: match self.languages.is_empty() {
                true => Languages::FromData,
                false => Languages::Given(self.languages.clone()),
            },
        }
    }
}

/// The folder whose `*.json` template files every audit judges by, besides the
/// built-in ones (one of the same name and version replaces the built-in one).
pub fn user_templates_dir() -> Result<PathBuf> {
    Ok(app_data_dir()?.join("templates"))
}

/// The built-in templates, those in `user_dir`, and `files`.
pub fn audit_templates(user_dir: &Path, files: &[PathBuf]) -> Result<Templates> {
    let mut templates = Templates::builtin();
    templates.add_folder(user_dir)?;
    for file in files {
        templates.add_file(file)?;
    }
    Ok(templates)
}

/// An audit of a snapshot: what it read and what it found.
#[derive(Debug)]
pub struct PlantAudit {
    pub snapshot: PlacedSnapshot,
    pub asset_type: Option<AssetType>,
    pub audit: Audit,
}

impl SnapshotStore {
    /// Audits snapshot `id` against `templates`, off the async workers and with a
    /// reader of its own (searches meanwhile go on); `on_progress` after each shell (on
    /// the audit's thread). Cancelled, it ends with an error of kind interrupted.
    pub async fn audit(
        &self,
        id: i64,
        templates: Templates,
        options: Options,
        cancel: &CancellationToken,
        on_progress: impl Fn(Progress) + Send + 'static,
    ) -> Result<PlantAudit> {
        // A team store's password too: a reader of the file alone could not log in.
        let (store, cancel, place) = (self.another(), cancel.clone(), self.place());
        tokio::task::spawn_blocking(move || {
            let (snapshot, audit) = store.read(|store| {
                store.with_answers(id, |info, answers| {
                    let audit =
                        aas_audit::audit_with_progress(answers, &templates, &options, &mut |p| {
                            on_progress(p);
                            !cancel.is_cancelled()
                        });
                    (info.clone(), audit)
                })
            })?;
            Ok(PlantAudit {
                snapshot: placed(snapshot, place),
                asset_type: options.asset_type,
                audit: audit?,
            })
        })
        .await
        .map_err(Error::stopped)?
    }
}

/// What a view shows of an audit first.
#[derive(Debug, Clone, Serialize)]
pub struct AuditSummary {
    pub snapshot: PlacedSnapshot,
    pub asset_type: Option<AssetType>,
    /// Shells audited.
    pub shells: usize,
    /// Of those, shells with no submodel of a known template.
    pub without_template: usize,
    /// The snapshot lacks part of the plant: the verdict is of what it holds.
    pub partial: bool,
    pub languages: Vec<String>,
    /// Findings that are errors, and the shells they are in.
    pub errors: usize,
    pub shells_with_errors: usize,
    pub warnings: usize,
    /// Per template judged by, in the templates' order (those no shell carries too).
    pub templates: Vec<TemplateLine>,
    /// Most frequent first; [`GroupLine::group`] asks for its gaps.
    pub groups: Vec<GroupLine>,
}

/// "Digital Nameplate 3.0: 812 of 1,000 shells complete".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TemplateLine {
    /// `Digital Nameplate 3.0`.
    pub title: String,
    /// `built in: …`, or the file it was read from.
    pub origin: String,
    /// Shells with a submodel judged by it.
    pub shells: usize,
    /// Of those, shells without an error in it.
    pub complete: usize,
    /// Shells whose submodel's semanticId nearly names it (not judged).
    pub near_misses: usize,
}

/// One gap, repeated: the findings of one kind at one place of one template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupLine {
    /// Its index, to ask for its gaps.
    pub group: usize,
    pub template: String,
    /// The place in the template's words (`Document__00__/DocumentId`); empty for the
    /// submodel itself.
    pub template_path: String,
    pub kind: Kind,
    pub severity: Severity,
    /// What the template says there.
    pub rule: String,
    pub findings: usize,
    pub shells: usize,
}

/// A window of one group's gaps.
#[derive(Debug, Clone, Serialize)]
pub struct GroupPage {
    pub group: GroupLine,
    /// The group's findings in all.
    pub total: usize,
    pub gaps: Vec<Gap>,
}

/// One finding, placed for the tree: the shell (by its id and the list it is in), the
/// submodel (by idShort, as the service and the tree address it) and the elements to
/// open down to the gap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Gap {
    pub aas_id: String,
    pub id_short: String,
    pub asset_type: Option<AssetType>,
    pub submodel: String,
    /// The idShorts from the submodel down to the element there to open: for a missing
    /// element (or more than allowed), its parent; empty for the submodel itself.
    pub open: Vec<String>,
    /// The element the finding is about as the template names it, when it is not
    /// itself there to open (missing, too many).
    pub named: Option<String>,
    /// The element's idShort path as the CSV gives it.
    pub path: String,
    pub kind: Kind,
    pub severity: Severity,
    pub rule: String,
    pub seen: String,
}

impl PlantAudit {
    pub fn summary(&self) -> AuditSummary {
        let audit = &self.audit;
        let errors: Vec<&Finding> = (audit.findings.iter())
            .filter(|f| f.severity() == Severity::Error)
            .collect();
        let mut shells_with_errors: Vec<u32> = errors.iter().map(|f| f.shell).collect();
        shells_with_errors.sort_unstable();
        shells_with_errors.dedup();
        let rules = first_rules(audit);
        AuditSummary {
            snapshot: self.snapshot.clone(),
            asset_type: self.asset_type.clone(),
            shells: audit.verdict.shells,
            without_template: audit.verdict.without_template,
            partial: audit.partial,
            languages: audit.languages.clone(),
            errors: errors.len(),
            shells_with_errors: shells_with_errors.len(),
            warnings: audit.findings.len() - errors.len(),
            templates: (audit.verdict.templates.iter())
                .map(|v| {
                    let t = &audit.templates[usize::from(v.template)];
                    TemplateLine {
                        title: t.title(),
                        origin: t.origin.clone(),
                        shells: v.shells,
                        complete: v.complete,
                        near_misses: v.near_misses,
                    }
                })
                .collect(),
            groups: (0..audit.verdict.groups.len())
                .map(|g| self.group_line(g, &rules))
                .collect(),
        }
    }

    /// Gaps `start..start + count` of group `group` (in the order of the shells).
    pub fn group(&self, group: usize, start: usize, count: usize) -> Result<GroupPage> {
        let g = (self.audit.verdict.groups.get(group)).ok_or_else(|| {
            Error::BadRequest(format!(
                "the audit has {} groups of findings, not {}",
                self.audit.verdict.groups.len(),
                group + 1
            ))
        })?;
        let in_group = |f: &&Finding| {
            f.template == g.template && f.kind == g.kind && f.template_path == g.template_path
        };
        let gaps = (self.audit.findings.iter().filter(in_group))
            .skip(start)
            .take(count)
            .map(|f| self.gap(f))
            .collect();
        Ok(GroupPage {
            group: self.group_line(group, &first_rules(&self.audit)),
            total: g.count,
            gaps,
        })
    }

    /// The findings as a file of `format`, saying which snapshot they were found in.
    pub fn render(&self, format: aas_audit::Format) -> Result<Vec<u8>> {
        let about = about_snapshot(&self.snapshot.info, self.asset_type.as_ref());
        Ok(self.audit.render(format, &about)?)
    }

    fn group_line(&self, group: usize, rules: &Rules<'_>) -> GroupLine {
        let g = &self.audit.verdict.groups[group];
        let key = (g.template, &*g.template_path, g.kind);
        GroupLine {
            group,
            template: self.audit.templates[usize::from(g.template)].title(),
            template_path: g.template_path.to_string(),
            kind: g.kind,
            severity: g.severity,
            rule: rules.get(&key).map_or_else(String::new, |r| r.to_string()),
            findings: g.count,
            shells: g.shells.len(),
        }
    }

    fn gap(&self, f: &Finding) -> Gap {
        let shell = self.audit.shell(f);
        let mut open: Vec<String> = match f.path.is_empty() {
            true => Vec::new(),
            false => f.path.split('/').map(str::to_owned).collect(),
        };
        let named = match f.kind {
            Kind::Missing | Kind::TooMany => open.pop(),
            _ => None,
        };
        Gap {
            aas_id: shell.id.clone(),
            id_short: shell.id_short.clone(),
            asset_type: shell.asset_type.clone(),
            submodel: f.submodel.to_string(),
            open,
            named,
            path: f.path.to_string(),
            kind: f.kind,
            severity: f.severity(),
            rule: f.rule.to_string(),
            seen: f.seen.to_string(),
        }
    }
}

/// The rule of each group's first finding (a group's findings share their place in the
/// template, so their rule).
type Rules<'a> = HashMap<(u16, &'a str, Kind), &'a str>;

fn first_rules(audit: &Audit) -> Rules<'_> {
    let mut rules = Rules::new();
    for f in &audit.findings {
        rules
            .entry((f.template, &f.template_path, f.kind))
            .or_insert(&f.rule);
    }
    rules
}
