//! `aasmd table`: the plant table from a snapshot, through aas-app as the desktop app
//! builds it; the file (or stdout) gets the table, stderr which snapshot was read.

use std::io::Write;

use aas_table::{ColumnFilter, Query, Sort, TableFormat, View};

use crate::cli::{ConnectionArgs, TableArgs};
use crate::error::CliError;
use crate::snapshot::{field, named_source, print, say_chosen, store_of};

pub fn run(args: &ConnectionArgs, table: &TableArgs) -> Result<(), CliError> {
    let store = store_of(&table.store)?;
    let source = named_source(args)?;
    let chosen = store.chosen(
        table.shells.snapshot,
        table.shells.plant.as_deref(),
        source.as_deref(),
    )?;
    if table.shells.snapshot.is_none() {
        say_chosen("reading", &chosen);
    }
    if table.list_columns {
        let (_, census, _) = store.census(chosen.id, table.shells.asset_type.clone(), None)?;
        let lines: Vec<String> = census
            .columns
            .iter()
            .map(|o| {
                let optional = |s: &Option<String>| field(s.as_deref().unwrap_or_default());
                format!(
                    "{}\t{}\t{}\t{}\t{}\t{}",
                    field(&o.column.to_string()),
                    o.shells,
                    o.model_type,
                    optional(&o.value_type),
                    optional(&o.unit),
                    optional(&o.semantic_id),
                )
            })
            .collect();
        eprintln!("aasmd: {} shells", census.shells);
        return print(&lines.join("\n"));
    }
    // The default columns come from the census, which lists the shells on the way.
    let (columns, known) = match table.columns.is_empty() {
        false => (table.columns.clone(), None),
        true => {
            let (_, census, rows) =
                store.census(chosen.id, table.shells.asset_type.clone(), None)?;
            (census.default_columns(), Some(rows))
        }
    };
    let query = Query {
        columns,
        languages: table.languages.clone(),
    };
    let (info, built) =
        store.plant_table(chosen.id, table.shells.asset_type.clone(), known, &query)?;
    let filters = (table.filters.iter())
        .map(|f| ColumnFilter::parse(f, &built.columns))
        .collect::<Result<Vec<_>, _>>()
        .map_err(aas_app::Error::from)?;
    let sort = (table.sort.as_deref())
        .map(|s| Sort::parse(s, &built))
        .transpose()
        .map_err(aas_app::Error::from)?;
    let view = View::of(&built, sort, &filters).map_err(aas_app::Error::from)?;
    if built.unreadable > 0 {
        eprintln!(
            "aasmd: warning: the submodels of {} shells could not be read; their cells are empty",
            built.unreadable
        );
    }
    eprintln!(
        "aasmd: {} of {} shells",
        view.rows.len(),
        built.shells.len()
    );
    let about = aas_app::about_snapshot(&info, table.shells.asset_type.as_ref());
    let bytes =
        aas_table::render(&built, &view, &about, table.format).map_err(aas_app::Error::from)?;
    match &table.out {
        Some(out) => aas_output::write_atomically(out, &bytes)?,
        None if table.format == TableFormat::Xlsx => {
            return Err(CliError::Usage(
                "an XLSX table is a binary file: name it with --out FILE.xlsx".into(),
            ))
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(&bytes)?;
            stdout.flush()?;
        }
    }
    Ok(())
}
