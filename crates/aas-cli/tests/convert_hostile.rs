//! `aasmd convert` against hostile input and a hostile export folder (issue 43), real
//! processes: a package whose one deflate bomb is named by ten File elements, links
//! planted where the writer puts its temporary files and its report, part names that
//! leave the package's folder or clash with the parts the writer makes, and a report
//! that cannot be written. Each test failed before its fix (docs/RELIABILITY.md).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

mod support;

use support::{file_names as names, pump_with_documents, temp_dir, AASMD};

/// A V2 environment with one shell whose one submodel holds a File element for each
/// of `files` (their values as given).
fn environment(files: &[&str]) -> Value {
    let elements: Vec<Value> = files
        .iter()
        .enumerate()
        .map(|(i, value)| {
            json!({"modelType": {"name": "File"}, "idShort": format!("Doc{i}"), "kind": "Instance",
                   "mimeType": "application/octet-stream", "value": value})
        })
        .collect();
    pump_with_documents(elements)
}

fn deflated() -> zip::write::SimpleFileOptions {
    zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated)
}

/// A package at `path` holding the environment (`aasx/data.json`, found as the only
/// JSON part) and `parts` as zip entries under exactly the names given.
fn package(path: &Path, env: &Value, parts: &[(&str, &[u8])]) {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).expect("create"));
    zip.start_file("aasx/data.json", deflated()).expect("spec");
    zip.write_all(env.to_string().as_bytes()).expect("spec");
    for (name, bytes) in parts {
        zip.start_file(*name, deflated()).expect("part");
        zip.write_all(bytes).expect("part");
    }
    zip.finish().expect("finish");
}

