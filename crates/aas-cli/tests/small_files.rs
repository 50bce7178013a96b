//! Files aasmd reads whole (issue 43, item 12): the secret files `AASMD_*_FILE` name
//! and audit templates. A FIFO hung a scheduled take forever, `/dev/zero` grew until
//! memory ran out, a 1 GB file was read whole. Each must be a regular file within a
//! small limit (64 KiB for a secret, 4 MiB for a template), else a usage error (exit 2)
//! names the file, never what it holds. Each run has a deadline and a 4 GiB address
//! space, so a hang or an unbounded read fails the test instead of the machine.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::{snapshot_of_demo, temp_dir, AASMD};

/// What a run printed on stderr and its exit code; `None` when it had to be killed at
/// the deadline or was killed by a signal (an abort when memory ran out).
struct Run {
    stderr: String,
    code: Option<i32>,
    hung: bool,
}

/// `aasmd ARGS` with `env`, under `ulimit -v` 4 GiB, killed after 20 s.
fn run(args: &[&str], env: &[(&str, &Path)]) -> Run {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 4194304 && exec \"$0\" \"$@\"")
        .arg(AASMD)
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, *v)))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("aasmd runs");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(20) {
            child.kill().expect("kill");
            child.wait().expect("reaped");
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr)
        .expect("stderr");
    Run {
        stderr,
        code: status.and_then(|s| s.code()),
        hung: status.is_none(),
    }
}

/// The files no reader may take: a FIFO nobody writes, `/dev/zero`, a folder, and a
/// sparse file of `size` bytes that starts with a canary; each with the words that must
/// say why.
fn hostile_files(dir: &Path, size: u64, name: &str) -> Vec<(PathBuf, &'static str)> {
    let fifo = dir.join(format!("pipe-{name}"));
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let large = dir.join(name);
    std::fs::write(&large, CANARY).expect("write");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&large)
        .and_then(|f| f.set_len(size))
        .expect("sparse");
    let folder = dir.join(format!("dir-{name}"));
    std::fs::create_dir_all(&folder).expect("folder");
    vec![
        (fifo, "FIFO"),
        (PathBuf::from("/dev/zero"), "character device"),
        (folder, "folder"),
        (large, "larger than"),
    ]
}

const CANARY: &str = "canary-File-Content";

/// The refusal: a usage error naming the variable's file and why, at once.
fn assert_refused(run: &Run, what: &str, file: &Path, why: &str) {
    assert!(
        !run.hung,
        "{what} {}: still running after 20 s",
        file.display()
    );
    assert_eq!(
        run.code,
        Some(2),
        "{what} {}: {}",
        file.display(),
        run.stderr
    );
    for words in [what, &file.display().to_string(), why] {
        assert!(run.stderr.contains(words), "{words}: {}", run.stderr);
    }
    assert!(!run.stderr.contains(CANARY), "{}", run.stderr);
}

#[test]
fn a_secret_file_must_be_a_small_regular_file() {
    let dir = temp_dir("secret-files");
    // A connection to a port nothing listens on: the secrets are read before it is used.
    let config = dir.join("connection.json");
    let line = serde_json::json!({
        "registry_url": "http://127.0.0.1:9", "gateway_url": "http://127.0.0.1:9/gateway",
        "auth_url": "http://127.0.0.1:9", "realm": "demo", "client_id": "c",
        "client_secret": "s", "user_token": "t",
    });
    std::fs::write(&config, line.to_string()).expect("config");
    let config = config.display().to_string();
    let files = hostile_files(&dir, 1 << 30, "secret");
    for variable in [
        "AASMD_CLIENT_SECRET_FILE",
        "AASMD_USER_TOKEN_FILE",
        "AASMD_PROXY_PASSWORD_FILE",
    ] {
        for (file, why) in &files {
            let run = run(&["--config", &config, "registry"], &[(variable, file)]);
            assert_refused(&run, variable, file, why);
        }
    }
    let (large, _) = &files[3];
    let words = run(
        &["--config", &config, "registry"],
        &[("AASMD_CLIENT_SECRET_FILE", large)],
    );
    assert!(words.stderr.contains("64 KiB"), "{}", words.stderr);

    // A regular file within the limit is read, and the command goes on to the server.
    let good = dir.join("client_secret");
    std::fs::write(&good, "s3cret\n").expect("write");
    let run = run(
        &["--config", &config, "registry"],
        &[("AASMD_CLIENT_SECRET_FILE", &good)],
    );
    assert_eq!(run.code, Some(5), "cannot reach the server: {}", run.stderr);
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_template_file_must_be_a_small_regular_file() {
    let (_demo_service, config, store) = snapshot_of_demo("template-files");
    let dir = temp_dir("template-files-data");
    let files = hostile_files(&dir, 64 << 20, "huge.json");
    let config = config.display().to_string();
    let audit = |args: &[&str], data: &Path| {
        let mut all = vec!["--config", &config, "audit", "--plant", "DEMO-01"];
        all.extend_from_slice(args);
        run(&all, &[("AASMD_STORE", &store), ("XDG_DATA_HOME", data)])
    };
    let empty = dir.join("data");
    for (file, why) in &files {
        let run = audit(&["--template-file", file.to_str().expect("path")], &empty);
        assert_refused(&run, "template", file, why);
    }
    // A huge .json in the templates folder of the app's data folder.
    let templates = dir.join("data-huge/org.aasbrowser.desktop/templates");
    std::fs::create_dir_all(&templates).expect("folder");
    let huge = templates.join("huge.json");
    std::fs::rename(&files[3].0, &huge).expect("moved");
    let run = audit(&[], &dir.join("data-huge"));
    assert_refused(&run, "template", &huge, "larger than 4 MiB");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
