//! Tables of games past 16 cells, solved by `ttt solve` into a cache folder and read back
//! memory-mapped: a probe is one read at an offset the board's rank gives.
//!
//! A file is a header of [`HEADER_BYTES`] then the tiers' entries, each tier starting where
//! the last ended. The header holds the magic bytes, the format version, the game, and per
//! tier its length and checksum; its own checksum ends it. Opening a table checks what costs
//! nothing to check: the header, its checksum, each tier's length and the file's. A tier's
//! checksum is checked the first time a read reaches the tier, once per process, so that a
//! question reads only the tiers it needs, however large the file; a tier that fails is
//! damaged, and nothing is answered from it ([`DiskTable`] says what happens instead).
//! `ttt verify` checks every tier, as Syzygy's `tbcheck` does for its tables, and so do audits
//! and matches before they start, as they read most of them.
//!
//! Every file of the cache folder (tables, tiers, locks) is opened by [`open_file`]: never
//! through a symbolic link, never blocking on a FIFO, and only a regular file, its type read
//! from the opened descriptor. A table is replaced by a rename only, never written in place;
//! a program that writes into one while `ttt` reads it stops `ttt` (`guard.rs`).
//!
//! The same header, with one tier, makes the files of tiers solved so far, which let a solve
//! stopped half-way go on where it stopped.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

#[cfg(not(target_family = "wasm"))]
use memmap2::Mmap;
/// Where processes have no files to map (WebAssembly), a table is read whole, if the host has
/// files at all (std's for `wasm32-unknown-unknown` has none: every open fails).
#[cfg(target_family = "wasm")]
type Mmap = Vec<u8>;

use crate::board::{Cell, Cells};
use crate::game::Game;
use crate::position::Position;
use crate::tiers::Tiers;
use crate::value::{MoveValue, Probe, Value, move_rank, unentry};

/// The bytes before the first entry.
pub const HEADER_BYTES: usize = 4096;

/// What a table file starts with.
pub const MAGIC: &[u8; 8] = b"TTTTIERS";

/// The layout version: a file of another is not read (solve the game again).
pub const VERSION: u32 = 1;

/// A table's header: the game, and each tier's length and checksum, from `first`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game solved.
    pub game: Game,
    /// The first tier the file holds: 0 for a whole table.
    pub first: usize,
    /// Per tier held, its entries and their [`checksum`].
    pub tiers: Vec<(u64, u64)>,
}

impl Header {
    /// The header as stored: [`HEADER_BYTES`] bytes (what `ttt solve` writes: not on
    /// WebAssembly, which writes no files).
    #[cfg(not(target_family = "wasm"))]
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER_BYTES);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        let game = &self.game;
        bytes.extend_from_slice(&[game.rows() as u8, game.columns() as u8, game.k() as u8]);
        bytes.push(self.first as u8);
        bytes.extend_from_slice(&(self.tiers.len() as u32).to_le_bytes());
        for (len, sum) in &self.tiers {
            bytes.extend_from_slice(&len.to_le_bytes());
            bytes.extend_from_slice(&sum.to_le_bytes());
        }
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes.resize(HEADER_BYTES, 0);
        bytes
    }

    /// The header at the start of `bytes`, checked; `None` when it is too short, not a table,
    /// of another version or its checksum does not match (what `ttt solve` reads its tier files
    /// with: not on WebAssembly).
    #[cfg(not(target_family = "wasm"))]
    pub fn decode(bytes: &[u8]) -> Option<Header> {
        Header::read(bytes).ok()
    }

    /// [`Header::decode`], saying in words what is wrong.
    pub(crate) fn read(bytes: &[u8]) -> Result<Header, String> {
        if bytes.len() < HEADER_BYTES {
            return Err(format!("{} bytes, shorter than a header", bytes.len()));
        }
        if &bytes[..8] != MAGIC {
            return Err("not a ttt table (wrong magic bytes)".to_string());
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let long = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let version = word(8);
        if version != VERSION {
            return Err(format!(
                "format version {version}, this ttt reads {VERSION}"
            ));
        }
        let count = word(16) as usize;
        let end = 20 + 16 * count;
        if end + 8 > HEADER_BYTES {
            return Err(format!("{count} tiers, more than a header holds"));
        }
        if long(end) != checksum(&bytes[..end]) {
            return Err("the header's checksum does not match".to_string());
        }
        let (rows, columns, k) = (bytes[12], bytes[13], bytes[14]);
        let game = Game::new(rows.into(), columns.into(), k.into())
            .map_err(|error| format!("the header names no game: {error}"))?;
        let tiers = (0..count)
            .map(|i| (long(20 + 16 * i), long(28 + 16 * i)))
            .collect();
        Ok(Header {
            game,
            first: bytes[15].into(),
            tiers,
        })
    }
}

