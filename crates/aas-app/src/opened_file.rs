//! An AAS file the user opened, or an AAS V3 server read whole as one: read into memory
//! once (aas-file), numbered for the page (which never names its path), its shells
//! grouped by asset type. Never written. The tree browses it through `source/file.rs`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::SystemTime;

use aas_client::{ElementAddress, Reading, Repository, V3Server};
use aas_file::{Contents, Element, EnvironmentAnswers, Serialisation, Shell, Submodel, Version};
use aas_model::AssetType;
use aas_source::Failure;
use base64::Engine as _;
use serde::Serialize;

use crate::{Error, Result};

/// A file (or a V3 server) read whole, as the tree browses it; or a file's shells,
/// shown while the rest of it is read.
#[derive(Debug)]
pub(crate) struct OpenedFile {
    /// What the page names it by: a number, never its path.
    pub id: u32,
    pub origin: Origin,
    pub contents: Contents,
    /// Of a file shown as soon as its shells were read: where the whole file comes.
    pub rest: Option<Rest>,
}

/// The whole of a file shown before its reading ended: nothing until the reading ends,
/// then the file read whole (the same number), or why it was not.
pub(crate) type Rest =
    tokio::sync::watch::Receiver<Option<std::result::Result<Arc<OpenedFile>, String>>>;

/// Where what was opened came from.
#[derive(Debug)]
pub(crate) enum Origin {
    /// A file on this computer.
    File(PathBuf),
    /// An AAS V3 server: its address, what it served as one environment (JSON), when,
    /// and what of it could not be read.
    V3Server {
        /// The server, to ask for a File element's content (with the credentials it was
        /// read with, held in memory while it is shown, never written), and where each
        /// submodel read by itself was.
        server: Arc<V3Server>,
        submodel_urls: HashMap<String, String>,
        address: String,
        environment: Vec<u8>,
        read_at: SystemTime,
        failures: Vec<Failure>,
        complete: bool,
    },
}

/// What was opened, as the page words it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OpenedKind {
    File,
    V3Server,
}

/// A file *Recent files* lists: its name, and where it is (shown on hover).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecentFile {
    pub name: String,
    pub path: PathBuf,
}

/// What the page is told of a file it opened.
#[derive(Debug, Clone, Serialize)]
pub struct FileOpened {
    /// The number [`SourceRef::File`](crate::SourceRef::File) names it by.
    pub file: u32,
    pub kind: OpenedKind,
    /// Its file name (a V3 server's address), for the banner and the title.
    pub name: String,
    /// Its asset types, in the tree's order, with their shells' counts.
    pub asset_types: Vec<AssetTypeCount>,
    pub shells: usize,
    pub submodels: usize,
    /// Each part read: its name in the package (or the file's), version, serialisation.
    pub parts: Vec<FilePart>,
    /// The package's thumbnail as a `data:` URL, where it is a picture the page shows.
    pub thumbnail: Option<String>,
    /// What could not be read (of a V3 server: a submodel it would not give), each in
    /// words; none of a file, which is read whole or not at all.
    pub failures: Vec<String>,
    /// Everything was read: no failure, not cancelled, within the bounds.
    pub complete: bool,
    /// Properties no class of the metamodel has (a newer writer's), kept as read: the
    /// first by their JSON paths, and how many in all.
    pub unknown: Vec<String>,
    pub unknown_count: usize,
}

/// How far the reading of a file being opened has come, told to the page a few times
/// a second while it takes long enough to be seen; the last is `done`.
#[derive(Debug, Clone, Serialize)]
pub struct FileProgress {
    /// Its file name, and the number it is opened as.
    pub name: String,
    pub file: u32,
    /// Bytes read of the file and of its parts as they inflate, and of how many known.
    pub read: u64,
    pub size: u64,
    /// The reading ended: opened, or (`failed`) failed or cancelled, the shells shown
    /// of it gone.
    pub done: bool,
    pub failed: bool,
    /// The file's shells, once all are read while the rest is still to come (told
    /// once): the tree shows them at once, as the file numbered as the whole will be.
    pub opened: Option<FileOpened>,
}

/// How far the reading of a V3 server has come, told to the page at each step; once every
/// shell is read (before their submodels, which take longer), `opened` names them, told
/// once: the tree shows them at once, as the server numbered as the whole will be.
#[derive(Debug, Clone, Serialize)]
pub struct ServerProgress {
    #[serde(flatten)]
    pub read: aas_client::RepositoryProgress,
    pub opened: Option<FileOpened>,
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
    /// The number the next file opened is named by.
    pub(crate) fn next_id() -> u32 {
        NEXT_FILE.fetch_add(1, Ordering::Relaxed)
    }

