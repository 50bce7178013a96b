//! Writing one snapshot as the crawl goes. The answers are handed to a thread of
//! their own, through a short queue: the crawl goes on while they are hashed,
//! compressed, indexed and written, and waits only when the writer falls behind. Each
//! body is written once per content hash, with the search index's document of a new
//! elements body; each answer is a row of three integers; answers are written a chunk
//! at a time (`chunk`). Rows are committed in batches, so a crash loses at most the
//! last batch and the snapshot stays marked as being taken until the next writer marks
//! it partial.

use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;
use std::time::SystemTime;

use aas_source::{Body, Failure, Fetched, NodeLevel, NodePath, Source, Unreadable};

use crate::backend::{BatchWriter, Counts, NewContent, NodeRow, Packed, Place, SnapshotInfo};
use crate::chunk::{Chunk, Pending};
use crate::content::{self, Packer};
use crate::index::{document, element_rows};
use crate::store::Store;
use crate::{Error, Result};
use aas_model::FileError;

/// Answers written per transaction, at most.
const BATCH: usize = 2000;
/// Bytes (as received) written per transaction, at most: a batch's memory stays small.
const BATCH_BYTES: usize = 64 << 20;
/// Answers waiting for the writer, at most, before the crawl waits for it.
const QUEUE: usize = 64;

impl Store {
    /// Starts a snapshot of `plant` from `source`, taken at `taken_at` (the crawl's
    /// start). Fails with [`Error::Busy`] while another one is being taken.
    pub fn begin(
        &mut self,
        source: &str,
        plant: &str,
        taken_at: SystemTime,
    ) -> Result<SnapshotWriter<'_>> {
        let mut writer = self.db.writer(source, plant)?;
        let id = writer.start(&humantime::format_rfc3339_seconds(taken_at).to_string())?;
        SnapshotWriter::new(self, id, writer)
    }
}

impl Store {
    /// Keeps every answer of `answers` (a source read whole, such as a file) as a new
    /// snapshot from `source`, taken when the answers were read; complete when the
    /// answers cover everything.
    pub fn import(&mut self, answers: &dyn Source, source: &str) -> Result<SnapshotInfo> {
        let coverage = answers.coverage();
        let mut writer = self.begin(source, coverage.plant, coverage.read_at)?;
        for level in NodeLevel::ALL {
            let mut failed = None;
            // A break means an answer was not kept: its error waits in `failed`.
            let _ = answers
                .each(level, &mut |path, url, body| {
                    let kept = aas_source::read_text(body, url)
                        .map_err(|e| Error::Export(e.into()))
                        .and_then(|text| {
                            writer.answer(Fetched {
                                path: path.clone(),
                                url: url.to_owned(),
                                raw: Body::Text(text),
                            })
                        });
                    match kept {
                        Ok(()) => std::ops::ControlFlow::Continue(()),
                        Err(e) => {
                            failed = Some(e);
                            std::ops::ControlFlow::Break(())
                        }
                    }
                })
                .map_err(|e| Error::Export(e.into()))?;
            if let Some(e) = failed {
                return Err(e);
            }
        }
        writer.finish_crawl(answers)
    }
}

/// A snapshot being taken. [`SnapshotWriter::finish`] ends it; dropped without, it
/// keeps what was written and is marked partial by the next writer.
#[derive(Debug)]
pub struct SnapshotWriter<'s> {
    store: &'s mut Store,
    id: i64,
    queue: Option<SyncSender<Job>>,
    thread: Option<JoinHandle<Result<()>>>,
}

#[derive(Debug)]
enum Job {
    Answer(Fetched),
    Failure(Failure),
    Unreadable(Unreadable),
    /// The last job: the snapshot ends, complete or partial, written by the thread that
    /// holds the store's lock.
    Finish(bool),
}

