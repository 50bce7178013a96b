//! A File's or Blob's content, on the user's request. The front end names only the
//! element: it is read again from the server here, so a page can neither choose what
//! is written nor which address is opened. A Blob's base64 value is decoded and
//! written where the user chose; a File whose value is a web address may be opened in
//! the browser (a path inside the AASX package is not served).

use std::future::Future;
use std::path::{Path, PathBuf};

use aas_client::{Client, ElementAddress};
use aas_model::{Blob, ElementBody};
use base64::Engine;

use crate::{App, Error, Result};

/// The File or Blob (`model_type`) at `at`: its idShort and its mimeType and value.
async fn fetch_content(
    client: &Client,
    at: &ElementAddress,
    model_type: &str,
) -> Result<(String, Blob)> {
    let element = client.element_at(at).await?;
    let element = element.view().map_err(|e| Error::BadData {
        what: format!("the element at {}", at.id_shorts.join(".")),
        source: e.clone().into(),
    })?;
    match &element.body {
        ElementBody::Blob(b) | ElementBody::File(b) if element.model_type.name == model_type => {
            Ok((element.id_short.clone(), b.clone()))
        }
        _ => Err(Error::BadRequest(format!(
            "{} is a {}, not a {model_type}",
            element.id_short, element.model_type.name
        ))),
    }
}

/// The decoded content of a Blob element, from the service or a file opened.
#[derive(Debug)]
pub(crate) struct BlobContent {
    id_short: String,
    mime_type: Option<String>,
    pub(crate) bytes: Vec<u8>,
}

impl BlobContent {
    /// Reads the Blob at `at`.
    async fn fetch(client: &Client, at: &ElementAddress) -> Result<Self> {
        let (id_short, blob) = fetch_content(client, at, "Blob").await?;
        let text = blob.value.as_ref().map(String::as_str).unwrap_or_default();
        BlobContent::decoded(id_short, blob.content_type().map(str::to_owned), text)
    }

    /// The Blob `id_short` whose base64 value is `text`; one that is not base64 is said.
    pub(crate) fn decoded(id_short: String, mime_type: Option<String>, text: &str) -> Result<Self> {
        // Some servers wrap long base64 lines.
        let compact: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(compact)
            .map_err(|e| Error::BadData {
                what: format!("{id_short}: the value is not base64"),
                source: e.into(),
            })?;
        Ok(BlobContent {
            id_short,
            mime_type,
            bytes,
        })
    }

    fn extension(&self) -> &'static str {
        extension_for(self.mime_type.as_deref())
    }

    /// What a save dialog offers for it: its idShort as a file name, the extension its
    /// MIME type gives.
    pub(crate) fn offer(&self) -> SaveAs {
        let extension = self.extension();
        SaveAs::new(
            format!("{}.{extension}", file_name(&self.id_short)),
            extension,
        )
    }
}

/// The MIME types whose files a save dialog names by their extension.
const EXTENSIONS: [(&str, &str); 10] = [
    ("application/json", "json"),
    ("application/pdf", "pdf"),
    ("application/xml", "xml"),
    ("text/xml", "xml"),
    ("application/zip", "zip"),
    ("image/png", "png"),
    ("image/jpeg", "jpg"),
    ("image/svg+xml", "svg"),
    ("text/csv", "csv"),
    ("text/plain", "txt"),
];

/// The file name extension for a MIME type; `bin` for one not listed here.
pub(crate) fn extension_for(mime_type: Option<&str>) -> &'static str {
    let essence = mime_type.unwrap_or_default();
    let essence = essence.split(';').next().unwrap_or_default().trim();
    (EXTENSIONS.iter())
        .find(|(mime, _)| mime.eq_ignore_ascii_case(essence))
        .map_or("bin", |(_, extension)| extension)
}

