//! `ttt solve`: a game past 16 cells solved tier by tier into the cache folder, where
//! [`Oracle::of`](crate::Oracle::of) finds it (see `table/disk.rs` for the file).
//!
//! Each tier, once solved, is written as its own checked file in `GAME.tiers/` beside the
//! table, replacing nothing until it is whole (`output.rs` writes it to an unnamed temporary
//! file first). A solve stopped by Ctrl-C or a kill starts again from the lowest tier it
//! finished. When tier 0 is done the tiers are copied, checked again, into `GAME.table`, put
//! in place the same way, and the tier files removed. Nothing half-written is ever read.
//!
//! One solve of a game writes into a folder at a time: a solve holds `GAME.lock` there locked
//! (`flock`) from its first write to its last, and a second solve of the same game into the
//! same folder waits for the lock, then finds the table made and keeps it. The kernel drops
//! the lock when its process ends, however it ends, so a killed solve leaves none behind.
//!
//! At each of those paths only a regular file is read or replaced: a symbolic link, a FIFO
//! or a device there is refused, never followed, opened or written through (see `open_file`
//! in `table/disk.rs`; a file is put in place by a rename, which replaces the name, not what
//! it points to).

use std::cell::Cell;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::game::{Game, MAX_TABLE_CELLS};
use crate::memory::Size;
use crate::output::WriteError;
use crate::table::disk;
use crate::tiers::solve::{Sample, solve_tier};
use crate::tiers::{MAX_TIER_CELLS, Phase, Step, Tiers, tier_sizes};
use crate::value::Entry;

pub use crate::table::disk::{HEADER_BYTES, Header, cache_dir, checksum, set_cache_dir};

/// What a solve of a game holds: memory at its peak and disk at its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The game.
    pub game: Game,
    /// Entries (bytes) per tier, from the empty board.
    pub tiers: Vec<u64>,
    /// The table's size in bytes.
    pub table_bytes: u64,
    /// Memory at the peak: the layout's lookups and two tiers.
    pub memory_bytes: u64,
    /// Disk at the peak, while the tiers are copied into the table: both.
    pub disk_bytes: u64,
}

impl Plan {
    /// What solving `game` takes.
    pub fn of(game: Game) -> Plan {
        let tiers: Vec<u64> = tier_sizes(game)
            .into_iter()
            .map(|n| u64::try_from(n).unwrap_or(u64::MAX))
            .collect();
        let table_bytes = tiers.iter().sum::<u64>() + HEADER_BYTES as u64;
        let pairs = tiers
            .windows(2)
            .map(|w| w[0] + w[1])
            .max()
            .unwrap_or(tiers[0]);
        let layout = (4u64 << game.cells()) + ((1u64 << game.cells()) >> 3);
        let tier_files = (tiers.len() * HEADER_BYTES) as u64 + table_bytes;
        Plan {
            game,
            tiers,
            table_bytes,
            memory_bytes: layout + pairs,
            disk_bytes: table_bytes + tier_files,
        }
    }

