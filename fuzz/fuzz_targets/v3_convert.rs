//! Arbitrary bytes, read as JSON, converted to AAS V3.0 as `aasmd convert` does: never
//! a panic; the V3 environment writes as JSON; and the report is exact: a strict
//! conversion refuses the document exactly when the relaxed one recorded a change.
#![no_main]

use aas_v3::{Change, Converter, Error, Node};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // As `aasmd convert` reads a file: a byte order mark first is allowed.
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(document) = Node::from_json(text) else {
        return;
    };
    let mut changes: Vec<Change> = Vec::new();
    let relaxed = Converter::new(&mut changes).environment(document.clone());
    let strict = Converter::new(&mut Vec::new())
        .strict(true)
        .environment(document);
    match (relaxed, strict) {
        (Ok(v3), Ok(_)) => {
            serde_json::to_vec(&v3).expect("a V3 environment writes as JSON");
            assert!(
                changes.is_empty(),
                "strict accepted what changed: {changes:?}"
            );
        }
        (_, Err(Error::Strict(refused))) => {
            assert_eq!(
                changes.first(),
                Some(&*refused),
                "strict refused the first change"
            )
        }
        (Err(relaxed), Err(strict)) => assert_eq!(relaxed.to_string(), strict.to_string()),
        (relaxed, strict) => panic!("relaxed {relaxed:?}, strict {strict:?}"),
    }
});
