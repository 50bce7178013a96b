//! What the format writers hand [`aas_output`], the writer that never leaves half a
//! file: why a writer stopped ([`Stop`]: a failed write, which aas-output names with
//! its file, or this crate's own error), and an AASX package around what it writes.

use std::io::{Seek, Write};
use std::path::Path;

use aas_model::aasx::{Flavour, Package};
use aas_model::FileError;
use aas_output::{Out, WriteStop};

use crate::Error;

/// Why writing stopped: the file could not be written, or something else (an answer
/// that cannot be read).
pub(crate) enum Stop {
    Write(std::io::Error),
    Other(Error),
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Self {
        Stop::Write(e)
    }
}

impl From<Error> for Stop {
    fn from(e: Error) -> Self {
        Stop::Other(e)
    }
}

impl From<aas_source::Error> for Stop {
    fn from(e: aas_source::Error) -> Self {
        Stop::Other(e.into())
    }
}

impl From<aas_in_order::WorkerGone> for Stop {
    fn from(e: aas_in_order::WorkerGone) -> Self {
        Stop::Other(e.into())
    }
}

impl From<serde_json::Error> for Stop {
    fn from(e: serde_json::Error) -> Self {
        Stop::Write(e.into())
    }
}

impl From<csv::Error> for Stop {
    fn from(e: csv::Error) -> Self {
        Stop::Write(e.into())
    }
}

impl WriteStop for Stop {
    type Error = Error;

    fn at(self, action: &'static str, path: &Path) -> Error {
        match self {
            Stop::Write(source) => Error::File(FileError {
                action,
                path: path.to_owned(),
                source,
            }),
            Stop::Other(e) => e,
        }
    }
}

pub(crate) type Written = std::result::Result<(), Stop>;

/// A package around what `spec` writes into it as its environment.
pub(crate) fn package(
    out: Out<'_>,
    flavour: Flavour,
    spec: impl FnOnce(&mut dyn Write) -> Written,
) -> Written {
    match out {
        Out::File(file) => finish(Package::new(file, flavour, &[])?, spec),
        Out::Stream(stream) => finish(Package::streamed(stream, flavour)?, spec),
    }
}

fn finish<W: Write + Seek>(
    mut package: Package<W>,
    spec: impl FnOnce(&mut dyn Write) -> Written,
) -> Written {
    spec(&mut package)?;
    package.finish()?;
    Ok(())
}
