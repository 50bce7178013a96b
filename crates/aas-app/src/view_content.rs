//! *Open* on a File or Blob of an AAS file opened (or of a V3 server): its content
//! written to this run's own temporary folder under a plain name that ends in its type's
//! extension, for the system's viewer. Only documents and pictures a viewer shows are
//! opened, never what a viewer would run: a package can hold anything. The folder goes
//! when the app ends (viewed_folder.rs).

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use aas_client::ElementAddress;

use crate::file_content::content;
use crate::viewed_folder::ViewedFolder;
use crate::{lock, App, Error, Result};

/// The types opened in a viewer (the extensions `content.rs` gives them).
const VIEWABLE: [&str; 6] = ["pdf", "png", "jpg", "csv", "txt", "json"];

/// Contents opened in this run are numbered, so that two of one name do not meet.
static NEXT_VIEWED: AtomicU32 = AtomicU32::new(1);

impl App {
    /// Writes what the element `at` of opened file `file` holds where the system's viewer
    /// can open it, and returns that path; refuses a type a viewer would not just show.
    pub async fn view_file_content(&self, file: u32, at: &ElementAddress) -> Result<PathBuf> {
        let opened = self.whole_file(file).await?;
        let (offer, bytes) = content(&opened, at).await?;
        if !VIEWABLE.contains(&offer.extension) {
            return Err(Error::BadRequest(format!(
                "{} is no document or picture a viewer shows (.{}): save it to disk and open it yourself if you trust it",
                offer.name(),
                offer.extension
            )));
        }
        let mut name = offer.name().to_owned();
        if !name
            .to_ascii_lowercase()
            .ends_with(&format!(".{}", offer.extension))
        {
            name = format!("{name}.{}", offer.extension);
        }
        let number = NEXT_VIEWED.fetch_add(1, Ordering::Relaxed);
        let path = self.viewed_folder()?.join(format!("{number}-{name}"));
        aas_output::write_atomically(&path, &bytes)?;
        Ok(path)
    }

    /// Removes this run's folder of contents opened (when the app ends: a viewer that
    /// still shows one keeps its own copy open).
    pub fn remove_viewed(&self) {
        lock(&self.viewed).take();
    }

    /// This run's folder for contents opened, made when first needed.
    fn viewed_folder(&self) -> Result<PathBuf> {
        let mut viewed = lock(&self.viewed);
        if let Some(folder) = viewed.as_ref() {
            return Ok(folder.path().to_owned());
        }
        let made = ViewedFolder::make_in(&std::env::temp_dir())
            .map_err(|e| Error::internal("a folder for the contents opened", e))?;
        let path = made.path().to_owned();
        *viewed = Some(made);
        Ok(path)
    }
}
