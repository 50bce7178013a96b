//! An answer's body as the store keeps it: found by the SHA-256 of the exact bytes the
//! server sent, kept zstd-compressed (the service's JSON shrinks about tenfold, so the
//! store writes a tenth of the bytes). Bodies of stores before schema 4 are plain.

use std::io::{BufRead, Read, Seek, Write};
use std::path::{Path, PathBuf};

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

/// The largest answer a store holds, in bytes as sent: the most a crawl keeps of one
/// answer (`aas_source::DEFAULT_MAX_STREAMED`, in a temporary file; an answer held in
/// memory is capped lower). A row that records more is damaged, and no body is ever
/// unpacked past it.
pub(crate) const MAX_ANSWER: u64 = aas_source::DEFAULT_MAX_STREAMED as u64;

/// The I/O error of a body of the store at `store` that is not what its row records:
/// it unpacks to more bytes than its recorded size (a zstd frame of a hundred kilobytes
/// can unpack to gigabytes), to fewer, not at all, past [`MAX_ANSWER`], or to other
/// bytes than its SHA-256 names; `reason` says how, after "an answer stored in it". Of
/// kind `InvalidData`, it carries the store's own [`crate::Error::DamagedAnswer`], which
/// [`crate::Error::found_in`] finds through whatever wraps the I/O error (an export
/// names the answer's URL around it).
pub(crate) fn damage(store: &Path, reason: &str) -> std::io::Error {
    let damaged = crate::Error::DamagedAnswer {
        path: store.to_owned(),
        reason: format!("an answer stored in it {reason}"),
    };
    std::io::Error::new(std::io::ErrorKind::InvalidData, damaged)
}

/// The store's error for a stored body that could not be read while `action` (the
/// store at `path`): its damage as it is ([`damage`]), any other failure as a file's.
pub(crate) fn body_error(
    path: &Path,
    action: &'static str,
    source: std::io::Error,
) -> crate::Error {
    if source.get_ref().is_some_and(|e| e.is::<crate::Error>()) {
        if let Some(Ok(store)) = source.into_inner().map(|e| e.downcast::<crate::Error>()) {
            return *store;
        }
        return crate::Error::File(aas_model::FileError {
            action,
            path: path.to_owned(),
            source: std::io::Error::other("the stored answer could not be read"),
        });
    }
    crate::Error::File(aas_model::FileError {
        action,
        path: path.to_owned(),
        source,
    })
}

/// Reads the stored bodies of one store (its damage names it), reusing one zstd
/// decompression context: making one per body cost an export of a plant's many small
/// answers about 6% of its time.
pub(crate) struct Unpacker {
    context: zstd::zstd_safe::DCtx<'static>,
    store: PathBuf,
}

impl Unpacker {
    /// An unpacker of the bodies of the store at `store` (a team store by its name).
    pub(crate) fn new(store: &Path) -> Self {
        Unpacker {
            context: zstd::zstd_safe::DCtx::create(),
            store: store.to_owned(),
        }
    }

