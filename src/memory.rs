//! The memory a command may hold: a counting allocator, the limit that work which grows keeps
//! to, and the check it makes at the points where it grows.
//!
//! A program installs [`Counting`] as its global allocator (the `ttt` binary does) and sets a
//! limit with [`set_limit`]; the walks, solves and exports then call [`check`] where they
//! count the states, histories or positions they hold, and stop with [`OverMemory`] before the
//! memory in use passes the limit. Without the counting allocator nothing is counted and
//! [`check`] never fails. The allocator itself refuses an allocation (the program then
//! aborts) only as a last resort, past twice the limit and [`SPARE`] more: the checks come
//! first.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes allocated through [`Counting`] and not yet freed.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The limit [`check`] holds to; `usize::MAX` for none.
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
/// Where [`Counting`] refuses to allocate: twice the limit and [`SPARE`] more.
static REFUSE: AtomicUsize = AtomicUsize::new(usize::MAX);

/// The system's allocator, counting the bytes it holds for [`check`].
///
/// # Examples
///
/// ```
/// #[global_allocator]
/// static ALLOCATOR: ttt_oracle::memory::Counting = ttt_oracle::memory::Counting;
///
/// let held = vec![0u8; 1 << 20];
/// assert!(ttt_oracle::memory::in_use() >= held.len() as u64);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Counting;

/// Counts `size` more bytes, unless that passes the last resort.
fn reserve(size: usize) -> bool {
    let before = LIVE.fetch_add(size, Ordering::Relaxed);
    if before.saturating_add(size) > REFUSE.load(Ordering::Relaxed) {
        LIVE.fetch_sub(size, Ordering::Relaxed);
        return false;
    }
    true
}

fn release(size: usize) {
    LIVE.fetch_sub(size, Ordering::Relaxed);
}

// SAFETY: every call is passed on to `System` unchanged; the counting around it touches only
// atomics and never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !reserve(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc(layout) };
        if block.is_null() {
            release(layout.size());
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !reserve(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc_zeroed(layout) };
        if block.is_null() {
            release(layout.size());
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(block, layout) };
        release(layout.size());
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old && !reserve(new_size - old) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract, passed on.
        let moved = unsafe { System.realloc(block, layout, new_size) };
        match (moved.is_null(), new_size > old) {
            (true, true) => release(new_size - old),
            (false, false) => release(old - new_size),
            _ => {}
        }
        moved
    }
}

/// The bytes held now through [`Counting`]; 0 when it is not the global allocator.
pub fn in_use() -> u64 {
    LIVE.load(Ordering::Relaxed) as u64
}

/// What [`Counting`] allows past twice the limit before it refuses, so that a small limit
/// stops a command at a check, never by an abort, even in what it holds from the start (the
/// tables, the arguments) before its first check.
pub const SPARE: u64 = 64 << 20;

/// Sets the limit [`check`] holds to, `None` for none. The allocator refuses past twice the
/// limit and [`SPARE`] more.
pub fn set_limit(bytes: Option<u64>) {
    let limit = bytes.map_or(usize::MAX, |b| usize::try_from(b).unwrap_or(usize::MAX));
    LIMIT.store(limit, Ordering::Relaxed);
    let refuse = limit.saturating_mul(2).saturating_add(SPARE as usize);
    REFUSE.store(refuse, Ordering::Relaxed);
}

/// The limit [`check`] holds to, if one is set.
pub fn limit() -> Option<u64> {
    match LIMIT.load(Ordering::Relaxed) {
        usize::MAX => None,
        limit => Some(limit as u64),
    }
}

/// Whether `bytes` more would still be within the limit, beside what is in use: for work
/// whose memory is known before it starts (a table's solve).
///
/// # Errors
///
/// [`OverMemory`] when they would not.
pub fn room_for(bytes: u64) -> Result<(), OverMemory> {
    match limit() {
        Some(limit) if in_use().saturating_add(bytes) > limit => Err(OverMemory { limit }),
        _ => Ok(()),
    }
}

