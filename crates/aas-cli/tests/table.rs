//! `aasmd table` as scripts call it: over a snapshot of the demo service's demo plant, the
//! CSV and JSON it prints, the same filter and sort as the app's table, the column
//! list, and exit code 2 with words for what cannot be read.

mod support;

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use support::{aasmd_with_store, ok, snapshot_of_demo};

fn table(config: &Path, store: &Path, args: &[&str]) -> Output {
    let mut all = vec!["table", "--plant", "DEMO-01"];
    all.extend_from_slice(args);
    aasmd_with_store(config, store, &all)
}

#[test]
fn filtered_sorted_rows_come_out_as_csv_and_json_alike() {
    let (_demo_service, config, store) = snapshot_of_demo("table");
    let args = [
        "--column",
        "shell:idShort",
        "--column",
        "Nameplate/YearOfConstruction",
        "--column",
        "semanticId:0173-1#02-AAB713#005",
        "--filter",
        "Nameplate/YearOfConstruction>=2014",
        "--sort",
        "Nameplate/YearOfConstruction:desc",
    ];
    let csv = ok(&table(&config, &store, &args));
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("idShort,YearOfConstruction,Weight [kg]"));
    let years: Vec<u32> = lines
        .map(|l| {
            l.split(',')
                .nth(1)
                .expect("a year")
                .parse()
                .expect("a number")
        })
        .collect();
    assert!(!years.is_empty());
    assert!(years.iter().all(|y| *y >= 2014), "{years:?}");
    assert!(years.windows(2).all(|w| w[0] >= w[1]), "{years:?}");

    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let json: Value = serde_json::from_str(&ok(&table(&config, &store, &json_args))).expect("JSON");
    let rows = json["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), years.len());
    for (row, year) in rows.iter().zip(&years) {
        assert_eq!(row["cells"][1], *year, "a number, not text");
        assert!(row["aasId"].as_str().expect("id").starts_with("urn:"));
    }
    assert_eq!(json["about"]["plant"], "DEMO-01");
    assert_eq!(json["columns"][2]["unit"], "kg");
    // Weight is optional in the demo: some shells have none, a null.
    let all: Value = serde_json::from_str(&ok(&table(
        &config,
        &store,
        &[
            "--column",
            "semanticId:0173-1#02-AAB713#005",
            "--format",
            "json",
        ],
    )))
    .expect("JSON");
    let cells: Vec<&Value> = all["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| &r["cells"][0])
        .collect();
    assert!(cells.iter().any(|c| c.is_null()) && cells.iter().any(|c| c.is_number()));
}

#[test]
fn the_column_list_the_default_columns_and_an_xlsx_file() {
    let (_demo_service, config, store) = snapshot_of_demo("table-columns");
    let listed = ok(&table(
        &config,
        &store,
        &["--type", "machine", "--list-columns"],
    ));
    let serial = listed
        .lines()
        .find(|l| l.starts_with("Nameplate/SerialNumber\t"))
        .expect("offered");
    let fields: Vec<&str> = serial.split('\t').collect();
    assert_eq!(
        fields[2..],
        ["Property", "string", "", "0173-1#02-AAM556#002"]
    );
    let defaults = ok(&table(&config, &store, &["--type", "machine"]));
    assert_eq!(
        defaults.lines().next(),
        Some("idShort,ManufacturerName,ManufacturerProductDesignation,SerialNumber,YearOfConstruction")
    );
    assert_eq!(
        defaults.lines().count(),
        fields[1].parse::<usize>().expect("count") + 1
    );

    let refused = table(&config, &store, &["--format", "xlsx"]);
    assert_eq!(refused.status.code(), Some(2), "XLSX is not for a terminal");
    let file = store.with_file_name("plant.xlsx");
    ok(&table(
        &config,
        &store,
        &["--format", "xlsx", "--out", file.to_str().expect("path")],
    ));
    let bytes = std::fs::read(&file).expect("written");
    assert_eq!(&bytes[..2], b"PK", "a zip package");
}

#[test]
fn what_cannot_be_read_is_refused_with_words_and_exit_code_2() {
    let (_demo_service, config, store) = snapshot_of_demo("table-refused");
    for (args, words) in [
        (vec!["--column", "Nameplate"], "is not SUBMODEL/ELEMENT"),
        (
            vec!["--filter", "Nothing=1"],
            "does not start with a column",
        ),
        (vec!["--sort", "Nothing"], "has no column \"Nothing\""),
        (vec!["--format", "ods"], "not a table format"),
    ] {
        let out = table(&config, &store, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
