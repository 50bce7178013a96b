//! What the desktop app sets up before its first thread: how WebKit draws and how much
//! garbage its page may gather (process-wide environment that WebKit's processes
//! inherit, so it must come first), the log, and the thread that gives freed memory back.
//! Glue of the desktop shell only: nothing here is what a test of the app's behaviour
//! wants.

mod heap;
mod page_heap;
mod rendering;

pub use heap::FreedMemory;

use aas_app::{start_app_logging, RecentErrors};

/// Prepares the desktop app's process; the log's level is read from `level_var`
/// (default `warn`). Call it first thing in `main`.
pub fn prepare(level_var: &str) -> RecentErrors {
    let software_drawing = rendering::choose_for_this_machine();
    let heap_limited = page_heap::limit_garbage();
    let recent_errors = start_app_logging(level_var);
    if software_drawing {
        tracing::info!("no GPU render node: WebKit draws without compositing");
    }
    if heap_limited {
        tracing::debug!("the page's heap is collected sooner than JavaScriptCore's defaults");
    }
    heap::return_freed_memory_in_background();
    recent_errors
}
