//! The AAS files that reach the app other than through Open file…: the path it was
//! started with (a double-click on an `.aasx` the desktop associates with it) and files
//! dropped on its window. Each is read by the app, never by the page, which learns only
//! what the file holds.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Mutex;

use aas_app::{App, FileOpened, FileProgress, IpcError};
use serde::Serialize;
use tauri::ipc::{Channel, IpcResponse};
use tauri::{AppHandle, DragDropEvent, Manager, Runtime, WindowEvent};

/// The file named on the command line, until the page takes it.
#[derive(Debug, Default)]
pub struct StartFile(Mutex<Option<PathBuf>>);

impl StartFile {
    /// The first argument that is no option (WebDriver, for one, passes options).
    pub fn from_args(args: impl IntoIterator<Item = OsString>) -> Self {
        let path = (args.into_iter().skip(1))
            .find(|arg| !arg.to_string_lossy().starts_with('-'))
            .map(PathBuf::from);
        StartFile(Mutex::new(path))
    }

    /// The path, once: a page loaded again does not open it again.
    pub fn take(&self) -> Option<PathBuf> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// What the page is told of a dropped file: what it holds, or why it was not read.
#[derive(Debug, Serialize)]
pub struct Dropped {
    opened: Option<FileOpened>,
    error: Option<IpcError>,
}

/// Where the page hears of what happens to files away from its own calls (files
/// dropped, a file's reading under way): the channel it gave last (a page loaded again
/// gives a new one). A channel, not a Tauri event: listening to an event has the app run
/// a script in the page, which wakes a JavaScript engine in the app's own process for
/// good (3 MB, bench/RESULTS.md "The app before and after issue 48").
pub struct PageChannel<T>(Mutex<Option<Channel<T>>>);

impl<T> Default for PageChannel<T> {
    fn default() -> Self {
        PageChannel(Mutex::new(None))
    }
}

impl<T> std::fmt::Debug for PageChannel<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let set = self.0.lock().map(|c| c.is_some()).unwrap_or(false);
        f.debug_struct("PageChannel").field("set", &set).finish()
    }
}

impl<T: IpcResponse> PageChannel<T> {
    pub fn set(&self, channel: Channel<T>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(channel);
    }

    /// Tells the page `news` (`what` names it in the log when it cannot be told).
    pub fn send(&self, news: T, what: &str) {
        let channel = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let sent = match channel.as_ref() {
            Some(channel) => channel.send(news),
            None => return tracing::warn!("{what} before the page listened"),
        };
        if let Err(e) = sent {
            tracing::warn!(error = %e, "{what}: the page was not told");
        }
    }
}

/// Where the page hears of dropped files.
pub type DropChannel = PageChannel<Dropped>;

/// Where the page hears how far the reading of a file being opened has come, whichever
/// way it was opened.
pub type ReadingChannel = PageChannel<FileProgress>;

/// Tells the page, on the [`ReadingChannel`], how far a file's reading has come.
pub fn file_progress<R: Runtime>(
    handle: &AppHandle<R>,
) -> impl Fn(FileProgress) + Send + Sync + '_ {
    |p| (handle.state::<ReadingChannel>()).send(p, "a file's progress")
}

/// Opens the file at `path` for the tree, its progress told on the [`ReadingChannel`].
pub async fn open_file<R: Runtime>(
    handle: &AppHandle<R>,
    app: &App,
    path: PathBuf,
) -> Result<FileOpened, IpcError> {
    Ok(app.open_file(path, file_progress(handle)).await?)
}

/// Reads the first file dropped on the window (one file is shown at a time) and tells
/// the page.
pub fn on_window_event<R: Runtime>(app: &AppHandle<R>, event: &WindowEvent) {
    let WindowEvent::DragDrop(DragDropEvent::Drop { paths, .. }) = event else {
        return;
    };
    let Some(path) = paths.first().cloned() else {
        return;
    };
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        let read = open_file(&app, &app.state::<App>(), path).await;
        let dropped = match read {
            Ok(opened) => Dropped {
                opened: Some(opened),
                error: None,
            },
            Err(e) => Dropped {
                opened: None,
                error: Some(e),
            },
        };
        app.state::<DropChannel>()
            .send(dropped, "a file was dropped");
    });
}
