//! A template file, named by the user or found in the templates folder, is read only
//! when it is a regular file of at most 4 MiB (issue 43, item 12): a FIFO hung the
//! audit, `/dev/zero` grew until memory ran out, a huge `.json` in the folder was read
//! whole. Each is refused at once with the file's name and why, never its content.

use std::path::{Path, PathBuf};
use std::sync::mpsc::channel;
use std::time::Duration;

use aas_audit::Templates;

const CANARY: &str = "canary-Template-Content";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aas-audit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A sparse file of `size` bytes that starts with the canary.
fn sparse(path: &Path, size: u64) {
    std::fs::write(path, CANARY).expect("write");
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|f| f.set_len(size))
        .expect("sparse");
}

/// `add` on another thread, given 10 s: the error it gives as text, or a panic for a
/// hang (the thread is left blocked; the test process ends with the test).
fn refused(
    what: &Path,
    add: impl FnOnce() -> Result<usize, aas_audit::Error> + Send + 'static,
) -> String {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let _ = tx.send(add().map_err(|e| e.to_string()));
    });
    match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(Err(e)) => {
            assert!(e.contains(&what.display().to_string()), "{e}");
            assert!(!e.contains(CANARY), "{e}");
            e
        }
        Ok(Ok(n)) => panic!("{}: {n} templates read", what.display()),
        Err(_) => panic!("{}: still reading after 10 s", what.display()),
    }
}

fn add_file(path: &Path) -> String {
    let owned = path.to_owned();
    refused(path, move || Templates::new().add_file(&owned).map(|_| 1))
}

#[test]
fn a_template_file_must_be_a_small_regular_file() {
    let dir = temp_dir("template-files");
    let pipe = dir.join("pipe.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let e = add_file(&pipe);
    assert!(e.contains("not a regular file but a FIFO"), "{e}");

    let e = add_file(Path::new("/dev/zero"));
    assert!(e.contains("character device"), "{e}");

    let huge = dir.join("huge.json");
    sparse(&huge, 64 << 20);
    let e = add_file(&huge);
    assert!(e.contains("larger than 4 MiB"), "{e}");

    // At the limit a template is still read (and found not to be one: only zeros).
    let at_limit = dir.join("at-limit.json");
    sparse(&at_limit, 4 << 20);
    let e = add_file(&at_limit);
    assert!(!e.contains("larger than"), "{e}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_huge_json_in_the_templates_folder_is_refused_with_its_name() {
    let dir = temp_dir("template-folder");
    let huge = dir.join("huge.json");
    sparse(&huge, 1 << 30);
    let folder = dir.clone();
    let e = refused(&huge, move || Templates::new().add_folder(&folder));
    assert!(e.contains("larger than 4 MiB"), "{e}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
