//! The plant table over the demo plant as the demo service serves it, crawled over loopback:
//! cells are checked against the answers' JSON read by hand (not by the table's own
//! walk), sorting and filters against the cells, and the XLSX against an independent
//! reader (openpyxl, Debian's python3-openpyxl).

#[path = "../../aas-snapshot/tests/support/demo.rs"]
mod demo;
#[path = "../../../tests/support/read_xlsx.rs"]
mod read_xlsx;

use aas_client::{Crawl, CrawlPlan};
use aas_model::AssetType;
use aas_output::About;
use aas_source::NodePath;
use aas_table::{
    build, census, listed, render, Cell, Column, ColumnFilter, Query, Sort, Table, TableFormat,
    Test, Typed, View,
};
use read_xlsx::read_xlsx;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

async fn crawl() -> Crawl {
    let (_demo_service, client) = demo::demo().await;
    let types = vec![AssetType::MACHINE, AssetType::TOOL, AssetType::COMPONENT];
    let crawl = client
        .crawl(
            &CrawlPlan::new(aas_demo::DEMO_PLANT, types),
            &CancellationToken::new(),
            |_| {},
        )
        .await;
    assert!(crawl.failures.is_empty(), "{:?}", crawl.failures);
    crawl
}

/// The element at `path` of shell `aas_id`, read from the submodels answer by hand.
fn by_hand(crawl: &Crawl, aas_id: &str, submodel: &str, path: &[&str]) -> Option<Value> {
    let answer = crawl
        .fetched
        .iter()
        .find(|f| matches!(&f.path, NodePath::Submodels { aas_id: id } if id == aas_id))?;
    let submodels: Value = serde_json::from_str(&answer.raw.text().expect("text")).expect("json");
    let mut elements = submodels
        .as_array()?
        .iter()
        .find(|s| s["idShort"] == submodel)?["submodelElements"]
        .clone();
    let (last, parents) = path.split_last()?;
    for parent in parents {
        let found = elements
            .as_array()?
            .iter()
            .find(|e| e["idShort"] == *parent)?;
        elements = found["value"].clone();
    }
    elements
        .as_array()?
        .iter()
        .find(|e| e["idShort"] == *last)
        .cloned()
}

fn table(
    crawl: &Crawl,
    asset_type: Option<AssetType>,
    columns: &[&str],
    languages: &[&str],
) -> Table {
    let query = Query {
        columns: columns.iter().map(|c| c.parse().expect("column")).collect(),
        languages: languages.iter().map(|l| (*l).to_owned()).collect(),
    };
    let shells = listed(crawl, asset_type.as_ref()).expect("listed");
    let (_, outlines) = census(crawl, &shells).expect("census");
    let whole = build(crawl, shells.clone(), None, &query).expect("table");
    // Built again reading only the submodels the census's outlines say may matter:
    // the same table.
    let outlined = build(crawl, shells, Some(&outlines), &query).expect("table");
    assert_eq!(outlined.columns, whole.columns);
    for row in 0..whole.shells.len() {
        assert_eq!(outlined.row(row), whole.row(row), "row {row}");
    }
    assert_eq!(outlined.unreadable, whole.unreadable);
    whole
}

