//! One finding in words, as the CSV, the JSON and the XLSX give it: the shell, the
//! template and the rule named, so a row reads on its own.

use serde::Serialize;

use crate::{Audit, Finding};

pub(crate) const COLUMNS: [&str; 12] = [
    "shell_id",
    "shell_id_short",
    "asset_type",
    "submodel",
    "path",
    "template",
    "template_version",
    "template_path",
    "kind",
    "severity",
    "rule",
    "seen",
];

/// One finding in words.
#[derive(Serialize)]
pub(crate) struct Row<'a> {
    shell_id: &'a str,
    shell_id_short: &'a str,
    asset_type: &'a str,
    submodel: &'a str,
    path: &'a str,
    template: &'a str,
    template_version: &'a str,
    template_path: &'a str,
    kind: &'static str,
    severity: &'static str,
    rule: &'a str,
    seen: &'a str,
}

impl<'a> Row<'a> {
    pub(crate) fn of(audit: &'a Audit, f: &'a Finding) -> Self {
        let shell = audit.shell(f);
        let template = audit.template(f);
        Row {
            shell_id: &shell.id,
            shell_id_short: &shell.id_short,
            asset_type: shell
                .asset_type
                .as_ref()
                .map(|t| t.code())
                .unwrap_or_default(),
            submodel: &f.submodel,
            path: &f.path,
            template: &template.name,
            template_version: &template.version,
            template_path: &f.template_path,
            kind: f.kind.name(),
            severity: f.severity().name(),
            rule: &f.rule,
            seen: &f.seen,
        }
    }

    /// In the order of [`COLUMNS`].
    pub(crate) fn fields(&self) -> [&'a str; 12] {
        [
            self.shell_id,
            self.shell_id_short,
            self.asset_type,
            self.submodel,
            self.path,
            self.template,
            self.template_version,
            self.template_path,
            self.kind,
            self.severity,
            self.rule,
            self.seen,
        ]
    }
}
