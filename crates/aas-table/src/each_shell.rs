//! The rows' submodels answers, read on one thread and worked on every core: parsing a
//! shell's submodels is most of a table's time (about 40 KB of JSON a shell).

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use aas_in_order::{Batches, InOrder};
use aas_source::{read_text_into, NodeLevel, NodePath, Source};

use crate::Result;

/// One row's submodels answer, as text.
pub(crate) struct RowAnswer {
    pub row: usize,
    pub json: String,
}

const BATCHES: Batches = Batches {
    bytes: 1 << 20,
    items: 256,
};

/// Hands `work` the submodels answers of the shells in `rows` (a shell's id to its row)
/// in batches, on every core, and `done` each batch's result in the answers' order.
pub(crate) fn each_shell<R: Send>(
    answers: &dyn Source,
    rows: &HashMap<&str, usize>,
    work: &(impl Fn(&[RowAnswer]) -> R + Sync),
    done: &mut impl FnMut(R),
) -> Result<()> {
    let shells: HashSet<&str> = rows.keys().copied().collect();
    // The texts the workers are done with, read into again: a new string for every
    // answer had the kernel zeroing fresh pages for a third of the reading thread's time.
    // The batches out bound how many there are.
    let spent = Mutex::new(Vec::<String>::new());
    let work = |batch: Vec<RowAnswer>| {
        let result = work(&batch);
        let texts = batch.into_iter().map(|answer| answer.json);
        spent
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(texts);
        result
    };
    std::thread::scope(|scope| {
        let mut workers = InOrder::start(scope, BATCHES, &work);
        let mut done = |result| -> aas_export::Result<()> {
            done(result);
            Ok(())
        };
        let shells = Some(&shells);
        aas_source::each_answer_of(answers, NodeLevel::Submodels, shells, |path, url, body| {
            let NodePath::Submodels { aas_id } = path else {
                return Ok(());
            };
            let Some(&row) = rows.get(aas_id.as_str()) else {
                return Ok(());
            };
            let mut json =
                (spent.lock().unwrap_or_else(|e| e.into_inner()).pop()).unwrap_or_default();
            read_text_into(body, url, &mut json)?;
            let bytes = json.len();
            workers.push(RowAnswer { row, json }, bytes, &mut done)
        })?;
        workers.finish(&mut done)
    })?;
    Ok(())
}
