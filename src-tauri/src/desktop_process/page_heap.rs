//! How much garbage the page's JavaScript heap may gather before WebKit collects it.
//! The tree and the plant table read thousands of rows as the user scrolls, each
//! garbage once drawn, and JavaScriptCore's defaults suit a browser on a big machine:
//! - On a machine with 16 GB or more it lets a heap grow to about four times what it
//!   kept alive at its last collection: the web process held up to 90 MB of garbage,
//!   and a refresh of a plant of 80,000 assets left 42 MB more (bench/table-app.sh).
//!   Allowed half again what it keeps (its own factor for a medium-sized machine), it
//!   collected along the way at no cost a benchmark could see.
//! - It does not collect by size below 32 MB, where this page keeps 10–20 MB alive.
//!   With 8 MB the web process held 15 MB less after the table's rounds (one bench run
//!   each way, PSS per process), the timings unchanged.
//!
//! A value the user set wins. WebView2 (Windows) has its own engine, which reads none.

/// JavaScriptCore's options, read from `JSC_` variables when the web process starts.
const SETTINGS: [(&str, &str); 2] = [
    // The most a heap may grow over what it kept, as a fraction of that.
    ("JSC_heapGrowthMaxIncrease", "0.5"),
    // The size a heap may reach before its size alone calls for a collection.
    ("JSC_largeHeapSize", "8388608"),
];

/// Sets the web process's heap options before any thread starts (the environment is
/// process-wide and WebKit's processes inherit it); returns whether any was set here.
pub fn limit_garbage() -> bool {
    let mut set_any = false;
    for (name, value) in SETTINGS {
        if let Some(value) = to_set(cfg!(target_os = "linux"), std::env::var_os(name), value) {
            std::env::set_var(name, value);
            set_any = true;
        }
    }
    set_any
}

/// The value to set: on Linux (WebKitGTK) when the user set none.
fn to_set(linux: bool, user_set: Option<std::ffi::OsString>, value: &str) -> Option<&str> {
    (linux && user_set.is_none()).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::to_set;

    #[test]
    fn set_on_linux_unless_the_user_set_one() {
        assert_eq!(to_set(true, None, "0.5"), Some("0.5"));
        assert_eq!(to_set(true, Some("3".into()), "0.5"), None);
        assert_eq!(
            to_set(false, None, "0.5"),
            None,
            "WebView2 does not read it"
        );
    }
}
