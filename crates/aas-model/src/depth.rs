//! How deeply JSON may nest. serde_json's typed reader stops at 128 levels, but the raw
//! views this crate keeps nested elements in (`RawValue`, and `IgnoredAny` for the
//! syntax check) pass over any depth, and a walker that recurses into such a tree
//! would exhaust its thread's stack: a few thousand nested collections, well under a
//! megabyte, aborted the whole process. So every answer and file is measured once,
//! where it arrives, and walkers bound their recursion by the same number.

/// The deepest JSON nesting read: 100 levels, about 48 collections inside each other
/// (real nameplates and technical data need fewer than 10). It stays below serde_json's
/// own 128, so an export that wraps an answer in a few more levels is still read back.
pub const MAX_DEPTH: usize = 100;

/// The most element levels a walker descends: each element level is two JSON levels
/// (the element's object and its `value` list).
pub const MAX_ELEMENT_DEPTH: usize = MAX_DEPTH / 2;

/// JSON nested deeper than [`MAX_DEPTH`]; `offset` is the byte that went past it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooDeep {
    pub offset: u64,
}

impl std::fmt::Display for TooDeep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "nested deeper than {MAX_DEPTH} levels (at byte {}), which this app does not read",
            self.offset
        )
    }
}

impl From<TooDeep> for crate::Error {
    fn from(deep: TooDeep) -> Self {
        crate::Error::Decode {
            path: ".".into(),
            message: deep.to_string(),
        }
    }
}

/// Whether `text` nests at most [`MAX_DEPTH`] levels. One pass over the bytes, no
/// allocation; brackets inside strings do not count. Says nothing about the rest of
/// the syntax, which the JSON reader checks.
pub fn check_depth(text: &[u8]) -> Result<(), TooDeep> {
    DepthScan::default().feed(text)
}

/// [`check_depth`] of text that comes piece by piece (an answer as it is received),
/// without keeping any of it: each piece is fed in order.
#[derive(Debug, Default)]
pub struct DepthScan {
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// Bytes fed before the current piece.
    offset: u64,
}

impl DepthScan {
    /// Feeds the next piece; fails at the first bracket past [`MAX_DEPTH`].
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), TooDeep> {
        for (i, &byte) in bytes.iter().enumerate() {
            if self.in_string {
                match byte {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => self.in_string = true,
                b'[' | b'{' => {
                    self.depth += 1;
                    if self.depth > MAX_DEPTH {
                        return Err(TooDeep {
                            offset: self.offset + i as u64,
                        });
                    }
                }
                b']' | b'}' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
        }
        self.offset += bytes.len() as u64;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(levels: usize) -> String {
        format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
    }

    #[test]
    fn nesting_up_to_the_bound_passes_and_one_more_level_fails_at_its_bracket() {
        assert_eq!(check_depth(nested(MAX_DEPTH).as_bytes()), Ok(()));
        assert_eq!(
            check_depth(nested(MAX_DEPTH + 1).as_bytes()),
            Err(TooDeep {
                offset: MAX_DEPTH as u64
            })
        );
        // Depth, not count: many shallow values in a row are fine.
        let wide = format!("[{}1]", "[1],".repeat(10 * MAX_DEPTH));
        assert_eq!(check_depth(wide.as_bytes()), Ok(()));
    }

    #[test]
    fn brackets_in_strings_and_escaped_quotes_do_not_count() {
        let brackets = "[".repeat(3 * MAX_DEPTH);
        let text = format!(r#"{{"a":"{brackets}","b":"\"{brackets}\\","c":[1]}}"#);
        assert_eq!(check_depth(text.as_bytes()), Ok(()));
    }

    #[test]
    fn text_fed_in_pieces_is_scanned_as_a_whole_with_the_same_offsets() {
        let deep = nested(3 * MAX_DEPTH);
        let mut scan = DepthScan::default();
        let fed = deep
            .as_bytes()
            .chunks(7)
            .try_for_each(|piece| scan.feed(piece));
        assert_eq!(fed, check_depth(deep.as_bytes()));
        let shallow = nested(10);
        let mut scan = DepthScan::default();
        assert_eq!(
            shallow.as_bytes().chunks(3).try_for_each(|p| scan.feed(p)),
            Ok(())
        );
    }
}