    /// A stored body (`stored_len` bytes in `stored`, from where it is, zstd-compressed
    /// or not) whose row records `size` bytes as sent, read as it is unpacked and never
    /// past `size` ([`Body`]); read whole, it goes into memory made at its likely size at
    /// once. A `size` past [`MAX_ANSWER`] is refused before anything is read, and a zstd
    /// body recorded larger than [`CHECKED_FIRST`] is unpacked once to nothing first, so
    /// that memory is only ever made for a body whose recorded size is true.
    pub(crate) fn reader<'b>(
        &'b mut self,
        mut stored: impl BufRead + Seek + 'b,
        zstd: bool,
        size: u64,
        stored_len: u64,
    ) -> std::io::Result<Body<'b>> {
        if size > MAX_ANSWER {
            let reason = format!(
                "records {size} bytes, more than the largest answer a store keeps ({MAX_ANSWER} bytes)"
            );
            return Err(damage(&self.store, &reason));
        }
        if zstd && size > CHECKED_FIRST {
            let start = stored.stream_position()?;
            let mut body = self.unchecked(&mut stored, zstd, size, stored_len)?;
            std::io::copy(&mut body, &mut std::io::sink())?;
            drop(body);
            stored.seek(std::io::SeekFrom::Start(start))?;
        }
        self.unchecked(stored, zstd, size, stored_len)
    }

    /// [`Unpacker::reader`] without its first pass.
    fn unchecked<'b>(
        &'b mut self,
        stored: impl BufRead + 'b,
        zstd: bool,
        size: u64,
        stored_len: u64,
    ) -> std::io::Result<Body<'b>> {
        let stored = Source(stored);
        let body: Box<dyn Read + 'b> = match zstd {
            false => Box::new(stored),
            true => {
                // The last body may have been left half read.
                (self.context)
                    .reset(zstd::zstd_safe::ResetDirective::SessionOnly)
                    .map_err(|code| std::io::Error::other(zstd::zstd_safe::get_error_name(code)))?;
                Box::new(zstd::stream::read::Decoder::with_context(
                    stored,
                    &mut self.context,
                ))
            }
        };
        let room = likely_size(size, stored_len, zstd);
        Ok(Body {
            body,
            store: &self.store,
            zstd,
            size,
            read: 0,
            room: usize::try_from(room).unwrap_or(usize::MAX),
            damage: None,
        })
    }

    /// A stored body whose row records `size` bytes as sent, read whole (see
    /// [`Unpacker::reader`]).
    pub(crate) fn bytes(
        &mut self,
        stored: &[u8],
        zstd: bool,
        size: u64,
    ) -> std::io::Result<Vec<u8>> {
        let mut raw = Vec::new();
        let stored_len = stored.len() as u64;
        (self.reader(std::io::Cursor::new(stored), zstd, size, stored_len)?)
            .read_to_end(&mut raw)?;
        Ok(raw)
    }

    /// A stored body whose row records `size` bytes as sent, as text (bytes that are not
    /// UTF-8, which the crawl never stores, are replaced rather than refused). (A context
    /// made per body was a quarter of a search's time.)
    pub(crate) fn text(&mut self, stored: &[u8], zstd: bool, size: u64) -> std::io::Result<String> {
        let raw = self.bytes(stored, zstd, size)?;
        Ok(match String::from_utf8(raw) {
            Ok(text) => text,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }
}

/// The recorded size past which a zstd body is unpacked once to nothing before it is
/// read ([`Unpacker::reader`]): a body that lies about its size is then refused before
/// any memory is made for it, at the cost of unpacking the few large bodies (a large
/// plant's registry, a large value) twice. Smaller ones are read at most this far.
pub(crate) const CHECKED_FIRST: u64 = aas_source::SPOOL_AT as u64;

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

/// A stored body as it is unpacked, read no further than the size its row records: one
/// byte more, or an end before it, is damage ([`damage`]), and so is a frame the
/// decompressor refuses; the stored bytes' own read errors stay as they are. Read
/// whole, it goes into memory made at its likely size at once: grown by doubling, a
/// 200 MB body cost 800 MB, as the allocator kept every smaller copy, and a 12 MB AAS
/// list had the kernel zeroing pages for a quarter of a table's reading.
pub(crate) struct Body<'b> {
    body: Box<dyn Read + 'b>,
    /// The store, which damage names.
    store: &'b Path,
    zstd: bool,
    size: u64,
    read: u64,
    /// What to make room for when read whole: a hint only ([`likely_size`]).
    room: usize,
    /// The damage met, said again by every read after it.
    damage: Option<String>,
}

impl Body<'_> {
    /// The damage a read met, as the store's error, when one did: a caller that turned
    /// the read's error into its own (or passed over it) is told the body's.
    pub(crate) fn damage(&self) -> Option<crate::Error> {
        let reason = self.damage.as_deref()?;
        Some(body_error(self.store, "read", damage(self.store, reason)))
    }

    fn damaged(&mut self, reason: String) -> std::io::Error {
        let e = damage(self.store, &reason);
        self.damage = Some(reason);
        e
    }

    /// A failed read's error: the stored bytes' own as they were, the decompressor's as
    /// damage.
    fn failed(&mut self, e: std::io::Error) -> std::io::Error {
        if e.get_ref().is_some_and(|inner| inner.is::<SourceError>()) {
            return match e.into_inner().map(|inner| inner.downcast::<SourceError>()) {
                Some(Ok(source)) => source.0,
                _ => std::io::Error::other("the stored answer could not be read"),
            };
        }
        match self.zstd && e.kind() != std::io::ErrorKind::Interrupted {
            true => self.damaged(format!("does not unpack ({e})")),
            false => e,
        }
    }
}

