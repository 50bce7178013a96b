//! Identifiers in the paths of the Part 2 API: base64url of their UTF-8 bytes, without
//! padding (the specification's rule, made explicit in V3.1); what servers send back is
//! read with or without it (BaSyx Python's redirects pad).

use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;

/// `id` as a path segment of the Part 2 API. Its alphabet (`A–Z a–z 0–9 - _`) needs no
/// further percent-encoding, and no id becomes `.` or `..`.
pub fn encode_id(id: &str) -> String {
    URL_SAFE_NO_PAD.encode(id.as_bytes())
}

/// The identifier a path segment names, padded or not; `None` when it is not base64url
/// of UTF-8 text.
pub fn decode_id(segment: &str) -> Option<String> {
    let bytes = match segment.ends_with('=') {
        true => URL_SAFE.decode(segment),
        false => URL_SAFE_NO_PAD.decode(segment),
    };
    String::from_utf8(bytes.ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_base64url_without_padding_and_read_back_with_or_without_it() {
        // The specification's example id, and ids whose bytes need `-`, `_` and padding.
        let id = "https://example.com/ids/aas/1?x=ä/~";
        let segment = encode_id(id);
        assert!(!segment.contains(['=', '+', '/']), "{segment}");
        assert_eq!(decode_id(&segment).as_deref(), Some(id));
        assert_eq!(encode_id("a"), "YQ");
        assert_eq!(decode_id("YQ==").as_deref(), Some("a"));
        assert_eq!(encode_id(".."), "Li4");
        assert_eq!(decode_id("not base64!"), None);
    }
}