/// A 64-bit checksum of `bytes`: four lanes of multiply-rotate over 8-byte words, folded.
/// Not cryptographic: it finds a damaged or truncated file, not a forged one.
pub fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut lanes = [1u64, 2, 3, 4];
    let mut chunks = bytes.chunks_exact(32);
    for chunk in &mut chunks {
        for (lane, word) in lanes.iter_mut().zip(chunk.chunks_exact(8)) {
            let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
            *lane = (*lane ^ word).wrapping_mul(PRIME).rotate_left(29);
        }
    }
    let mut sum = bytes.len() as u64;
    for lane in lanes {
        sum = (sum ^ lane).wrapping_mul(PRIME).rotate_left(31);
    }
    for &byte in chunks.remainder() {
        sum = (sum ^ u64::from(byte)).wrapping_mul(PRIME);
    }
    sum
}

/// The folder tables are cached in: `--cache-dir` when given (see [`set_cache_dir`]), else
/// `$XDG_CACHE_HOME/ttt-oracle`, else `~/.cache/ttt-oracle`; `None` with none of them.
pub fn cache_dir() -> Option<PathBuf> {
    if let Some(dir) = chosen().lock().unwrap_or_else(|p| p.into_inner()).clone() {
        return Some(dir);
    }
    let xdg = std::env::var_os("XDG_CACHE_HOME").filter(|dir| Path::new(dir).is_absolute());
    match xdg {
        Some(dir) => Some(PathBuf::from(dir).join("ttt-oracle")),
        None => std::env::var_os("HOME")
            .filter(|home| !home.is_empty())
            .map(|home| PathBuf::from(home).join(".cache").join("ttt-oracle")),
    }
}

fn chosen() -> &'static Mutex<Option<PathBuf>> {
    static CHOSEN: OnceLock<Mutex<Option<PathBuf>>> = OnceLock::new();
    CHOSEN.get_or_init(Mutex::default)
}

/// Sets the folder [`cache_dir`] gives (`--cache-dir`), for the rest of the process.
#[cfg(not(target_family = "wasm"))]
pub fn set_cache_dir(dir: PathBuf) {
    *chosen().lock().unwrap_or_else(|p| p.into_inner()) = Some(dir);
}

/// Where `game`'s table is in `dir`.
pub fn table_path(dir: &Path, game: Game) -> PathBuf {
    dir.join(format!("{game}.table"))
}

/// Why a cached table cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CacheError {
    /// There is no table file.
    Missing(PathBuf),
    /// Something is there that cannot be read: a file this user may not read, or no regular
    /// file at all (a symbolic link, a FIFO, a device, a folder), which is never opened.
    Unreadable(PathBuf, String),
    /// There is one, but another process has it open for writing: it may change while read.
    /// (WebAssembly has no other process to ask about.)
    #[cfg_attr(target_family = "wasm", allow(dead_code))]
    InUse(PathBuf),
    /// There is one, but it is damaged, truncated, of another version or another game.
    Damaged(PathBuf, String),
}

impl fmt::Display for CacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CacheError::Missing(path) => write!(f, "no table at {}", path.display()),
            CacheError::Unreadable(path, reason) => {
                write!(f, "cannot read {}: {reason}", path.display())
            }
            CacheError::InUse(path) => write!(
                f,
                "{} is open for writing in another process, so it may change while read: try \
                 again once that process has closed it",
                path.display()
            ),
            CacheError::Damaged(path, detail) => write!(f, "{}: {detail}", path.display()),
        }
    }
}