    /// Reads the AAS file at `path` (an AASX, or an environment as JSON or XML) off the
    /// async workers, telling `reading` how far it has come; it is named `id`.
    pub(crate) async fn read(
        path: PathBuf,
        id: u32,
        reading: Arc<aas_file::Reading>,
    ) -> Result<Self> {
        let read = path.clone();
        let contents = tokio::task::spawn_blocking(move || aas_file::read_watched(&read, &reading))
            .await
            .map_err(|e| Error::internal("reading a file stopped", e))??;
        Ok(OpenedFile {
            id,
            origin: Origin::File(path),
            contents,
            rest: None,
        })
    }

    /// The shells of the file at `path` named `id`, read before the rest of it, which
    /// `rest` gives once read.
    pub(crate) fn shells_first(path: PathBuf, id: u32, shells: Vec<Shell>, rest: Rest) -> Self {
        OpenedFile {
            id,
            origin: Origin::File(path),
            contents: Contents {
                shells,
                ..Contents::default()
            },
            rest: Some(rest),
        }
    }

    /// This file whole: itself, or, shown before its reading ended, the file once read.
    pub(crate) async fn whole(self: &Arc<Self>) -> Result<Arc<Self>> {
        let Some(rest) = &self.rest else {
            return Ok(Arc::clone(self));
        };
        let stopped = |why: &str| {
            Error::BadRequest(format!(
                "the file's reading stopped before its submodels: {why}; open it again (Ctrl+O)"
            ))
        };
        let mut rest = rest.clone();
        let ended = (rest.wait_for(Option::is_some).await).map_err(|_| stopped("ended"))?;
        match ended.as_ref() {
            Some(Ok(file)) => Ok(Arc::clone(file)),
            Some(Err(why)) => Err(stopped(why)),
            None => Err(stopped("ended")), // not so: waited for
        }
    }

    /// What a V3 server served, read as one environment, off the async workers; it is
    /// named `id`.
    pub(crate) async fn of_server(
        server: Arc<V3Server>,
        read: Repository,
        id: u32,
    ) -> Result<Self> {
        let (environment, reading) = read.into_environment();
        let complete = reading.complete();
        let Reading {
            address,
            submodel_urls,
            failures,
            read_at,
            ..
        } = reading;
        let (name, bytes) = (address.clone(), environment.clone());
        let contents = tokio::task::spawn_blocking(move || aas_file::read_bytes(&name, bytes))
            .await
            .map_err(|e| Error::internal("reading what the server sent stopped", e))??;
        Ok(OpenedFile {
            id,
            rest: None,
            origin: Origin::V3Server {
                server,
                submodel_urls,
                address,
                environment,
                read_at,
                failures,
                complete,
            },
            contents,
        })
    }

    /// The shells of V3 server `server`, read before their submodels, which `rest`
    /// gives once read; it is named `id`. Its shells are few beside the submodels: read
    /// here, on the reading's own task.
    pub(crate) fn shells_of_server(
        server: Arc<V3Server>,
        shells: Vec<aas_client::Item>,
        id: u32,
        rest: Rest,
    ) -> Result<Self> {
        let address = server.address().to_owned();
        let environment =
            serde_json::to_vec(&serde_json::json!({ "assetAdministrationShells": shells }))
                .map_err(|e| Error::internal("the shells a server sent", e))?;
        let contents = aas_file::read_bytes(&address, environment.clone())?;
        Ok(OpenedFile {
            id,
            rest: Some(rest),
            origin: Origin::V3Server {
                server,
                submodel_urls: HashMap::new(),
                address,
                environment,
                read_at: SystemTime::now(),
                failures: Vec::new(),
                complete: false,
            },
            contents,
        })
    }

    /// Its answers, as the store takes them in.
    pub(crate) fn answers(&self) -> Result<EnvironmentAnswers> {
        Ok(match &self.origin {
            Origin::File(path) => aas_file::answers(path)?,
            Origin::V3Server {
                address,
                environment,
                read_at,
                failures,
                complete,
                ..
            } => {
                let failures = failures.clone();
                aas_file::environment_answers(address, environment, *read_at, failures, *complete)?
            }
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
        let (kind, name, failures, complete) = match &self.origin {
            Origin::File(path) => (
                OpenedKind::File,
                file_name(path),
                Vec::new(),
                self.rest.is_none(),
            ),
            Origin::V3Server {
                address,
                failures,
                complete,
                ..
            } => (
                OpenedKind::V3Server,
                address.clone(),
                (failures.iter())
                    .map(|f| format!("{}: {}", f.url, f.message))
                    .collect(),
                *complete,
            ),
        };
        FileOpened {
            file: self.id,
            kind,
            name,
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
            failures,
            complete,
            unknown: self.contents.unknown.clone(),
            unknown_count: self.contents.unknown_count,
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
