//! An AAS file the user opened: read whole into memory once (aas-file), numbered for
//! the page (which never names its path), its shells grouped by asset type. Never
//! written. The tree browses it through `source/file.rs`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use aas_client::ElementAddress;
use aas_file::{Contents, Element, Serialisation, Shell, Submodel, Version};
use aas_model::AssetType;
use base64::Engine as _;
use serde::Serialize;

use crate::{Error, Result};

/// A file read whole, as the tree browses it.
#[derive(Debug)]
pub(crate) struct OpenedFile {
    /// What the page names it by: a number, never its path.
    pub id: u32,
    pub path: PathBuf,
    pub contents: Contents,
}

/// What the page is told of a file it opened.
#[derive(Debug, Clone, Serialize)]
pub struct FileOpened {
    /// The number [`SourceRef::File`](crate::SourceRef::File) names it by.
    pub file: u32,
    /// Its file name, for the banner and the title.
    pub name: String,
    /// Its asset types, in the tree's order, with their shells' counts.
    pub asset_types: Vec<AssetTypeCount>,
    pub shells: usize,
    pub submodels: usize,
    /// Each part read: its name in the package (or the file's), version, serialisation.
    pub parts: Vec<FilePart>,
    /// The package's thumbnail as a `data:` URL, where it is a picture the page shows.
    pub thumbnail: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct AssetTypeCount {
    pub asset_type: AssetType,
    pub shells: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct FilePart {
    pub name: String,
    pub version: Version,
    pub serialisation: Serialisation,
}

/// The files opened in this run are numbered in turn.
static NEXT_FILE: AtomicU32 = AtomicU32::new(1);

impl OpenedFile {
    /// Reads the AAS file at `path` (an AASX, or an environment as JSON or XML) off the
    /// async workers.
    pub(crate) async fn read(path: PathBuf) -> Result<Self> {
        let read = path.clone();
        let contents = tokio::task::spawn_blocking(move || aas_file::read(&read))
            .await
            .map_err(|e| Error::internal("reading a file stopped", e))??;
        Ok(OpenedFile {
            id: NEXT_FILE.fetch_add(1, Ordering::Relaxed),
            path,
            contents,
        })
    }

    pub(crate) fn described(&self) -> FileOpened {
        let mut asset_types: Vec<AssetTypeCount> = Vec::new();
        for shell in &self.contents.shells {
            let asset_type = shell.group();
            match asset_types.iter_mut().find(|c| c.asset_type == asset_type) {
                Some(count) => count.shells += 1,
                None => asset_types.push(AssetTypeCount {
                    asset_type,
                    shells: 1,
                }),
            }
        }
        asset_types.sort_by(|a, b| a.asset_type.cmp(&b.asset_type));
        FileOpened {
            file: self.id,
            name: file_name(&self.path),
            asset_types,
            shells: self.contents.shells.len(),
            submodels: self.contents.submodels.len(),
            parts: (self.contents.parts.iter())
                .map(|(name, version, serialisation)| FilePart {
                    name: name.clone(),
                    version: *version,
                    serialisation: *serialisation,
                })
                .collect(),
            thumbnail: (self.contents.thumbnail.as_ref())
                .and_then(|(name, bytes)| picture_url(name, bytes)),
        }
    }

    pub(crate) fn shells_of<'a>(
        &'a self,
        asset_type: &'a AssetType,
    ) -> impl Iterator<Item = &'a Shell> {
        (self.contents.shells.iter()).filter(move |s| s.group() == *asset_type)
    }

    pub(crate) fn shell(&self, aas_id: &str) -> Result<&Shell> {
        (self.contents.shells.iter())
            .find(|s| s.id == aas_id)
            .ok_or_else(|| Error::BadRequest(format!("the file has no shell {aas_id}")))
    }

    /// The submodel of shell `aas_id` whose idShort is `id_short`.
    pub(crate) fn submodel(&self, aas_id: &str, id_short: &str) -> Result<&Submodel> {
        let shell = self.shell(aas_id)?;
        self.submodels_of(shell)
            .find(|sm| sm.id_short.as_deref() == Some(id_short))
            .ok_or_else(|| {
                Error::BadRequest(format!(
                    "shell {aas_id} has no submodel {id_short} in this file"
                ))
            })
    }

    /// The element `at` names: by idShorts from the submodel down.
    pub(crate) fn element(&self, at: &ElementAddress) -> Result<&Element> {
        let submodel = self.submodel(&at.aas_id, &at.submodel)?;
        let mut elements = &submodel.elements;
        let mut found = None;
        for id_short in &at.id_shorts {
            let element = (elements.iter())
                .find(|e| e.id_short.as_deref() == Some(id_short.as_str()))
                .ok_or_else(|| {
                    Error::BadRequest(format!(
                        "{} has no element {}",
                        at.submodel,
                        at.id_shorts.join(".")
                    ))
                })?;
            elements = &element.children;
            found = Some(element);
        }
        found.ok_or_else(|| Error::BadRequest("no element named".into()))
    }

    /// The submodels `shell` references that the file holds, in the shell's order (a
    /// reference to a submodel kept elsewhere has nothing here to show).
    pub(crate) fn submodels_of<'a>(
        &'a self,
        shell: &'a Shell,
    ) -> impl Iterator<Item = &'a Submodel> {
        (shell.submodels.iter())
            .filter_map(|id| self.contents.submodels.iter().find(|sm| &sm.id == id))
    }
}

/// A picture as a `data:` URL, its type by its name's extension; `None` for anything but
/// the raster formats a page shows (an SVG may carry script: not shown).
fn picture_url(name: &str, bytes: &[u8]) -> Option<String> {
    let extension = name.rsplit_once('.')?.1.to_ascii_lowercase();
    let media_type = match extension.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "bmp" => "image/bmp",
        _ => return None,
    };
    let base64 = base64::engine::general_purpose::STANDARD.encode(bytes);
    Some(format!("data:{media_type};base64,{base64}"))
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
