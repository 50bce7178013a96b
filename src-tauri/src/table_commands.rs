//! Tauri commands over the plant table, a few lines each: built from a snapshot, kept
//! open on the Rust side, read a window of rows at a time.

use std::path::PathBuf;

use aas_app::{App, ColumnChoice, ShownRow, TableRequest, TableShape};
use aas_model::AssetType;
use aas_table::{ColumnFilter, Sort};
use tauri::{AppHandle, State};

use crate::commands::Reply;
use crate::file_dialogs::ask_save_path;

#[tauri::command]
pub async fn table_columns(
    app: State<'_, App>,
    plant: String,
    snapshot: Option<i64>,
    asset_type: Option<AssetType>,
) -> Reply<ColumnChoice> {
    Ok(app.table_columns(&plant, snapshot, asset_type)?)
}

#[tauri::command]
pub async fn open_table(app: State<'_, App>, request: TableRequest) -> Reply<TableShape> {
    Ok(app.open_table(request)?)
}

#[tauri::command]
pub async fn arrange_table(
    app: State<'_, App>,
    sort: Option<Sort>,
    filters: Vec<ColumnFilter>,
) -> Reply<TableShape> {
    Ok(app.arrange_table(sort, &filters)?)
}

#[tauri::command]
pub async fn table_rows(app: State<'_, App>, start: usize, count: usize) -> Reply<Vec<ShownRow>> {
    Ok(app.table_rows(start, count.min(1000))?)
}

#[tauri::command]
pub async fn export_table(
    handle: AppHandle,
    app: State<'_, App>,
    format: String,
) -> Reply<Option<PathBuf>> {
    let chosen = |s| ask_save_path(&handle, s);
    Ok(app.export_table(&format, chosen).await?)
}
