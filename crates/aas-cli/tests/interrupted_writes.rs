//! `kill -9` of a real `aasmd` at random moments while it writes an export, and as soon
//! as its temporary file appears (so the kill lands mid-write): the file is always
//! either the previous one, byte for byte, or the complete new one.

mod support;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use serde_json::Value;
use support::{temp_dir, DemoService, AASMD};

const KILLS: usize = 40;
/// Of those, the kills aimed at the write itself: sent when the temporary file appears.
const AIMED: usize = 20;

fn crawl_command(config: &Path, out: &Path, types: &[&str]) -> Command {
    let mut cmd = Command::new(AASMD);
    cmd.arg("--config")
        .arg(config)
        .args(["crawl", "--plant", "DEMO-01", "--format", "raw", "--out"])
        .arg(out);
    for t in types {
        cmd.args(["--type", t]);
    }
    cmd.stderr(std::process::Stdio::null());
    cmd
}

/// A complete export of the whole plant: valid JSON, not cancelled, every node there.
fn is_complete(bytes: &[u8], nodes: u64) -> bool {
    let Ok(bundle) = serde_json::from_slice::<Value>(bytes) else {
        return false;
    };
    bundle["manifest"]["cancelled"] == false
        && bundle["manifest"]["nodes"].as_u64() == Some(nodes)
        && bundle["nodes"].as_array().map(Vec::len) == Some(nodes as usize)
}

/// Returns once a temporary file appears in `dir` (the export is being written), or
/// after `limit`.
fn wait_for_temporary_file(dir: &Path, limit: std::time::Duration) {
    let started = Instant::now();
    while started.elapsed() < limit {
        let writing = std::fs::read_dir(dir)
            .expect("dir")
            .flatten()
            .any(|e| e.file_name().to_string_lossy().contains(".tmp-"));
        if writing {
            return;
        }
        std::thread::yield_now();
    }
}

#[test]
fn an_export_killed_at_random_points_leaves_the_old_file_or_the_complete_new_one() {
    let dir = temp_dir("kill-export");
    let sb = DemoService::start(&["--addr", "127.0.0.1:0", "--demo", "200"]);
    let config = dir.join("demo-service.json");
    sb.write_config(&config);
    let out = dir.join("plant.json");

    // The previous file: a smaller export (one asset type), so old and new differ.
    let status = crawl_command(&config, &out, &["machine"])
        .status()
        .expect("runs");
    assert!(status.success());
    let mut previous = std::fs::read(&out).expect("previous export");

    // One undisturbed run: its node count, and how long a run takes, to aim the kills.
    let started = Instant::now();
    let status = crawl_command(&config, &out, &[]).status().expect("runs");
    let run_time = started.elapsed();
    assert!(status.success());
    let nodes = serde_json::from_slice::<Value>(&std::fs::read(&out).expect("read")).expect("json")
        ["manifest"]["nodes"]
        .as_u64()
        .expect("node count");
    std::fs::write(&out, &previous).expect("restore the previous file");

    let (mut kept_old, mut new_complete, mut mid_write) = (0, 0, 0);
    for kill in 0..KILLS {
        let mut child = crawl_command(&config, &out, &[]).spawn().expect("spawn");
        if kill < AIMED {
            wait_for_temporary_file(&dir, run_time * 3);
        } else {
            // Most kills land near the end of a run, where the file is written.
            std::thread::sleep(run_time.mul_f64(0.5 + rand::random::<f64>() * 0.6));
        }
        child.kill().expect("SIGKILL");
        child.wait().expect("reaped");
        let now = std::fs::read(&out).expect("the file is always there");
        if now == previous {
            kept_old += 1;
        } else {
            assert!(
                is_complete(&now, nodes),
                "neither the previous file nor a complete new one ({} bytes)",
                now.len()
            );
            new_complete += 1;
            previous = now;
        }
        // A temporary file left beside the target: the kill came in the middle of writing.
        for entry in std::fs::read_dir(&dir).expect("dir").flatten() {
            if entry.file_name().to_string_lossy().contains(".tmp-") {
                mid_write += 1;
                std::fs::remove_file(entry.path()).expect("remove leftover");
            }
        }
    }
    eprintln!(
        "kill -9 of an export, {KILLS} times ({AIMED} aimed at the write): previous file kept {kept_old}, complete new file {new_complete}, killed while the temporary file was being written {mid_write}"
    );
    assert!(
        mid_write >= AIMED / 2,
        "only {mid_write} kills landed mid-write: the test did not test the write"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
