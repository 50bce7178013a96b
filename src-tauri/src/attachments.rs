//! A File's or Blob's content, on the user's request. The webview names only the
//! element: it is read again from the server here, so the webview can neither choose
//! what is written nor which address is opened. A Blob's base64 value is decoded and
//! written where the user chose in the save dialog; a File whose value is a web
//! address is opened in the browser (a path inside the AASX package is not served).

use aas_client::Client;
use aas_model::{Blob, ElementBody};
use base64::Engine;
use tauri::{AppHandle, State};

use crate::error::IpcError;
use crate::save_dialog::ask_save_path;
use crate::state::AppState;

/// Where an element is: AAS id, submodel idShort, and the idShorts from the outermost
/// collection down to the element.
type ElementAt<'a> = (&'a str, &'a str, &'a [String]);

/// The File or Blob (`model_type`) at `at`: its idShort and its mimeType and value.
async fn fetch_content(
    client: &Client,
    (aas_id, submodel, id_shorts): ElementAt<'_>,
    model_type: &str,
) -> Result<(String, Blob), IpcError> {
    let path: Vec<&str> = id_shorts.iter().map(String::as_str).collect();
    let element = client.element(aas_id, submodel, &path).await?;
    let element = element
        .view()
        .map_err(|e| IpcError::bad_data(e.to_string()))?;
    match &element.body {
        ElementBody::Blob(b) | ElementBody::File(b) if element.model_type.name == model_type => {
            Ok((element.id_short.clone(), b.clone()))
        }
        _ => Err(IpcError::bad_request(format!(
            "{} is a {}, not a {model_type}",
            element.id_short, element.model_type.name
        ))),
    }
}

/// The decoded content of a Blob element.
#[derive(Debug)]
struct BlobContent {
    id_short: String,
    mime_type: Option<String>,
    bytes: Vec<u8>,
}

impl BlobContent {
    /// Reads the Blob at `at`.
    async fn fetch(client: &Client, at: ElementAt<'_>) -> Result<Self, IpcError> {
        let (id_short, blob) = fetch_content(client, at, "Blob").await?;
        let text = blob.value.as_ref().map(String::as_str).unwrap_or_default();
        // Some servers wrap long base64 lines.
        let compact: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(compact)
            .map_err(|e| IpcError::bad_data(format!("{id_short}: the value is not base64: {e}")))?;
        Ok(BlobContent {
            id_short,
            mime_type: blob.mime_type.as_ref().cloned(),
            bytes,
        })
    }

    /// The file name extension for the MIME type; `bin` for one not listed here.
    fn extension(&self) -> &'static str {
        let essence = self.mime_type.as_deref().unwrap_or_default();
        let essence = essence.split(';').next().unwrap_or_default().trim();
        match essence.to_ascii_lowercase().as_str() {
            "application/json" => "json",
            "application/pdf" => "pdf",
            "application/xml" | "text/xml" => "xml",
            "application/zip" => "zip",
            "image/png" => "png",
            "image/jpeg" => "jpg",
            "image/svg+xml" => "svg",
            "text/csv" => "csv",
            "text/plain" => "txt",
            _ => "bin",
        }
    }
}

/// Asks where to save the Blob's decoded content, then writes it; `None` when the user
/// cancelled.
#[tauri::command]
pub async fn save_blob(
    app: AppHandle,
    state: State<'_, AppState>,
    aas_id: String,
    submodel: String,
    id_shorts: Vec<String>,
) -> Result<Option<String>, IpcError> {
    let client = state.session().client;
    let blob = BlobContent::fetch(&client, (&aas_id, &submodel, &id_shorts)).await?;
    let extension = blob.extension();
    let name = format!("{}.{extension}", blob.id_short);
    let Some(chosen) = ask_save_path(&app, &name, extension).await? else {
        return Ok(None);
    };
    aas_client::write_atomically(&chosen, &blob.bytes)?;
    Ok(Some(chosen.display().to_string()))
}

/// A File's value when it is an http(s) address, the only kind handed to the browser.
fn web_address(file: &Blob) -> Option<&str> {
    let value = file.value.as_ref()?.trim();
    let scheme = value.split_once("://")?.0.to_ascii_lowercase();
    let plain = !value.chars().any(char::is_whitespace);
    (plain && (scheme == "http" || scheme == "https")).then_some(value)
}

/// Opens the File's web address in the system's browser.
#[tauri::command]
pub async fn open_file_address(
    state: State<'_, AppState>,
    aas_id: String,
    submodel: String,
    id_shorts: Vec<String>,
) -> Result<(), IpcError> {
    let client = state.session().client;
    let (id_short, file) = fetch_content(&client, (&aas_id, &submodel, &id_shorts), "File").await?;
    let address = web_address(&file).ok_or_else(|| {
        IpcError::bad_request(format!(
            "{id_short} is a path in the package, not a web address"
        ))
    })?;
    tauri_plugin_opener::open_url(address, None::<&str>)
        .map_err(|e| IpcError::bad_request(format!("cannot open {address}: {e}")))
}

#[cfg(test)]
mod tests {
    //! Against the demo service of the app itself, over loopback.

    use super::*;
    use aas_model::Nullable;

    const AAS: &str = "urn:demo-platform:acme:DEMO-01:aas:machine#M-0001";

    async fn fetch(submodel: &str, id_shorts: &[&str]) -> Result<BlobContent, IpcError> {
        let state = AppState::demo().await.expect("demo service");
        let id_shorts: Vec<String> = id_shorts.iter().map(|s| s.to_string()).collect();
        BlobContent::fetch(&state.session().client, (AAS, submodel, &id_shorts)).await
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
        aas_client::write_atomically(&file, &blob.bytes).expect("written");
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
        let state = AppState::demo().await.expect("demo service");
        let id_shorts = ["GeneralInformation".to_owned(), "ProductImage".to_owned()];
        let request = (AAS, "TechnicalData", &id_shorts[..]);
        let client = state.session().client;
        let (_, file) = fetch_content(&client, request, "File")
            .await
            .expect("the File");
        assert_eq!(
            file.mime_type.as_ref().map(String::as_str),
            Some("image/png")
        );
        assert_eq!(web_address(&file), None);
        let error = fetch_content(&client, request, "Blob")
            .await
            .expect_err("not a Blob");
        assert_eq!(error.to_string(), "ProductImage is a File, not a Blob");
    }

    #[test]
    fn only_http_addresses_are_web_addresses() {
        let file = |value: &str| Blob {
            mime_type: Nullable::Absent,
            value: Nullable::Present(value.to_owned()),
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
