//! An AAS file the user opened (or an AAS V3 server read whole as one), as the tree's
//! source: its shells grouped by asset type, each shell's submodels, their elements,
//! from what was read when it was opened.

use std::path::PathBuf;
use std::sync::Arc;

use aas_client::{Item, RepositoryPlan, RepositoryProgress, Secret, Transport, V3Auth, V3Server};
use aas_file::{Element, Shell, Submodel, Value};
use aas_model::{AssetType, OutlineNode};
use aas_source::NodePath;

use super::{no_registry, Browse, Reply};
use crate::opened_file::{FileOpened, FileProgress, OpenedFile, RecentFile, ServerProgress};
use crate::{lock, App, Error, ProfileStore, Result};

/// How often a file's reading tells how far it has come: the first time after this
/// long, so that a file read at a glance shows no progress at all.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

impl App {
    /// Reads the AAS file at `path` (an AASX, or an environment as JSON or XML) and makes
    /// it the file the tree can browse. A reading that takes longer than a glance tells
    /// `on_progress` how far it has come, a few times a second, and at its end; and
    /// once its shells are all read (XML lists them first), they are the file the tree
    /// browses until the rest is read, told to `on_progress` to be shown at once.
    /// [`App::cancel_file_reading`] stops it: the file shown before stays, or, once the
    /// shells were shown, none.
    pub async fn open_file(
        &self,
        path: PathBuf,
        on_progress: impl Fn(FileProgress) + Send + Sync,
    ) -> Result<FileOpened> {
        let job = self.file_readings.start()?;
        let (name, id) = (recent_name(&path), OpenedFile::next_id());
        let told = |opened, done, failed| {
            let (read, size) = job.reading.progress();
            on_progress(FileProgress {
                name: name.clone(),
                file: id,
                read,
                size,
                done,
                failed,
                opened,
            });
        };
        let read = OpenedFile::read(path.clone(), id, Arc::clone(&job.reading));
        tokio::pin!(read);
        let mut ticks =
            tokio::time::interval_at(tokio::time::Instant::now() + PROGRESS_EVERY, PROGRESS_EVERY);
        let (mut ticked, mut shells_shown) = (false, None);
        let file = loop {
            tokio::select! {
                file = &mut read => break file,
                _ = ticks.tick() => {
                    ticked = true;
                    // Given once: the shells of the file's first payload that has any.
                    match job.reading.take_shells() {
                        Some(shells) => {
                            let (rest, shown) = tokio::sync::watch::channel(None);
                            let first = OpenedFile::shells_first(path.clone(), id, shells, shown);
                            let described = first.described();
                            // Browsable before the page hears of it.
                            *lock(&self.opened_file) = Some(Arc::new(first));
                            told(Some(described), false, false);
                            shells_shown = Some(rest);
                        }
                        None => told(None, false, false),
                    }
                }
            }
        };
        if ticked {
            // After the shells on the same channel: the page drops them on `failed`,
            // whenever the command's own answer comes.
            told(None, true, file.is_err());
        }
        let file = match file {
            Ok(file) => Arc::new(file),
            Err(e) => {
                if let Some(rest) = shells_shown {
                    // The shells shown go: their file was not read.
                    self.close_file(id);
                    rest.send_replace(Some(Err(e.to_string())));
                }
                return Err(e);
            }
        };
        let opened = file.described();
        self.keep_opened(&file, shells_shown.is_some());
        if let Some(rest) = shells_shown {
            rest.send_replace(Some(Ok(file)));
        }
        let mut preferences = self.preferences();
        preferences.opened(&std::path::absolute(&path).unwrap_or(path));
        // Not remembered is no reason to fail the opening itself.
        if let Err(e) = self.keep_preferences(&preferences) {
            tracing::warn!(error = %e, "the file is not among the recent files");
        }
        Ok(opened)
    }

    /// *Recent files*: those opened last, the newest first.
    pub fn recent_files(&self) -> Vec<RecentFile> {
        (self.preferences().recent_files.iter())
            .map(|path| RecentFile {
                name: recent_name(path),
                path: path.clone(),
            })
            .collect()
    }

    /// Opens the recent file listed `index`th, which the page showed by the name `shown`
    /// (the page names a file by its place in the list, never by a path; a list that
    /// changed since is refused). One that cannot be found any more leaves the list.
    pub async fn open_recent_file(
        &self,
        index: usize,
        shown: &str,
        on_progress: impl Fn(FileProgress) + Send + Sync,
    ) -> Result<FileOpened> {
        let mut preferences = self.preferences();
        let path = (preferences.recent_files.get(index).cloned())
            .filter(|path| recent_name(path) == shown)
            .ok_or_else(|| {
                Error::BadRequest("the recent files changed meanwhile: open the list again".into())
            })?;
        if !path.exists() {
            preferences.recent_files.remove(index);
            self.keep_preferences(&preferences)?;
            return Err(Error::BadRequest(format!(
                "{} is no longer there (moved or deleted): it left the recent files",
                path.display()
            )));
        }
        self.open_file(path, on_progress).await
    }

