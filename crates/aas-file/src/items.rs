//! A payload's items as its reader hands them on, XML's (from_xml.rs) or JSON's
//! (from_json.rs): each read into the model at once and its tree let go, so that a
//! payload is never held whole; V2's asset kinds kept apart until the end (V2 keeps an
//! asset's kind on the asset, which may come after its shell).

use std::collections::HashMap;

use aas_v3::metamodel::UnknownProperties;

use crate::contents::{asset_kind, Contents, Shell, Submodel, UNKNOWN_NAMED};
use crate::kept_text::KeptText;
use crate::raw_text::Packer;
use crate::Reading;

/// The most read of one item (a shell, a submodel), or of what lies between two: the
/// most this app reads of one file held whole. A payload streams past it; one item
/// does not.
pub(crate) const MAX_ITEM_BYTES: usize = aas_model::aasx::MAX_FILE_BYTES as usize;

/// Why a payload's reading stopped at [`MAX_ITEM_BYTES`].
pub(crate) fn item_too_large() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::FileTooLarge,
        format!(
            "one shell or submodel, or what lies between two, is larger than {} MiB, the most this app reads of one",
            MAX_ITEM_BYTES >> 20
        ),
    )
}

pub(crate) struct Items {
    pub(crate) shells: Vec<Shell>,
    pub(crate) kinds: Vec<(String, String)>,
    pub(crate) submodels: Vec<Submodel>,
    /// What of a V3 payload no class of the metamodel has.
    pub(crate) unknown: UnknownProperties,
    /// Packs each shell's and submodel's text (raw_text.rs).
    pub(crate) packer: Packer,
    /// What may be kept of XML items that are not UTF-8.
    pub(crate) kept: KeptText,
    /// Items taken of each list so far.
    taken: HashMap<String, usize>,
    shells_told: bool,
}

impl Default for Items {
    fn default() -> Self {
        Items {
            shells: Vec::new(),
            kinds: Vec::new(),
            submodels: Vec::new(),
            unknown: UnknownProperties::new(UNKNOWN_NAMED),
            packer: Packer::default(),
            kept: KeptText::for_payload(0),
            taken: HashMap::new(),
            shells_told: false,
        }
    }
}

impl Items {
    /// An item of the payload's list `list` begins: its place in the list. The first
    /// item after the shells (and V2's assets, which give their kinds) tells `reading`
    /// the shells: writers list them first.
    pub(crate) fn next_of(&mut self, list: &str, reading: &Reading) -> usize {
        let shells_list = matches!(list, "assetAdministrationShells" | "assets");
        if !self.shells_told && !shells_list {
            self.shells_told = true;
            if reading.wants_shells() {
                reading.shells_read(self.shells());
            }
        }
        let at = self.taken.entry(list.to_owned()).or_default();
        *at += 1;
        *at - 1
    }

    /// The shells taken so far, as [`Items::contents`] gives them.
    pub(crate) fn shells(&self) -> Vec<Shell> {
        let mut shells = self.shells.clone();
        with_kinds(&mut shells, &self.kinds);
        shells
    }

    /// What the items taken hold.
    pub(crate) fn contents(mut self) -> Contents {
        with_kinds(&mut self.shells, &self.kinds);
        Contents {
            shells: self.shells,
            submodels: self.submodels,
            unknown: self.unknown.names,
            unknown_count: self.unknown.count,
            ..Contents::default()
        }
    }
}

/// Of V2, each shell's asset kind, by its asset among `kinds` (a V3 shell has none of
/// V2's assets).
fn with_kinds(shells: &mut [Shell], kinds: &[(String, String)]) {
    for shell in shells {
        if shell.asset_kind.is_none() {
            shell.asset_kind = asset_kind(shell.global_asset_id.as_deref(), kinds);
        }
    }
}
