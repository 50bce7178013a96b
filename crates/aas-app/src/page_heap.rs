//! How much garbage the page's JavaScript heap may gather before WebKit collects it.
//! On a machine with 16 GB or more, JavaScriptCore lets a page's heap grow to about
//! four times what it kept alive at its last collection. The tree and the plant
//! table read thousands of rows as the user scrolls, each garbage once drawn: with
//! that allowance the web process held up to 90 MB of it, and a refresh of a plant of
//! 80,000 assets left 42 MB more (bench/table-app.sh). Allowed half again what it
//! keeps (JavaScriptCore's own factor for a heap of a medium-sized machine), it
//! collected along the way at no cost a benchmark could see. A value the user set wins.
//! WebView2 (Windows) has its own engine, which does not read this.

/// JavaScriptCore's option (read from `JSC_` variables when the web process starts):
/// the most a heap may grow over what it kept, as a fraction of that.
const GROWTH_SWITCH: &str = "JSC_heapGrowthMaxIncrease";
const GROWTH: &str = "0.5";

/// Sets the web process's heap growth before any thread starts (the environment is
/// process-wide and WebKit's processes inherit it); returns whether it was set here.
pub fn limit_garbage() -> bool {
    let set = growth_to_set(cfg!(target_os = "linux"), std::env::var_os(GROWTH_SWITCH));
    if let Some(growth) = set {
        std::env::set_var(GROWTH_SWITCH, growth);
    }
    set.is_some()
}

/// The growth to set: on Linux (WebKitGTK) when the user set none.
fn growth_to_set(linux: bool, user_set: Option<std::ffi::OsString>) -> Option<&'static str> {
    (linux && user_set.is_none()).then_some(GROWTH)
}

#[cfg(test)]
mod tests {
    use super::growth_to_set;

    #[test]
    fn set_on_linux_unless_the_user_set_one() {
        assert_eq!(growth_to_set(true, None), Some("0.5"));
        assert_eq!(growth_to_set(true, Some("3".into())), None);
        assert_eq!(
            growth_to_set(false, None),
            None,
            "WebView2 does not read it"
        );
    }
}
