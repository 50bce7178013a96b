//! An answer's body as the store keeps it: found by the SHA-256 of the exact bytes the
//! server sent, kept zstd-compressed (the service's JSON shrinks about tenfold, so the
//! store writes a tenth of the bytes). Bodies of stores before schema 4 are plain.

use std::io::{BufRead, Read, Seek, Write};

use sha2::{Digest, Sha256};

/// zstd's fastest regular level: the higher ones cost more time than the space they save
/// is worth while a crawl waits.
const LEVEL: i32 = 1;

pub(crate) fn hash(raw: &[u8]) -> Vec<u8> {
    Sha256::digest(raw).to_vec()
}

/// The SHA-256 of what `body` reads, read piece by piece.
pub(crate) fn hash_stream(mut body: impl Read) -> std::io::Result<Vec<u8>> {
    let mut hasher = Sha256::new();
    std::io::copy(&mut body, &mut hasher)?;
    Ok(hasher.finalize().to_vec())
}

/// What `body` reads, compressed piece by piece into a temporary file; the file,
/// rewound, and its size.
pub(crate) fn pack_stream(body: impl Read) -> std::io::Result<(std::fs::File, u64)> {
    let mut packed = tempfile::tempfile()?;
    let mut encoder = zstd::stream::write::Encoder::new(&mut packed, LEVEL)?;
    std::io::copy(&mut std::io::BufReader::new(body), &mut encoder)?;
    encoder.finish()?.flush()?;
    let size = packed.stream_position()?;
    packed.rewind()?;
    Ok((packed, size))
}

/// Compresses bodies, reusing one zstd context (making one per body costs more than
/// compressing a small answer).
pub(crate) struct Packer(zstd::bulk::Compressor<'static>);

impl Packer {
    pub(crate) fn new() -> std::io::Result<Self> {
        Ok(Packer(zstd::bulk::Compressor::new(LEVEL)?))
    }

    pub(crate) fn pack(&mut self, raw: &[u8]) -> std::io::Result<Vec<u8>> {
        self.0.compress(raw)
    }
}

/// Reads stored bodies, reusing one zstd decompression context: making one per body
/// cost an export of a plant's many small answers about 6% of its time.
pub(crate) struct Unpacker(zstd::zstd_safe::DCtx<'static>);

impl Unpacker {
    pub(crate) fn new() -> Self {
        Unpacker(zstd::zstd_safe::DCtx::create())
    }

    /// A stored body of `size` bytes as sent, read as they are decompressed; read whole
    /// (`read_to_end`, `read_to_string`), it goes into memory made at its size at once.
    pub(crate) fn reader<'b>(
        &'b mut self,
        stored: impl BufRead + 'b,
        zstd: bool,
        size: u64,
    ) -> std::io::Result<Box<dyn Read + 'b>> {
        if !zstd {
            return Ok(Box::new(KnownSize { body: stored, size }));
        }
        // The last body may have been left half read.
        (self.0)
            .reset(zstd::zstd_safe::ResetDirective::SessionOnly)
            .map_err(|code| std::io::Error::other(zstd::zstd_safe::get_error_name(code)))?;
        let body = zstd::stream::read::Decoder::with_context(stored, &mut self.0);
        Ok(Box::new(KnownSize { body, size }))
    }

    /// A stored body of `size` bytes as sent, as text (bytes that are not UTF-8, which
    /// the crawl never stores, are replaced rather than refused). (A context made per
    /// body was a quarter of a search's time.)
    pub(crate) fn text(&mut self, stored: &[u8], zstd: bool, size: u64) -> std::io::Result<String> {
        let mut raw = Vec::new();
        let size = likely_size(size, stored.len() as u64, zstd);
        self.reader(stored, zstd, size)?.read_to_end(&mut raw)?;
        Ok(match String::from_utf8(raw) {
            Ok(text) => text,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }
}

/// The most a zstd body is taken to grow by when read: the service's JSON shrinks about
/// tenfold, a large AAS list about a hundredfold.
const MOST_LIKELY_RATIO: u64 = 128;

/// What a body of `size` bytes as sent, stored in `stored` bytes, is taken to be when
/// memory is made for it: a store's size is only believed as far as its stored bytes can
/// hold it (a store whose sizes lie must not have memory made for each body it claims).
pub(crate) fn likely_size(size: u64, stored: u64, zstd: bool) -> u64 {
    let most = match zstd {
        true => stored.saturating_mul(MOST_LIKELY_RATIO),
        false => stored,
    };
    size.min(most)
}

/// A body of a known size, which reads whole into memory made at that size at once:
/// grown by doubling, a 200 MB body cost 800 MB, as the allocator kept every smaller
/// copy, and a 12 MB AAS list had the kernel zeroing pages for a quarter of a table's
/// reading.
struct KnownSize<R> {
    body: R,
    size: u64,
}

impl<R> KnownSize<R> {
    /// What to make room for: a hint only, never trusted past the answers the client
    /// accepts.
    fn room(&self) -> usize {
        self.size.min(aas_client::DEFAULT_MAX_STREAMED as u64) as usize
    }
}

impl<R: Read> Read for KnownSize<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.body.read(buf)
    }

    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> std::io::Result<usize> {
        buf.reserve(self.room());
        self.body.read_to_end(buf)
    }

    fn read_to_string(&mut self, buf: &mut String) -> std::io::Result<usize> {
        buf.reserve(self.room());
        self.body.read_to_string(buf)
    }
}

