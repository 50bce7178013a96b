//! Work on every core, taken back in order: the reading thread gathers what it reads
//! into batches and puts them in one queue, which every worker (one per core) takes the
//! next batch from as soon as it is free; the results are taken back in the order the
//! batches went in, so what the reading thread makes of them is what one thread would
//! have made.
//!
//! One queue rather than batches dealt to each worker in turn: dealt, a worker whose
//! batches were small stood idle while the other's large one held the line (an AAS V3
//! export used 1.7 of 2 cores).

use std::collections::BTreeMap;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::Scope;

/// Batches out at a time, per worker: a few, which bounds the memory, and enough that a
/// worker finds the next one waiting while the reading thread takes in a slow one.
const IN_FLIGHT: usize = 4;

/// When a batch is handed on: at this many bytes (as the reader counts them), or items.
#[derive(Debug, Clone, Copy)]
pub struct Batches {
    pub bytes: usize,
    pub items: usize,
}

/// A batch and its place in the order.
type Numbered<T> = (usize, T);

/// Workers that turn each batch of `T` into an `R`, and the batch being gathered.
#[derive(Debug)]
pub struct InOrder<T, R> {
    to: Sender<Numbered<Vec<T>>>,
    /// Each result with its batch's number; `None` when a worker panicked.
    from: Receiver<Option<Numbered<R>>>,
    /// Results back before their turn.
    early: BTreeMap<usize, R>,
    workers: usize,
    batches: Batches,
    batch: Vec<T>,
    batch_bytes: usize,
    sent: usize,
    taken: usize,
}

impl<T: Send, R: Send> InOrder<T, R> {
    /// One worker per core, each running `work` on the next batch of the queue.
    pub fn start<'scope, W>(
        scope: &'scope Scope<'scope, '_>,
        batches: Batches,
        work: &'scope W,
    ) -> Self
    where
        T: 'scope,
        R: 'scope,
        W: Fn(Vec<T>) -> R + Sync,
    {
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (to, queue) = channel::<Numbered<Vec<T>>>();
        let queue = Arc::new(Mutex::new(queue));
        let (done, from) = channel();
        for _ in 0..workers {
            let (queue, done) = (Arc::clone(&queue), Farewell(done.clone()));
            scope.spawn(move || loop {
                // The lock is let go before the work: no panic can poison it.
                let next = queue
                    .lock()
                    .map_err(drop)
                    .and_then(|q| q.recv().map_err(drop));
                let Ok((n, batch)) = next else {
                    break;
                };
                if done.0.send(Some((n, work(batch)))).is_err() {
                    break;
                }
            });
        }
        InOrder {
            to,
            from,
            early: BTreeMap::new(),
            workers,
            batches,
            batch: Vec::new(),
            batch_bytes: 0,
            sent: 0,
            taken: 0,
        }
    }

    /// Adds `item` (`bytes` long) to the batch; hands `done` the results that come back
    /// meanwhile.
    pub fn push<E: From<WorkerGone>>(
        &mut self,
        item: T,
        bytes: usize,
        done: &mut impl FnMut(R) -> Result<(), E>,
    ) -> Result<(), E> {
        self.batch_bytes += bytes;
        self.batch.push(item);
        if self.batch_bytes >= self.batches.bytes || self.batch.len() >= self.batches.items {
            self.send(done)?;
        }
        Ok(())
    }

    /// Sends the last batch and hands `done` every result still out.
    pub fn finish<E: From<WorkerGone>>(
        mut self,
        done: &mut impl FnMut(R) -> Result<(), E>,
    ) -> Result<(), E> {
        if !self.batch.is_empty() {
            self.send(done)?;
        }
        while self.taken < self.sent {
            self.take(done)?;
        }
        Ok(())
    }

    fn send<E: From<WorkerGone>>(
        &mut self,
        done: &mut impl FnMut(R) -> Result<(), E>,
    ) -> Result<(), E> {
        if self.sent - self.taken >= IN_FLIGHT * self.workers {
            self.take(done)?;
        }
        let batch = std::mem::take(&mut self.batch);
        self.batch_bytes = 0;
        self.to.send((self.sent, batch)).map_err(|_| gone())?;
        self.sent += 1;
        Ok(())
    }

    /// The oldest result out, back.
    fn take<E: From<WorkerGone>>(
        &mut self,
        done: &mut impl FnMut(R) -> Result<(), E>,
    ) -> Result<(), E> {
        let result = loop {
            if let Some(result) = self.early.remove(&self.taken) {
                break result;
            }
            match self.from.recv() {
                Ok(Some((n, result))) => {
                    self.early.insert(n, result);
                }
                Ok(None) | Err(_) => return Err(gone().into()),
            }
        };
        self.taken += 1;
        done(result)
    }
}