impl Read for Body<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(reason) = &self.damage {
            return Err(damage(self.store, reason));
        }
        if buf.is_empty() {
            return Ok(0);
        }
        let left = self.size - self.read;
        if left == 0 {
            // A byte more, if there is one, is a byte past the recorded size.
            let mut more = [0; 1];
            return match self.body.read(&mut more) {
                Ok(0) => Ok(0),
                Ok(_) => Err(self.damaged(format!(
                    "unpacks to more than its recorded {} bytes",
                    self.size
                ))),
                Err(e) => Err(self.failed(e)),
            };
        }
        let most = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        match self.body.read(&mut buf[..most]) {
            Ok(0) => Err(self.damaged(format!(
                "ends after {} of its recorded {} bytes",
                self.read, self.size
            ))),
            Ok(n) => {
                self.read += n as u64;
                Ok(n)
            }
            Err(e) => Err(self.failed(e)),
        }
    }

    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> std::io::Result<usize> {
        buf.reserve(self.room);
        Whole(self).read_to_end(buf)
    }

    fn read_to_string(&mut self, buf: &mut String) -> std::io::Result<usize> {
        buf.reserve(self.room);
        Whole(self).read_to_string(buf)
    }
}

/// A [`Body`] read whole by `Read`'s own loop, once its room is made.
struct Whole<'a, 'b>(&'a mut Body<'b>);

impl Read for Whole<'_, '_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}

/// The stored bytes, whose own read errors (a file's, a database's) are told apart from
/// the decompressor's ([`SourceError`]).
struct Source<R>(R);

/// A read error of the stored bytes themselves.
#[derive(Debug)]
struct SourceError(std::io::Error);

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SourceError {}

fn source_error(e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), SourceError(e))
}

impl<R: Read> Read for Source<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf).map_err(source_error)
    }
}

impl<R: BufRead> BufRead for Source<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.0.fill_buf().map_err(source_error)
    }

    fn consume(&mut self, amt: usize) {
        self.0.consume(amt)
    }
}