/// A file name's extension as [`EXTENSIONS`] lists it (`Manual.PDF` → `pdf`), if it is one.
pub(crate) fn listed_extension(name: &str) -> Option<&'static str> {
    let (_, extension) = name.rsplit_once('.')?;
    let extension = if extension.eq_ignore_ascii_case("jpeg") {
        "jpg"
    } else {
        extension
    };
    (EXTENSIONS.iter())
        .map(|(_, listed)| *listed)
        .find(|listed| listed.eq_ignore_ascii_case(extension))
}

/// What a save dialog is asked for: a suggested file name and its extension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveAs {
    name: String,
    pub extension: &'static str,
    /// The folder the dialog opens in: the one a file was last saved to, else the
    /// user's documents (set by [`App::ask_where`]).
    pub folder: Option<PathBuf>,
}

impl SaveAs {
    /// Suggests `name`, made one Windows takes on every platform (a plant code `CON`,
    /// an idShort with `:`): a dialog never proposes a name Windows would refuse.
    pub fn new(name: impl AsRef<str>, extension: &'static str) -> Self {
        let name = aas_output::windows_safe_name(name.as_ref());
        SaveAs {
            name,
            extension,
            folder: None,
        }
    }

    /// Suggests a name that says what is inside: the non-empty `parts` joined by `-`
    /// (plant, asset type, date…: `DEMO-01-machine-2026-11-27.xlsx`).
    pub fn describing(parts: &[&str], extension: &'static str) -> Self {
        let parts: Vec<&str> = parts.iter().copied().filter(|p| !p.is_empty()).collect();
        SaveAs::new(format!("{}.{extension}", parts.join("-")), extension)
    }

    /// The file name suggested.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// The day of an RFC 3339 time (`2026-11-27T09:53:01Z` → `2026-11-27`).
pub(crate) fn day_of(time: &str) -> &str {
    time.get(..10).unwrap_or(time)
}

/// Today, as a file name gives a day (UTC, as snapshots' times are).
pub(crate) fn today() -> String {
    day_of(&humantime::format_rfc3339(std::time::SystemTime::now()).to_string()).to_owned()
}

impl App {
    /// Asks `choose` where to save `offer`, in the folder a file was saved to last (else
    /// the user's documents), and remembers the folder chosen for the next dialog.
    pub(crate) async fn ask_where<F, Fut>(
        &self,
        mut offer: SaveAs,
        choose: F,
    ) -> Result<Option<PathBuf>>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let last = self
            .preferences()
            .save_folder
            .filter(|folder| folder.is_dir());
        offer.folder = last.or_else(dirs::document_dir);
        let chosen = choose(offer).await?;
        if let Some(folder) = chosen.as_deref().and_then(Path::parent) {
            let mut preferences = self.preferences();
            preferences.save_folder = Some(folder.to_owned());
            // Not remembered is no reason to fail the save itself.
            if let Err(e) = self.keep_preferences(&preferences) {
                tracing::warn!(error = %e, "the folder saved to is not remembered");
            }
        }
        Ok(chosen)
    }
}

impl App {
    /// Reads the Blob at `at`, asks `choose` where to save its decoded content, then
    /// writes it there atomically; `None` when the user cancelled.
    pub async fn save_blob<F, Fut>(&self, at: &ElementAddress, choose: F) -> Result<Option<PathBuf>>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let blob = BlobContent::fetch(&self.session().client, at).await?;
        self.save_bytes(blob.offer(), &blob.bytes, choose).await
    }

    /// Asks `choose` where to save `bytes`, offering `offer`, then writes them there
    /// atomically; `None` when the user cancelled.
    pub(crate) async fn save_bytes<F, Fut>(
        &self,
        offer: SaveAs,
        bytes: &[u8],
        choose: F,
    ) -> Result<Option<PathBuf>>
    where
        F: FnOnce(SaveAs) -> Fut,
        Fut: Future<Output = Result<Option<PathBuf>>>,
    {
        let Some(chosen) = self.ask_where(offer, choose).await? else {
            return Ok(None);
        };
        aas_output::write_atomically(&chosen, bytes)?;
        Ok(Some(chosen))
    }

    /// The web address of the File at `at`, for the front end to open in a browser.
    pub async fn file_address(&self, at: &ElementAddress) -> Result<String> {
        let (id_short, file) = fetch_content(&self.session().client, at, "File").await?;
        web_address(&file).map(str::to_owned).ok_or_else(|| {
            Error::BadRequest(format!(
                "{id_short} is a path in the package, not a web address"
            ))
        })
    }
}

