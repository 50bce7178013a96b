//! An empty Tauri window: the floor under the app's memory figures.

fn main() {
    tauri::Builder::default()
        .run(tauri::generate_context!())
        .expect("the empty window did not start");
}
