use std::fmt;

use serde::Deserialize;

/// A secret (client secret, access or user token). Debug and Display print
/// `[redacted]`, so it cannot reach a log line or an error message by accident; only
/// [`Secret::expose`] gives the text, at the one place it is put on the wire. It is
/// read from settings and forms but never written by serde: no export, settings file or
/// IPC answer can carry one.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(text: impl Into<String>) -> Self {
        Secret(text.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_display_never_show_the_text() {
        let s = Secret::new("hunter2");
        assert_eq!(format!("{s} {s:?}"), "[redacted] [redacted]");
        assert_eq!(s.expose(), "hunter2");
    }
}