/// Whether the memory in use is still within the limit: the check of every point where work
/// grows.
///
/// # Errors
///
/// [`OverMemory`] once the memory in use has passed the limit.
///
/// # Examples
///
/// ```
/// // With no limit set (or no counting allocator), the check always passes.
/// assert!(ttt_oracle::memory::check().is_ok());
/// ```
#[inline]
pub fn check() -> Result<(), OverMemory> {
    let limit = LIMIT.load(Ordering::Relaxed);
    if LIVE.load(Ordering::Relaxed) > limit {
        return Err(OverMemory {
            limit: limit as u64,
        });
    }
    Ok(())
}

/// The memory in use passed the limit set with [`set_limit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverMemory {
    /// The limit, in bytes.
    pub limit: u64,
}

/// "it would use more than the memory limit, 512 MiB"
impl fmt::Display for OverMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "it would use more than the memory limit, {}",
            Size(self.limit)
        )
    }
}

impl std::error::Error for OverMemory {}

/// A number of bytes as people read it, in binary units: `512 MiB`, `1.5 GiB`, `300 KiB`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size(pub u64);

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
        let mut unit = 0;
        while unit + 1 < UNITS.len() && self.0 >= 1 << (10 * (unit + 1)) {
            unit += 1;
        }
        if unit == 0 {
            return write!(f, "{} bytes", self.0);
        }
        let scale = 1u64 << (10 * unit);
        // One decimal where it is not whole: 1.5 GiB, 512 MiB.
        let tenths = (u128::from(self.0) * 10 / u128::from(scale)) as u64;
        match tenths % 10 {
            0 => write!(f, "{} {}", tenths / 10, UNITS[unit]),
            d => write!(f, "{}.{d} {}", tenths / 10, UNITS[unit]),
        }
    }
}

/// The memory this process may still take, as the system tells it: the least of the room left
/// in its cgroup (`memory.max`, or `memory.limit_in_bytes` in cgroup v1, less what the group
/// holds beyond the cache it can drop), the system's `MemAvailable`, and the room left under
/// `RLIMIT_AS` (`ulimit -v`) beside the address space already mapped. `None` where none of
/// them can be read.
pub fn available() -> Option<u64> {
    [cgroup_room(), mem_available(), address_space_room()]
        .into_iter()
        .flatten()
        .min()
}

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// A value of a `/proc` file given in kB, such as `MemAvailable:  123 kB`.
fn kilobytes(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|line| line.starts_with(key))?;
    let number = line[key.len()..].trim().trim_end_matches("kB").trim();
    number.parse::<u64>().ok()?.checked_mul(1024)
}

fn mem_available() -> Option<u64> {
    kilobytes(&read("/proc/meminfo")?, "MemAvailable:")
}

/// The room left in this process's cgroup, v2 or v1.
fn cgroup_room() -> Option<u64> {
    let groups = read("/proc/self/cgroup")?;
    let mut rooms = Vec::new();
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let (base, limit, usage, inactive) = if controllers.is_empty() {
            (
                "/sys/fs/cgroup",
                "memory.max",
                "memory.current",
                "inactive_file ",
            )
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                "/sys/fs/cgroup/memory",
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
                "total_inactive_file ",
            )
        } else {
            continue;
        };
        // Inside a container the group's own directory is often the mount's root.
        for dir in [format!("{base}{path}"), base.to_string()] {
            let Some(max) = read(&format!("{dir}/{limit}")) else {
                continue;
            };
            // "max", or v1's page-rounded i64::MAX, means no limit.
            let Some(max) = max.trim().parse::<u64>().ok().filter(|&m| m < 1 << 60) else {
                break;
            };
            let used: u64 = read(&format!("{dir}/{usage}"))
                .and_then(|u| u.trim().parse().ok())
                .unwrap_or(0);
            let droppable = read(&format!("{dir}/memory.stat"))
                .and_then(|stat| {
                    let line = stat.lines().find(|l| l.starts_with(inactive))?;
                    line[inactive.len()..].trim().parse::<u64>().ok()
                })
                .unwrap_or(0);
            rooms.push(max.saturating_sub(used.saturating_sub(droppable)));
            break;
        }
    }
    rooms.into_iter().min()
}

