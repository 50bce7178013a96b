//! Memory a burst of work freed goes back to the system, measured as this process's
//! resident size (this file is a test binary of its own: no other test allocates, and
//! its tests take turns).
#![cfg(all(target_os = "linux", target_env = "gnu"))]

use std::time::Duration;

use aas_browser::desktop_process::FreedMemory;

const MB: usize = 1 << 20;

/// The tests take turns: each reads the process's resident size.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn resident_bytes() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .expect("VmRSS");
    let kb: usize = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("a number of kB");
    kb * 1024
}

/// A process whose start-up is over: a burst's allowance, 8 MiB.
fn started() -> FreedMemory {
    FreedMemory::starting_for(Duration::ZERO)
}

/// `mb` MB in small pieces on a thread of its own (its own arena, as on a runtime
/// worker), every 64th kept, so the free memory lies between live pieces where freeing
/// alone cannot give it back.
fn burst(mb: usize) -> Vec<Vec<u8>> {
    std::thread::spawn(move || {
        let pieces: Vec<Vec<u8>> = (0..mb * 4096).map(|i| vec![i as u8; 256]).collect();
        pieces.into_iter().step_by(64).collect::<Vec<_>>()
    })
    .join()
    .expect("the burst")
}

/// Looks at the heap after a burst of `mb` MB: it must trim, and the process shrink by
/// half the burst at least.
fn given_back(heap: &mut FreedMemory, which: &str, mb: usize) {
    let before = resident_bytes();
    assert!(heap.look(), "the {which} burst's free memory was trimmed");
    let after = resident_bytes();
    assert!(
        before.saturating_sub(after) > mb / 2 * MB,
        "{which} burst: resident {} MB before the trim, {} MB after",
        before / MB,
        after / MB
    );
}

#[test]
fn each_burst_freed_on_a_worker_thread_is_given_back_once() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut heap = started();
    assert!(!heap.look(), "nothing was freed yet");
    let first = burst(64);
    given_back(&mut heap, "first", 64);
    assert!(!heap.look(), "nothing new was freed since");
    // The next burst comes and goes between two looks and reuses the pages the trim
    // gave back: the heap's free count ends where it was, yet the pages are resident.
    let second = burst(64);
    given_back(&mut heap, "second", 64);
    assert!(!heap.look(), "nothing new was freed since");
    assert_eq!(first.len() + second.len(), 2 * 4096);
}

#[test]
fn memory_a_burst_frees_after_a_trim_in_its_midst_is_given_back_too() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut heap = started();
    // A burst still holding 64 MB when the heap is looked at (and trimmed, for the
    // 16 MB it had already dropped)…
    let held = std::thread::spawn(|| {
        let dropped: Vec<Vec<u8>> = (0..64 * 1024).map(|i| vec![i as u8; 256]).collect();
        let held: Vec<Vec<u8>> = (0..256 * 1024).map(|i| vec![i as u8; 256]).collect();
        drop(dropped);
        held
    })
    .join()
    .expect("the burst");
    heap.look();
    // … then lets it go but for every 64th piece (which keeps the heap from shrinking
    // by itself): the process is no larger than at that trim, yet 63 MB are free.
    let kept: Vec<Vec<u8>> = held.into_iter().step_by(64).collect();
    given_back(&mut heap, "held", 64);
    assert_eq!(kept.len(), 4096);
}

#[test]
fn what_start_up_freed_is_given_back_though_less_than_a_burst() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (mut starting, mut later) = (FreedMemory::default(), started());
    let kept = burst(6);
    assert!(!later.look(), "6 MB is under a burst's allowance");
    given_back(&mut starting, "start-up", 6);
    assert_eq!(kept.len(), 384);
}