    /// How long the solve would take on the current rayon pool, measured now: the game laid
    /// out (as the solve does first), then blocks spread evenly over every tier solved on the
    /// pool, more of them until their processor time is the tier's share of `budget` (the
    /// sampling takes about `budget` of processor time, one and a half times that with the
    /// rounds that grow to it), and each tier's processor time scaled by its blocks. Time is
    /// then what the process had of the processors while sampling (its processor time over its
    /// time), so that a machine busy with other work at that moment gives a longer estimate,
    /// while a sample cut short by the scheduler does not pass for a slow tier.
    ///
    /// The samples are solved against a stand-in for the next tier that stops at the same
    /// winning moves (see `tiers/solve.rs`), so they do the same work, but their reads stay in
    /// the cache; the writing of the tiers and the table is left out. An estimate: a machine
    /// busier or idler later solves slower or faster.
    ///
    /// # Panics
    ///
    /// If the game has more than [`MAX_TIER_CELLS`] cells.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use ttt_oracle::cache::Plan;
    ///
    /// let plan = Plan::of("3x6k4".parse()?);
    /// let estimate = plan.estimate(Duration::from_millis(50));
    /// assert_eq!(estimate.tiers.len(), plan.tiers.len());
    /// assert!(estimate.total() > estimate.layout && estimate.sampled > 0);
    /// # Ok::<(), ttt_oracle::GameError>(())
    /// ```
    pub fn estimate(&self, budget: Duration) -> Estimate {
        let start = Instant::now();
        let tiers = Tiers::new(self.game);
        let layout = start.elapsed();
        let share = budget / self.tiers.len() as u32;
        let threads = rayon::current_num_threads();
        let (mut sampled, mut elapsed, mut processor) = (0, Duration::ZERO, Duration::ZERO);
        let work: Vec<Duration> = (0..self.tiers.len())
            .map(|t| {
                let sample = Sample::new(&tiers, t);
                let blocks = sample.blocks();
                let mut count = blocks.min(4 * threads);
                loop {
                    let round = sample.round(count);
                    let (began, used) = (Instant::now(), processor_time());
                    let entries = round.solve();
                    let took = processor_time().saturating_sub(used);
                    elapsed += began.elapsed();
                    processor += took;
                    if count == blocks || took >= share {
                        sampled += entries;
                        return took.mul_f64(blocks as f64 / count as f64);
                    }
                    // Towards the share, at most 8 times as many at once.
                    let towards = share.as_secs_f64() / took.as_secs_f64().max(1e-6);
                    count = blocks.min((count as f64 * towards.clamp(2.0, 8.0)) as usize);
                }
            })
            .collect();
        // The processors the sampling had, at least a hundredth of one.
        let had = processor.as_secs_f64() / elapsed.as_secs_f64().max(1e-9);
        let had = had.clamp(0.01, threads as f64);
        Estimate {
            tiers: work.iter().map(|work| work.div_f64(had)).collect(),
            layout,
            sampled,
            processors: had,
            took: start.elapsed(),
            threads,
        }
    }
}

/// The processor time this process has had, all its threads together.
fn processor_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given, and nothing else.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// How long a solve would take, from [`Plan::estimate`]: measured on this machine at one
/// moment, and scaled.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Per tier, from the empty board: how long solving it would take.
    pub tiers: Vec<Duration>,
    /// How long laying out the game took (measured whole, not sampled).
    pub layout: Duration,
    /// Entries solved to measure it.
    pub sampled: u64,
    /// The processors the process had while sampling: its processor time over its time (up to
    /// its threads; less when other work on the machine took its share).
    pub processors: f64,
    /// How long measuring took, the layout included.
    pub took: Duration,
    /// The threads it was measured on: those of the rayon pool it ran on.
    pub threads: usize,
}

impl Estimate {
    /// How long the whole solve would take: the layout and every tier.
    pub fn total(&self) -> Duration {
        self.layout + self.tiers.iter().sum::<Duration>()
    }
}

/// Why a solve did not happen or did not finish.
#[derive(Debug)]
pub enum SolveError {
    /// A game of at most 16 cells has its table already (embedded or solved when used), or
    /// the game is past what a tiered solve takes.
    NotForThisGame(Game),
    /// The solve would pass the memory limit: refused before it starts.
    OverMemory {
        /// What it needs.
        plan: Plan,
        /// The limit, or the memory available.
        limit: u64,
    },
    /// The cache folder's file system has too little room: refused before it starts.
    OverDisk {
        /// What it needs.
        plan: Plan,
        /// The bytes free there.
        free: u64,
        /// The folder.
        dir: PathBuf,
    },
    /// A file in the cache folder cannot be read: this user may not read it, or something
    /// other than a regular file is at its path (refused before anything is written).
    Unreadable(disk::CacheError),
    /// A file could not be written.
    Write(WriteError),
    /// The cache folder could not be made or read.
    Folder(PathBuf, io::Error),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::NotForThisGame(game) if game.cells() <= MAX_TABLE_CELLS => write!(
                f,
                "game {game} has {} cells: its table is embedded or solved when used; \
                 `ttt solve` is for games of 17 to {MAX_TIER_CELLS} cells",
                game.cells()
            ),
            SolveError::NotForThisGame(game) => write!(
                f,
                "game {game} has {} cells; `ttt solve` takes games of at most \
                 {MAX_TIER_CELLS} cells",
                game.cells()
            ),
            SolveError::OverMemory { plan, limit } => write!(
                f,
                "solving game {} holds {} at its peak (two tiers of its {} table), over the \
                 {} allowed; raise --max-memory if the machine has more",
                plan.game,
                Size(plan.memory_bytes),
                Size(plan.table_bytes),
                Size(*limit)
            ),
            SolveError::OverDisk { plan, free, dir } => write!(
                f,
                "solving game {} writes up to {} (a {} table and its tiers) but {} has {} \
                 free; use --cache-dir for a folder with room",
                plan.game,
                Size(plan.disk_bytes),
                Size(plan.table_bytes),
                dir.display(),
                Size(*free)
            ),
            SolveError::Unreadable(error) => error.fmt(f),
            SolveError::Write(error) => error.fmt(f),
            SolveError::Folder(dir, error) => {
                write!(f, "cannot use the cache folder {}: {error}", dir.display())
            }
        }
    }
}

