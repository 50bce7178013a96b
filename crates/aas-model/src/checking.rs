//! Whether typed values are read only to be checked: `inspect` types each object to learn
//! whether it reads, and drops it at once, so what a struct does not know need not be
//! kept. Below both the key-by-key records and the model-typed readers.

use std::cell::Cell;

thread_local! {
    static ONLY_CHECKING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `check`, in which typed values are read only to learn whether they read: the
/// keys a struct read key by key does not know (its `extra`) are passed over instead
/// of kept. What `inspect` types it drops at once, and one unknown field of 50 MB of
/// `[0,0,…]` kept as a `serde_json::Value` took gigabytes. Structs that read their
/// unknown keys through serde's `flatten` (shells, assets, concept descriptions, and
/// small ones such as a language string) buffer and keep them still.
pub(crate) fn checking<T>(check: impl FnOnce() -> T) -> T {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            ONLY_CHECKING.with(|c| c.set(self.0));
        }
    }
    let _reset = Reset(ONLY_CHECKING.with(|c| c.replace(true)));
    check()
}

/// Whether typed values are read only to be checked ([`checking`]).
pub(crate) fn only_checking() -> bool {
    ONLY_CHECKING.with(Cell::get)
}
