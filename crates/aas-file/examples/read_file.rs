//! The reading the app's *Open file…* makes, alone (bench/file-open.sh): the AAS file
//! FILE read into the model of shells, submodels and elements, then counted. Prints one
//! JSON line: the shells, submodels and elements read, and the seconds until the shells
//! were all read (what the window shows first: `null` where they did not come first).
//!
//!     read_file FILE

use std::sync::Arc;
use std::time::{Duration, Instant};

fn count(elements: &[aas_file::Element]) -> usize {
    elements.iter().map(|e| 1 + count(&e.children)).sum()
}

fn main() {
    let Some(file) = std::env::args_os().nth(1) else {
        eprintln!("usage: read_file FILE");
        std::process::exit(2);
    };
    let start = Instant::now();
    let reading = Arc::new(aas_file::Reading::shells_first());
    let reader = {
        let reading = Arc::clone(&reading);
        std::thread::spawn(move || aas_file::read_watched(std::path::Path::new(&file), &reading))
    };
    // Looked for as the app does, more often (every 10 ms: more would cost the reading).
    let mut shells_at = None;
    while !reader.is_finished() {
        if shells_at.is_none() && reading.take_shells().is_some() {
            shells_at = Some(start.elapsed().as_secs_f64());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let contents = match reader.join().expect("the reading") {
        Ok(contents) => contents,
        Err(e) => {
            eprintln!("read_file: {e}");
            std::process::exit(1);
        }
    };
    let elements: usize = contents.submodels.iter().map(|s| count(&s.elements)).sum();
    let shells_at = shells_at.map_or("null".to_owned(), |s| format!("{s:.3}"));
    println!(
        "{{\"shells\": {}, \"submodels\": {}, \"elements\": {elements}, \"shells_at_s\": {shells_at}}}",
        contents.shells.len(),
        contents.submodels.len()
    );
}
