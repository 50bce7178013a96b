//! The plant as a table: one row per shell, the elements a user chooses as columns,
//! each cell typed by its element's value type so that numbers sort as numbers and
//! dates as dates, filters per column, and the rows shown written as XLSX, CSV or JSON.
//! A table is built from any source of answers ([`aas_source::Source`]: a snapshot in
//! either store, or a crawl held in memory), one shell's submodels at a time.

mod build;
mod cell;
mod census;
mod column;
mod each_shell;
mod file_column;
mod filter;
mod language;
mod order;
mod outline;
mod submodels;
mod view;
mod write;
mod xlsx;

use aas_source::ErrorKind;

pub use build::{build, listed, Query, Shell, Table, TableColumn};
pub use cell::{Cell, Date, Typed};
pub use census::{census, Census, Offered};
pub use column::{Column, ShellField};
pub use filter::{ColumnFilter, FilterBox, Test};
pub use order::Sort;
pub use outline::Outlines;
pub use view::View;
pub use write::{render, write, TableFormat};

/// Why a table could not be built, filtered or written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A column as the user wrote it names nothing a table can show.
    #[error("the column {text:?} {reason}")]
    Column { text: String, reason: &'static str },
    /// A filter as the user wrote it cannot be read.
    #[error("the filter {text:?} {reason}")]
    Filter { text: String, reason: String },
    /// A sort or filter names a column the table does not have.
    #[error("the table has no column {0:?} (name it as in --column, or by its header)")]
    NoSuchColumn(String),
    /// Reading the answers failed.
    #[error(transparent)]
    Export(#[from] aas_export::Error),
    /// Writing the file failed.
    #[error(transparent)]
    Output(#[from] aas_output::Error),
    /// The table has more rows or columns than an Excel sheet holds.
    #[error(transparent)]
    TooLargeForExcel(#[from] aas_output::TooLargeForExcel),
    /// The spreadsheet library refused the workbook.
    #[error("the spreadsheet could not be made: {0}")]
    Xlsx(#[from] rust_xlsxwriter::XlsxError),
}

impl Error {
    /// Whether the disk (or the user's quota) is full.
    pub fn is_disk_full(&self) -> bool {
        match self {
            Error::Export(e) => e.is_disk_full(),
            Error::Output(e) => e.is_disk_full(),
            _ => false,
        }
    }

    /// The kind the page and `aasmd`'s exit codes act on.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Export(e) => e.kind(),
            Error::Output(e) => e.kind(),
            Error::Xlsx(_) => ErrorKind::Io,
            Error::Column { .. }
            | Error::Filter { .. }
            | Error::NoSuchColumn(_)
            | Error::TooLargeForExcel(_) => ErrorKind::BadRequest,
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