/// A worker's way back, which says so when the worker panics: its batch will never
/// come back, and the reading thread must not wait for it.
struct Farewell<R>(Sender<Option<R>>);

impl<R> Drop for Farewell<R> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.0.send(None);
        }
    }
}

/// A worker ended before its batches were done: it panicked, which the scope repeats.
#[derive(Debug, thiserror::Error)]
#[error("a worker stopped before its work was done")]
pub struct WorkerGone;

fn gone() -> WorkerGone {
    WorkerGone
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_the_order_the_items_went_in() {
        let square = |batch: Vec<u64>| batch.into_iter().map(|n| n * n).collect::<Vec<_>>();
        let mut seen = Vec::new();
        let batches = Batches { bytes: 7, items: 3 };
        std::thread::scope(|scope| {
            let mut workers = InOrder::start(scope, batches, &square);
            let mut done = |squares: Vec<u64>| -> Result<(), WorkerGone> {
                seen.push(squares);
                Ok(())
            };
            for n in 0..20u64 {
                workers.push(n, 4, &mut done)?;
            }
            workers.finish(&mut done)
        })
        .expect("worked");
        // Two 4-byte items pass 7 bytes before three items are gathered.
        assert_eq!(seen.len(), 10);
        assert!(seen.iter().all(|batch| batch.len() == 2));
        let all: Vec<u64> = seen.concat();
        assert_eq!(all, (0..20u64).map(|n| n * n).collect::<Vec<_>>());
    }

    #[test]
    fn a_slow_batch_keeps_its_place_while_the_others_pass_it() {
        // The first batch takes longest: the ones after it come back first.
        let slow_first = |batch: Vec<u64>| {
            if batch[0] == 0 {
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
            batch
        };
        let mut seen = Vec::new();
        let batches = Batches { bytes: 1, items: 1 };
        std::thread::scope(|scope| {
            let mut workers = InOrder::start(scope, batches, &slow_first);
            let mut done = |batch: Vec<u64>| -> Result<(), WorkerGone> {
                seen.extend(batch);
                Ok(())
            };
            for n in 0..12u64 {
                workers.push(n, 1, &mut done)?;
            }
            workers.finish(&mut done)
        })
        .expect("worked");
        assert_eq!(seen, (0..12u64).collect::<Vec<_>>());
    }

    #[test]
    fn a_worker_that_panics_ends_the_work_instead_of_leaving_it_waiting() {
        let panics_on_three = |batch: Vec<u64>| {
            assert!(batch[0] != 3, "the batch that fails");
            batch
        };
        let mut ended = None;
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            std::thread::scope(|scope| {
                let mut workers =
                    InOrder::start(scope, Batches { bytes: 1, items: 1 }, &panics_on_three);
                let mut done = |_: Vec<u64>| -> Result<(), WorkerGone> { Ok(()) };
                let pushed = (0..40u64).try_for_each(|n| workers.push(n, 1, &mut done));
                ended = Some(pushed.and_then(|()| workers.finish(&mut done)).is_err());
            })
        }));
        assert!(run.is_err(), "the scope repeats the worker's panic");
        assert_eq!(ended, Some(true), "the reading thread was told");
    }
}