impl std::error::Error for SolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SolveError::Write(error) => Some(error),
            SolveError::Folder(_, error) => Some(error),
            _ => None,
        }
    }
}

impl From<WriteError> for SolveError {
    fn from(error: WriteError) -> SolveError {
        SolveError::Write(error)
    }
}

/// How a solve ended.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The table.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// The lowest tier found solved from an earlier run, if the solve went on from one.
    pub resumed_at: Option<usize>,
    /// Whether the table was there already, checked, and nothing was solved.
    pub already: bool,
}

/// Solves `game` into `dir` (made if missing), calling `step` as the solve begins and after
/// each piece of a tier (see [`Step`]); goes on from the tiers an earlier run finished. A
/// table there already, checked, is kept; a damaged one is solved again. When another process
/// is solving the same game into `dir`, calls `waiting` with the lock file it holds, waits for
/// it to end, and then keeps its table.
///
/// # Errors
///
/// [`SolveError`]: the game is not for a tiered solve; memory or disk cannot hold it, or a
/// file of the cache folder cannot be read or is not a regular file (refused before anything
/// is written); a file cannot be written.
pub fn solve_into(
    dir: &Path,
    game: Game,
    step: &dyn Fn(Step),
    waiting: &dyn Fn(&Path),
) -> Result<Solved, SolveError> {
    if game.cells() <= MAX_TABLE_CELLS || game.cells() > MAX_TIER_CELLS {
        return Err(SolveError::NotForThisGame(game));
    }
    let path = disk::table_path(dir, game);
    // A table whole is kept, every tier checked, a damaged one solved again; one that cannot
    // be read, or no regular file, is the user's to look at: refused.
    let already = || match disk::DiskTable::open(&path, game) {
        Ok(table) if table.check_every_tier().is_ok() => Ok(Some(Solved {
            bytes: table.size_bytes() as u64,
            path: path.clone(),
            resumed_at: None,
            already: true,
        })),
        Err(error @ (disk::CacheError::Unreadable(..) | disk::CacheError::InUse(..))) => {
            Err(SolveError::Unreadable(error))
        }
        Ok(_) | Err(_) => Ok(None),
    };
    if let Some(solved) = already()? {
        return Ok(solved);
    }
    let plan = Plan::of(game);
    let folder = dir.join(format!("{game}.tiers"));
    room_for(&plan, dir, kept_bytes(&folder, game))?;
    fs::create_dir_all(dir).map_err(|e| SolveError::Folder(dir.to_path_buf(), e))?;
    let _lock = SolveLock::take(dir, game, waiting)?;
    // The solve waited for may have made the table meanwhile.
    if let Some(solved) = already()? {
        return Ok(solved);
    }
    // The tiers' folder is this solve's: never one a link leads to, nor a file in its place.
    let kind = match fs::symlink_metadata(&folder) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            fs::create_dir_all(&folder).map_err(|e| SolveError::Folder(folder.clone(), e))?;
            fs::symlink_metadata(&folder)
        }
        found => found,
    }
    .map_err(|e| SolveError::Folder(folder.clone(), e))?
    .file_type();
    if kind.is_file() {
        let error = io::Error::other(
            "it is a file where a solve keeps its tiers, in a folder of that name: remove it",
        );
        return Err(unreadable(&folder, error));
    }
    if !kind.is_dir() {
        return Err(unreadable(&folder, disk::not_a_file(kind)));
    }
    let tiers = Tiers::new(game);
    let total: u64 = plan.tiers.iter().sum();
    let cells = game.cells();
    let (mut next, resumed_at) = match resume(&folder, game, &plan.tiers)? {
        Some((t, entries)) => (entries, Some(t)),
        None => (Vec::new(), None),
    };
    let first = resumed_at.unwrap_or(cells + 1);
    let done = Cell::new(plan.tiers[first.min(cells + 1)..].iter().sum::<u64>());
    let at = |tier: usize| Step {
        phase: Phase::Solve,
        tier,
        done: done.get(),
        total,
    };
    step(at(first.min(cells)));
    for t in (0..first).rev() {
        let mut out = vec![0 as Entry; plan.tiers[t] as usize];
        solve_tier(&tiers, t, &next, &mut out, &|solved| {
            done.set(done.get() + solved);
            step(at(t));
        });
        write_tier(&folder, game, t, &out)?;
        next = out;
    }
    drop(next);
    assemble(&folder, &path, game, &plan)?;
    let _ = fs::remove_dir_all(&folder);
    Ok(Solved {
        bytes: plan.table_bytes,
        path,
        resumed_at,
        already: false,
    })
}