/// Opens the file at `path` in the cache folder with `options`, as every file there is
/// opened: never through a symbolic link at `path` (`O_NOFOLLOW`), never waiting on a FIFO
/// (`O_NONBLOCK`), and only a regular file, its type read from the descriptor opened (so that
/// nothing can be swapped in between a check and the open).
///
/// # Errors
///
/// The system's error (`NotFound` when there is nothing there); for anything but a regular
/// file, an error of kind `InvalidInput` saying what it is (see [`not_a_file`]).
#[cfg(unix)]
pub(crate) fn open_file(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let opened = options
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path);
    let file = match opened {
        Ok(file) => file,
        // ELOOP is a link at the end (O_NOFOLLOW); ENXIO a FIFO with no reader, opened to
        // write without waiting; EISDIR a folder, opened to write. What is there, read
        // without following, names it.
        Err(error)
            if matches!(
                error.raw_os_error(),
                Some(libc::ELOOP | libc::ENXIO | libc::EISDIR)
            ) =>
        {
            return Err(match std::fs::symlink_metadata(path) {
                Ok(metadata) if !metadata.is_file() => not_a_file(metadata.file_type()),
                _ => error,
            });
        }
        Err(error) => return Err(error),
    };
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(not_a_file(kind));
    }
    Ok(file)
}

/// Where processes have no files (WebAssembly), the open that fails there.
#[cfg(not(unix))]
pub(crate) fn open_file(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    options.open(path)
}

/// The error for something at a path of the cache folder that is not a regular file, of
/// kind `InvalidInput`, saying what it is. WebAssembly has no cache folder to find one in.
#[cfg_attr(target_family = "wasm", allow(dead_code))]
pub(crate) fn not_a_file(kind: std::fs::FileType) -> io::Error {
    #[cfg(unix)]
    use std::os::unix::fs::FileTypeExt;
    let what = if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a folder"
    } else {
        #[cfg(unix)]
        let special = if kind.is_fifo() {
            "a FIFO"
        } else if kind.is_char_device() {
            "a character device"
        } else if kind.is_block_device() {
            "a block device"
        } else if kind.is_socket() {
            "a socket"
        } else {
            "not a regular file"
        };
        #[cfg(not(unix))]
        let special = "not a regular file";
        special
    };
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "it is {what}, and ttt reads and writes only regular files in its cache folder, \
             never through anything else: remove it"
        ),
    )
}

/// A table read from the cache: the file mapped into memory, its header and lengths checked
/// when opened, each tier's checksum when a read first reaches the tier.
///
/// A probe cannot fail, so a tier that fails its check stops the read instead: in a program
/// that owns its process (the `ttt` binary, after [`crate::shutdown::install`]) the process
/// writes one line naming the table and the tier and ends with exit code 4, as it does when
/// the table changes under it; in a process that only links the library (Python, a test) the
/// read panics with the same message. Either way no answer comes from a tier not found whole.
/// What returns a `Result` ([`DiskTable::tier`], and through it stats and verify) returns
/// [`TableError::DamagedFile`](super::TableError::DamagedFile) instead.
pub struct DiskTable {
    tiers: Tiers,
    map: Mmap,
    /// Per tier, where it is in the file and whether it was found whole.
    parts: Vec<Part>,
    /// The file, named when a tier of it is damaged.
    path: PathBuf,
    /// What stops the process if another writes into the file (dropped before the file).
    #[cfg(not(target_family = "wasm"))]
    _guard: super::guard::Guard,
    /// Kept open: it holds the lease.
    _file: File,
}

/// Where a tier of a [`DiskTable`] is, and what is known of its bytes.
struct Part {
    /// Its entries: `map[start..end]`.
    start: usize,
    end: usize,
    /// Its checksum, as the header stores it.
    sum: u64,
    /// Whether its entries match `sum`: settled by the first read to reach the tier, while
    /// any other reader of it waits, then one atomic load a read.
    whole: OnceLock<bool>,
}