/// A file name from the server's idShort that stays in the folder the user chose: no
/// folder separators, no `..`, no control characters, no leading dot.
pub(crate) fn file_name(id_short: &str) -> String {
    let plain: String = id_short
        .chars()
        .map(|c| match c {
            '/' | '\\' => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect();
    let plain = plain.replace("..", "_");
    let plain = plain.trim().trim_start_matches('.');
    if plain.is_empty() {
        "blob".to_owned()
    } else {
        plain.to_owned()
    }
}

/// A File's value when it is an http(s) address, the only kind handed to the browser.
fn web_address(file: &Blob) -> Option<&str> {
    let value = file.value.as_ref()?.trim();
    let scheme = value.split_once("://")?.0.to_ascii_lowercase();
    let plain = !value.chars().any(char::is_whitespace);
    (plain && (scheme == "http" || scheme == "https")).then_some(value)
}

#[cfg(test)]
mod tests {
    //! Against the demo service of the app itself, over loopback.

    use super::*;
    use aas_model::Nullable;

    const AAS: &str = "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001";

    fn at(submodel: &str, id_shorts: &[&str]) -> ElementAddress {
        ElementAddress {
            aas_id: AAS.into(),
            submodel: submodel.into(),
            id_shorts: id_shorts.iter().map(|s| s.to_string()).collect(),
        }
    }

    async fn fetch(submodel: &str, id_shorts: &[&str]) -> Result<BlobContent> {
        let app = App::start_with_demo().await.expect("demo service");
        BlobContent::fetch(&app.session().client, &at(submodel, id_shorts)).await
    }

    #[tokio::test]
    async fn a_save_dialog_opens_where_the_last_file_was_saved() {
        let app = App::start_with_demo().await.expect("demo service");
        let offered = std::sync::Mutex::new(Vec::new());
        let folder = tempfile::tempdir().expect("a folder");
        let into = folder.path().join("DEMO-01-machine-2026-11-27.xlsx");
        for _ in 0..2 {
            let chosen = app
                .ask_where(
                    SaveAs::describing(&["DEMO-01", "machine", "2026-11-27"], "xlsx"),
                    |offer| {
                        offered
                            .lock()
                            .expect("offers")
                            .push((offer.name().to_owned(), offer.folder));
                        std::future::ready(Ok(Some(into.clone())))
                    },
                )
                .await
                .expect("asked");
            assert_eq!(chosen.as_deref(), Some(into.as_path()));
        }
        let offered = offered.into_inner().expect("offers");
        assert_eq!(offered[0].0, "DEMO-01-machine-2026-11-27.xlsx");
        assert_eq!(
            offered[0].1,
            dirs::document_dir(),
            "first: the documents folder"
        );
        assert_eq!(
            offered[1].1.as_deref(),
            Some(folder.path()),
            "then: where the last file went"
        );
        // A cancelled dialog remembers nothing.
        let cancelled = app.ask_where(SaveAs::new("x.csv", "csv"), |_| {
            std::future::ready(Ok(None))
        });
        assert_eq!(cancelled.await.expect("asked"), None);
        assert_eq!(
            app.preferences().save_folder.as_deref(),
            Some(folder.path())
        );
    }

    #[tokio::test]
    async fn a_blob_is_decoded_and_written_atomically() {
        let blob = fetch("OperationalData", &["LastConfiguration"])
            .await
            .expect("the demo Blob");
        assert_eq!(blob.mime_type.as_deref(), Some("application/json"));
        assert_eq!(blob.extension(), "json");
        let config: serde_json::Value =
            serde_json::from_slice(&blob.bytes).expect("the decoded bytes are the JSON sent");
        assert_eq!(config["program"], "P-M-0001");

        let dir = std::env::temp_dir().join(format!("aas-blob-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let file = dir.join("LastConfiguration.json");
        aas_output::write_atomically(&file, &blob.bytes).expect("written");
        assert_eq!(std::fs::read(&file).expect("read back"), blob.bytes);
        std::fs::remove_dir_all(&dir).expect("cleaned up");
    }

    #[tokio::test]
    async fn an_element_that_is_not_a_blob_is_refused() {
        let error = fetch("Nameplate", &["ManufacturerName"])
            .await
            .expect_err("a Property has no content to save");
        assert_eq!(
            error.to_string(),
            "ManufacturerName is a Property, not a Blob"
        );
    }

    #[tokio::test]
    async fn a_file_in_the_package_has_no_web_address() {
        let app = App::start_with_demo().await.expect("demo service");
        let request = at("TechnicalData", &["GeneralInformation", "ProductImage"]);
        let client = app.session().client;
        let (_, file) = fetch_content(&client, &request, "File")
            .await
            .expect("the File");
        assert_eq!(file.content_type(), Some("image/png"));
        assert_eq!(web_address(&file), None);
        let error = fetch_content(&client, &request, "Blob")
            .await
            .expect_err("not a Blob");
        assert_eq!(error.to_string(), "ProductImage is a File, not a Blob");
    }

    #[test]
    fn only_http_addresses_are_web_addresses() {
        let file = |value: &str| Blob {
            value: Nullable::Present(value.to_owned()),
            ..Blob::default()
        };
        assert_eq!(
            web_address(&file(" HTTPS://x.example/m.pdf")),
            Some("HTTPS://x.example/m.pdf")
        );
        assert_eq!(
            web_address(&file("http://x.example/a")),
            Some("http://x.example/a")
        );
        for not in [
            "/aasx/m.pdf",
            "file:///etc/passwd",
            "javascript://x",
            "https://x.example/a b",
        ] {
            assert_eq!(web_address(&file(not)), None, "{not}");
        }
    }

    #[test]
    fn a_suggested_name_is_one_windows_takes() {
        // A plant code is the platform's: `CON`, `A/B:C` reach the dialog as Windows takes them.
        for (name, offered) in [
            ("CON", "CON_"),
            ("aux.csv", "aux_.csv"),
            ("A/B:C-findings.csv", "A_B_C-findings.csv"),
            (
                "DEMO-01-machine-2026-11-27.xlsx",
                "DEMO-01-machine-2026-11-27.xlsx",
            ),
        ] {
            assert_eq!(SaveAs::new(name, "csv").name(), offered, "{name:?}");
        }
    }

    #[test]
    fn a_blobs_file_name_never_leaves_the_chosen_folder() {
        for (id_short, name) in [
            ("LastConfiguration", "LastConfiguration"),
            ("../../etc/passwd", "____etc_passwd"),
            ("..\\..\\boot.ini", "____boot.ini"),
            ("/abs", "_abs"),
            (".hidden", "hidden"),
            ("..", "_"),
            ("a\u{0}b", "a_b"),
            ("", "blob"),
            ("...", "_."),
        ] {
            let got = file_name(id_short);
            assert_eq!(got, name, "{id_short:?}");
            assert_eq!(
                std::path::Path::new("/chosen").join(&got).parent(),
                Some(std::path::Path::new("/chosen")),
                "{id_short:?}"
            );
        }
    }

    #[test]
    fn the_extension_follows_the_mime_type() {
        let with = |mime: Option<&str>| BlobContent {
            id_short: "b".into(),
            mime_type: mime.map(str::to_owned),
            bytes: Vec::new(),
        };
        assert_eq!(with(Some("image/PNG")).extension(), "png");
        assert_eq!(with(Some("text/plain; charset=utf-8")).extension(), "txt");
        assert_eq!(with(Some("application/x-unknown")).extension(), "bin");
        assert_eq!(with(None).extension(), "bin");
    }
}
