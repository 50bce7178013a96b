//! The AAS files that reach the app other than through Open file…: the path it was
//! started with (a double-click on an `.aasx` the desktop associates with it) and files
//! dropped on its window. Each is read by the app, never by the page, which learns only
//! what the file holds.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Mutex;

use aas_app::{App, FileOpened, IpcError};
use serde::Serialize;
use tauri::{AppHandle, DragDropEvent, Emitter, Manager, Runtime, WindowEvent};

/// The event the page hears when a dropped file was read (or why it was not).
pub const FILE_DROPPED: &str = "file-dropped";

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
        let read = app.state::<App>().open_file(path).await;
        let dropped = match read {
            Ok(opened) => Dropped {
                opened: Some(opened),
                error: None,
            },
            Err(e) => Dropped {
                opened: None,
                error: Some(e.into()),
            },
        };
        // Emitted as JSON: an event's payload is cloned for each listener.
        let sent = serde_json::to_value(dropped).map_err(tauri::Error::from);
        if let Err(e) = sent.and_then(|payload| app.emit(FILE_DROPPED, payload)) {
            tracing::warn!(error = %e, "a dropped file's outcome did not reach the page");
        }
    });
}
