//! An answer's bytes as the crawl keeps them. Most answers are held in memory. One that
//! leads nowhere in the crawl (the registry, a submodel's elements) and is larger than
//! [`SPOOL_AT`] streams into a temporary file as it arrives, up to its own cap
//! ([`DEFAULT_MAX_STREAMED`]): a 100,000-asset plant's registry is about 340 MB, over
//! the cap on an answer held in memory, and need never be in memory whole.

use std::borrow::Cow;
use std::io::{BufReader, Read, Write};
use std::sync::Arc;

/// The size past which an answer that leads nowhere goes to a temporary file, unless
/// the client says otherwise.
pub const SPOOL_AT: usize = 16 * 1024 * 1024;

/// The largest answer accepted in a temporary file (the store keeps it compressed, and
/// SQLite keeps no value over 1 GB).
pub const DEFAULT_MAX_STREAMED: usize = 2 * 1024 * 1024 * 1024;

/// An answer's bytes, exactly as the server sent them.
#[derive(Debug, Clone)]
pub enum Body {
    Text(String),
    /// In a temporary file, removed when the last clone is dropped. Only the crawl
    /// makes one, after checking the file's JSON syntax (which rejects bytes that are
    /// not UTF-8).
    Spooled(Arc<Spool>),
}

/// A temporary file that holds one answer.
#[derive(Debug)]
pub struct Spool {
    file: tempfile::NamedTempFile,
    size: u64,
}

impl Body {
    /// The answer's size in bytes.
    pub fn size(&self) -> u64 {
        match self {
            Body::Text(text) => text.len() as u64,
            Body::Spooled(spool) => spool.size,
        }
    }

    /// The answer's bytes from the start; each reader has its own position.
    pub fn reader(&self) -> std::io::Result<Box<dyn Read + Send + '_>> {
        Ok(match self {
            Body::Text(text) => Box::new(text.as_bytes()),
            Body::Spooled(spool) => Box::new(BufReader::with_capacity(
                1 << 16,
                spool.file.reopen()?.take(spool.size),
            )),
        })
    }

    /// The answer as text, read into memory when it is in a file.
    pub fn text(&self) -> std::io::Result<Cow<'_, str>> {
        match self {
            Body::Text(text) => Ok(Cow::Borrowed(text)),
            Body::Spooled(spool) => {
                // At its size at once: grown by doubling, the allocator kept each copy.
                let mut text = String::with_capacity(spool.size as usize);
                self.reader()?.read_to_string(&mut text)?;
                Ok(Cow::Owned(text))
            }
        }
    }

    /// The answer as text, owned.
    pub fn into_text(self) -> std::io::Result<String> {
        match self {
            Body::Text(text) => Ok(text),
            spooled => spooled.text().map(Cow::into_owned),
        }
    }
}

/// Checks that `body` is JSON (the crawl keeps no answer that is not).
pub fn check_json(body: &Body) -> serde_json::Result<()> {
    use serde::de::IgnoredAny;
    match body {
        Body::Text(text) => serde_json::from_str::<IgnoredAny>(text).map(drop),
        Body::Spooled(_) => {
            let reader = body.reader().map_err(serde_json::Error::io)?;
            serde_json::from_reader::<_, IgnoredAny>(reader).map(drop)
        }
    }
}

impl From<String> for Body {
    fn from(text: String) -> Self {
        Body::Text(text)
    }
}

/// An answer being received: in memory, or in a file once it passes `spool_at`.
#[derive(Debug)]
pub struct Receiving {
    memory: Vec<u8>,
    spool_at: Option<usize>,
    file: Option<(tempfile::NamedTempFile, u64)>,
}

impl Receiving {
    /// `announced` is the length the server announced, `limit` the most accepted.
    pub fn new(announced: u64, limit: usize, spool_at: Option<usize>) -> Self {
        let in_memory = spool_at.map_or(limit, |at| at.min(limit));
        Receiving {
            // Sized for the announced length, so a large body is not copied as the
            // buffer grows (growing by doubling held 1.5 times a 100 MB answer at
            // once); capped, since the announcement is the server's word. Room
            // announced but never sent is address space, not memory, until written.
            memory: Vec::with_capacity(announced.min(in_memory as u64) as usize),
            spool_at,
            file: None,
        }
    }

    pub fn size(&self) -> u64 {
        self.file
            .as_ref()
            .map_or(self.memory.len() as u64, |(_, size)| *size)
    }

    pub fn push(&mut self, chunk: &[u8]) -> std::io::Result<()> {
        let past = |at| self.memory.len() + chunk.len() > at;
        if self.file.is_none() && self.spool_at.is_some_and(past) {
            let mut file = tempfile::Builder::new().prefix(".aas-answer-").tempfile()?;
            file.write_all(&self.memory)?;
            self.file = Some((file, self.memory.len() as u64));
            self.memory = Vec::new();
        }
        match &mut self.file {
            // A chunk is tens of kilobytes: writing it blocks no longer than copying it.
            Some((file, size)) => {
                file.write_all(chunk)?;
                *size += chunk.len() as u64;
            }
            None => self.memory.extend_from_slice(chunk),
        }
        Ok(())
    }

    /// The body received; bytes held in memory must be UTF-8 (`Err` gives the offset
    /// of the first that is not).
    pub fn finish(self) -> std::io::Result<std::result::Result<Body, usize>> {
        Ok(match self.file {
            Some((mut file, size)) => {
                file.flush()?;
                Ok(Body::Spooled(Arc::new(Spool { file, size })))
            }
            None => String::from_utf8(self.memory)
                .map(Body::Text)
                .map_err(|e| e.utf8_error().valid_up_to()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_past_the_spool_size_is_read_back_from_its_file_as_sent() {
        let piece = br#"{"idShort":"Serial","value":"SN-1"},"#;
        let mut receiving = Receiving::new(0, usize::MAX, Some(4096));
        receiving.push(b"[").expect("push");
        while receiving.size() <= 8192 {
            receiving.push(piece).expect("push");
        }
        receiving.push(b"{}]").expect("push");
        let size = receiving.size();
        let body = receiving.finish().expect("finished").expect("a body");
        assert!(matches!(body, Body::Spooled(_)));
        assert_eq!(body.size(), size);
        let text = body.text().expect("read");
        assert_eq!(text.len() as u64, size);
        assert!(text.starts_with(r#"[{"idShort""#) && text.ends_with("{}]"));
        // Two readers do not share a position.
        let (mut a, mut b) = (body.reader().expect("a"), body.reader().expect("b"));
        let mut first = [0; 8];
        a.read_exact(&mut first).expect("a");
        b.read_exact(&mut first).expect("b");
        assert_eq!(&first, b"[{\"idSho");
    }

    #[test]
    fn an_answer_that_may_not_be_spooled_or_is_small_stays_in_memory_and_must_be_utf8() {
        let mut receiving = Receiving::new(1 << 40, 1 << 20, None);
        receiving.push(b"[1]").expect("push");
        assert!(matches!(
            receiving.finish().expect("finished"),
            Ok(Body::Text(t)) if t == "[1]"
        ));
        let mut bad = Receiving::new(0, 1 << 20, Some(SPOOL_AT));
        bad.push(b"[\"\xff\"]").expect("push");
        assert_eq!(bad.finish().expect("finished").err(), Some(2));
    }
}
