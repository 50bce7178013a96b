//! Converting an AAS file the user has (V2.0.1 or BaSyx V1, V3.0 or V3.1; JSON, XML or
//! AASX) to AAS V3.0 or V3.1: the app's "Convert a file…" and `aasmd convert` alike;
//! and the report of the last conversion, read back for *Show report*.

use std::future::Future;
use std::path::{Path, PathBuf};

use aas_export::{read_report, report_path, ConversionReport, Exported, Target};
use serde::{Deserialize, Serialize};

use crate::content::SaveAs;
use crate::{App, Error, Result};

/// A file the app wrote where the user chose, and for a V3.0 file what the conversion
/// changed, in a line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SavedFile {
    pub path: PathBuf,
    pub bytes: u64,
    pub conversion: Option<String>,
}

impl SavedFile {
    pub(crate) fn of(path: PathBuf, exported: Exported) -> Self {
        SavedFile {
            path,
            bytes: exported.bytes,
            conversion: exported.conversion.map(|c| c.summary()),
        }
    }
}

/// Converts `input` to `target` at `output` (AASX when it ends in `.aasx`, else JSON),
/// its report beside it; with `strict`, the first change the target needs fails it. Off
/// the async workers: a large file takes seconds.
pub async fn convert_file(
    input: PathBuf,
    output: PathBuf,
    target: Target,
    strict: bool,
) -> Result<Exported> {
    tokio::task::spawn_blocking(move || Ok(aas_export::convert(&input, &output, target, strict)?))
        .await
        .map_err(Error::stopped)?
}

/// What a conversion writes: the version, and the kind of file (which the name's
/// extension says to the converter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct ConvertTo {
    #[serde(deserialize_with = "target_named")]
    pub target: Target,
    pub kind: ConvertedKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConvertedKind {
    Json,
    Xml,
    /// An AASX package (a JSON spec part).
    Aasx,
}

impl ConvertedKind {
    fn extension(self) -> &'static str {
        match self {
            ConvertedKind::Json => "json",
            ConvertedKind::Xml => "xml",
            ConvertedKind::Aasx => "aasx",
        }
    }
}

fn target_named<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Target, D::Error> {
    match String::deserialize(d)?.as_str() {
        "v3.0" => Ok(Target::V3_0),
        "v3.1" => Ok(Target::V3_1),
        other => Err(serde::de::Error::custom(format!(
            "no AAS version {other:?}: v3.0 or v3.1"
        ))),
    }
}

/// The name a save dialog suggests for the conversion of `input`: `NAME-v3.1.json`.
fn offer(input: &Path, to: ConvertTo) -> SaveAs {
    let stem = input.file_stem().unwrap_or_default().to_string_lossy();
    let extension = to.kind.extension();
    let version = to.target.version();
    SaveAs::new(format!("{stem}-v{version}.{extension}"), extension)
}

/// The most changes of each rule *Show report* lists (the report holds them all).
const SHOWN_PER_RULE: usize = 100;

impl App {
    /// Asks `pick` for the AAS file and `choose` where to save its conversion `to`, then
    /// converts it; `None` when the user cancelled either. The job slot is taken
    /// first, so that a busy app says so before any dialog.
    pub async fn convert_file<P, PickFut, F, Fut>(
        &self,
        to: ConvertTo,
        pick: P,
        choose: F,
    ) -> Result<Option<SavedFile>>
    where
        P: FnOnce() -> PickFut,
        PickFut: Future<Output = Result<Option<PathBuf>>>,
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let _job = self.jobs.start("A conversion")?;
        let Some(input) = pick().await? else {
            return Ok(None);
        };
        let Some(path) = self.ask_where(offer(&input, to), choose).await? else {
            return Ok(None);
        };
        let exported = convert_file(input, path.clone(), to.target, false).await?;
        self.exported(path.clone());
        Ok(Some(SavedFile::of(path, exported)))
    }

    /// The report beside the file the last export or conversion wrote, rule by rule.
    pub async fn conversion_report(&self) -> Result<ConversionReport> {
        let written = self.last_export()?;
        let path = report_path(&written);
        if !path.is_file() {
            return Err(Error::BadRequest(format!(
                "{} has no conversion report beside it: only V3 exports and conversions write one",
                written.display()
            )));
        }
        tokio::task::spawn_blocking(move || Ok(read_report(&path, SHOWN_PER_RULE)?))
            .await
            .map_err(Error::stopped)?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offered_name_says_the_version_and_kind() {
        let to = |target, kind| ConvertTo { target, kind };
        let aasx = to(Target::V3_1, ConvertedKind::Aasx);
        assert_eq!(
            offer(Path::new("/x/plant.AASX"), aasx).name(),
            "plant-v3.1.aasx"
        );
        let xml = to(Target::V3_0, ConvertedKind::Xml);
        assert_eq!(offer(Path::new("env.json"), xml).name(), "env-v3.0.xml");
    }

    #[test]
    fn the_page_names_the_version_and_kind() {
        let read = |json: &str| serde_json::from_str::<ConvertTo>(json);
        let to = read(r#"{"target": "v3.1", "kind": "xml"}"#).expect("reads");
        assert_eq!((to.target, to.kind), (Target::V3_1, ConvertedKind::Xml));
        assert!(read(r#"{"target": "v4", "kind": "xml"}"#).is_err());
        assert!(read(r#"{"target": "v3.0", "kind": "pdf"}"#).is_err());
    }
}
