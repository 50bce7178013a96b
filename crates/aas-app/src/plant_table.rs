//! The plant as a table, for both front ends: built from a snapshot (the one on screen,
//! or the plant's newest complete one from the active profile), the column picker's
//! list with the default columns, and the one table the app keeps open while the page
//! shows it: arranged (sorted, filtered), read a window of rows at a time as the page
//! scrolls, and exported as shown.

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use aas_model::AssetType;
use aas_snapshot::SnapshotInfo;

use crate::content::day_of;
use aas_table::{
    Cell, Census, Column, ColumnFilter, FilterBox, Query, Shell, Sort, Table, TableColumn,
    TableFormat, Typed, View,
};
use serde::{Deserialize, Serialize};

use crate::open_table::{KeptRows, KnownRows, OpenTable};
use crate::save_export::write_bytes;
use crate::snapshot_ref::placed;
use crate::{
    about_snapshot, lock, App, Error, PlacedSnapshot, Result, SaveAs, SnapshotRef, SnapshotStore,
};

/// A table the page asks for.
#[derive(Debug, Clone, Deserialize)]
pub struct TableRequest {
    pub plant: String,
    /// The snapshot on screen; `None`: the plant's newest complete one.
    pub snapshot: Option<SnapshotRef>,
    /// `None`: every asset type.
    pub asset_type: Option<AssetType>,
    /// Empty: the default columns.
    #[serde(default)]
    pub columns: Vec<Column>,
    /// Most wanted first, for MultiLanguageProperties.
    #[serde(default)]
    pub languages: Vec<String>,
}

/// What the Table tab asks, through one command (`{"what": "rows", "start": 0, …}`):
/// the desktop shell passes it on, the rules stay here.
#[derive(Debug, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum TableAsk {
    /// The column picker's list.
    Columns {
        plant: String,
        snapshot: Option<SnapshotRef>,
        asset_type: Option<AssetType>,
    },
    Open(TableRequest),
    /// Sorts by `sort` and keeps the rows the filter boxes' texts ask for.
    Arrange {
        sort: Option<Sort>,
        filters: Vec<FilterBox>,
    },
    Rows {
        start: usize,
        count: usize,
    },
    /// Where the element of a cell of the table as arranged is, for the tree to open.
    Element {
        row: usize,
        column: usize,
    },
}

/// The answer to a [`TableAsk`].
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum TableReply {
    Columns(ColumnChoice),
    Shape(TableShape),
    Rows(ShownRows),
    Element(ElementPlace),
}

/// Rows a page may ask at once.
const MAX_ROWS_ASKED: usize = 1000;

/// The column picker's list, the snapshot it read and the default columns.
#[derive(Debug, Serialize)]
pub struct ColumnChoice {
    pub snapshot: PlacedSnapshot,
    pub census: Census,
    pub defaults: Vec<Column>,
}

/// An opened or rearranged table, as the page lays it out.
#[derive(Debug, Serialize)]
pub struct TableShape {
    pub snapshot: PlacedSnapshot,
    pub columns: Vec<TableColumn>,
    /// The shells of the asset type.
    pub total: usize,
    /// The rows the filters keep.
    pub shown: usize,
    /// Shells whose submodels could not be read (their cells are missing).
    pub unreadable: usize,
}

/// Rows as the page draws them, in as few bytes and page objects as can be: the page
/// reads a block of them for each stretch it scrolls past, and WebKit's JavaScript heap
/// grows by several times what it reads before it collects.
#[derive(Debug, Default, Serialize)]
pub struct ShownRows {
    /// A row's cells, a letter each: `n` number, `d` date, `b` bool, `t` text, `e` an
    /// element without a value, `-` a shell without the element.
    pub kinds: Vec<String>,
    /// A row's cells as shown; `null` for a missing one.
    pub texts: Vec<Vec<Option<String>>>,
}

/// Where a cell's element is, as the tree opens it.
#[derive(Debug, PartialEq, Serialize)]
pub struct ElementPlace {
    pub aas_id: String,
    pub asset_type: AssetType,
    /// `None` for the shell's own fields, and a missing cell of a column by semanticId.
    pub submodel: Option<String>,
    /// The idShorts from the submodel down.
    pub path: Vec<String>,
}

impl SnapshotStore {
    /// The table `query` asks of snapshot `id`, a row for each of its shells of
    /// `asset_type` (all: `None`): `known`, when they were read from it before.
    pub fn plant_table(
        &self,
        id: i64,
        asset_type: Option<AssetType>,
        known: Option<KnownRows>,
        query: &Query,
    ) -> Result<(SnapshotInfo, Table)> {
        let (info, table) = self.read(|store| {
            store.with_answers(id, |info, answers| {
                let (shells, outlines) = match known {
                    Some(known) => (Ok(known.shells), known.outlines),
                    None => (aas_table::listed(answers, asset_type.as_ref()), None),
                };
                let table = shells.and_then(|shells| {
                    aas_table::build(answers, shells, outlines.as_deref(), query)
                });
                (info.clone(), table)
            })
        })?;
        Ok((info, table?))
    }