#[tokio::test]
async fn cells_hold_what_the_answers_hold_by_path_and_by_semantic_id() {
    let crawl = crawl().await;
    let t = table(
        &crawl,
        Some(AssetType::MACHINE),
        &[
            "shell:idShort",
            "Nameplate/SerialNumber",
            "semanticId:0173-1#02-AAM556#002",
            "Nameplate/Address/CityTown",
            "TechnicalData/GeneralInformation/ManufacturerName",
            "semanticId:0173-1#02-AAO677#002",
            "Nameplate/NoSuchElement",
        ],
        &["en"],
    );
    assert!(t.shells.len() >= 3, "{} machines", t.shells.len());
    assert!(t.shells.iter().all(|s| s.asset_type == AssetType::MACHINE));
    let mut nameplates = [0, 0];
    for (row, shell) in t.shells.iter().enumerate() {
        // A Property's text, or a MultiLanguageProperty's English one.
        let hand = |sm, path: &[&str]| {
            let value = by_hand(&crawl, &shell.id, sm, path)?["value"].clone();
            let english = value.as_array().map(|texts| {
                texts.iter().find(|t| t["language"] == "en").expect("en")["text"].clone()
            });
            Some(
                english
                    .unwrap_or(value)
                    .as_str()
                    .expect("a text")
                    .to_owned(),
            )
        };
        assert_eq!(t.cell(row, 0).shown(), Some(shell.id_short.as_str()));
        let serial = hand("Nameplate", &["SerialNumber"]).expect("every demo machine has one");
        assert_eq!(t.cell(row, 1).shown(), Some(serial.as_str()));
        // The same element by its ZVEI semanticId, and where it was found; an IDTA 3.0
        // nameplate's serial number has another.
        let zvei = by_hand(&crawl, &shell.id, "Nameplate", &["Address"]).is_some();
        nameplates[usize::from(zvei)] += 1;
        if zvei {
            assert_eq!(t.cell(row, 2).shown(), Some(serial.as_str()));
            assert!(
                matches!(t.cell(row, 2), Cell::Value { at: Some(at), .. } if &**at == "Nameplate/SerialNumber")
            );
        } else {
            assert_eq!(t.cell(row, 2), &Cell::Missing);
        }
        assert_eq!(
            t.cell(row, 3).shown().map(str::to_owned),
            hand("Nameplate", &["Address", "CityTown"])
        );
        // The manufacturer's semanticId occurs in two submodels: the first is taken.
        let name = hand("TechnicalData", &["GeneralInformation", "ManufacturerName"]);
        assert_eq!(t.cell(row, 4).shown().map(str::to_owned), name);
        assert_eq!(
            t.cell(row, 5).shown().map(str::to_owned),
            hand("Nameplate", &["ManufacturerName"])
        );
        assert_eq!(t.cell(row, 6), &Cell::Missing);
    }
    assert!(
        nameplates.iter().all(|n| *n > 0),
        "both nameplates: {nameplates:?}"
    );
    // Two headers would read SerialNumber: each says its whole column instead.
    assert_eq!(t.columns[1].label, "Nameplate/SerialNumber");
    assert_eq!(t.columns[2].label, "semanticId:0173-1#02-AAM556#002");
    assert_eq!(t.columns[3].label, "CityTown");
    assert_eq!(
        t.columns[1].semantic_id.as_deref(),
        Some("0173-1#02-AAM556#002")
    );
}

#[tokio::test]
async fn a_multi_language_value_is_shown_in_the_chosen_language() {
    let crawl = crawl().await;
    let column = ["Nameplate/ManufacturerProductDesignation"];
    for (wanted, fallback) in [("de", "de"), ("de-AT", "de"), ("en-GB", "en"), ("fr", "en")] {
        let t = table(&crawl, None, &column, &[wanted]);
        for (row, shell) in t.shells.iter().enumerate() {
            let texts = by_hand(
                &crawl,
                &shell.id,
                "Nameplate",
                &column[0].split('/').skip(1).collect::<Vec<_>>(),
            )
            .expect("designation")["value"]
                .clone();
            let first = texts.as_array().expect("texts")[0]["language"].clone();
            // With no text in a wanted language, the first as given (en in the demo).
            let lang = if fallback == "en" {
                first.as_str().expect("tag").to_owned()
            } else {
                fallback.to_owned()
            };
            let text = texts
                .as_array()
                .expect("texts")
                .iter()
                .find(|t| t["language"] == lang.as_str())
                .and_then(|t| t["text"].as_str())
                .expect("a text in that language");
            assert_eq!(t.cell(row, 0).shown(), Some(text), "{wanted}");
        }
    }
}

#[tokio::test]
async fn numbers_sort_as_numbers_and_blanks_come_last_either_way() {
    let crawl = crawl().await;
    let t = table(
        &crawl,
        None,
        &[
            "Nameplate/YearOfConstruction",
            "TechnicalData/TechnicalProperties/Weight",
            "shell:idShort",
        ],
        &["en"],
    );
    assert!(matches!(t.cell(0, 0).typed(), Some(Typed::Number(_))));
    // Years are numbers in ZVEI 1.0 nameplates and text in IDTA 3.0 ones: numbers sort
    // as numbers among themselves, then text, turned around together when descending.
    for column in [0, 1] {
        for descending in [false, true] {
            let view = View::of(&t, Some(Sort { column, descending }), &[]).expect("sorted");
            assert_eq!(view.rows.len(), t.shells.len());
            let cells: Vec<&Cell> = view
                .rows
                .iter()
                .map(|&r| t.cell(r as usize, column))
                .collect();
            let values = cells.iter().take_while(|c| is_value(c)).count();
            assert!(cells[values..].iter().all(|c| !is_value(c)), "blanks last");
            let numbers: Vec<f64> = cells
                .iter()
                .filter_map(|c| match c.typed() {
                    Some(Typed::Number(n)) => Some(n),
                    _ => None,
                })
                .collect();
            let mut expected = numbers.clone();
            expected.sort_by(f64::total_cmp);
            if descending {
                expected.reverse();
            }
            assert_eq!(numbers, expected, "column {column}");
        }
    }
    assert_eq!(
        t.columns[1].unit.as_deref(),
        Some("kg"),
        "the demo's weights are in kg"
    );
}

