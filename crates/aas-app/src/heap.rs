//! Gives the memory a burst of work freed back to the system. glibc keeps what a thread
//! freed in that thread's arena: listing 10,000 AAS left the app process 28 MB larger
//! for good, all of it free and all of it returned by `malloc_trim` (bench/README.md,
//! "The app"). Other C libraries do not hoard like this, so elsewhere nothing is done.

use std::time::Duration;

/// How often the background thread looks at the heap.
const LOOK_EVERY: Duration = Duration::from_secs(2);
/// Free memory the heap may gain before it is trimmed.
const GROWTH_KEPT: usize = 8 << 20;

/// Watches how much memory the heap holds free, and trims it when that grew by more
/// than 8 MiB since it last did (a trimmed heap still counts the pages it gave back as
/// free, so the growth, not the amount, says a burst happened).
#[derive(Debug)]
pub struct FreedMemory {
    after_last_trim: usize,
}

impl Default for FreedMemory {
    fn default() -> Self {
        FreedMemory {
            after_last_trim: allocator::free_bytes(),
        }
    }
}

impl FreedMemory {
    /// Trims the heap if its free memory grew past the allowance; true when it did.
    pub fn look(&mut self) -> bool {
        let free = allocator::free_bytes();
        // Freed memory taken up again lowers the mark: the next burst counts from here.
        self.after_last_trim = self.after_last_trim.min(free);
        if free <= self.after_last_trim + GROWTH_KEPT {
            return false;
        }
        allocator::trim();
        self.after_last_trim = allocator::free_bytes();
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
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod allocator {
    pub fn free_bytes() -> usize {
        0
    }

    pub fn trim() {}
}