    /// Cancels the reading of the file being opened, if one is.
    pub fn cancel_file_reading(&self) {
        self.file_readings.cancel();
    }

    /// Reads the AAS V3 server at `address` whole (with the bearer `token` if it wants
    /// one: held in memory while the server is shown, for its attachments, never
    /// written) and makes it what the tree browses, as a file opened is. Proxies are the environment's; plain http only to this machine.
    pub async fn open_v3_server(
        &self,
        address: &str,
        token: Option<Secret>,
        on_progress: impl Fn(ServerProgress) + Send + Sync,
    ) -> Result<FileOpened> {
        let auth = token.map_or(V3Auth::None, V3Auth::Bearer);
        let server = V3Server::new(address.trim(), auth, &Transport::default())?;
        let opened = self.read_v3_server(server, on_progress).await?;
        // The demo's address changes with every start: offered anyway, not kept.
        if self.demo_v3_server() != Some(opened.name.as_str()) {
            let mut preferences = self.preferences();
            preferences.v3_server = Some(opened.name.clone());
            // Not remembered is no reason to fail the reading itself.
            if let Err(e) = self.keep_preferences(&preferences) {
                tracing::warn!(error = %e, "the V3 server's address is not remembered");
            }
        }
        Ok(opened)
    }

    /// Reads the V3 server of the saved profile `name` whole, asked as the profile says
    /// (its secrets from the keychain, its proxy and CA file), and remembers it to read
    /// again at the next start (the platform's profile used last stays as it was).
    pub async fn open_v3_profile(
        &self,
        name: &str,
        on_progress: impl Fn(ServerProgress) + Send + Sync,
    ) -> Result<FileOpened> {
        let profile = ProfileStore::app_default()?.find(name)?;
        let server = profile.v3_server(|kind| self.secrets.get(name, kind))?;
        let opened = self.read_v3_server(server, on_progress).await?;
        let mut preferences = self.preferences();
        preferences.last_v3_profile = Some(name.to_owned());
        // Not remembered is no reason to fail the reading itself.
        if let Err(e) = self.keep_preferences(&preferences) {
            tracing::warn!(error = %e, "the V3 server's profile is not remembered");
        }
        Ok(opened)
    }

    /// Reads `server` whole and makes it what the tree browses. One job: Cancel ends
    /// the reading, and what was read is shown, marked partial. Once every shell is read,
    /// they are what the tree browses until the rest is read, told to `on_progress` to be
    /// shown at once (a shell's submodels are answered once all are read).
    async fn read_v3_server(
        &self,
        server: V3Server,
        on_progress: impl Fn(ServerProgress) + Send + Sync,
    ) -> Result<FileOpened> {
        let job = self.jobs.start("Reading the V3 server")?;
        let (server, id) = (Arc::new(server), OpenedFile::next_id());
        let progress = |read| on_progress(ServerProgress { read, opened: None });
        let (rest, shown) = tokio::sync::watch::channel(None);
        let mut shells_shown = false;
        let mut shells_read = |shells: Vec<Item>| {
            match OpenedFile::shells_of_server(Arc::clone(&server), shells, id, shown.clone()) {
                Ok(first) => {
                    let opened = first.described();
                    // Browsable before the page hears of it.
                    *lock(&self.opened_file) = Some(Arc::new(first));
                    shells_shown = true;
                    let read = RepositoryProgress {
                        shells: opened.shells,
                        ..RepositoryProgress::default()
                    };
                    let opened = Some(opened);
                    on_progress(ServerProgress { read, opened });
                }
                // Shown with the rest, then.
                Err(e) => tracing::warn!(error = %e, "the server's shells are not shown first"),
            }
        };
        let plan = RepositoryPlan::default();
        let read = (server.read_repository(plan, &job.cancel, &progress, &mut shells_read)).await;
        let file = match read {
            Ok(read) => OpenedFile::of_server(Arc::clone(&server), read, id).await,
            Err(e) => Err(e.into()),
        };
        let file = match file {
            Ok(file) => Arc::new(file),
            Err(e) => {
                if shells_shown {
                    // The shells shown go: their server was not read.
                    self.close_file(id);
                }
                rest.send_replace(Some(Err(e.to_string())));
                return Err(e);
            }
        };
        let opened = file.described();
        self.keep_opened(&file, shells_shown);
        rest.send_replace(Some(Ok(file)));
        Ok(opened)
    }

