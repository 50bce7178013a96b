//! What an element of an AAS file opened holds, saved where the user chooses: a File's
//! part of the package (of a V3 server: its attachment, asked for then), a Blob's
//! decoded content. The page names only the element; the
//! name the dialog offers is the part's last segment (or the Blob's idShort), made a
//! plain file name, so nothing inside the file chooses where anything is written.

use std::future::Future;
use std::path::{Path, PathBuf};

use aas_client::ElementAddress;
use aas_file::Value;

use crate::content::{extension_for, file_name, listed_extension, BlobContent};
use crate::opened_file::{OpenedFile, Origin};
use crate::{App, Error, Result, SaveAs};

impl App {
    /// Asks `choose` where to save what the element `at` of opened file `file` holds,
    /// then writes it there atomically; `None` when the user cancelled.
    pub async fn save_file_content<F, Fut>(
        &self,
        file: u32,
        at: &ElementAddress,
        choose: F,
    ) -> Result<Option<PathBuf>>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let opened = self.whole_file(file).await?;
        let (offer, bytes) = content(&opened, at).await?;
        self.save_bytes(offer, &bytes, choose).await
    }
}

/// The name to offer and the bytes of what the element at `at` holds.
pub(crate) async fn content(opened: &OpenedFile, at: &ElementAddress) -> Result<(SaveAs, Vec<u8>)> {
    let element = opened.element(at)?;
    let id_short = element.id_short.clone().unwrap_or_default();
    match &element.value {
        Value::Blob {
            content_type,
            base64: Some(text),
            ..
        } => {
            let blob = BlobContent::decoded(id_short, content_type.clone(), text)?;
            Ok((blob.offer(), blob.bytes))
        }
        Value::File {
            content_type,
            value: Some(path),
        } => {
            let part = part_name(path).ok_or_else(|| {
                Error::BadRequest(format!(
                    "{id_short} names {path}, which is no part of a package"
                ))
            })?;
            let bytes = match &opened.origin {
                Origin::File(package) => package_part(package, &part, &id_short).await?,
                Origin::V3Server {
                    server,
                    submodel_urls,
                    ..
                } => {
                    // The page names the submodel as the tree does; the server, by its id.
                    let submodel = &opened.submodel(&at.aas_id, &at.submodel)?.id;
                    let read_at = submodel_urls.get(submodel).map(String::as_str);
                    server.attachment(submodel, read_at, &at.id_shorts).await?
                }
            };
            let last = part.rsplit('/').next().unwrap_or(&part);
            let extension =
                listed_extension(last).unwrap_or_else(|| extension_for(content_type.as_deref()));
            Ok((SaveAs::new(file_name(last), extension), bytes))
        }
        _ => Err(Error::BadRequest(format!(
            "{id_short} holds no file or content to save"
        ))),
    }
}

/// The part name a File's value names in its package (`/aasx/suppl/manual.pdf`,
/// `file:///aasx/suppl/manual.pdf` → `aasx/suppl/manual.pdf`); `None` for a web address
/// or another scheme.
fn part_name(value: &str) -> Option<String> {
    let value = value.trim();
    let path = match value.split_once(':') {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("file") => rest.trim_start_matches('/'),
        Some(_) => return None,
        None => value.trim_start_matches('/'),
    };
    (!path.is_empty()).then(|| path.to_owned())
}

/// Part `name` of the package at `path`, read again from the disk (a package is not kept
/// in memory while it is browsed), within the bounds every part is read in.
async fn package_part(path: &Path, name: &str, id_short: &str) -> Result<Vec<u8>> {
    let (path, name) = (path.to_owned(), name.to_owned());
    let read = tokio::task::spawn_blocking(move || -> Result<Option<Vec<u8>>> {
        let bytes = aas_model::aasx::read_file(&path).map_err(|source| {
            Error::File(aas_model::FileError {
                action: "read",
                path: path.clone(),
                source,
            })
        })?;
        if !aas_model::aasx::is_package(&bytes) {
            return Ok(None);
        }
        let parts = aas_model::aasx::parts(&bytes, &[name]).map_err(|e| Error::BadData {
            what: "the package".into(),
            source: e.into(),
        })?;
        Ok(parts.into_iter().next().map(|part| part.bytes))
    });
    let read = read
        .await
        .map_err(|e| Error::internal("reading a package stopped", e))??;
    read.ok_or_else(|| {
        Error::BadRequest(format!(
            "{id_short} names a part the file opened does not hold (an environment file holds none)"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_files_value_names_its_part_without_a_scheme_or_a_leading_slash() {
        assert_eq!(
            part_name("/aasx/suppl/a.pdf").as_deref(),
            Some("aasx/suppl/a.pdf")
        );
        assert_eq!(
            part_name("file:///aasx/a.png").as_deref(),
            Some("aasx/a.png")
        );
        assert_eq!(part_name("aasx/a.png").as_deref(), Some("aasx/a.png"));
        assert_eq!(part_name("https://example.com/a.pdf"), None);
        assert_eq!(part_name(" / "), None);
    }
}
