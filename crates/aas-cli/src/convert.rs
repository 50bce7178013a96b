//! `aasmd convert FILE --to v3.1 --out OUT`: a V2 file to AAS V3.0 or V3.1, with its
//! report.

use std::path::Path;

use aas_export::Target;

use crate::error::CliError;

pub async fn run(file: &Path, out: &Path, target: Target, strict: bool) -> Result<(), CliError> {
    let exported = aas_app::convert_file(file.to_owned(), out.to_owned(), target, strict).await?;
    eprintln!(
        "aasmd: converted {} to {} ({} bytes)",
        file.display(),
        out.display(),
        exported.bytes
    );
    if let Some(conversion) = exported.conversion {
        eprintln!("aasmd: {}", conversion.summary());
    }
    Ok(())
}