    /// Every element path of snapshot `id`'s shells of `asset_type` (all: `None`), and
    /// those shells (`listed`, when they were read from it before) with their outlines.
    pub fn census(
        &self,
        id: i64,
        asset_type: Option<AssetType>,
        listed: Option<Vec<Shell>>,
    ) -> Result<(SnapshotInfo, Census, KnownRows)> {
        let (info, census) = self.read(|store| {
            store.with_answers(id, |info, answers| {
                let listed =
                    listed.map_or_else(|| aas_table::listed(answers, asset_type.as_ref()), Ok);
                let census = listed.and_then(|shells| {
                    let (census, outlines) = aas_table::census(answers, &shells)?;
                    let outlines = Some(Arc::new(outlines));
                    Ok((census, KnownRows { shells, outlines }))
                });
                (info.clone(), census)
            })
        })?;
        let (census, rows) = census?;
        Ok((info, census, rows))
    }
}

impl App {
    /// Answers what the Table tab asks.
    pub async fn table(&self, ask: TableAsk) -> Result<TableReply> {
        Ok(match ask {
            TableAsk::Columns {
                plant,
                snapshot,
                asset_type,
            } => TableReply::Columns(self.table_columns(&plant, snapshot, asset_type).await?),
            TableAsk::Open(request) => TableReply::Shape(self.open_table(request).await?),
            TableAsk::Arrange { sort, filters } => {
                let filters: Vec<_> = filters.iter().filter_map(FilterBox::filter).collect();
                TableReply::Shape(self.arrange_table(sort, &filters)?)
            }
            TableAsk::Rows { start, count } => {
                TableReply::Rows(self.table_rows(start, count.min(MAX_ROWS_ASKED))?)
            }
            TableAsk::Element { row, column } => {
                TableReply::Element(self.table_element(row, column)?)
            }
        })
    }

    /// The census of `snapshot`'s shells of `asset_type` (in `store`): read once, then
    /// kept, since opening a table with the default columns and then the picker both
    /// need it.
    async fn census_of(
        &self,
        store: &Arc<SnapshotStore>,
        snapshot: &PlacedSnapshot,
        asset_type: Option<AssetType>,
    ) -> Result<Census> {
        let kept = (lock(&self.table.rows).as_ref())
            .filter(|k| k.of(snapshot, asset_type.as_ref()))
            .and_then(|k| k.census.clone());
        if let Some(census) = kept {
            return Ok(census);
        }
        let listed = self
            .kept_rows(snapshot, asset_type.as_ref())
            .map(|k| k.shells);
        let (store, id, kept_type) = (Arc::clone(store), snapshot.info.id, asset_type.clone());
        let (_, census, rows) =
            off_the_workers(move || store.census(id, kept_type, listed)).await?;
        *lock(&self.table.rows) = Some(KeptRows {
            snapshot: snapshot.clone(),
            asset_type,
            rows,
            census: Some(census.clone()),
        });
        Ok(census)
    }

    /// The shells of `snapshot`'s `asset_type` a table or census read last, if it was
    /// of them.
    fn kept_rows(
        &self,
        snapshot: &PlacedSnapshot,
        asset_type: Option<&AssetType>,
    ) -> Option<KnownRows> {
        (lock(&self.table.rows).as_ref())
            .filter(|k| k.of(snapshot, asset_type))
            .map(|k| k.rows.clone())
    }

    /// The column picker's list for the plant's shells of `asset_type`.
    pub async fn table_columns(
        &self,
        plant: &str,
        snapshot: Option<SnapshotRef>,
        asset_type: Option<AssetType>,
    ) -> Result<ColumnChoice> {
        let (store, snapshot) = self.snapshot(snapshot, plant)?;
        let census = self.census_of(&store, &snapshot, asset_type).await?;
        let defaults = census.default_columns();
        Ok(ColumnChoice {
            snapshot,
            census,
            defaults,
        })
    }

    /// Builds the table `request` asks for and keeps it open, unsorted and unfiltered.
    pub async fn open_table(&self, request: TableRequest) -> Result<TableShape> {
        let (store, snapshot) = self.snapshot(request.snapshot, &request.plant)?;
        let columns = match request.columns.is_empty() {
            false => request.columns,
            true => self
                .census_of(&store, &snapshot, request.asset_type.clone())
                .await?
                .default_columns(),
        };
        let query = Query {
            columns,
            languages: request.languages,
        };
        let (asset_type, id) = (request.asset_type.clone(), snapshot.info.id);
        let known = self.kept_rows(&snapshot, asset_type.as_ref());
        let read_now = known.is_none();
        let (info, table) =
            off_the_workers(move || store.plant_table(id, asset_type, known, &query)).await?;
        if read_now {
            let shells = table.shells.clone();
            *lock(&self.table.rows) = Some(KeptRows {
                snapshot: snapshot.clone(),
                asset_type: request.asset_type.clone(),
                rows: KnownRows {
                    shells,
                    outlines: None,
                },
                census: None,
            });
        }
        let view = View::of(&table, None, &[])?;
        let open = OpenTable {
            snapshot: placed(info, snapshot.store),
            table,
            view,
            asset_type: request.asset_type,
        };
        let shape = shape(&open);
        *lock(&self.table.open) = Some(open);
        Ok(shape)
    }