/// `GAME.lock` in the cache folder, held locked while a solve writes there; unlocked when
/// dropped, or by the kernel when the process ends.
struct SolveLock {
    /// Kept open: closing it unlocks.
    _file: fs::File,
}

impl SolveLock {
    /// Locks `GAME.lock` in `dir`, first calling `waiting` and waiting if another process
    /// holds it.
    fn take(dir: &Path, game: Game, waiting: &dyn Fn(&Path)) -> Result<SolveLock, SolveError> {
        use std::os::fd::AsRawFd;
        let path = dir.join(format!("{game}.lock"));
        let failed = |error: io::Error| SolveError::Folder(path.clone(), error);
        let mut options = fs::OpenOptions::new();
        options.create(true).truncate(false).write(true);
        let file = disk::open_file(&path, &mut options).map_err(|error| match error.kind() {
            io::ErrorKind::InvalidInput => unreadable(&path, error),
            _ => failed(error),
        })?;
        let fd = file.as_raw_fd();
        // SAFETY: flock on a descriptor this function owns.
        if unsafe { libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(SolveLock { _file: file });
        }
        let error = io::Error::last_os_error();
        if error.raw_os_error() != Some(libc::EWOULDBLOCK) {
            return Err(failed(error));
        }
        waiting(&path);
        loop {
            // SAFETY: as above; blocks until the other process unlocks or ends.
            if unsafe { libc::flock(fd, libc::LOCK_EX) } == 0 {
                return Ok(SolveLock { _file: file });
            }
            let error = io::Error::last_os_error();
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(failed(error));
            }
        }
    }
}

/// Refuses a solve that memory or the disk cannot hold, the disk less the `kept` bytes of
/// tiers an earlier run wrote, which it needs no room for again.
fn room_for(plan: &Plan, dir: &Path, kept: u64) -> Result<(), SolveError> {
    let limit = crate::memory::limit().or_else(crate::memory::available);
    if let Some(limit) = limit
        && crate::memory::in_use().saturating_add(plan.memory_bytes) > limit
    {
        return Err(SolveError::OverMemory {
            plan: plan.clone(),
            limit,
        });
    }
    // The nearest folder that exists says which file system the table goes to.
    let existing = dir.ancestors().find(|d| d.exists()).unwrap_or(dir);
    if let Some(free) = free_bytes(existing)
        && free < plan.disk_bytes.saturating_sub(kept)
    {
        return Err(SolveError::OverDisk {
            plan: plan.clone(),
            free,
            dir: dir.to_path_buf(),
        });
    }
    Ok(())
}

/// The bytes an unprivileged process may still write on the file system of `dir`.
fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    let mut stats: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a struct statvfs to fill.
    if unsafe { libc::statvfs(name.as_ptr(), &mut stats) } != 0 {
        return None;
    }
    Some(stats.f_bavail as u64 * stats.f_frsize as u64)
}

fn tier_path(folder: &Path, t: usize) -> PathBuf {
    folder.join(format!("tier-{t:02}.bin"))
}

/// The bytes of the tier files an earlier run left in `folder` (regular files only: what a
/// resume keeps, at most).
fn kept_bytes(folder: &Path, game: Game) -> u64 {
    (0..=game.cells())
        .filter_map(|t| fs::symlink_metadata(tier_path(folder, t)).ok())
        .filter(fs::Metadata::is_file)
        .map(|metadata| metadata.len())
        .sum()
}

