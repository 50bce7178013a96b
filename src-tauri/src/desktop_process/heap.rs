//! Gives the memory a burst of work freed back to the system. glibc keeps what a thread
//! freed in that thread's arena: listing 10,000 AAS left the app process 28 MB larger
//! for good, all of it free and all of it returned by `malloc_trim` (bench/README.md,
//! "The app"). Other C libraries do not hoard like this, so elsewhere nothing is done.

use std::time::{Duration, Instant};

/// How often the background thread looks at the heap.
const LOOK_EVERY: Duration = Duration::from_secs(2);
/// What a burst may free before the heap is trimmed.
const GROWTH_KEPT: usize = 8 << 20;
/// How long start-up lasts, a burst of its own: GTK, WebKit's side of the window and the
/// demo service free about 5 MB as the window opens, under a burst's allowance, and the
/// heap kept it for good (the idle app process: 37.9 MB anonymous, 32.8 after a trim).
const START_UP: Duration = Duration::from_secs(10);
/// What start-up may free before the heap is trimmed.
const START_UP_KEPT: usize = 1 << 20;

/// Trims the heap when a burst of work has freed memory: when the heap's free memory grew
/// by more than 8 MiB since the last trim (a burst freed what it had used), or when the
/// process's resident size did while the heap holds that much free (a burst that came
/// and went between two looks, reusing pages an earlier trim gave back: the free count
/// ends where it was, but the pages it touched are resident again). While the process
/// starts, the allowance is 1 MiB instead of 8.
#[derive(Debug)]
pub struct FreedMemory {
    free_after_last_trim: usize,
    resident_after_last_trim: usize,
    start_up_ends: Instant,
}

impl Default for FreedMemory {
    /// Looks at a process that is starting now.
    fn default() -> Self {
        FreedMemory::starting_for(START_UP)
    }
}

impl FreedMemory {
    /// Looks at a process whose start-up lasts `start_up` from now.
    pub fn starting_for(start_up: Duration) -> Self {
        FreedMemory {
            free_after_last_trim: allocator::free_bytes(),
            resident_after_last_trim: allocator::resident_bytes(),
            start_up_ends: Instant::now() + start_up,
        }
    }

    /// Trims the heap if a burst freed more than the allowance; true when it did.
    pub fn look(&mut self) -> bool {
        let (free, resident) = (allocator::free_bytes(), allocator::resident_bytes());
        let kept = match Instant::now() < self.start_up_ends {
            true => START_UP_KEPT,
            false => GROWTH_KEPT,
        };
        // Memory taken up again, or given back, lowers the marks: the next burst
        // counts from there.
        self.free_after_last_trim = self.free_after_last_trim.min(free);
        self.resident_after_last_trim = self.resident_after_last_trim.min(resident);
        let freed = free > self.free_after_last_trim + kept;
        let touched_again = resident > self.resident_after_last_trim + kept && free > kept;
        if !freed && !touched_again {
            return false;
        }
        allocator::trim();
        self.free_after_last_trim = allocator::free_bytes();
        self.resident_after_last_trim = allocator::resident_bytes();
        true
    }
}

/// Starts a thread that looks at the heap every 2 s for as long as the process runs.
pub fn return_freed_memory_in_background() {
    let mut heap = FreedMemory::default();
    let looking = std::thread::Builder::new()
        .name("return-freed-memory".into())
        .spawn(move || loop {
            std::thread::sleep(LOOK_EVERY);
            heap.look();
        });
    if let Err(e) = looking {
        tracing::warn!(error = %e, "freed memory will not be given back: no thread");
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[expect(
    unsafe_code,
    reason = "glibc's malloc statistics and trim have no safe binding"
)]
mod allocator {
    /// Bytes the heap's arenas hold in free chunks, over all arenas.
    pub fn free_bytes() -> usize {
        // SAFETY: mallinfo2 takes no arguments and only reads the allocator's statistics.
        unsafe { libc::mallinfo2() }.fordblks
    }

    pub fn trim() {
        // SAFETY: malloc_trim(0) takes no pointers; it only gives free pages back.
        unsafe { libc::malloc_trim(0) };
    }

    /// The process's resident size (`VmRSS`); 0 when /proc cannot say.
    pub fn resident_bytes() -> usize {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|kb| kb.split_whitespace().next()?.parse::<usize>().ok())
            .map_or(0, |kb| kb * 1024)
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod allocator {
    pub fn free_bytes() -> usize {
        0
    }

    pub fn trim() {}

    pub fn resident_bytes() -> usize {
        0
    }
}
