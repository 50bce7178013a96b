//! A conversion report read back for the app's *Show report*: every rule with its count,
//! its first changes as the report lists them, and no more of them than asked for.

use std::path::Path;

use aas_export::{convert, read_report, report_path, Target};
use serde_json::Value;

#[test]
fn a_report_is_read_back_rule_by_rule_with_the_first_changes_of_each() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/aas-samples/v2-json/aas-specs/test_demo_full_example.json");
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("full.json");
    convert(&sample, &out, Target::V3_1, false).expect("converts");
    let whole: Value =
        serde_json::from_slice(&std::fs::read(report_path(&out)).expect("report")).expect("JSON");
    let changes = whole["changes"].as_array().expect("changes");
    assert!(
        changes.len() > 20,
        "the sample makes changes of several rules"
    );

    let per_rule = 2;
    let read = read_report(&report_path(&out), per_rule).expect("read back");
    assert_eq!(read.total, changes.len() as u64);
    assert_eq!(read.target, "AAS V3.1");
    assert_eq!(read.written, out.display().to_string());
    let summary = whole["summary"].as_object().expect("summary");
    let names: Vec<&String> = read.rules.iter().map(|r| &r.rule).collect();
    assert_eq!(
        names,
        summary.keys().collect::<Vec<_>>(),
        "in the report's order"
    );
    for rule in &read.rules {
        assert_eq!(
            Some(rule.count),
            summary[&rule.rule].as_u64(),
            "{}",
            rule.rule
        );
        assert!(!rule.meaning.is_empty(), "{} is said in words", rule.rule);
        let listed: Vec<&Value> = changes
            .iter()
            .filter(|c| c["rule"] == rule.rule.as_str())
            .collect();
        assert_eq!(
            rule.changes.len(),
            listed.len().min(per_rule),
            "{}",
            rule.rule
        );
        for (shown, listed) in rule.changes.iter().zip(&listed) {
            assert_eq!(shown.path, listed["path"].as_str().expect("path"));
            match shown.was.strip_suffix('…') {
                // A long value is shown by its beginning.
                Some(start) => assert_eq!(start.chars().count(), 300),
                None => assert_eq!(
                    serde_json::from_str::<Value>(&shown.was).ok().as_ref(),
                    Some(&listed["was"])
                ),
            }
        }
    }
}

#[test]
fn a_file_that_is_no_report_is_said_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("x.conversion.json");
    std::fs::write(&path, b"[1, 2").expect("write");
    let error = read_report(&path, 5).expect_err("not a report").to_string();
    assert!(
        error.contains("conversion report") && error.contains("x.conversion.json"),
        "{error}"
    );
    let missing = read_report(&dir.path().join("none.json"), 5).expect_err("missing");
    assert!(missing.to_string().contains("none.json"), "{missing}");
}