impl fmt::Debug for DiskTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DiskTable({})", self.tiers.game())
    }
}

impl DiskTable {
    /// Maps the table at `path` and checks what costs nothing to check: the header (magic,
    /// version, game, its checksum), each tier's length against the game's, and the file's.
    /// The tiers' checksums are checked as they are first read ([`DiskTable::tier`]).
    ///
    /// # Errors
    ///
    /// [`CacheError::Missing`] when there is no file, [`CacheError::Unreadable`] when it may
    /// not be read or is no regular file, [`CacheError::Damaged`] when it fails a check.
    pub fn open(path: &Path, game: Game) -> Result<DiskTable, CacheError> {
        let damaged = |detail: String| CacheError::Damaged(path.to_path_buf(), detail);
        let file = match open_file(path, OpenOptions::new().read(true)) {
            Ok(file) => file,
            // A cache folder that is a file holds no table either (a solve says why).
            Err(error)
                if matches!(
                    error.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                ) =>
            {
                return Err(CacheError::Missing(path.to_path_buf()));
            }
            Err(error) => {
                return Err(CacheError::Unreadable(
                    path.to_path_buf(),
                    error.to_string(),
                ));
            }
        };
        // Guarded before a byte is read: a change from now on stops the process, and one
        // made before is seen by the checks, of the header below and of each tier when it is
        // first read.
        #[cfg(not(target_family = "wasm"))]
        let guard = {
            use std::os::fd::AsRawFd;
            let message = format!(
                "error: the table of game {game} at {} was changed while ttt read it (opened \
                 for writing or truncated by another process); ttt stopped rather than answer \
                 from it (if it is damaged now, solve it again with `ttt solve --game {game}`)\n",
                path.display()
            );
            super::guard::Guard::take(file.as_raw_fd(), message)
                .map_err(|_| CacheError::InUse(path.to_path_buf()))?
        };
        // SAFETY: ttt replaces a table by a rename only, never in place, so only another
        // program can change the bytes mapped; the guard stops the process when one opens the
        // file for writing or truncates it (see guard.rs, and docs/scale.md for what remains).
        #[cfg(not(target_family = "wasm"))]
        let map = unsafe { Mmap::map(&file) }.map_err(|e| damaged(format!("cannot map: {e}")))?;
        #[cfg(not(target_family = "wasm"))]
        guard.mapped(&map);
        #[cfg(target_family = "wasm")]
        let map = {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut &file, &mut bytes)
                .map_err(|e| damaged(format!("cannot be read: {e}")))?;
            bytes
        };
        let header = Header::read(&map).map_err(damaged)?;
        if header.game != game || header.first != 0 {
            return Err(damaged(format!(
                "it holds game {}, not {game}",
                header.game
            )));
        }
        let tiers = Tiers::new(game);
        if header.tiers.len() != tiers.sizes().len() {
            return Err(damaged(format!(
                "{} tiers, not {}",
                header.tiers.len(),
                game.cells() + 1
            )));
        }
        let mut parts = Vec::with_capacity(header.tiers.len());
        let mut at = HEADER_BYTES;
        for (t, (&(len, sum), &size)) in header.tiers.iter().zip(tiers.sizes()).enumerate() {
            if len != size {
                return Err(damaged(format!("tier {t} holds {len} entries, not {size}")));
            }
            let end = at.saturating_add(len as usize);
            if end > map.len() {
                return Err(damaged(format!("truncated in tier {t}")));
            }
            parts.push(Part {
                start: at,
                end,
                sum,
                whole: OnceLock::new(),
            });
            at = end;
        }
        if at != map.len() {
            return Err(damaged(format!(
                "{} bytes after the last tier",
                map.len() - at
            )));
        }
        Ok(DiskTable {
            tiers,
            map,
            parts,
            path: path.to_path_buf(),
            #[cfg(not(target_family = "wasm"))]
            _guard: guard,
            _file: file,
        })
    }

    /// The game solved.
    pub fn game(&self) -> Game {
        self.tiers.game()
    }

    /// The layout of the game's tiers.
    pub fn tiers(&self) -> &Tiers {
        &self.tiers
    }

    /// The entries of tier `t` as stored, checked against the tier's checksum the first time
    /// any read reaches the tier (concurrent first readers wait for one check).
    ///
    /// # Errors
    ///
    /// [`TableError::DamagedFile`](super::TableError::DamagedFile) when the tier does not
    /// match its checksum.
    #[inline]
    pub fn tier(&self, t: usize) -> Result<&[u8], super::TableError> {
        let part = &self.parts[t];
        match self.is_whole(part) {
            true => Ok(self.stored(part)),
            false => Err(self.damaged(t)),
        }
    }

    /// Checks every tier no read has checked yet, as a first read would: for the walks that
    /// read most of a table and whose bots' panics are forfeits (audits, matches, games with a
    /// bot that plays from the table), so that they never meet a damaged tier halfway.
    ///
    /// # Errors
    ///
    /// [`TableError::DamagedFile`](super::TableError::DamagedFile) naming the first tier that
    /// does not match its checksum.
    pub fn check_unread_tiers(&self) -> Result<(), super::TableError> {
        (0..self.parts.len()).try_for_each(|t| self.tier(t).map(drop))
    }

    /// Checks every tier against its checksum now, those read already too: the first step of
    /// `ttt verify`, and what `ttt solve` asks of a table before it keeps it.
    ///
    /// # Errors
    ///
    /// [`TableError::DamagedFile`](super::TableError::DamagedFile) naming the first tier that
    /// does not match its checksum.
    pub fn check_every_tier(&self) -> Result<(), super::TableError> {
        for (t, part) in self.parts.iter().enumerate() {
            let whole = self.matches(part);
            // A tier settled already stays as it was; what is found now is returned anyway.
            let _ = part.whole.set(whole);
            if !whole {
                return Err(self.damaged(t));
            }
        }
        Ok(())
    }

    /// The checksum the header stores for each tier.
    pub fn stored_checksums(&self) -> Vec<u64> {
        self.parts.iter().map(|part| part.sum).collect()
    }

    /// The bytes of a tier, unchecked.
    #[inline]
    fn stored(&self, part: &Part) -> &[u8] {
        &self.map[part.start..part.end]
    }

    /// Whether a tier matches its checksum, as settled once: one atomic load, but for the
    /// first read of the tier.
    #[inline]
    fn is_whole(&self, part: &Part) -> bool {
        match part.whole.get() {
            Some(&whole) => whole,
            None => self.settle(part),
        }
    }

    /// Checks a tier if no other reader has or is doing it (then waits for that one).
    #[cold]
    #[inline(never)]
    fn settle(&self, part: &Part) -> bool {
        *part.whole.get_or_init(|| self.matches(part))
    }

    /// Whether a tier's bytes match its checksum: a read of the whole tier.
    fn matches(&self, part: &Part) -> bool {
        checksum(self.stored(part)) == part.sum
    }

    #[cold]
    #[inline(never)]
    fn damaged(&self, t: usize) -> super::TableError {
        super::TableError::DamagedFile {
            game: self.game(),
            detail: format!(
                "{}: tier {t}'s checksum does not match",
                self.path.display()
            ),
        }
    }

    /// The file's size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.map.len()
    }

    /// The value and remoteness of the board `x`, `o`, for the side to move. A probe cannot
    /// say it failed: a damaged tier stops the process where the guard is on, and panics
    /// elsewhere (see [`DiskTable`]).
    #[inline]
    fn entry(&self, x: u32, o: u32) -> (Value, u8) {
        let (tier, index) = self.tiers.locate(x, o);
        let part = &self.parts[tier];
        if !self.is_whole(part) {
            stop(&self.damaged(tier).to_string());
        }
        // `locate` gives an index inside the tier.
        let entry = self.map[part.start + index as usize];
        // Every entry of a checked tier is one a solve writes.
        unentry(entry).unwrap_or((Value::Draw, 0))
    }

    /// Value and remoteness of `board` for the side to move; a finished game's at 0.
    ///
    /// # Panics
    ///
    /// If `board` belongs to another game.
    pub fn probe(&self, board: &Position) -> Probe {
        if board.game() != self.game() {
            crate::game::wrong_game(board.game(), self.game());
        }
        let (value, remoteness) = self.entry(
            marks(board, crate::Player::X),
            marks(board, crate::Player::O),
        );
        Probe { value, remoteness }
    }

    /// Every legal move with its value and remoteness for the player making it, by cell.
    pub fn analyze(&self, board: &Position) -> Vec<MoveValue> {
        if board.is_over() {
            return Vec::new();
        }
        let empty = !(board.marks(crate::Player::X).bits() | board.marks(crate::Player::O).bits());
        (0..self.game().cells())
            .filter(|&cell| empty >> cell & 1 == 1)
            .map(|cell| {
                let child = board.play_unchecked(cell);
                let probe = self.probe(&child);
                MoveValue {
                    cell: Cell::new(cell).expect("a table's cells are cells"),
                    value: -probe.value,
                    remoteness: probe.remoteness + 1,
                }
            })
            .collect()
    }

    /// The optimal moves: the best value, then the fastest win or the slowest loss.
    pub fn best_moves(&self, board: &Position) -> Cells {
        let moves = self.analyze(board);
        let best = moves.iter().map(|m| move_rank(m.value, m.remoteness)).max();
        moves
            .iter()
            .filter(|m| Some(move_rank(m.value, m.remoteness)) == best)
            .fold(Cells::EMPTY, |cells, m| cells.with(m.cell))
    }
}

