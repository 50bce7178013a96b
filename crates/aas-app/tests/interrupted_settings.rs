//! `kill -9` of a process in the middle of saving the settings file (the profiles,
//! through `ProfileStore::save`, as the app and `aasmd` do), repeated at random
//! moments: the file is always a complete settings file, never half of one.
//!
//! The writer is this test binary itself, started again as a child process that saves
//! the profiles in a loop, each save a new generation.

use std::process::{Command, Stdio};
use std::time::Duration;

use aas_app::{Profile, ProfileStore};
use aas_client::ClientAuth;

const WRITER_ENV: &str = "AAS_SETTINGS_WRITER";
const KILLS: usize = 40;
/// Enough profiles that one save takes a while, so kills land inside writes.
const PROFILES: usize = 3000;

fn profiles(generation: u64) -> Vec<Profile> {
    (0..PROFILES)
        .map(|i| Profile {
            name: format!("Plant {i}"),
            registry_url: "https://registry.example.com".into(),
            gateway_url: "https://gateway.example.com".into(),
            auth_url: "https://auth.example.com".into(),
            realm: format!("generation-{generation}"),
            client_id: "aas-browser".into(),
            client_auth: ClientAuth::Form,
            token_url: None,
            plants: vec!["P1".into(), "P2".into()],
            asset_types: vec![],
            transport: Default::default(),
            ..Default::default()
        })
        .collect()
}

/// The child: saves generation after generation until it is killed.
#[test]
#[ignore = "run as a child process by the test below"]
fn settings_writer_child() {
    let Some(path) = std::env::var_os(WRITER_ENV) else {
        return;
    };
    let store = ProfileStore::at(path);
    // Each child goes on from the generation on disk, so a file never goes back in time.
    let first = generation(&store).unwrap_or(0) + 1;
    for generation in first.. {
        store.save(&profiles(generation)).expect("save");
    }
}

/// Which generation a settings file holds, if it is complete and consistent.
fn generation(store: &ProfileStore) -> Result<u64, String> {
    let loaded = store.load().map_err(|e| e.to_string())?;
    if loaded.len() != PROFILES {
        return Err(format!("{} profiles instead of {PROFILES}", loaded.len()));
    }
    let realm = &loaded[0].realm;
    if loaded.iter().any(|p| &p.realm != realm) {
        return Err("profiles of two generations in one file".into());
    }
    let text = std::fs::read_to_string(store.path()).map_err(|e| e.to_string())?;
    if !text.contains("\"theme\": \"dark\"") {
        return Err("the other settings were lost".into());
    }
    realm
        .strip_prefix("generation-")
        .and_then(|g| g.parse().ok())
        .ok_or_else(|| format!("unexpected realm {realm}"))
}

#[test]
fn a_settings_write_killed_at_random_points_leaves_a_complete_file() {
    let dir = std::env::temp_dir().join(format!(
        "aas-kill-settings-{}-{}",
        std::process::id(),
        rand::random::<u64>()
    ));
    std::fs::create_dir_all(&dir).expect("dir");
    let store = ProfileStore::at(dir.join("settings.json"));
    std::fs::write(store.path(), br#"{"theme":"dark"}"#).expect("other settings");
    store.save(&profiles(0)).expect("first save");

    let (mut last, mut leftovers) = (0, 0);
    // Kills land at a random moment of the first `window` ms of a writer's life; the
    // window widens while no kill comes after a save (on a loaded machine the writer
    // starts and saves slowly: 40 kills before its first save proved nothing).
    let mut window = 400;
    for _ in 0..KILLS {
        let mut child = Command::new(std::env::current_exe().expect("test binary"))
            .args(["--exact", "settings_writer_child", "--ignored", "--quiet"])
            .env(WRITER_ENV, store.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("writer starts");
        std::thread::sleep(Duration::from_millis(50 + rand::random::<u64>() % window));
        child.kill().expect("SIGKILL");
        child.wait().expect("reaped");
        let now = generation(&store).unwrap_or_else(|e| panic!("after a kill: {e}"));
        assert!(
            now >= last,
            "generation {now} after {last}: an older file came back"
        );
        if now == last {
            window = (window * 3 / 2).min(10_000);
        }
        last = now;
        // A temporary file beside the settings: the kill came in the middle of a save.
        for entry in std::fs::read_dir(&dir).expect("dir").flatten() {
            if entry.file_name().to_string_lossy().contains(".tmp-") {
                leftovers += 1;
                std::fs::remove_file(entry.path()).expect("remove leftover");
            }
        }
    }
    eprintln!(
        "kill -9 of a settings writer, {KILLS} times: every file complete; killed mid-save (temporary file left) {leftovers} times; last generation {last}"
    );
    assert!(last > 0, "the writer got to save at all");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
