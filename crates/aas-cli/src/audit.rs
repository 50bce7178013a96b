//! `aasmd audit`: aas-app's audit of a snapshot, with a progress bar on stderr (in a
//! terminal) and Ctrl-C; stdout (or --out) gets the summary the Quality view shows, or
//! every finding as CSV, JSON or XLSX. Exit code 1 when a finding is an error, so a
//! scheduled job can alert.

use std::io::Write;
use std::time::Duration;

use aas_app::{AuditRequest, AuditSummary, GroupLine};
use aas_audit::Format;
use aas_model::AssetType;
use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::{AuditArgs, ConnectionArgs};
use crate::crawl::cancel_on_ctrl_c;
use crate::error::CliError;
use crate::snapshot::{field, named_source, say_chosen, store_of};

pub async fn run(args: &ConnectionArgs, audit: &AuditArgs) -> Result<(), CliError> {
    let format = file_format(audit)?;
    if format == Some(Format::Xlsx) && audit.out.is_none() {
        return Err(CliError::Usage(
            "an XLSX file of findings is a binary file: name it with --out FILE.xlsx".into(),
        ));
    }
    let store = store_of(&audit.store)?;
    let source = named_source(args)?;
    let chosen = store.chosen(
        audit.shells.snapshot,
        audit.shells.plant.as_deref(),
        source.as_deref(),
    )?;
    if audit.shells.snapshot.is_none() {
        say_chosen("auditing", &chosen);
    }
    let request = AuditRequest {
        plant: chosen.plant.clone(),
        // Chosen above, in the store of --store.
        snapshot: None,
        asset_type: audit.shells.asset_type.clone(),
        templates: audit.templates.clone(),
        template_files: audit.template_files.clone(),
        languages: audit.languages.clone(),
    };
    let templates =
        aas_app::audit_templates(&aas_app::user_templates_dir()?, &request.template_files)?;
    let bar = progress_bar();
    let shown = bar.clone();
    let audited = store
        .audit(
            chosen.id,
            templates,
            request.options(),
            &cancel_on_ctrl_c(),
            move |p| {
                shown.set_length(p.shells as u64);
                shown.set_position(p.shells_done as u64);
            },
        )
        .await;
    bar.finish_and_clear();
    let audited = audited?;
    let summary = audited.summary();
    let bytes = match format {
        Some(format) => audited.render(format)?,
        None => text(&summary, audit.top).into_bytes(),
    };
    match &audit.out {
        Some(out) => aas_output::write_atomically(out, &bytes)?,
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(&bytes)?;
            stdout.flush()?;
        }
    }
    if format.is_some() {
        eprintln!(
            "aasmd: {} shells audited: {} errors, {} warnings",
            summary.shells, summary.errors, summary.warnings
        );
    }
    match summary.errors {
        0 => Ok(()),
        errors => Err(CliError::Findings {
            errors,
            shells: summary.shells_with_errors,
        }),
    }
}

/// The file format asked for; `None`: the text summary.
fn file_format(audit: &AuditArgs) -> Result<Option<Format>, CliError> {
    let name = match (audit.json, audit.csv) {
        (true, _) => "json",
        (_, true) => "csv",
        _ => audit.format.as_str(),
    };
    match name {
        "text" => Ok(None),
        name => name.parse().map(Some).map_err(CliError::Usage),
    }
}

/// Shells audited so far, on stderr when it is a terminal (indicatif hides it else).
fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} shells audited ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The summary for people: the snapshot, per template how many shells are complete,
/// the templates no shell carries, then the `top` most frequent groups of findings.
fn text(s: &AuditSummary, top: usize) -> String {
    let shells = |n: usize| shells(n, s.asset_type.clone());
    let mut out = format!(
        "Snapshot {} of {} ({}, taken {}): {} {} audited, {} without a known template{}\n",
        s.snapshot.info.id,
        field(&s.snapshot.info.plant),
        field(&s.snapshot.info.source),
        s.snapshot.info.taken_at,
        thousands(s.shells),
        shells(s.shells),
        thousands(s.without_template),
        match s.partial {
            true => " (the snapshot is partial: the verdict is of what it holds)",
            false => "",
        }
    );
    let (carried, not_carried): (Vec<_>, Vec<_>) = s.templates.iter().partition(|t| t.shells > 0);
    for t in carried {
        out += &format!(
            "{}: {} of {} {} complete",
            field(&t.title),
            thousands(t.complete),
            thousands(t.shells),
            shells(t.shells)
        );
        if t.near_misses > 0 {
            out += &format!(" ({} near misses, not judged)", thousands(t.near_misses));
        }
        out.push('\n');
    }
    if !not_carried.is_empty() {
        let titles: Vec<String> = not_carried.iter().map(|t| field(&t.title)).collect();
        out += &format!("No shell carries: {}\n", titles.join(", "));
    }
    out += &format!(
        "\n{} errors in {} {}, {} warnings",
        thousands(s.errors),
        thousands(s.shells_with_errors),
        shells(s.shells_with_errors),
        thousands(s.warnings)
    );
    if s.groups.is_empty() {
        out += "\n";
        return out;
    }
    out += "; the most frequent:\n";
    for g in s.groups.iter().take(top) {
        out += &group_line(g, s.asset_type.clone());
    }
    if let Some(more) = s.groups.len().checked_sub(top).filter(|m| *m > 0) {
        out += &format!(
            "… and {more} more kinds of finding (--format csv, json or xlsx lists every finding)\n"
        );
    }
    out
}

/// `  14  error    Digital Nameplate 1.0  ManufacturerName: wrong_model_type (…) in 14 shells`
fn group_line(g: &GroupLine, asset_type: Option<AssetType>) -> String {
    let place = match g.template_path.is_empty() {
        true => "the submodel".to_owned(),
        false => field(&g.template_path),
    };
    format!(
        "{:>8}  {:<7}  {}  {place}: {} ({}) in {} {}\n",
        thousands(g.findings),
        g.severity.name(),
        field(&g.template),
        g.kind.name(),
        field(&g.rule),
        thousands(g.shells),
        shells(g.shells, asset_type)
    )
}

/// `1 shell`, `3 machines`: the shells counted, by their asset type when one was audited.
fn shells(n: usize, asset_type: Option<AssetType>) -> String {
    match (n, asset_type) {
        (1, Some(t)) => t.code().to_owned(),
        (1, None) => "shell".to_owned(),
        (_, Some(t)) => plural(t.code()),
        (_, None) => "shells".to_owned(),
    }
}

/// `company` → `companies`, `machine` → `machines`.
fn plural(word: &str) -> String {
    match word.strip_suffix('y') {
        Some(stem) => format!("{stem}ies"),
        None => format!("{word}s"),
    }
}

/// `12345` → `12,345`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_in_thousands_and_types_in_the_plural() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(812), "812");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(plural("machine"), "machines");
        assert_eq!(plural("company"), "companies");
    }
}