fn convert(input: &Path, output: &Path) -> Output {
    Command::new(AASMD)
        .arg("convert")
        .arg(input)
        .args(["--to", "v3", "--out"])
        .arg(output)
        .output()
        .expect("aasmd runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn report(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("the report")).expect("JSON")
}

/// The values of the report's `missing-file` changes, sorted.
fn missing_files(report: &Value) -> Vec<String> {
    let mut missing: Vec<String> = report["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter(|c| c["rule"] == "missing-file")
        .map(|c| c["was"].as_str().expect("a text").to_owned())
        .collect();
    missing.sort();
    missing
}

fn entries(package: &Path) -> Vec<String> {
    let zip = zip::ZipArchive::new(std::fs::File::open(package).expect("output")).expect("a zip");
    zip.file_names().map(str::to_owned).collect()
}

/// A figure of `/proc/PID/status` in kB (`VmHWM:`), if the process still has it.
fn status_kb(pid: u32, key: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line[key.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// Runs `command` to its end; its output and its peak resident memory in bytes, as its
/// `VmHWM` last read while it ran (every 2 ms: a high-water mark, so only growth in
/// its last 2 ms could be missed).
fn run_measured(mut command: Command) -> (Output, u64) {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let pid = child.id();
    let mut peak_kb = 0;
    while child.try_wait().expect("wait").is_none() {
        if let Some(kb) = status_kb(pid, "VmHWM:") {
            peak_kb = peak_kb.max(kb);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let output = child.wait_with_output().expect("output");
    (output, peak_kb * 1024)
}

/// 255 MiB, just under the 256 MiB one part may inflate to.
const BOMB_BYTES: usize = 255 << 20;
const NAMES: usize = 10;

#[test]
fn a_deflate_bomb_named_by_ten_files_is_copied_without_being_held() {
    let dir = temp_dir("convert-bomb-names");
    let input = dir.join("bomb.aasx");
    // One deflate bomb (255 MiB of zeros, ~250 KB) under ten names: the other nine
    // entries point at the first one's data, as a hostile package may.
    let values: Vec<String> = (0..NAMES)
        .map(|i| format!("/aasx/files/bomb-{i}.bin"))
        .collect();
    let refs: Vec<&str> = values.iter().map(String::as_str).collect();
    {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&input)
            .expect("create");
        let mut zip = zip::ZipWriter::new(file);
        zip.start_file("aasx/data.json", deflated()).expect("spec");
        zip.write_all(environment(&refs).to_string().as_bytes())
            .expect("spec");
        zip.start_file("aasx/files/bomb-0.bin", deflated())
            .expect("bomb");
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..BOMB_BYTES >> 20 {
            zip.write_all(&zeros).expect("bomb");
        }
        for value in &values[1..] {
            zip.shallow_copy_file("aasx/files/bomb-0.bin", &value[1..])
                .expect("another name");
        }
        zip.finish().expect("finish");
    }
    let size = std::fs::metadata(&input).expect("input").len();
    assert!(size < 1 << 20, "a small package: {size} bytes");

    let output = dir.join("bomb-v3.aasx");
    let mut command = Command::new(AASMD);
    command
        .arg("convert")
        .arg(&input)
        .args(["--to", "v3", "--out"])
        .arg(&output);
    let (out, peak) = run_measured(command);
    eprintln!(
        "convert of a {size}-byte package naming one {BOMB_BYTES}-byte part {NAMES} times: peak RSS {} MB, exit {:?}",
        peak / 1_000_000,
        out.status.code()
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(peak > 0, "the peak was read");
    assert!(
        peak < 600_000_000,
        "peak memory {} MB: the parts were held",
        peak / 1_000_000
    );
    // Every part is carried whole, under its own name.
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&output).expect("output")).expect("zip");
    for value in &values {
        let part = zip.by_name(&value[1..]).expect("carried");
        assert_eq!(part.size(), BOMB_BYTES as u64);
    }
    let mut last = zip.by_name(&values[NAMES - 1][1..]).expect("carried");
    let inflated = std::io::copy(&mut last, &mut std::io::sink()).expect("inflates");
    assert_eq!(inflated, BOMB_BYTES as u64);
    drop(last);
    assert_eq!(
        missing_files(&report(&dir.join("bomb-v3.conversion.json"))),
        Vec::<String>::new()
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_part_past_the_inflate_limit_is_still_refused_when_carried() {
    let dir = temp_dir("convert-bomb-limit");
    let input = dir.join("bomb.aasx");
    let zeros = vec![0u8; 257 << 20];
    package(
        &input,
        &environment(&["/aasx/files/big.bin"]),
        &[("aasx/files/big.bin", &zeros)],
    );
    drop(zeros);
    let output = dir.join("big-v3.aasx");
    let out = convert(&input, &output);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("inflates to more than 256 MiB"), "{stderr}");
    assert_eq!(names(&dir), ["bomb.aasx"], "nothing written");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// The PID the next process of this PID namespace gets, if the kernel says.
fn last_pid() -> Option<u32> {
    std::fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()?
        .trim()
        .parse()
        .ok()
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

#[test]
fn links_planted_under_the_temporary_names_of_the_next_processes_are_not_written_through() {
    let dir = temp_dir("convert-planted");
    let input = dir.join("plant.json");
    std::fs::write(&input, environment(&[]).to_string()).expect("input");
    // Another user's file that the user running the conversion can write.
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, b"not yours").expect("victim");
    // The old writer named its temporary files `.NAME.tmp-PID-N` (N counting from 0 in
    // the process: the export 0, its report 1): links for the next 3,000 PIDs.
    let next = last_pid().expect("ns_last_pid") + 1;
    let pids: Vec<u32> = (next..next + 3_000).collect();
    for pid in &pids {
        for name in [
            format!(".out.json.tmp-{pid}-0"),
            format!(".out.conversion.json.tmp-{pid}-1"),
        ] {
            std::os::unix::fs::symlink(&victim, dir.join(name)).expect("plant");
        }
    }
    let output = dir.join("out.json");
    let child = Command::new(AASMD)
        .arg("convert")
        .arg(&input)
        .args(["--to", "v3", "--out"])
        .arg(&output)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let pid = child.id();
    let out = child.wait_with_output().expect("ran");
    assert!(
        pids.contains(&pid),
        "aasmd ran as PID {pid}, outside the links planted ({next}..): rerun"
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "not yours",
        "a planted link was written through"
    );
    for written in [&output, &dir.join("out.conversion.json")] {
        assert!(!is_link(written), "{} is a planted link", written.display());
    }
    let v3: Value = serde_json::from_slice(&std::fs::read(&output).expect("out")).expect("JSON");
    assert!(v3["assetAdministrationShells"].is_array());
    assert_eq!(report(&dir.join("out.conversion.json"))["total"], 0);
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_link_where_the_report_goes_is_replaced_not_followed() {
    let dir = temp_dir("convert-report-link");
    let input = dir.join("plant.json");
    std::fs::write(&input, environment(&[]).to_string()).expect("input");
    std::fs::create_dir(dir.join("elsewhere")).expect("folder");
    let victim = dir.join("elsewhere").join("notes.txt");
    std::fs::write(&victim, b"not yours").expect("victim");
    let report_path = dir.join("out.conversion.json");
    std::os::unix::fs::symlink(&victim, &report_path).expect("plant");
    let out = convert(&input, &dir.join("out.json"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "not yours",
        "the link was followed"
    );
    assert_eq!(names(&dir.join("elsewhere")), ["notes.txt"]);
    assert!(
        !is_link(&report_path),
        "the link was replaced by the report"
    );
    assert_eq!(report(&report_path)["total"], 0);
    assert_eq!(
        names(&dir),
        ["elsewhere", "out.conversion.json", "out.json", "plant.json"]
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn part_names_that_leave_the_package_are_not_carried_and_are_reported_missing() {
    let dir = temp_dir("convert-slip");
    let input = dir.join("slip.aasx");
    let unsafe_names = [
        "/../../escaped.txt",
        "/aasx\\..\\..\\back.txt",
        "/aasx/./dot.txt",
        "/aasx//empty.txt",
        "/aasx/%2e%2e/%2e%2e/encoded.txt",
        "/C:/drive.txt",
    ];
    let mut values = unsafe_names.to_vec();
    values.push("/aasx/files/manual.pdf");
    let parts: Vec<(&str, &[u8])> = values
        .iter()
        .map(|v| (&v[1..], b"carried?".as_slice()))
        .collect();
    package(&input, &environment(&values), &parts);

    let output = dir.join("slip-v3.aasx");
    let out = convert(&input, &output);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = entries(&output);
    for name in &written {
        // A part name: segments of something, none `.` or `..`, no backslash or colon.
        let safe = name
            .split('/')
            .all(|s| !s.is_empty() && s != "." && s != "..")
            && !name.contains(['\\', ':', '%']);
        assert!(safe, "{name:?} in {written:?}");
    }
    assert!(written.contains(&"aasx/files/manual.pdf".to_owned()));
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&output).expect("out")).expect("zip");
    let mut rels = String::new();
    zip.by_name("aasx/_rels/data.json.rels")
        .expect("relationships")
        .read_to_string(&mut rels)
        .expect("text");
    assert!(rels.contains("/aasx/files/manual.pdf"), "{rels}");
    assert!(!rels.contains("..") && !rels.contains('\\'), "{rels}");
    let mut expected: Vec<String> = unsafe_names.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(
        missing_files(&report(&dir.join("slip-v3.conversion.json"))),
        expected
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_file_naming_a_part_the_writer_makes_is_reported_missing_not_as_a_disk_problem() {
    let dir = temp_dir("convert-own-parts");
    let input = dir.join("own.aasx");
    let values = [
        "/aasx/aasx-origin",
        "/aasx/data.json",
        "/AASX/Data.json",
        "/[Content_Types].xml",
        "/aasx/_rels/data.json.rels",
        "/aasx/data.json/inside.txt",
        "/aasx/files/manual.pdf",
    ];
    // The environment is `aasx/data.json` itself; the others are parts of their own.
    let parts: Vec<(&str, &[u8])> = values
        .iter()
        .filter(|v| **v != "/aasx/data.json")
        .map(|v| (&v[1..], b"a part".as_slice()))
        .collect();
    package(&input, &environment(&values), &parts);
    let output = dir.join("own-v3.aasx");
    let out = convert(&input, &output);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        !stderr.contains("Duplicate") && !stderr.contains("disk"),
        "{stderr}"
    );
    // The package's own parts are its own: the spec is the V3 environment.
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&output).expect("out")).expect("zip");
    let mut spec = String::new();
    zip.by_name("aasx/data.json")
        .expect("spec")
        .read_to_string(&mut spec)
        .expect("text");
    let v3: Value = serde_json::from_str(&spec).expect("JSON");
    assert_eq!(v3["assetAdministrationShells"][0]["id"], "urn:x:aas:pump");
    let mut origin = String::new();
    zip.by_name("aasx/aasx-origin")
        .expect("origin")
        .read_to_string(&mut origin)
        .expect("text");
    assert_eq!(origin, "Intentionally empty.");
    assert!(entries(&output).contains(&"aasx/files/manual.pdf".to_owned()));
    let mut expected: Vec<String> = values[..6].iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(
        missing_files(&report(&dir.join("own-v3.conversion.json"))),
        expected
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn when_the_report_cannot_be_written_the_export_is_not_left_either() {
    let dir = temp_dir("convert-both-or-neither");
    let input = dir.join("plant.json");
    std::fs::write(&input, environment(&[]).to_string()).expect("input");
    // A folder where the report goes, with something in it.
    let report_path = dir.join("out.conversion.json");
    std::fs::create_dir(&report_path).expect("folder");
    std::fs::write(report_path.join("kept.txt"), b"x").expect("inside");
    let output: PathBuf = dir.join("out.json");

    // No previous export: none after.
    let out = convert(&input, &output);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        !output.exists(),
        "the export was left without its report: {stderr}"
    );
    assert_eq!(names(&dir), ["out.conversion.json", "plant.json"]);
    assert!(stderr.contains("conversion report"), "{stderr}");

    // A previous export: still it, byte for byte.
    std::fs::write(&output, b"the previous export").expect("previous");
    let out = convert(&input, &output);
    assert!(!out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(&output).expect("kept"),
        b"the previous export"
    );
    assert_eq!(
        names(&dir),
        ["out.conversion.json", "out.json", "plant.json"]
    );
    assert_eq!(names(&report_path), ["kept.txt"]);
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