    /// Sorts and filters the open table; its new shape.
    pub fn arrange_table(
        &self,
        sort: Option<Sort>,
        filters: &[ColumnFilter],
    ) -> Result<TableShape> {
        let mut open = lock(&self.table.open);
        let open = open.as_mut().ok_or_else(no_table)?;
        open.view = View::of(&open.table, sort, filters)?;
        Ok(shape(open))
    }

    /// Rows `start..start + count` of the open table as arranged.
    pub fn table_rows(&self, start: usize, count: usize) -> Result<ShownRows> {
        let open = lock(&self.table.open);
        let open = open.as_ref().ok_or_else(no_table)?;
        let mut shown = ShownRows::default();
        for &row in open.view.rows.iter().skip(start).take(count) {
            let cells = open.table.row(row as usize);
            shown.kinds.push(cells.iter().map(kind_letter).collect());
            (shown.texts).push(cells.iter().map(|c| c.shown().map(str::to_owned)).collect());
        }
        Ok(shown)
    }

    /// Where the element of cell `column` of row `row` (as arranged) is.
    pub fn table_element(&self, row: usize, column: usize) -> Result<ElementPlace> {
        let open = lock(&self.table.open);
        let open = open.as_ref().ok_or_else(no_table)?;
        let (table, shown) = (&open.table, open.view.rows.len());
        let row = *(open.view.rows.get(row)).ok_or_else(|| {
            Error::BadRequest(format!("the table shows {shown} rows, not row {}", row + 1))
        })? as usize;
        let Some(asked) = table.columns.get(column) else {
            let n = table.columns.len();
            return Err(Error::BadRequest(format!(
                "the table has {n} columns, not column {}",
                column + 1
            )));
        };
        let shell = &table.shells[row];
        let (submodel, path) = match (&asked.column, &table.row(row)[column]) {
            (Column::Path { submodel, path }, _) => (Some(submodel.clone()), path.clone()),
            (Column::SemanticId(_), Cell::Value { at: Some(at), .. }) => {
                let mut steps = at.split('/').map(str::to_owned);
                (steps.next(), steps.collect())
            }
            _ => (None, Vec::new()),
        };
        Ok(ElementPlace {
            aas_id: shell.id.clone(),
            asset_type: shell.asset_type.clone(),
            submodel,
            path,
        })
    }

    /// Asks `choose` where to save, then writes the open table as shown in `format`;
    /// `None` when the user cancelled the choice.
    pub async fn export_table<F, Fut>(&self, format: &str, choose: F) -> Result<Option<PathBuf>>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let format: TableFormat = format.parse().map_err(Error::BadRequest)?;
        let prepare = || {
            let extension = format.extension();
            let open = lock(&self.table.open);
            let open = open.as_ref().ok_or_else(no_table)?;
            let info = &open.snapshot.info;
            let what = open.asset_type.as_ref().map_or("all", |t| t.code());
            let parts = [info.plant.as_str(), what, day_of(&info.taken_at)];
            Ok((SaveAs::describing(&parts, extension), ()))
        };
        let write = |path: PathBuf, ()| async move {
            let bytes = {
                let open = lock(&self.table.open);
                let open = open.as_ref().ok_or_else(no_table)?;
                let about = about_snapshot(&open.snapshot.info, open.asset_type.as_ref());
                aas_table::render(&open.table, &open.view, &about, format)?
            };
            write_bytes(&path, &bytes)
        };
        let saved = self.save_export(prepare, choose, write).await?;
        Ok(saved.map(|(path, ())| path))
    }
}

/// Runs `work` (a census or a build, which keeps the cores busy for up to a second) off
/// the async workers, as a search or an audit is.
async fn off_the_workers<T: Send + 'static>(
    work: impl FnOnce() -> Result<T> + Send + 'static,
) -> Result<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(Error::stopped)?
}

fn no_table() -> Error {
    Error::BadRequest("no table is open: open the Table view first".into())
}

fn shape(open: &OpenTable) -> TableShape {
    TableShape {
        snapshot: open.snapshot.clone(),
        columns: open.table.columns.clone(),
        total: open.table.shells.len(),
        shown: open.view.rows.len(),
        unreadable: open.table.unreadable,
    }
}

fn kind_letter(cell: &Cell) -> char {
    match cell.typed() {
        None => '-',
        Some(Typed::Empty) => 'e',
        Some(Typed::Text) => 't',
        Some(Typed::Number(_)) => 'n',
        Some(Typed::Date(_)) => 'd',
        Some(Typed::Bool(_)) => 'b',
    }
}
