//! A node's text as its file has it (what Raw shows). An XML part is kept once and each
//! of its nodes is a span of it: a payload of any size costs its own size, however deep
//! it nests (a collection's text holds its elements' texts). JSON's nodes are written
//! anew, each a text of its own, within the payload's budget (kept_text.rs).

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

#[derive(Clone, Default)]
pub struct RawText(Inner);

#[derive(Clone)]
enum Inner {
    Own(String),
    Span(Arc<String>, Range<usize>),
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

    /// The span `range` of `part`; none (empty) where the range is not within it.
    pub(crate) fn span(part: &Arc<String>, range: Range<usize>) -> Self {
        match part.get(range.clone()) {
            Some(_) => RawText(Inner::Span(Arc::clone(part), range)),
            None => RawText::default(),
        }
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            Inner::Own(text) => text,
            Inner::Span(part, range) => &part[range.clone()],
        }
    }

    /// The bytes it holds of its own (none for a span of a part).
    pub fn held(&self) -> usize {
        match &self.0 {
            Inner::Own(text) => text.len(),
            Inner::Span(..) => 0,
        }
    }
}

impl fmt::Display for RawText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for RawText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for RawText {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_is_its_parts_text_and_holds_nothing_of_its_own() {
        let part = Arc::new("<a><b>x</b></a>".to_owned());
        let span = RawText::span(&part, 3..11);
        assert_eq!((span.as_str(), span.held()), ("<b>x</b>", 0));
        assert_eq!(span, RawText::own("<b>x</b>".into()));
        assert_eq!(
            RawText::span(&part, 3..99).as_str(),
            "",
            "not within the part"
        );
        assert_eq!(RawText::own("{}".into()).held(), 2);
    }
}