impl<'s> SnapshotWriter<'s> {
    /// Hands `writer`, which has started snapshot `id`, to a thread of its own.
    fn new(store: &'s mut Store, id: i64, writer: Box<dyn BatchWriter>) -> Result<Self> {
        let path = store.path.clone();
        let (queue, jobs) = sync_channel(QUEUE);
        let thread = std::thread::Builder::new()
            .name("snapshot writer".into())
            .spawn(move || write_jobs(writer, &path, id, jobs))
            .map_err(|source| {
                Error::File(FileError {
                    action: "start a writer for",
                    path: store.path.clone(),
                    source,
                })
            })?;
        Ok(SnapshotWriter {
            store,
            id,
            queue: Some(queue),
            thread: Some(thread),
        })
    }

    pub fn id(&self) -> i64 {
        self.id
    }

    /// Keeps one answer of the crawl. It is written by the writer's thread: an error
    /// there is returned by the next call (or by [`SnapshotWriter::finish`]). Given by
    /// value it is not copied (a 100,000-asset registry is hundreds of megabytes).
    pub fn answer(&mut self, fetched: Fetched) -> Result<()> {
        self.send(Job::Answer(fetched))
    }

    /// Keeps a node that failed, with its reason.
    pub fn failure(&mut self, failure: &Failure) -> Result<()> {
        self.send(Job::Failure(failure.clone()))
    }

    /// Keeps the name of a part of an answer that could not be read, with its reason.
    pub fn unreadable(&mut self, part: &Unreadable) -> Result<()> {
        self.send(Job::Unreadable(part.clone()))
    }

    fn send(&mut self, job: Job) -> Result<()> {
        let sent = self.queue.as_ref().map(|queue| queue.send(job).is_ok());
        if sent == Some(true) {
            return Ok(());
        }
        // The writer stopped: its error says why.
        self.stop()?;
        Err(Error::File(FileError {
            action: "write to",
            path: self.store.path.clone(),
            source: std::io::Error::other("the snapshot's writer stopped after an earlier error"),
        }))
    }

    /// Waits for the writer to write what it was given.
    fn stop(&mut self) -> Result<()> {
        self.queue = None;
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(written)) => written,
            Some(Err(_)) => Err(Error::File(FileError {
                action: "write to",
                path: self.store.path.clone(),
                source: std::io::Error::other("the snapshot's writer failed"),
            })),
            None => Ok(()),
        }
    }

    /// Ends the snapshot of `crawl`, whose answers it was given: keeps the crawl's
    /// failures and unreadable parts, and is complete only when the crawl ran to its end
    /// with every node answered (the one rule for the app's takes and `aasmd`'s).
    pub fn finish_crawl(mut self, crawl: &dyn Source) -> Result<SnapshotInfo> {
        let coverage = crawl.coverage();
        for failure in coverage.failures {
            self.failure(failure)?;
        }
        for part in coverage.unreadable {
            self.unreadable(part)?;
        }
        self.finish(coverage.complete)
    }

    /// Ends the snapshot, complete or partial: once the writer has written it all, so
    /// that its lock is held until the snapshot's state is.
    pub fn finish(mut self, complete: bool) -> Result<SnapshotInfo> {
        self.send(Job::Finish(complete))?;
        self.stop()?;
        self.store.db.settle()?;
        self.store.snapshot(self.id)
    }
}

impl Drop for SnapshotWriter<'_> {
    /// What was written stays (a failure here has nowhere to go: the next writer marks
    /// the snapshot partial either way).
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

