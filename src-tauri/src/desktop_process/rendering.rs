//! How WebKitGTK draws the window. Without a GPU (virtual machines, remote desktops,
//! Xvfb) its compositing runs on Mesa's software renderer: on the benchmark machine
//! that cost the web process ~95 MB and tripled the time of a scrolled frame
//! (bench/APP-RESULTS.md). So where the system has no GPU render node, WebKit is asked
//! to draw without compositing. A `WEBKIT_DISABLE_COMPOSITING_MODE` the user set wins.
//!
//! Shared with bench/empty-window (by `#[path]`), so its memory floor is drawn the same way.

use std::path::Path;

const COMPOSITING_SWITCH: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";
const RENDER_NODES: &str = "/dev/dri";

/// Chooses before any thread starts (the environment is process-wide); returns
/// whether compositing was turned off.
pub fn choose_for_this_machine() -> bool {
    if !cfg!(target_os = "linux") || std::env::var_os(COMPOSITING_SWITCH).is_some() {
        return false;
    }
    let off = !has_render_node(Path::new(RENDER_NODES));
    if off {
        std::env::set_var(COMPOSITING_SWITCH, "1");
    }
    off
}

/// Whether `dir` holds a DRM render node (`renderD128`, …): a GPU Mesa can draw with.
fn has_render_node(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
    })
}

#[cfg(test)]
mod tests {
    use super::has_render_node;

    #[test]
    fn a_render_node_means_a_gpu() {
        let dir = std::env::temp_dir().join(format!("aas-browser-dri-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        assert!(!has_render_node(&dir), "an empty /dev/dri has no GPU");
        std::fs::write(dir.join("card0"), "").expect("card0");
        assert!(
            !has_render_node(&dir),
            "a display-only card0 is no render node"
        );
        std::fs::write(dir.join("renderD128"), "").expect("renderD128");
        assert!(has_render_node(&dir));
        std::fs::remove_dir_all(&dir).expect("removed");
        assert!(!has_render_node(&dir), "no /dev/dri at all");
    }
}
