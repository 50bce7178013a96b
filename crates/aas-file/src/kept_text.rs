//! Each node's text as the file has it (what Raw shows) where it cannot be a span of a
//! packed text (raw_text.rs: an XML item that is not UTF-8), each a copy, kept within a
//! budget: a collection's text holds its elements' texts, so a file nested n levels deep
//! would be kept n times over, and a hostile one could fill memory with copies of itself.

use std::cell::Cell;

/// The most of one node's text kept (a larger node's details still show its fields).
const NODE_LIMIT: usize = 16 << 20;
/// The least budget a payload gets, however small: enough for every node of any file a
/// user reads in the details pane.
const FLOOR: usize = 64 << 20;

/// What is left to keep of a payload's node texts.
pub(crate) struct KeptText {
    left: Cell<usize>,
}

impl KeptText {
    /// The budget of a payload of `len` bytes: twice its size, 64 MiB at least.
    pub(crate) fn for_payload(len: usize) -> Self {
        KeptText {
            left: Cell::new(len.saturating_mul(2).max(FLOOR)),
        }
    }

    /// The text `make` gives, which is `len` bytes long, if it fits; else none (empty):
    /// nothing is made that is not kept.
    pub(crate) fn of_len(&self, len: usize, make: impl FnOnce() -> String) -> String {
        if len > NODE_LIMIT || len > self.left.get() {
            return String::new();
        }
        self.left.set(self.left.get() - len);
        make()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_kept_until_the_budget_is_spent_and_never_past_the_node_limit() {
        let kept = KeptText::for_payload(10);
        assert_eq!(kept.of_len(3, || "abc".into()), "abc");
        assert_eq!(kept.of_len(NODE_LIMIT + 1, || unreachable!("not made")), "");
        // The floor is four nodes of the largest size kept.
        for len in [NODE_LIMIT, NODE_LIMIT, NODE_LIMIT, NODE_LIMIT - 3] {
            assert_eq!(kept.of_len(len, || "x".repeat(len)).len(), len);
        }
        assert_eq!(
            kept.of_len(1, || unreachable!("not made")),
            "",
            "the budget is spent"
        );
    }
}
