//! What the Quality view asks: the audit of a snapshot of the plant (a job, with
//! progress and Cancel), kept while the view shows it, the gaps of one group of
//! findings, and the findings exported as CSV, JSON or XLSX.

use std::future::Future;
use std::path::PathBuf;

use aas_audit::Progress;

use crate::content::day_of;
use crate::plant_audit::{audit_templates, user_templates_dir};
use crate::save_export::write_bytes;
use crate::{lock, App, AuditRequest, AuditSummary, Error, GroupPage, Result, SaveAs};

/// Gaps a page may ask at once.
const MAX_GAPS_ASKED: usize = 1000;

impl App {
    /// Audits the snapshot `request` names (else the plant's newest complete one, see
    /// [`App::snapshot`]) against the built-in templates, the user's own folder and
    /// the files named; `on_progress` at each hundredth of the shells (on the audit's
    /// thread: a page need not hear of each of 10,000), Cancel as for the other jobs. The audit is kept for [`App::audit_group`] and
    /// [`App::export_audit`].
    pub async fn audit(
        &self,
        request: AuditRequest,
        on_progress: impl Fn(Progress) + Send + 'static,
    ) -> Result<AuditSummary> {
        let job = self.jobs.start("An audit")?;
        let (store, snapshot) = self.snapshot(request.snapshot, &request.plant)?;
        let templates = audit_templates(&user_templates_dir()?, &request.template_files)?;
        let audited = store
            .audit(
                snapshot.info.id,
                templates,
                request.options(),
                &job.cancel,
                move |p: Progress| {
                    if p.shells_done.is_multiple_of((p.shells / 100).max(1))
                        || p.shells_done == p.shells
                    {
                        on_progress(p);
                    }
                },
            )
            .await?;
        let summary = audited.summary();
        *lock(&self.audit) = Some(audited);
        Ok(summary)
    }

    /// Gaps `start..start + count` of group `group` of the audit kept.
    pub fn audit_group(&self, group: usize, start: usize, count: usize) -> Result<GroupPage> {
        let kept = lock(&self.audit);
        let audited = kept.as_ref().ok_or_else(no_audit)?;
        audited.group(group, start, count.min(MAX_GAPS_ASKED))
    }

    /// Asks `choose` where to save, then writes the findings of the audit kept in
    /// `format` (csv, json or xlsx); `None` when the user cancelled the choice.
    pub async fn export_audit<F, Fut>(&self, format: &str, choose: F) -> Result<Option<PathBuf>>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let format: aas_audit::Format = format.parse().map_err(Error::BadRequest)?;
        let prepare = || {
            let extension = format.extension();
            let audit = lock(&self.audit);
            let audit = audit.as_ref().ok_or_else(no_audit)?;
            let info = &audit.snapshot.info;
            let what = audit.asset_type.as_ref().map_or("all", |t| t.code());
            let parts = [
                info.plant.as_str(),
                what,
                "findings",
                day_of(&info.taken_at),
            ];
            Ok((SaveAs::describing(&parts, extension), ()))
        };
        let write = |path: PathBuf, ()| async move {
            let bytes = lock(&self.audit)
                .as_ref()
                .ok_or_else(no_audit)?
                .render(format)?;
            write_bytes(&path, &bytes)
        };
        let saved = self.save_export(prepare, choose, write).await?;
        Ok(saved.map(|(path, ())| path))
    }
}

fn no_audit() -> Error {
    Error::BadRequest("no audit was made yet: open the Quality view first".into())
}