#[tokio::test]
async fn dates_sort_as_dates() {
    let crawl = crawl().await;
    let t = table(
        &crawl,
        None,
        &["TechnicalData/FurtherInformation/ValidDate"],
        &[],
    );
    let view = View::of(
        &t,
        Some(Sort {
            column: 0,
            descending: false,
        }),
        &[],
    )
    .expect("sorted");
    // A date mistyped as text (a seeded gap) sorts after the dates.
    let dates: Vec<aas_table::Date> = view
        .rows
        .iter()
        .map_while(|&r| match t.cell(r as usize, 0).typed() {
            Some(Typed::Date(d)) => Some(d),
            _ => None,
        })
        .collect();
    assert!(dates.windows(2).all(|w| w[0] <= w[1]));
    assert!(dates.first() < dates.last(), "the demo's dates differ");
    let after: Vec<_> = view.rows[dates.len()..]
        .iter()
        .map(|&r| t.cell(r as usize, 0).typed())
        .collect();
    assert!(
        !after.is_empty() && after.iter().all(|c| matches!(c, Some(Typed::Text))),
        "{after:?}"
    );
}

/// A cell with a value (not missing, not empty).
fn is_value(cell: &Cell) -> bool {
    !matches!(cell.typed(), None | Some(Typed::Empty))
}

/// Whether a cell passes a filter, judged by the test.
type Passes = Box<dyn Fn(&Cell) -> bool>;

#[tokio::test]
async fn filters_keep_exactly_the_rows_that_pass() {
    let crawl = crawl().await;
    let t = table(
        &crawl,
        None,
        &[
            "shell:idShort",
            "Nameplate/YearOfConstruction",
            "TechnicalData/TechnicalProperties/Weight",
        ],
        &["en"],
    );
    let years: Vec<f64> = (0..t.shells.len())
        .filter_map(|r| match t.cell(r, 1).typed() {
            Some(Typed::Number(n)) => Some(n),
            _ => None,
        })
        .collect();
    let mid = years[years.len() / 2];
    let cases: Vec<(String, Passes, usize)> = vec![
        (
            format!("Nameplate/YearOfConstruction>={mid}"),
            Box::new(move |c| matches!(c.typed(), Some(Typed::Number(n)) if n >= mid)),
            1,
        ),
        (
            format!("Nameplate/YearOfConstruction<={mid}"),
            Box::new(move |c| matches!(c.typed(), Some(Typed::Number(n)) if n <= mid)),
            1,
        ),
        (
            format!("Nameplate/YearOfConstruction={mid}"),
            Box::new(move |c| c.shown() == Some(&mid.to_string())),
            1,
        ),
        (
            "TechnicalData/TechnicalProperties/Weight=".into(),
            Box::new(|c| matches!(c.typed(), None | Some(Typed::Empty))),
            2,
        ),
        (
            "TechnicalData/TechnicalProperties/Weight!=".into(),
            Box::new(|c| matches!(c.typed(), Some(t) if t != Typed::Empty)),
            2,
        ),
        (
            "idShort~A".into(),
            Box::new(|c| c.shown().is_some_and(|s| s.to_lowercase().contains('a'))),
            0,
        ),
    ];
    for (text, passes, column) in cases {
        let filter = ColumnFilter::parse(&text, &t.columns).expect(&text);
        assert_eq!(filter.column, column, "{text}");
        let view = View::of(&t, None, &[filter]).expect("filtered");
        let expected: Vec<u32> = (0..t.shells.len())
            .filter(|&r| passes(t.cell(r, column)))
            .map(|r| r as u32)
            .collect();
        assert_eq!(view.rows, expected, "{text}");
        assert!(
            !expected.is_empty() || text.ends_with('='),
            "{text} keeps some rows"
        );
    }
    assert!(ColumnFilter::parse("Nameplate/Nothing=1", &t.columns).is_err());
    assert!(ColumnFilter::parse("shell:idShort!=x", &t.columns).is_err());
    assert!(matches!(
        ColumnFilter::parse("shell:idShort~x", &t.columns)
            .expect("filter")
            .test,
        Test::Contains(_)
    ));
}