fn marks(board: &Position, player: crate::Player) -> u32 {
    board.marks(player).bits() as u32
}

/// Stops a read of a damaged tier: the process, where the guard is on; else a panic.
#[cold]
#[inline(never)]
fn stop(message: &str) -> ! {
    #[cfg(not(target_family = "wasm"))]
    super::guard::stop_damaged(message);
    #[cfg(target_family = "wasm")]
    panic!("{message}")
}

/// The cached table of `game`, opened once per process and kept; its tiers are checked as
/// they are first read.
///
/// # Errors
///
/// [`CacheError`] when there is none in the cache folder, or it is damaged. A missing
/// table is looked for again on the next call (a solve may have made it since).
pub fn cached(game: Game) -> Result<&'static DiskTable, CacheError> {
    static OPENED: OnceLock<Mutex<Vec<(Game, &'static DiskTable)>>> = OnceLock::new();
    let mut opened = OPENED
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some((_, table)) = opened.iter().find(|(g, _)| *g == game) {
        return Ok(table);
    }
    let dir = cache_dir().ok_or_else(|| {
        CacheError::Missing(PathBuf::from(
            "(no cache folder: set XDG_CACHE_HOME or HOME)",
        ))
    })?;
    let table: &'static DiskTable =
        Box::leak(Box::new(DiskTable::open(&table_path(&dir, game), game)?));
    opened.push((game, table));
    Ok(table)
}

/// [`cached`], with its errors as every other table reports them: how to make a missing
/// table, and a damaged one as damaged.
///
/// # Errors
///
/// [`TableError::NotSolved`](super::TableError::NotSolved),
/// [`TableError::Unreadable`](super::TableError::Unreadable) or
/// [`TableError::DamagedFile`](super::TableError::DamagedFile).
pub fn solved(game: Game) -> Result<&'static DiskTable, super::TableError> {
    cached(game).map_err(|error| match error {
        CacheError::Missing(path) => super::TableError::NotSolved {
            game,
            path: format!("none at {}", path.display()),
        },
        CacheError::Unreadable(path, reason) => super::TableError::Unreadable {
            game,
            path: path.display().to_string(),
            reason,
        },
        CacheError::InUse(path) => super::TableError::InUse {
            game,
            path: path.display().to_string(),
        },
        CacheError::Damaged(..) => super::TableError::DamagedFile {
            game,
            detail: error.to_string(),
        },
    })
}
