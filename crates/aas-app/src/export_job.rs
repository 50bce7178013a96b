//! The export of what the user ticked: fetched with progress and Cancel, written in
//! bounded memory ([`crate::crawl_to_file`]).

use std::future::Future;
use std::path::PathBuf;

use aas_client::{CrawlPlan, Progress};
use aas_export::{Format, Serialisation, Target, V3Format};
use aas_model::AssetType;
use aas_source::{Pick, Selection};
use serde::{Deserialize, Serialize};

use crate::content::{today, SaveAs};
use crate::crawl_to_file::{crawl_to_file, ToFile, DEFAULT_HELD_BYTES};
use crate::{App, CrawlSummary, Error, Result};

/// What an export did: where it wrote (none when cancelled) and what it fetched.
#[derive(Debug, Serialize)]
pub struct ExportSummary {
    pub path: Option<PathBuf>,
    pub bytes: u64,
    pub loaded: CrawlSummary,
    /// For a V3.0 export: what the conversion changed, in a line, and where its report is.
    pub conversion: Option<String>,
}

/// What to export: the plant, its asset types, the ticked shells and the format, as
/// the page sends it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportRequest {
    pub plant: String,
    pub asset_types: Vec<String>,
    pub picks: Vec<Pick>,
    pub format: String,
}

impl App {
    /// Asks `choose` where to save, fetches the ticked shells and submodels (progress
    /// on `on_progress`, Cancel as for a snapshot), then writes them. Nothing is
    /// written when the user cancels the choice or the fetching.
    pub async fn export_selection<F, Fut>(
        &self,
        request: ExportRequest,
        choose: F,
        on_progress: impl Fn(&Progress),
    ) -> Result<ExportSummary>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let job = self.jobs.start("An export")?;
        let format: Format = request.format.parse().map_err(Error::BadRequest)?;
        if request.picks.is_empty() {
            return Err(Error::BadRequest("nothing is ticked in the tree".into()));
        }
        let plan = plan(request.plant, &request.asset_types)?;
        let selection = Selection::from(Some(request.picks));
        let types: Vec<&str> = plan.asset_types.iter().map(|t| t.code()).collect();
        let what = match types.as_slice() {
            [one] => one.to_string(),
            _ => "selection".to_owned(),
        };
        let offer = save_as(format, &[&plan.plant, &what, &today()]);
        let Some(path) = self.ask_where(offer, choose).await? else {
            return Ok(ExportSummary {
                path: None,
                bytes: 0,
                loaded: CrawlSummary::not_started(),
                conversion: None,
            });
        };
        let session = self.session();
        let to = ToFile {
            format,
            out: &path,
            maker: session.snapshot_source(),
            held_limit: DEFAULT_HELD_BYTES,
            write_if_cancelled: false,
        };
        let written = crawl_to_file(
            &session.client,
            &plan,
            &selection,
            to,
            &job.cancel,
            on_progress,
            || tracing::info!("export: past the answers held in memory; the rest goes through a temporary store"),
        )
        .await?;
        let loaded = CrawlSummary::of(&written.crawl);
        let Some(exported) = written.exported else {
            return Ok(ExportSummary {
                path: None,
                bytes: 0,
                loaded,
                conversion: None,
            });
        };
        self.exported(path.clone());
        Ok(ExportSummary {
            path: Some(path),
            bytes: exported.bytes,
            loaded,
            conversion: exported.conversion.map(|c| c.summary()),
        })
    }
}

pub(crate) fn plan(plant: String, asset_types: &[String]) -> Result<CrawlPlan> {
    let asset_types = asset_types
        .iter()
        .map(|t| AssetType::platform(t))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok(CrawlPlan::new(plant, asset_types))
}

/// The file name a save dialog suggests for what `about` says (plant, what, day) in
/// `format`: the format's mark last (`DEMO-01-machine-2026-11-27-v3.json`).
pub(crate) fn save_as(format: Format, about: &[&str]) -> SaveAs {
    let (mark, extension) = match format {
        Format::Raw => ("raw", "json"),
        Format::Env => ("", "json"),
        Format::Aasx => ("", "aasx"),
        Format::Csv => ("properties", "csv"),
        Format::V3(v3) => v3_name(v3),
    };
    let parts: Vec<&str> = about.iter().copied().chain([mark]).collect();
    SaveAs::describing(&parts, extension)
}

/// The mark and extension of a V3 format's file: `v3.json`, `v3.1.xml`, `v3.1-xml.aasx`.
fn v3_name(format: V3Format) -> (&'static str, &'static str) {
    let xml = format.serialisation == Serialisation::Xml;
    let mark = match (format.target, format.packaged && xml) {
        (Target::V3_0, false) => "v3",
        (Target::V3_0, true) => "v3-xml",
        (Target::V3_1, false) => "v3.1",
        (Target::V3_1, true) => "v3.1-xml",
    };
    let extension = match (format.packaged, xml) {
        (true, _) => "aasx",
        (false, true) => "xml",
        (false, false) => "json",
    };
    (mark, extension)
}
