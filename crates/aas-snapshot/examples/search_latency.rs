//! Search latency as a desktop sees it (bench/team-store.sh): the store opened once and
//! kept, as the app keeps its reader, and the newest complete snapshot of its only
//! plant searched for each QUERY in turn, PAUSE seconds after each answer, for ROUNDS
//! rounds or until the file STOP exists. Prints each search's milliseconds, a line each.
//!
//!     search_latency STORE ROUNDS PAUSE STOP QUERY...

use std::path::Path;
use std::time::{Duration, Instant};

use aas_snapshot::{Access, Store};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [store, rounds, pause, stop, queries @ ..] = args.as_slice() else {
        eprintln!("usage: search_latency STORE ROUNDS PAUSE STOP QUERY...");
        std::process::exit(2);
    };
    let rounds: usize = rounds.parse().expect("ROUNDS: a number");
    let pause = Duration::from_secs_f64(pause.parse().expect("PAUSE: seconds"));
    let store = Store::open(Path::new(store), Access::Read).expect("the store opens");
    let plants = store.plants().expect("plants");
    let [plant] = plants.as_slice() else {
        panic!("one plant, not {plants:?}");
    };
    let newest = store.complete_newest_first(plant, None).expect("snapshots");
    let id = newest.first().expect("a complete snapshot").id;
    for _ in 0..rounds {
        for query in queries {
            if Path::new(stop).exists() {
                return;
            }
            let start = Instant::now();
            store.search(id, query, 100).expect("search");
            println!("{}", start.elapsed().as_millis());
            std::thread::sleep(pause);
        }
    }
}
