//! A node's text as its file has it (what Raw shows). Each shell's and submodel's text
//! (XML as the payload has it, JSON as compact JSON) is kept compressed (zstd, about a
//! tenth of its size), and each node within is a span of it: a payload of any size is
//! never held whole, however deep it nests (a collection's text holds its elements'
//! texts). Only an XML item that is not UTF-8 keeps copies, within a budget
//! (kept_text.rs).

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError, Weak};

#[derive(Clone, Default)]
pub struct RawText(Inner);

#[derive(Clone)]
enum Inner {
    Own(String),
    Span(Arc<Packed>, Range<usize>),
}

impl Default for Inner {
    fn default() -> Self {
        Inner::Own(String::new())
    }
}

impl RawText {
    /// A text of its own (empty where it was not kept).
    pub(crate) fn own(text: String) -> Self {
        RawText(Inner::Own(text))
    }

    /// The span `range` of the text `packed` holds; none (empty) where the range is not
    /// within it.
    pub(crate) fn span(packed: &Arc<Packed>, range: Range<usize>) -> Self {
        if range.end > packed.len || range.start > range.end {
            return RawText::default();
        }
        RawText(Inner::Span(Arc::clone(packed), range))
    }

    /// The text (of a span, unpacked).
    pub fn text(&self) -> Cow<'_, str> {
        match &self.0 {
            Inner::Own(text) => Cow::Borrowed(text),
            Inner::Span(packed, range) => {
                let whole = packed.unpacked();
                Cow::Owned(whole.get(range.clone()).unwrap_or_default().to_owned())
            }
        }
    }

    /// The bytes it holds of its own (none for a span of a shell's or submodel's text).
    pub fn held(&self) -> usize {
        match &self.0 {
            Inner::Own(text) => text.len(),
            Inner::Span(..) => 0,
        }
    }
}

/// A shell's or submodel's text, compressed.
pub(crate) struct Packed {
    bytes: Box<[u8]>,
    /// The text's length; `bytes` is the text itself where compressing failed.
    len: usize,
    compressed: bool,
}

/// Compresses texts with one zstd context (making one for each costs more than
/// compressing a shell).
#[derive(Default)]
pub(crate) struct Packer(Option<zstd::bulk::Compressor<'static>>);

/// Fast: a reading of a large file is bound by parsing, and this must not add much.
const LEVEL: i32 = 1;

impl Packer {
    pub(crate) fn pack(&mut self, text: &str) -> Arc<Packed> {
        if self.0.is_none() {
            self.0 = zstd::bulk::Compressor::new(LEVEL).ok();
        }
        let compressed = (self.0.as_mut()).and_then(|c| c.compress(text.as_bytes()).ok());
        Arc::new(Packed {
            len: text.len(),
            compressed: compressed.is_some(),
            bytes: compressed
                .unwrap_or_else(|| text.as_bytes().to_vec())
                .into(),
        })
    }
}

/// The text unpacked last: the page asks for a submodel's elements' texts one after
/// the other, each a span of the same submodel's.
static LAST_UNPACKED: Mutex<Option<(Weak<Packed>, Arc<str>)>> = Mutex::new(None);

impl Packed {
    fn unpacked(self: &Arc<Self>) -> Arc<str> {
        let mut last = LAST_UNPACKED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((packed, text)) = &*last {
            if packed.upgrade().is_some_and(|p| Arc::ptr_eq(&p, self)) {
                return Arc::clone(text);
            }
        }
        let bytes = match self.compressed {
            true => zstd::bulk::decompress(&self.bytes, self.len).unwrap_or_default(),
            false => self.bytes.to_vec(),
        };
        // It was UTF-8 when packed.
        let text: Arc<str> = String::from_utf8_lossy(&bytes).into();
        *last = Some((Arc::downgrade(self), Arc::clone(&text)));
        text
    }
}

impl fmt::Display for RawText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

impl fmt::Debug for RawText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.text(), f)
    }
}

impl PartialEq for RawText {
    fn eq(&self, other: &Self) -> bool {
        self.text() == other.text()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_is_its_items_text_and_holds_nothing_of_its_own() {
        let item = "<a><b>x</b></a>".repeat(100);
        let packed = Packer::default().pack(&item);
        assert!(packed.bytes.len() < item.len() / 4, "compressed");
        let span = RawText::span(&packed, 3..11);
        assert_eq!((&*span.text(), span.held()), ("<b>x</b>", 0));
        assert_eq!(span, RawText::own("<b>x</b>".into()));
        let other = Packer::default().pack("<c>y</c>");
        // Each from its own text, whichever was unpacked last.
        assert_eq!(RawText::span(&other, 0..8).text(), "<c>y</c>");
        assert_eq!(span.text(), "<b>x</b>");
        assert_eq!(
            RawText::span(&packed, 3..9999).text(),
            "",
            "not within the part"
        );
        assert_eq!(RawText::own("{}".into()).held(), 2);
    }
}
