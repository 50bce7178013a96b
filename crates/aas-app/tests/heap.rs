//! Memory a burst of work freed goes back to the system, measured as this process's
//! resident size (this file is a test binary of its own: no other test allocates).
#![cfg(all(target_os = "linux", target_env = "gnu"))]

use aas_app::FreedMemory;

const MB: usize = 1 << 20;

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

#[test]
fn a_burst_freed_on_a_worker_thread_is_given_back_once() {
    let mut heap = FreedMemory::default();
    assert!(!heap.look(), "nothing was freed yet");
    // A burst on a thread of its own (its own arena, as on a runtime worker): 64 MB
    // in small pieces, every 64th kept, so the free memory lies between live pieces
    // where freeing alone cannot give it back.
    let kept = std::thread::spawn(|| {
        let pieces: Vec<Vec<u8>> = (0..256 * 1024).map(|i| vec![i as u8; 256]).collect();
        pieces.into_iter().step_by(64).collect::<Vec<_>>()
    })
    .join()
    .expect("the burst");
    let before = resident_bytes();
    assert!(heap.look(), "the burst's free memory was trimmed");
    let after = resident_bytes();
    assert!(
        before.saturating_sub(after) > 32 * MB,
        "resident {} MB before the trim, {} MB after",
        before / MB,
        after / MB
    );
    assert!(!heap.look(), "nothing new was freed since");
    assert_eq!(kept.len(), 4096);
}