    /// Makes `file`, read whole, the one the tree browses (one at a time). Once its
    /// shells were shown (`shells_shown`), the user may have closed it or opened another
    /// meanwhile: that stays.
    fn keep_opened(&self, file: &Arc<OpenedFile>, shells_shown: bool) {
        let mut opened = lock(&self.opened_file);
        if !shells_shown || opened.as_ref().is_some_and(|f| f.id == file.id) {
            *opened = Some(Arc::clone(file));
        }
    }

    /// Close file (or Close server): the file numbered `id` is let go with all it holds,
    /// a server's token among it; one opened since stays.
    pub fn close_file(&self, id: u32) {
        let mut opened = lock(&self.opened_file);
        if opened.as_ref().is_some_and(|f| f.id == id) {
            *opened = None;
        }
    }

    /// The opened file numbered `id`, read whole (waited for, if its shells were shown
    /// before the rest was read).
    pub(crate) async fn whole_file(&self, id: u32) -> Result<Arc<OpenedFile>> {
        self.opened_file(id)?.whole().await
    }

    /// The opened file numbered `id`: its shells alone while the rest is read.
    pub(crate) fn opened_file(&self, id: u32) -> Result<Arc<OpenedFile>> {
        (lock(&self.opened_file).as_ref())
            .filter(|file| file.id == id)
            .cloned()
            .ok_or_else(|| {
                Error::BadRequest("this file is no longer open: open it again (Ctrl+O)".into())
            })
    }
}

/// What *Recent files* calls the file at `path`: its name.
fn recent_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

// Browsed as held: the page may close the file while a reply is on its way.
impl Browse for Arc<OpenedFile> {
    fn is_the_service(&self) -> bool {
        false
    }

    fn children<'a>(&'a self, node: &'a NodePath) -> Reply<'a, Vec<OutlineNode>> {
        Box::pin(async move {
            Ok(match node {
                NodePath::AasList { asset_type } => {
                    self.shells_of(asset_type).map(shell_outline).collect()
                }
                // Shown as soon as its shells were read, a file gives the rest once read.
                NodePath::Submodels { aas_id } => {
                    let file = self.whole().await?;
                    let shell = file.shell(aas_id)?;
                    file.submodels_of(shell).map(submodel_outline).collect()
                }
                NodePath::Elements { aas_id, submodel } => {
                    let file = self.whole().await?;
                    let found = file.submodel(aas_id, submodel)?;
                    found.elements.iter().map(element_outline).collect()
                }
                NodePath::Registry => return Err(no_registry()),
            })
        })
    }

    fn shell_count<'a>(&'a self, asset_type: &'a AssetType) -> Reply<'a, usize> {
        Box::pin(async move { Ok(self.shells_of(asset_type).count()) })
    }

    fn shell_json<'a>(&'a self, _: &'a AssetType, aas_id: &'a str) -> Reply<'a, String> {
        Box::pin(async move { Ok(self.shell(aas_id)?.raw.to_string()) })
    }
}

/// A shell as an AAS list gives it to the page: without its text, which the page asks
/// for when it shows the shell.
fn shell_outline(shell: &Shell) -> OutlineNode {
    OutlineNode {
        id_short: shell.id_short.clone(),
        id: Some(shell.id.clone()),
        model_type: Some("AssetAdministrationShell".into()),
        ..OutlineNode::default()
    }
}

fn submodel_outline(submodel: &Submodel) -> OutlineNode {
    OutlineNode {
        id_short: submodel.id_short.clone(),
        id: Some(submodel.id.clone()),
        model_type: Some("Submodel".into()),
        semantic_id: submodel.semantic_id.clone(),
        raw: submodel.raw.to_string(),
        ..OutlineNode::default()
    }
}

fn element_outline(element: &Element) -> OutlineNode {
    OutlineNode {
        id_short: element.id_short.clone(),
        model_type: Some(element.model_type.into()),
        value: shown(&element.value),
        value_type: element.value_type.clone(),
        semantic_id: element.semantic_id.clone(),
        children: element.children.iter().map(element_outline).collect(),
        raw: element.raw.to_string(),
        ..OutlineNode::default()
    }
}

/// An element's value as the tree shows it, as it shows the service's.
fn shown(value: &Value) -> Option<String> {
    match value {
        Value::None => None,
        Value::Text(text) => text.clone(),
        Value::Languages(texts) => {
            aas_model::languages_text(texts.iter().map(|(l, t)| (l.as_str(), t.as_str())))
        }
        Value::Range { min, max } => Some(aas_model::range_text(
            min.as_deref().unwrap_or_default(),
            max.as_deref().unwrap_or_default(),
        )),
        Value::File { value, .. } => value.clone(),
        Value::Blob { bytes, .. } => bytes.map(|n| format!("{n} bytes")),
        Value::Reference(keys) => keys.as_ref().and_then(|k| k.last().cloned()),
    }
}
