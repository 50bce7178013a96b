//! An empty Tauri window: the floor under the app's memory figures.

#[path = "../../../src-tauri/src/desktop_process/rendering.rs"]
mod rendering;

fn main() {
    rendering::choose_for_this_machine();
    tauri::Builder::default()
        .run(tauri::generate_context!())
        .expect("the empty window did not start");
}