#[cfg(unix)]
fn address_space_room() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the limit into `limit`, a valid rlimit.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
        || limit.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let mapped = kilobytes(&read("/proc/self/status")?, "VmSize:").unwrap_or(0);
    // rlim_t is u64 on Linux, and may be narrower elsewhere.
    #[allow(clippy::unnecessary_cast)]
    let limit = limit.rlim_cur as u64;
    Some(limit.saturating_sub(mapped))
}

#[cfg(not(unix))]
fn address_space_room() -> Option<u64> {
    None
}

/// Makes the address space this process maps follow the memory it holds, where `ulimit -v`
/// bounds it: glibc's allocator gives each thread that allocates an arena of its own and
/// reserves 64 MiB of address space for each (7 threads took 420 MiB before holding 10), so
/// under `RLIMIT_AS` every thread shares one arena. Nothing changes without that limit, or on
/// another allocator.
pub fn fit_address_space() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if address_space_room().is_some() {
        // SAFETY: mallopt only sets a parameter of the allocator; called before the threads
        // that would take arenas start.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }
}

/// The share of [`available`] memory a command keeps to when no limit is given: a half. The
/// other half is room for what the counting does not see (thread stacks, the binary's own
/// mapping, the allocator's spare pages) and for a table that doubles between two checks.
pub const DEFAULT_SHARE: (u64, u64) = (1, 2);

/// The limit a command keeps to when no limit is given: [`DEFAULT_SHARE`] of what is
/// [`available`], beside what it already holds; `None` where nothing can be read.
pub fn default_limit() -> Option<u64> {
    let (numerator, denominator) = DEFAULT_SHARE;
    available().map(|room| in_use() + room / denominator * numerator)
}

/// Asks the kernel to back `buffer` with huge pages (2 MB on x86_64) where the system leaves
/// that to each program (`madvise` in `/sys/kernel/mm/transparent_hugepage/enabled`): a large
/// array read at random addresses then misses the address cache (TLB) far less, and filling
/// it takes a page fault every 2 MB rather than every 4 KB. Only the whole pages inside
/// `buffer` are advised; a system that refuses changes nothing. Only for an array read at
/// random: advising every large block (the walks' lists, filled in order) tried at 8 MB made an
/// audit of 4x4 half again slower, the kernel's time tripled.
pub(crate) fn huge_pages<T>(buffer: &mut [T]) {
    // A smaller buffer holds no whole huge page: advising it would only split its mapping.
    if std::mem::size_of_val(buffer) >= 4 << 20 {
        advise(buffer.as_mut_ptr().cast(), std::mem::size_of_val(buffer));
    }
}

#[cfg(target_os = "linux")]
fn advise(block: *mut u8, size: usize) {
    const PAGE: usize = 4096;
    let start = block as usize;
    let end = start.saturating_add(size);
    let first = start.next_multiple_of(PAGE);
    if end <= first {
        return;
    }
    let length = (end - first) / PAGE * PAGE;
    // SAFETY: the range lies inside a block the caller holds, and is page-aligned;
    // MADV_HUGEPAGE changes how its pages are backed, never their contents.
    unsafe {
        libc::madvise(first as *mut libc::c_void, length, libc::MADV_HUGEPAGE);
    }
}

/// Huge pages are a Linux kernel's.
#[cfg(not(target_os = "linux"))]
fn advise(_: *mut u8, _: usize) {}

/// Asks the processor to bring `value` into its cache, without waiting for it.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE, which the prefetch instruction belongs to, is part of every x86_64
    // processor, and a prefetch neither reads into the program nor faults.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
