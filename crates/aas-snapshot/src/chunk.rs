//! A chunk of answers written into a snapshot at once, by a take and by a copy alike:
//! their bodies looked up by hash together, those the store lacks made and added once
//! each, their nodes found or added together, then a row per answer. A team store
//! answers each of these in one round trip, where a body or a node at a time made the
//! take wait on the network for every answer.

use std::collections::HashMap;

use crate::backend::{BatchWriter, NewContent, Place};
use crate::Result;

/// Answers written together, at most, and the bytes of them held in memory meanwhile.
const CHUNK: usize = 500;
const CHUNK_BYTES: u64 = 16 << 20;

/// Answers waiting to be written together.
pub(crate) struct Chunk<B> {
    answers: Vec<Pending<B>>,
    held: u64,
}

impl<B> Chunk<B> {
    pub(crate) fn new() -> Self {
        Chunk {
            answers: Vec::new(),
            held: 0,
        }
    }

    /// Adds an answer whose body holds `held` bytes in memory; whether the chunk is full.
    pub(crate) fn push(&mut self, answer: Pending<B>, held: u64) -> bool {
        self.answers.push(answer);
        self.held += held;
        self.answers.len() >= CHUNK || self.held >= CHUNK_BYTES
    }

    /// Writes the answers waiting ([`write_chunk`]), and is empty again.
    pub(crate) fn write(
        &mut self,
        writer: &mut dyn BatchWriter,
        id: i64,
        make: &mut dyn FnMut(B, Vec<u8>) -> Result<NewContent>,
    ) -> Result<Added> {
        self.held = 0;
        write_chunk(writer, id, std::mem::take(&mut self.answers), make)
    }
}

/// An answer waiting in a chunk: its place, its body's SHA-256, and what makes its
/// body's row when the store lacks it.
pub(crate) struct Pending<B> {
    pub place: Place,
    pub hash: Vec<u8>,
    pub body: B,
}

/// Bodies added to a store.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Added {
    pub bodies: u64,
    /// Their bytes as stored (compressed).
    pub bytes: u64,
}

impl std::ops::AddAssign for Added {
    fn add_assign(&mut self, other: Added) {
        self.bodies += other.bodies;
        self.bytes += other.bytes;
    }
}

/// Writes `chunk` as answers of snapshot `id`; `make` makes the row of a body the store
/// lacks (from the answer's body and hash), once per hash. A place given twice keeps its
/// first answer. Returns the bodies added.
fn write_chunk<B>(
    writer: &mut dyn BatchWriter,
    id: i64,
    chunk: Vec<Pending<B>>,
    make: &mut dyn FnMut(B, Vec<u8>) -> Result<NewContent>,
) -> Result<Added> {
    if chunk.is_empty() {
        return Ok(Added::default());
    }
    let hashes: Vec<Vec<u8>> = chunk.iter().map(|p| p.hash.clone()).collect();
    let known = writer.known_contents(&hashes)?;
    let mut places = Vec::with_capacity(chunk.len());
    // Each answer's body: a known id, or its place among the new bodies.
    let mut contents: Vec<std::result::Result<i64, usize>> = Vec::with_capacity(chunk.len());
    let (mut new, mut new_at) = (Vec::new(), HashMap::new());
    for (pending, known) in chunk.into_iter().zip(known) {
        places.push(pending.place);
        contents.push(match known {
            Some(content) => Ok(content),
            None => match new_at.get(&pending.hash) {
                Some(at) => Err(*at),
                None => {
                    new_at.insert(pending.hash.clone(), new.len());
                    new.push(make(pending.body, pending.hash)?);
                    Err(new.len() - 1)
                }
            },
        });
    }
    let added = Added {
        bodies: new.len() as u64,
        bytes: new.iter().map(|body: &NewContent| body.packed.len()).sum(),
    };
    let new_ids = writer.add_contents(new)?;
    let nodes = writer.nodes(&places)?;
    for (node, content) in nodes.into_iter().zip(contents) {
        writer.add_answer(id, node, content.unwrap_or_else(|at| new_ids[at]))?;
    }
    Ok(added)
}