#[tokio::test]
async fn the_column_picker_counts_the_shells_that_have_each_path() {
    let crawl = crawl().await;
    let shells = listed(&crawl, Some(&AssetType::MACHINE)).expect("listed");
    let (machines, _) = census(&crawl, &shells).expect("census");
    let serial = machines
        .columns
        .iter()
        .find(|o| o.column == Column::at("Nameplate", &["SerialNumber"]))
        .expect("offered");
    assert_eq!(serial.shells, machines.shells);
    assert_eq!(serial.semantic_id.as_deref(), Some("0173-1#02-AAM556#002"));
    assert_eq!(serial.value_type.as_deref(), Some("string"));
    let weight = machines
        .columns
        .iter()
        .find(|o| o.column == Column::at("TechnicalData", &["TechnicalProperties", "Weight"]))
        .expect("offered");
    // Counted against the answers by hand.
    let t = table(
        &crawl,
        Some(AssetType::MACHINE),
        &["TechnicalData/TechnicalProperties/Weight"],
        &[],
    );
    let by_hand = t
        .shells
        .iter()
        .filter(|s| {
            by_hand(
                &crawl,
                &s.id,
                "TechnicalData",
                &["TechnicalProperties", "Weight"],
            )
            .is_some()
        })
        .count();
    assert_eq!(weight.shells, by_hand);
    assert_eq!(weight.unit.as_deref(), Some("kg"));
    let defaults: Vec<String> = machines
        .default_columns()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        defaults,
        [
            "shell:idShort",
            "Nameplate/ManufacturerName",
            "Nameplate/ManufacturerProductDesignation",
            "Nameplate/SerialNumber",
            "Nameplate/YearOfConstruction"
        ]
    );
    // Template order: the nameplate's elements in the order of the submodel.
    let nameplate: Vec<String> = machines
        .columns
        .iter()
        .map(|o| o.column.to_string())
        .filter(|c| c.starts_with("Nameplate/") && c.matches('/').count() == 1)
        .collect();
    assert_eq!(
        nameplate[..4],
        [
            "Nameplate/ManufacturerName",
            "Nameplate/ManufacturerProductDesignation",
            "Nameplate/SerialNumber",
            "Nameplate/YearOfConstruction"
        ]
    );
}

