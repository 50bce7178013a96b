//! Work on every core, taken back in order: the reading thread gathers what it reads
//! into batches and hands them to one worker per core in turn; it takes the results
//! back in the same turn, so what it makes of them is what one thread would have made.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::Scope;

/// Batches out at a time, per worker: a few at most, which bounds the memory.
const IN_FLIGHT: usize = 2;

/// When a batch is handed on: at this many bytes (as the reader counts them), or items.
#[derive(Debug, Clone, Copy)]
pub struct Batches {
    pub bytes: usize,
    pub items: usize,
}

/// Workers that turn each batch of `T` into an `R`, and the batch being gathered.
#[derive(Debug)]
pub struct InOrder<T, R> {
    to: Vec<Sender<Vec<T>>>,
    from: Vec<Receiver<R>>,
    batches: Batches,
    batch: Vec<T>,
    batch_bytes: usize,
    sent: usize,
    taken: usize,
}

impl<T: Send, R: Send> InOrder<T, R> {
    /// One worker per core, each running `work` on the batches it is handed.
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
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (mut to, mut from) = (Vec::new(), Vec::new());
        for _ in 0..cores {
            let (batch_in, batches_out) = channel::<Vec<T>>();
            let (done, done_out) = channel();
            scope.spawn(move || {
                for batch in batches_out {
                    if done.send(work(batch)).is_err() {
                        break;
                    }
                }
            });
            to.push(batch_in);
            from.push(done_out);
        }
        InOrder {
            to,
            from,
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
        if self.sent - self.taken >= IN_FLIGHT * self.to.len() {
            self.take(done)?;
        }
        let batch = std::mem::take(&mut self.batch);
        self.batch_bytes = 0;
        let worker = self.sent % self.to.len();
        self.to[worker].send(batch).map_err(|_| gone())?;
        self.sent += 1;
        Ok(())
    }

    /// The oldest result out, back.
    fn take<E: From<WorkerGone>>(
        &mut self,
        done: &mut impl FnMut(R) -> Result<(), E>,
    ) -> Result<(), E> {
        let worker = self.taken % self.from.len();
        let result = self.from[worker].recv().map_err(|_| gone())?;
        self.taken += 1;
        done(result)
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
}
