//! Gives the memory a burst of work freed back to the system. glibc keeps what a thread
//! freed in that thread's arena: listing 10,000 AAS left the app process 28 MB larger
//! for good, all of it free and all of it returned by `malloc_trim` (bench/README.md,
//! "The app"). Other C libraries do not hoard like this, so elsewhere nothing is done.

use std::time::Duration;

/// How often the background thread looks at the heap.
const LOOK_EVERY: Duration = Duration::from_secs(2);
/// What the process may grow by, and the heap hold free, before it is trimmed.
const GROWTH_KEPT: usize = 8 << 20;

/// Watches the process's resident size, and trims the heap when it grew by more than
/// 8 MiB since it was last trimmed while the heap holds at least as much free. Growth
/// in resident size, not in free memory, says a burst happened: a burst that reuses
/// pages an earlier trim gave back leaves the free count where it was, if it came and
/// went between two looks, but the pages it touched stay resident.
#[derive(Debug)]
pub struct FreedMemory {
    resident_after_last_trim: usize,
}

impl Default for FreedMemory {
    fn default() -> Self {
        FreedMemory {
            resident_after_last_trim: allocator::resident_bytes(),
        }
    }
}

impl FreedMemory {
    /// Trims the heap if the process grew past the allowance and the heap holds that
    /// much free; true when it did.
    pub fn look(&mut self) -> bool {
        let resident = allocator::resident_bytes();
        // The process shrank meanwhile: the next burst counts from there.
        self.resident_after_last_trim = self.resident_after_last_trim.min(resident);
        if resident <= self.resident_after_last_trim + GROWTH_KEPT
            || allocator::free_bytes() < GROWTH_KEPT
        {
            return false;
        }
        allocator::trim();
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