/// A body of the store at `store` whose row records `size` bytes as sent, as text (see
/// [`Unpacker::text`]).
pub(crate) fn text(store: &Path, stored: &[u8], zstd: bool, size: u64) -> std::io::Result<String> {
    Unpacker::new(store).text(stored, zstd, size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

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
        assert_eq!(
            text(Path::new("store"), &packed, true, size).expect("unpacked"),
            raw
        );
        assert_eq!(
            text(Path::new("store"), raw.as_bytes(), false, size).expect("plain"),
            raw
        );
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
        let mut unpacker = Unpacker::new(Path::new("store"));
        let mut start = [0; 10];
        let stored = first_packed.len() as u64;
        let mut body = unpacker
            .reader(Cursor::new(&first_packed), true, first.len() as u64, stored)
            .expect("reader");
        body.read_exact(&mut start).expect("read");
        drop(body);
        for (packed, raw) in [
            (&second_packed, &second),
            (&first_packed, &first),
            (&second_packed, &second),
        ] {
            let mut read = String::new();
            let (size, stored) = (raw.len() as u64, packed.len() as u64);
            let mut body =
                (unpacker.reader(Cursor::new(packed), true, size, stored)).expect("reader");
            body.read_to_string(&mut read).expect("read");
            assert!(read == *raw, "{} bytes", read.len());
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
            text(Path::new("store"), &packed, true, raw.len() as u64).expect("unpacked"),
            raw
        );
    }

    /// A body is read no further than its recorded size: a zstd frame that unpacks to
    /// more (a bomb), one that ends before it, one that does not unpack, and a size past
    /// the largest answer are damage, said as such, and the read stops there.
    #[test]
    fn a_body_is_read_no_further_than_its_recorded_size() {
        // 64 MiB of one byte: a frame of a few kilobytes.
        let (mut file, _) = pack_stream(std::io::repeat(b'x').take(64 << 20)).expect("packed");
        let mut bomb = Vec::new();
        file.read_to_end(&mut bomb).expect("read");
        assert!(bomb.len() < 64 * 1024, "{}", bomb.len());
        let said = |e: std::io::Error| {
            let damaged = e.get_ref().and_then(|i| i.downcast_ref::<crate::Error>());
            damaged.map(|d| {
                let said = d.to_string();
                let start = "the snapshot store store is damaged: an answer stored in it ";
                assert!(said.starts_with(start), "{said}");
                said[start.len()..]
                    .split(';')
                    .next()
                    .unwrap_or_default()
                    .to_owned()
            })
        };

        let mut unpacker = Unpacker::new(Path::new("store"));
        let mut raw = Vec::new();
        let mut body =
            (unpacker.reader(Cursor::new(&bomb), true, 1000, bomb.len() as u64)).expect("reader");
        let e = body.read_to_end(&mut raw).expect_err("more than recorded");
        assert_eq!(
            said(e).as_deref(),
            Some("unpacks to more than its recorded 1000 bytes")
        );
        assert_eq!(raw.len(), 1000, "read up to the recorded size, no further");
        assert!(body.damage().is_some());
        assert!(body.read(&mut [0; 8]).is_err(), "said again");
        drop(body);

        // Recorded past CHECKED_FIRST, a lying body is refused before a byte is read.
        let e = match unpacker.reader(Cursor::new(&bomb), true, 32 << 20, bomb.len() as u64) {
            Ok(_) => panic!("handed out"),
            Err(e) => e,
        };
        assert_eq!(
            said(e).as_deref(),
            Some("unpacks to more than its recorded 33554432 bytes")
        );
        let e = (unpacker.bytes(&bomb, true, (64 << 20) + 1)).expect_err("shorter");
        assert_eq!(
            said(e).as_deref(),
            Some("ends after 67108864 of its recorded 67108865 bytes")
        );
        assert_eq!(
            unpacker
                .bytes(&bomb, true, 64 << 20)
                .expect("as recorded")
                .len(),
            64 << 20
        );
        let e = (unpacker.bytes(b"not zstd at all", true, 15)).expect_err("not zstd");
        assert!(
            said(e).is_some_and(|d| d.starts_with("does not unpack")),
            "a frame the decompressor refuses"
        );
        let e = (unpacker.bytes(&bomb, true, MAX_ANSWER + 1)).expect_err("too large");
        assert!(said(e).is_some_and(|d| d.contains("more than the largest answer")));
        let e = (unpacker.bytes(b"plain", false, 3)).expect_err("plain, longer");
        assert!(said(e).is_some());
        assert_eq!(unpacker.bytes(b"plain", false, 5).expect("plain"), b"plain");

        // The stored bytes' own errors are not damage.
        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk"))
            }
        }
        impl Seek for Failing {
            fn seek(&mut self, _: std::io::SeekFrom) -> std::io::Result<u64> {
                Ok(0)
            }
        }
        for zstd in [true, false] {
            let stored = std::io::BufReader::new(Failing);
            let mut body = unpacker.reader(stored, zstd, 10, 10).expect("reader");
            let e = body.read(&mut [0; 4]).expect_err("the disk's error");
            assert_eq!(e.to_string(), "disk");
            assert!(said(e).is_none(), "the disk's error as it was");
        }
    }

    #[test]
    fn a_size_is_believed_only_as_far_as_the_stored_bytes_can_hold_it() {
        assert_eq!(likely_size(12_300_000, 113_682, true), 12_300_000);
        assert_eq!(likely_size(u64::MAX, 100, true), 12_800);
        assert_eq!(likely_size(u64::MAX, 100, false), 100);
        assert_eq!(likely_size(40, 100, false), 40);
    }
}