#[tokio::test]
async fn the_xlsx_reads_back_with_the_same_cells_typed_as_promised() {
    let crawl = crawl().await;
    let t = table(
        &crawl,
        None,
        &[
            "shell:idShort",
            "Nameplate/SerialNumber",
            "Nameplate/YearOfConstruction",
            "TechnicalData/TechnicalProperties/Weight",
            "TechnicalData/FurtherInformation/ValidDate",
        ],
        &["en"],
    );
    let view = View::of(
        &t,
        Some(Sort {
            column: 2,
            descending: true,
        }),
        &[],
    )
    .expect("view");
    let about = About {
        source: "snapshot 3 (demo)".into(),
        plant: aas_demo::DEMO_PLANT.into(),
        asset_type: "all".into(),
        taken_at: "2026-11-24T08:00:00Z".into(),
        written_at: "2026-11-24T09:00:00Z".into(),
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("table.xlsx");
    std::fs::write(
        &file,
        render(&t, &view, &about, TableFormat::Xlsx).expect("xlsx"),
    )
    .expect("written");
    // openpyxl gives each cell's Python type; the frozen pane and the About sheet too.
    let read = read_xlsx(&file, true);
    assert_eq!(read["order"], serde_json::json!(["Table", "About"]));
    let table = &read["sheets"]["Table"];
    assert_eq!(table["freeze"], "A2");
    let rows = table["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), view.rows.len() + 1);
    assert_eq!(rows[0][3], serde_json::json!(["str", "Weight [kg]"]));
    for (i, &r) in view.rows.iter().enumerate() {
        let got = &rows[i + 1];
        for column in 0..5 {
            let cell = t.cell(r as usize, column);
            let expected = match cell.typed() {
                None | Some(Typed::Empty) => Value::Null,
                Some(Typed::Date(d)) => serde_json::json!([
                    "datetime",
                    format!("{:04}-{:02}-{:02} 00:00:00", d.year, d.month, d.day)
                ]),
                Some(Typed::Number(n)) if n.fract() == 0.0 => serde_json::json!(["int", n as i64]),
                Some(Typed::Number(n)) => serde_json::json!(["float", n]),
                Some(_) => serde_json::json!(["str", cell.shown()]),
            };
            assert_eq!(got[column], expected, "row {i} column {column}");
        }
    }
    let about_rows = read["sheets"]["About"]["rows"].as_array().expect("about");
    let text = |s: &str| serde_json::json!(["str", s]);
    assert_eq!(
        (&about_rows[0][0], &about_rows[0][1]),
        (&text("Source"), &text("snapshot 3 (demo)"))
    );
    assert!(about_rows
        .iter()
        .any(|r| r[0] == text("Nameplate/SerialNumber") && r[2] == text("0173-1#02-AAM556#002")));
}

/// A Range reaches files as two typed columns, its minimum and its maximum: one line
/// `-7 – 55` was written to XLSX as the number -7 (the maximum lost) and to CSV as
/// `'-7 – 55`.
#[tokio::test]
async fn a_range_is_written_as_its_minimum_and_its_maximum() {
    let crawl = crawl().await;
    let t = table(
        &crawl,
        Some(AssetType::MACHINE),
        &[
            "shell:idShort",
            "TechnicalData/TechnicalProperties/AmbientTemperature",
        ],
        &["en"],
    );
    let view = View::of(&t, None, &[]).expect("view");
    let ranges: Vec<(f64, f64)> = (view.rows.iter())
        .filter_map(|&r| {
            let range = by_hand(
                &crawl,
                &t.shells[r as usize].id,
                "TechnicalData",
                &["TechnicalProperties", "AmbientTemperature"],
            )?;
            let end = |e: &str| range[e].as_str()?.parse::<f64>().ok();
            Some((end("min")?, end("max")?))
        })
        .collect();
    assert_eq!(ranges.len(), view.rows.len(), "every machine has its range");
    assert!(ranges.iter().any(|(min, max)| min != max));
    let about = About {
        source: "test".into(),
        plant: aas_demo::DEMO_PLANT.into(),
        asset_type: "machine".into(),
        taken_at: String::new(),
        written_at: String::new(),
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("table.xlsx");
    let xlsx = render(&t, &view, &about, TableFormat::Xlsx).expect("xlsx");
    std::fs::write(&file, xlsx).expect("written");
    let read = read_xlsx(&file, true);
    let rows = read["sheets"]["Table"]["rows"].as_array().expect("rows");
    let number = |n: f64| match n.fract() == 0.0 {
        true => serde_json::json!(["int", n as i64]),
        false => serde_json::json!(["float", n]),
    };
    assert_eq!(rows[0][1][1], "AmbientTemperature (min)");
    assert_eq!(rows[0][2][1], "AmbientTemperature (max)");
    for (i, (min, max)) in ranges.iter().enumerate() {
        assert_eq!(
            (&rows[i + 1][1], &rows[i + 1][2]),
            (&number(*min), &number(*max)),
            "row {i}"
        );
    }

    let csv = render(&t, &view, &about, TableFormat::Csv).expect("csv");
    let csv = String::from_utf8(csv).expect("utf-8");
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("idShort,AmbientTemperature (min),AmbientTemperature (max)")
    );
    for (line, (min, max)) in lines.zip(&ranges) {
        let cells: Vec<&str> = line.split(',').collect();
        let read = |c: &str| c.parse::<f64>().expect("a plain number, no apostrophe");
        assert_eq!((read(cells[1]), read(cells[2])), (*min, *max), "{line}");
    }

    let json = render(&t, &view, &about, TableFormat::Json).expect("json");
    let json: Value = serde_json::from_slice(&json).expect("json");
    let first = &json["rows"][0]["cells"][1];
    assert_eq!(
        (first["min"].as_f64(), first["max"].as_f64()),
        (Some(ranges[0].0), Some(ranges[0].1))
    );
}
