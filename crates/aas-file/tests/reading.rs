//! A file's reading watched from another thread: how far it has come, and a Cancel
//! heard at its next read.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use aas_file::{Error, Reading};

const V3: &str = "https://admin-shell.io/aas/3/0";

/// An environment of `shells` shells, as XML.
fn environment(shells: usize) -> String {
    let shell = |i| {
        format!("<assetAdministrationShell><id>urn:shell:{i}</id><assetInformation><assetKind>Instance</assetKind></assetInformation></assetAdministrationShell>")
    };
    let shells: String = (0..shells).map(shell).collect();
    format!(
        r#"<environment xmlns="{V3}"><assetAdministrationShells>{shells}</assetAdministrationShells></environment>"#
    )
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("written");
    path
}

/// A package whose one (unlisted) spec part is `xml`.
fn package(xml: &str) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("env.xml", options).expect("a part");
    zip.write_all(xml.as_bytes()).expect("written");
    zip.finish().expect("a package").into_inner()
}

#[test]
fn a_files_bytes_and_a_packages_inflated_part_are_counted_to_their_end() {
    let dir = tempfile::tempdir().expect("a folder");
    let xml = environment(1000);
    let plain = write(dir.path(), "env.xml", xml.as_bytes());
    let reading = Reading::default();
    let contents = aas_file::read_watched(&plain, &reading).expect("read");
    assert_eq!(contents.shells.len(), 1000);
    let size = xml.len() as u64;
    assert_eq!(reading.progress(), (size, size));

    let zipped = package(&xml);
    let packaged = write(dir.path(), "env.aasx", &zipped);
    let reading = Reading::default();
    aas_file::read_watched(&packaged, &reading).expect("read");
    // The package from the disk, then its part as it inflates.
    let size = zipped.len() as u64 + xml.len() as u64;
    assert_eq!(reading.progress(), (size, size));
}

#[test]
fn a_cancelled_reading_stops_at_its_next_read() {
    let dir = tempfile::tempdir().expect("a folder");
    let xml = environment(200_000);
    let path = write(dir.path(), "large.xml", xml.as_bytes());

    let cancelled = Reading::default();
    cancelled.cancel();
    let why = aas_file::read_watched(&path, &cancelled).expect_err("cancelled");
    assert!(matches!(why, Error::Cancelled), "{why}");
    assert_eq!(why.to_string(), "the reading was cancelled");

    // Cancelled from another thread once the reading is under way.
    let reading = Arc::new(Reading::default());
    let reader = {
        let (reading, path) = (Arc::clone(&reading), path.clone());
        std::thread::spawn(move || aas_file::read_watched(&path, &reading))
    };
    while reading.progress().0 == 0 {
        std::thread::yield_now();
    }
    reading.cancel();
    let why = reader.join().expect("the reader").expect_err("cancelled");
    assert!(matches!(why, Error::Cancelled), "{why}");
    let (read, size) = reading.progress();
    assert!(read < size, "stopped before the end: {read} of {size}");
}

#[test]
fn the_shells_of_json_are_told_once_all_are_read_when_written_first() {
    let dir = tempfile::tempdir().expect("a folder");
    let shells = r#""assetAdministrationShells": [
        {"modelType": "AssetAdministrationShell", "id": "urn:a", "assetInformation": {"assetKind": "Type"}},
        {"modelType": "AssetAdministrationShell", "id": "urn:b", "assetInformation": {"assetKind": "Type"}}]"#;
    let submodels = r#""submodels": [{"modelType": "Submodel", "id": "urn:s"}]"#;
    let first = write(
        dir.path(),
        "first.json",
        format!("{{{shells}, {submodels}}}").as_bytes(),
    );
    let reading = Reading::shells_first();
    aas_file::read_watched(&first, &reading).expect("read");
    let told = reading
        .take_shells()
        .expect("the shells, before the submodels");
    assert_eq!(
        told.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
        ["urn:a", "urn:b"]
    );

    // Shells after the rest are not all read before it: none told.
    let last = write(
        dir.path(),
        "last.json",
        format!("{{{submodels}, {shells}}}").as_bytes(),
    );
    let reading = Reading::shells_first();
    aas_file::read_watched(&last, &reading).expect("read");
    assert!(reading.take_shells().is_none());
}