/// The writer's thread: every job, in batches, until [`Job::Finish`] ends the snapshot,
/// or until the queue is closed (the snapshot is left being taken).
fn write_jobs(
    mut writer: Box<dyn BatchWriter>,
    path: &Path,
    id: i64,
    jobs: Receiver<Job>,
) -> Result<()> {
    let mut packer = Packer::new().map_err(io_error(path, "compress answers for"))?;
    let mut counts = Counts::default();
    let mut chunk = Chunk::new();
    let mut write = |chunk: &mut Chunk<_>, writer: &mut dyn BatchWriter| {
        chunk.write(writer, id, &mut |(level, body), hash| {
            new_content(&mut packer, path, level, &body, hash)
        })
    };
    let mut jobs = jobs.into_iter().peekable();
    while jobs.peek().is_some() {
        writer.begin_batch()?;
        let (mut answers, mut bytes) = (0, 0);
        for job in jobs.by_ref() {
            match job {
                Job::Answer(fetched) => {
                    bytes += fetched.raw.size() as usize;
                    counts.nodes += 1;
                    counts.bytes += fetched.raw.size();
                    counts.shells += u64::from(fetched.path.level() == NodeLevel::Submodels);
                    let (answer, held) = pending(fetched, path)?;
                    if chunk.push(answer, held) {
                        write(&mut chunk, &mut *writer)?;
                    }
                }
                Job::Failure(failure) => {
                    writer.add_failure(id, &failure_row(&failure))?;
                    counts.shells += u64::from(failure.path.level() == NodeLevel::Submodels);
                }
                Job::Unreadable(part) => {
                    let row = (path_key(&part.path), part.url, part.at, part.reason);
                    writer.add_unreadable(id, &row)?;
                }
                Job::Finish(complete) => {
                    write(&mut chunk, &mut *writer)?;
                    writer.commit_batch()?;
                    return writer.finish(id, complete, counts);
                }
            }
            answers += 1;
            if answers >= BATCH || bytes >= BATCH_BYTES {
                break;
            }
        }
        write(&mut chunk, &mut *writer)?;
        writer.commit_batch()?;
    }
    Ok(())
}

/// An answer as it waits in a chunk, and the bytes of it held in memory (a large answer
/// waits in its temporary file).
fn pending(fetched: Fetched, path: &Path) -> Result<(Pending<(NodeLevel, Body)>, u64)> {
    let (hash, held) = match &fetched.raw {
        Body::Text(raw) => (content::hash(raw.as_bytes()), raw.len() as u64),
        spooled => {
            let hash = (spooled.reader().and_then(content::hash_stream))
                .map_err(io_error(path, "keep an answer in"))?;
            (hash, 0)
        }
    };
    let level = fetched.path.level();
    let place = Place {
        level,
        keys: fetched.path.keys().map(str::to_owned),
        url: fetched.url,
    };
    let body = (level, fetched.raw);
    Ok((Pending { place, hash, body }, held))
}

/// The row of a body the store lacks, with the search index's document of an elements
/// body. A body held in memory is compressed in memory; one in a temporary file (a
/// large plant's registry) is compressed piece by piece into another, which the store
/// takes piece by piece, so it is never in memory whole.
fn new_content(
    packer: &mut Packer,
    path: &Path,
    level: NodeLevel,
    body: &Body,
    hash: Vec<u8>,
) -> Result<NewContent> {
    let kept = io_error(path, "keep an answer in");
    let document = match level {
        NodeLevel::Elements => document(&element_rows(&body.text().map_err(&kept)?)),
        _ => None,
    };
    let packed = match body {
        Body::Text(raw) => Packed::Bytes(packer.pack(raw.as_bytes()).map_err(&kept)?),
        spooled => {
            let (file, len) = (spooled.reader().and_then(content::pack_stream)).map_err(&kept)?;
            Packed::File(file, len)
        }
    };
    Ok(NewContent {
        hash,
        size: body.size(),
        packed,
        document,
    })
}

/// A failed node's row: its place, its URL, its kind (as JSON names it) and message.
fn failure_row(failure: &Failure) -> NodeRow {
    let kind = serde_json::to_value(failure.kind)
        .ok()
        .and_then(|k| k.as_str().map(str::to_owned))
        .unwrap_or_default();
    let (url, message) = (failure.url.clone(), failure.message.clone());
    (path_key(&failure.path), url, kind, message)
}

/// The store's error for a file operation on `path` that failed while it was `action`.
fn io_error<'p>(path: &'p Path, action: &'static str) -> impl Fn(std::io::Error) -> Error + 'p {
    move |source| {
        Error::File(FileError {
            action,
            path: path.to_owned(),
            source,
        })
    }
}

/// The answer's place in the tree, as the raw export names it.
pub(crate) fn path_key(path: &NodePath) -> String {
    serde_json::to_string(path).unwrap_or_default()
}