/// The error for a file of the cache folder that cannot be read or is no regular file.
fn unreadable(path: &Path, error: io::Error) -> SolveError {
    SolveError::Unreadable(disk::CacheError::Unreadable(
        path.to_path_buf(),
        error.to_string(),
    ))
}

fn write_tier(folder: &Path, game: Game, t: usize, entries: &[Entry]) -> Result<(), SolveError> {
    let header = Header {
        game,
        first: t,
        tiers: vec![(entries.len() as u64, checksum(entries))],
    };
    crate::output::replace_file(&tier_path(folder, t))?
        .write(|out| {
            out.write_all(&header.encode())?;
            out.write_all(entries)
        })
        .map_err(SolveError::from)
}

/// Tier `t` read back from its file and checked; `None` when it is missing or damaged.
///
/// # Errors
///
/// When something is at its path that cannot be read, or is no regular file.
fn read_tier(
    folder: &Path,
    game: Game,
    t: usize,
    size: u64,
) -> Result<Option<Vec<Entry>>, SolveError> {
    let path = tier_path(folder, t);
    let mut file = match disk::open_file(&path, fs::OpenOptions::new().read(true)) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(unreadable(&path, error)),
    };
    let mut bytes = Vec::new();
    if io::Read::read_to_end(&mut file, &mut bytes).is_err() {
        return Ok(None);
    }
    Ok(checked_tier(bytes, game, t, size))
}

/// The entries of a tier file's `bytes`, if its header and checksum say they are tier `t`.
fn checked_tier(mut bytes: Vec<u8>, game: Game, t: usize, size: u64) -> Option<Vec<Entry>> {
    let header = Header::decode(&bytes)?;
    let expected = Header {
        game,
        first: t,
        tiers: vec![(size, header.tiers.first()?.1)],
    };
    let entries = bytes.get(HEADER_BYTES..)?;
    if header != expected
        || entries.len() as u64 != size
        || checksum(entries) != expected.tiers[0].1
    {
        return None;
    }
    bytes.drain(..HEADER_BYTES);
    Some(bytes)
}

/// The lowest tier an earlier run finished, with every tier above it there too, read back
/// and checked. The tiers above are checked again when the table is assembled.
fn resume(
    folder: &Path,
    game: Game,
    sizes: &[u64],
) -> Result<Option<(usize, Vec<Entry>)>, SolveError> {
    let cells = game.cells();
    let present = |t: usize| fs::symlink_metadata(tier_path(folder, t)).is_ok();
    let mut lowest = cells + 1;
    while lowest > 0 && present(lowest - 1) {
        lowest -= 1;
    }
    // A damaged file (it cannot be half-written, but a disk can fail) is solved again.
    for (t, &size) in sizes.iter().enumerate().skip(lowest) {
        if let Some(entries) = read_tier(folder, game, t, size)? {
            return Ok(Some((t, entries)));
        }
    }
    Ok(None)
}

/// Copies the tiers into the table, checking each again, and puts it in place.
fn assemble(folder: &Path, path: &Path, game: Game, plan: &Plan) -> Result<(), SolveError> {
    let sums: Vec<(u64, u64)> = plan
        .tiers
        .iter()
        .enumerate()
        .map(|(t, &size)| {
            let entries = read_tier(folder, game, t, size)?.ok_or_else(|| {
                let error = io::Error::other(format!("tier {t} is missing or damaged"));
                SolveError::Folder(folder.to_path_buf(), error)
            })?;
            Ok((size, checksum(&entries)))
        })
        .collect::<Result<_, SolveError>>()?;
    let header = Header {
        game,
        first: 0,
        tiers: sums.clone(),
    };
    crate::output::replace_file(path)?.write(|out| {
        out.write_all(&header.encode())?;
        for (t, &(size, sum)) in sums.iter().enumerate() {
            let entries = read_tier(folder, game, t, size)
                .ok()
                .flatten()
                .filter(|entries| checksum(entries) == sum)
                .ok_or_else(|| io::Error::other(format!("tier {t} changed while copied")))?;
            out.write_all(&entries)?;
        }
        Ok(())
    })?;
    Ok(())
}