/// A stored body of `size` bytes as sent, as text (see [`Unpacker::text`]).
pub(crate) fn text(stored: &[u8], zstd: bool, size: u64) -> std::io::Result<String> {
    Unpacker::new().text(stored, zstd, size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_body_reads_back_as_sent() {
        let raw = r#"[{"idShort":"Serial","value":"SN-1"}]"#.repeat(50);
        let packed = Packer::new()
            .expect("zstd")
            .pack(raw.as_bytes())
            .expect("packed");
        assert!(
            packed.len() < raw.len() / 5,
            "{} of {}",
            packed.len(),
            raw.len()
        );
        let size = raw.len() as u64;
        assert_eq!(text(&packed, true, size).expect("unpacked"), raw);
        assert_eq!(text(raw.as_bytes(), false, size).expect("plain"), raw);
        assert_eq!(hash(b"x").len(), 32);
    }

    #[test]
    fn one_unpacker_reads_body_after_body_even_after_one_left_half_read() {
        let mut packer = Packer::new().expect("zstd");
        let first = "a".repeat(300_000) + &"b".repeat(300_000);
        let second = r#"{"idShort":"Serial"}"#.repeat(100);
        let (first_packed, second_packed) = (
            packer.pack(first.as_bytes()).expect("packed"),
            packer.pack(second.as_bytes()).expect("packed"),
        );
        let mut unpacker = Unpacker::new();
        let mut start = [0; 10];
        let mut body = unpacker
            .reader(first_packed.as_slice(), true, first.len() as u64)
            .expect("reader");
        body.read_exact(&mut start).expect("read");
        drop(body);
        for packed in [&second_packed, &first_packed, &second_packed] {
            let mut raw = String::new();
            let size = packed.len() as u64 * 10;
            let mut body = (unpacker.reader(packed.as_slice(), true, size)).expect("reader");
            body.read_to_string(&mut raw).expect("read");
            assert!(raw == first || raw == second, "{} bytes", raw.len());
            assert_eq!(
                raw.len(),
                if packed == &first_packed {
                    first.len()
                } else {
                    second.len()
                }
            );
        }
    }

    #[test]
    fn a_body_packed_as_it_streams_reads_back_as_sent() {
        let raw = r#"{"idShort":"Serial","value":"SN-1"}"#.repeat(5000);
        assert_eq!(
            hash_stream(raw.as_bytes()).expect("hashed"),
            hash(raw.as_bytes())
        );
        let (mut file, size) = pack_stream(raw.as_bytes()).expect("packed");
        let mut packed = Vec::new();
        file.read_to_end(&mut packed).expect("read");
        assert_eq!(packed.len() as u64, size);
        assert_eq!(
            text(&packed, true, 0).expect("unpacked, without a hint"),
            raw
        );
    }

    #[test]
    fn a_size_is_believed_only_as_far_as_the_stored_bytes_can_hold_it() {
        assert_eq!(likely_size(12_300_000, 113_682, true), 12_300_000);
        assert_eq!(likely_size(u64::MAX, 100, true), 12_800);
        assert_eq!(likely_size(u64::MAX, 100, false), 100);
        assert_eq!(likely_size(40, 100, false), 40);
    }
}
