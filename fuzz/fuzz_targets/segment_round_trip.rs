//! `encode_segment` gives one URL path segment of unreserved characters and `%XX`
//! escapes only, and percent-decoding it gives back the identifier.
#![no_main]

use libfuzzer_sys::fuzz_target;

fn unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~".contains(&b)
}

fuzz_target!(|id: &str| {
    let encoded = aas_model::encode_segment(id);
    let bytes = encoded.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = &bytes[i + 1..i + 3];
            assert!(
                hex.iter()
                    .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(b)),
                "bad escape in {encoded:?}"
            );
            i += 3;
        } else {
            assert!(unreserved(bytes[i]), "reserved byte in {encoded:?}");
            i += 1;
        }
    }
    let decoded = percent_encoding::percent_decode_str(&encoded).decode_utf8();
    assert_eq!(decoded.as_deref(), Ok(id), "round trip of {encoded:?}");
});
