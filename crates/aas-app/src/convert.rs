//! Converting a V2 file the user has (environment JSON or AASX, V2.0.1 or BaSyx V1) to
//! AAS V3.0: the app's "Convert a V2 file to V3…" and `aasmd convert` alike.

use std::future::Future;
use std::path::{Path, PathBuf};

use aas_export::{Exported, Target};
use serde::Serialize;

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

/// The name a save dialog suggests for the conversion of `input`: `NAME-v3` with the
/// input's kind (a package stays a package).
fn offer(input: &Path) -> SaveAs {
    let stem = input.file_stem().unwrap_or_default().to_string_lossy();
    let package = input
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("aasx"));
    let extension = if package { "aasx" } else { "json" };
    SaveAs::new(format!("{stem}-v3.{extension}"), extension)
}

impl App {
    /// Asks `pick` for the V2 file and `choose` where to save its V3.0 conversion, then
    /// converts it; `None` when the user cancelled either. The job slot is taken
    /// first, so that a busy app says so before any dialog.
    pub async fn convert_file<P, PickFut, F, Fut>(
        &self,
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
        let Some(path) = self.ask_where(offer(&input), choose).await? else {
            return Ok(None);
        };
        let exported = convert_file(input, path.clone(), Target::V3_0, false).await?;
        self.exported(path.clone());
        Ok(Some(SavedFile::of(path, exported)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offered_name_keeps_the_kind_of_file() {
        assert_eq!(offer(Path::new("/x/plant.AASX")).name(), "plant-v3.aasx");
        assert_eq!(offer(Path::new("env.json")).name(), "env-v3.json");
    }
}
