//! The tables of the m,n,k games: embedded for the games `build.rs` solves, solved in the
//! process on first use for any other game of at most 16 cells.
//!
//! A query turns the board to its canonical form, reads that position's record, its entry
//! (value and remoteness) and its optimal moves, and turns the moves back. An embedded table
//! answers its first lookups from its compressed form, decoding the block of the record it
//! wants, so that a process that asks one question does not pay for the whole table. Once a
//! process has asked as many as [`UNPACK_AFTER`], the table unpacks itself into memory: a bit
//! per base-3 code, set for the stored positions, with a count every 64 codes, and the records
//! in order, so that a record is two reads.

mod analyze;
pub mod disk;
mod error;
mod first_moves;
#[cfg(not(target_family = "wasm"))]
pub(crate) mod guard;
pub mod tic_tac_toe;
mod unpacked;

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::board::{Cell, Cells, Player};
use crate::format::{Packed, StoredPosition, TableFormatError};
use crate::game::Game;
use crate::position::Position;
use crate::solve::{Codes, Solution, solve_game};
use crate::value::{Entry, Probe, Value, unentry};

use first_moves::FirstMoves;
use unpacked::Unpacked;

pub use error::TableError;

/// The tables `build.rs` wrote, by game, as embedded in this binary ([`Game::EMBEDDED`]).
static EMBEDDED: &[(Game, &[u8])] = &[
    (
        Game::TIC_TAC_TOE,
        include_bytes!(concat!(env!("OUT_DIR"), "/mnk-3x3.bin")),
    ),
    (
        Game::of(3, 4, 3),
        include_bytes!(concat!(env!("OUT_DIR"), "/mnk-3x4.bin")),
    ),
    (
        Game::of(4, 3, 3),
        include_bytes!(concat!(env!("OUT_DIR"), "/mnk-4x3.bin")),
    ),
    #[cfg(feature = "embedded-4x4")]
    (
        Game::of(4, 4, 4),
        include_bytes!(concat!(env!("OUT_DIR"), "/mnk-4x4.bin")),
    ),
    #[cfg(feature = "embedded-4x4")]
    (
        Game::of(4, 4, 3),
        include_bytes!(concat!(env!("OUT_DIR"), "/mnk-4x4k3.bin")),
    ),
];

/// 4x4's lowest optimal moves, a half byte per base-3 code, as `build.rs` wrote them from the
/// same solve as its table: 21.5 MB that answer 4x4's best moves at once, where making them
/// in the process takes a third of a second.
#[cfg(feature = "embedded-4x4")]
static FOUR_BY_FOUR_FIRST_MOVES: Option<(Game, &[u8])> = Some((
    Game::of(4, 4, 4),
    include_bytes!(concat!(env!("OUT_DIR"), "/first-moves-4x4.bin")),
));
#[cfg(not(feature = "embedded-4x4"))]
static FOUR_BY_FOUR_FIRST_MOVES: Option<(Game, &[u8])> = None;

/// The embedded bytes of `game`'s table, if `build.rs` solved it.
pub fn embedded_bytes(game: Game) -> Option<&'static [u8]> {
    EMBEDDED
        .iter()
        .find(|(embedded, _)| *embedded == game)
        .map(|(_, bytes)| *bytes)
}

/// The lowest optimal moves `build.rs` wrote for `game`, a half byte per base-3 code, if it
/// wrote them (4x4).
pub(crate) fn embedded_first_moves(game: Game) -> Option<&'static [u8]> {
    FOUR_BY_FOUR_FIRST_MOVES
        .filter(|(embedded, _)| *embedded == game)
        .map(|(_, moves)| moves)
}

/// Writes the lowest optimal moves of the solve `stored` into `moves`, a zeroed half byte per
/// base-3 code, as `build.rs` writes 4x4's.
pub(crate) fn write_first_moves(codes: &Codes, stored: &crate::format::Stored, moves: &mut [u8]) {
    let stored = stored
        .codes
        .iter()
        .copied()
        .zip(stored.best.iter().copied());
    first_moves::write(codes, stored, moves);
}

/// The table of `game`, made once per process: read in place from the binary for an embedded
/// game ([`Table::compressed`], unpacking after [`UNPACK_AFTER`] lookups), solved on first
/// use for any other game of at most 16 cells. An embedded game never waits on a solve, and a
/// solve holds up only the callers that ask for the same game.
///
/// # Errors
///
/// [`TableError`] when the game has more than 16 cells, its embedded table is damaged, or its
/// solve would pass the [memory limit](crate::memory::set_limit).
pub fn of(game: Game) -> Result<Arc<Table>, TableError> {
    type Slot = Arc<Mutex<Option<Arc<Table>>>>;
    const EMBEDDED_COUNT: usize = Game::EMBEDDED.len() + 1;
    static EMBEDDED_TABLES: [OnceLock<Result<Arc<Table>, TableError>>; EMBEDDED_COUNT] =
        [const { OnceLock::new() }; EMBEDDED_COUNT];
    static SOLVED: OnceLock<Mutex<HashMap<Game, Slot>>> = OnceLock::new();
    if let Some(index) = EMBEDDED.iter().position(|(embedded, _)| *embedded == game) {
        return EMBEDDED_TABLES[index]
            .get_or_init(|| Table::embedded(game).map(Arc::new))
            .clone();
    }
    if !game.has_table() {
        return Err(TableError::TooLarge { game });
    }
    let slot = Arc::clone(
        SOLVED
            .get_or_init(Mutex::default)
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(game)
            .or_default(),
    );
    // Held while this game is solved: a second caller for it waits for that one solve.
    let mut solved = slot.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(table) = &*solved {
        return Ok(Arc::clone(table));
    }
    // Over the limit is not remembered: memory may have been freed by the next time.
    let table = Arc::new(Table::solve(game)?);
    *solved = Some(Arc::clone(&table));
    Ok(table)
}

/// Whether solving `game` fits in the [memory limit](crate::memory::set_limit), beside what
/// is held: a solve holds its tiers (a byte a board, and four bytes for each set of cells),
/// a byte for each base-3 code, then half as much again for the optimal moves and the table
/// made from them: 67.4 MB reckoned for 2x8k4 (2.6 MB of it the tiers), 63 MiB resident
/// measured (`/usr/bin/time`), as the pages of codes never reached are never written.
pub(crate) fn room_to_solve(game: Game) -> Result<(), TableError> {
    let tiers: u128 = crate::tiers::tier_sizes(game).iter().sum();
    let needs = tiers as u64 + (4 << game.cells()) + 3u64.pow(game.cells() as u32) * 3 / 2;
    crate::memory::room_for(needs).map_err(|over| TableError::OverMemory { game, needs, over })
}

/// Tic-tac-toe's dense table, decoded once per process; damage to its embedded bytes as a
/// [`TableError`], as every other game's table reports it.
pub(crate) fn tic_tac_toe() -> Result<&'static tic_tac_toe::Dense, TableError> {
    tic_tac_toe::try_table().map_err(|detail| TableError::Damaged {
        game: Game::TIC_TAC_TOE,
        detail,
    })
}

/// Lookups an embedded table answers from its compressed form before it unpacks itself. A
/// lookup there decodes part of a block, 2.6 µs on 4x4 (a median in `cargo bench --bench
/// games`); unpacking 4x4 takes 67 ms, the cost of some 26,000 lookups. After as many as
/// unpacking costs, a process has paid at most twice what it would have paid knowing in advance
/// how many queries it would make.
pub const UNPACK_AFTER: usize = 25_000;

/// The solved game, ready for queries.
pub struct Table {
    game: Game,
    codes: Codes,
    /// For each turn of the geometry, the index of the turn that undoes it.
    undo: Vec<usize>,
    /// The compressed table, for a table read in place.
    packed: Option<Packed<'static>>,
    /// The table in memory, once unpacked.
    unpacked: OnceLock<Unpacked>,
    /// The lowest optimal move of every position, once a best move is asked of the unpacked
    /// table, or at once when they are embedded.
    first_moves: OnceLock<FirstMoves>,
    /// The half bytes of [`first_moves`](Table::first_moves) `build.rs` wrote, for 4x4.
    embedded_first_moves: Option<&'static [u8]>,
    /// Lookups made in the compressed form so far.
    lookups: AtomicUsize,
    /// How many the compressed form makes before the table unpacks.
    unpack_after: usize,
    /// Canonical positions in play.
    stored: usize,
    size: usize,
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("game", &self.game)
            .field("stored", &self.stored)
            .field("unpacked", &self.is_unpacked())
            .finish_non_exhaustive()
    }
}

impl Table {
    fn new(game: Game, stored: usize, size: usize, packed: Option<Packed<'static>>) -> Table {
        let geometry = game.geometry();
        let undo = (0..geometry.turns().len())
            .map(|t| geometry.inverse_turn(t))
            .collect();
        Table {
            game,
            codes: Codes::new(game),
            undo,
            packed,
            unpacked: OnceLock::new(),
            first_moves: OnceLock::new(),
            embedded_first_moves: None,
            lookups: AtomicUsize::new(0),
            unpack_after: usize::MAX,
            stored,
            size,
        }
    }

    /// This table, with `positions` unpacked into memory, checked.
    fn unpacked_from(
        self,
        positions: impl Iterator<Item = Result<StoredPosition, TableFormatError>>,
    ) -> Result<Table, TableFormatError> {
        let unpacked = Unpacked::new(positions, self.stored, &self.codes)?;
        self.unpacked
            .set(unpacked)
            .unwrap_or_else(|_| unreachable!("a new table is not unpacked yet"));
        Ok(self)
    }

    #[cfg(test)]
    /// Decodes a table written by `build.rs`, checking every position, and unpacks it.
    ///
    /// # Errors
    ///
    /// [`TableFormatError`] when the bytes are not a complete, undamaged table.
    pub fn from_bytes(bytes: &[u8]) -> Result<Table, TableFormatError> {
        let packed = Packed::open(bytes)?;
        Table::new(packed.game(), packed.count(), bytes.len(), None)
            .unpacked_from(packed.positions())
    }

    /// Opens a table written by `build.rs` in place: the checksum, the header and the index are
    /// checked, and a lookup decodes the block of the position it wants, until the table has
    /// made `unpack_after` lookups; it then unpacks itself, checking every position, as
    /// [`from_bytes`](Table::from_bytes) does at once. With `usize::MAX` it never does.
    ///
    /// # Errors
    ///
    /// [`TableFormatError`] when the bytes are not a complete, undamaged table.
    ///
    /// # Panics
    ///
    /// A query panics if the block it decodes, or the table as it unpacks, turns out damaged in
    /// a way the checksum let through.
    pub fn compressed(
        bytes: &'static [u8],
        unpack_after: usize,
    ) -> Result<Table, TableFormatError> {
        let packed = Packed::open(bytes)?;
        let (game, stored) = (packed.game(), packed.count());
        Ok(Table {
            unpack_after,
            ..Table::new(game, stored, bytes.len(), Some(packed))
        })
    }

    /// This embedded table with the lowest optimal moves `build.rs` wrote for it, if it wrote
    /// them for its game; an error when their length is wrong.
    fn with_embedded_first_moves(mut self) -> Result<Table, String> {
        if let Some(moves) = embedded_first_moves(self.game) {
            let len = first_moves::len(self.game.cells());
            if moves.len() != len {
                return Err(format!(
                    "its best moves take {} bytes, not {len}",
                    moves.len()
                ));
            }
            self.embedded_first_moves = Some(moves);
        }
        Ok(self)
    }

    /// The lowest optimal moves, made now if they are not yet (from the embedded half bytes,
    /// or from the unpacked table); `None` when the table has neither.
    #[inline]
    fn first_moves(&self) -> Option<&FirstMoves> {
        match self.first_moves.get() {
            Some(first_moves) => Some(first_moves),
            None => self.make_first_moves(),
        }
    }

    #[cold]
    fn make_first_moves(&self) -> Option<&FirstMoves> {
        if let Some(moves) = self.embedded_first_moves {
            return Some(
                self.first_moves
                    .get_or_init(|| FirstMoves::new(&self.codes, moves)),
            );
        }
        let unpacked = self.unpacked.get()?;
        Some(self.first_moves.get_or_init(|| {
            let mut moves: Vec<u8> = unpacked::huge(first_moves::len(self.game.cells()));
            moves.resize(moves.capacity(), 0);
            first_moves::write(&self.codes, unpacked.stored(), &mut moves);
            FirstMoves::made(&self.codes, moves.into_boxed_slice())
        }))
    }

    /// The embedded table of `game` as [`of`] opens it (read in place, unpacking after
    /// [`UNPACK_AFTER`] lookups, with 4x4's best moves embedded), made anew.
    ///
    /// # Errors
    ///
    /// [`TableError::NotEmbedded`] for a game whose table is not embedded,
    /// [`TableError::Damaged`] when its bytes are damaged.
    pub fn embedded(game: Game) -> Result<Table, TableError> {
        let bytes = embedded_bytes(game).ok_or(TableError::NotEmbedded { game })?;
        let damaged = |detail: String| TableError::Damaged { game, detail };
        Table::compressed(bytes, UNPACK_AFTER)
            .map_err(|error| damaged(error.to_string()))?
            .with_embedded_first_moves()
            .map_err(damaged)
    }

    /// The table of `game`, a game of at most 16 cells, solved now and unpacked: what [`of`]
    /// keeps for the process, for a caller that keeps it only as long as it needs it.
    ///
    /// # Errors
    ///
    /// [`TableError::TooLarge`] past 16 cells, [`TableError::OverMemory`] when the solve would
    /// pass the [memory limit](crate::memory::set_limit).
    pub(crate) fn solve(game: Game) -> Result<Table, TableError> {
        if !game.has_table() {
            return Err(TableError::TooLarge { game });
        }
        room_to_solve(game)?;
        let table = Table::from_solution(&solve_game(game));
        crate::solve::report(game, 1.0);
        Ok(table)
    }

    /// The table of a solution made in this process, unpacked.
    pub fn from_solution(solution: &Solution) -> Table {
        let entries = solution.entries();
        let positions = solution.best_moves().iter().map(|&(code, best)| {
            Ok(StoredPosition {
                code,
                entry: entries[code as usize],
                best,
            })
        });
        Table::new(solution.game(), solution.best_moves().len(), 0, None)
            .unpacked_from(positions)
            .expect("a fresh solution stores only canonical boards, in order")
    }

    /// The game.
    pub fn game(&self) -> Game {
        self.game
    }

    #[cfg(test)]
    /// How many canonical positions in play the table stores.
    pub fn stored_positions(&self) -> usize {
        self.stored
    }

    /// The size in bytes of the stored table (0 for a table solved in this process).
    pub fn size_bytes(&self) -> usize {
        self.size
    }

    /// Whether the table is unpacked in memory, rather than read from its compressed form.
    pub fn is_unpacked(&self) -> bool {
        self.unpacked.get().is_some()
    }

    #[inline]
    fn check(&self, board: &Position) {
        // Each game has one geometry (`Game::geometry`): the same one is the same game, found
        // without reading it.
        if !std::ptr::eq(board.geometry(), self.codes.geometry()) && board.game() != self.game {
            crate::game::wrong_game(board.game(), self.game);
        }
    }

    /// The record of the canonical position in play with code `code`: its entry and its
    /// optimal moves.
    #[inline]
    fn record(&self, code: u32) -> Record {
        let found = match self.unpacked.get() {
            Some(unpacked) => unpacked.find(code),
            None => self.find_packed(code),
        };
        found.expect("every board in play has a record in a checked table")
    }

    /// [`record`](Table::record) from the compressed form, or from memory once this lookup
    /// is the one that unpacks the table.
    #[cold]
    fn find_packed(&self, code: u32) -> Option<Record> {
        let packed = self
            .packed
            .as_ref()
            .expect("a table not in memory is read in place");
        let damaged = |error| -> ! { panic!("the table of {} is damaged: {error}", self.game) };
        if self.lookups.fetch_add(1, Ordering::Relaxed) >= self.unpack_after {
            // Other threads asking meanwhile wait for this one to finish.
            let unpacked = self.unpacked.get_or_init(|| {
                Unpacked::new(packed.positions(), self.stored, &self.codes)
                    .unwrap_or_else(|error| damaged(error))
            });
            return unpacked.find(code);
        }
        let position = packed.find(code).unwrap_or_else(|error| damaged(error));
        position.map(|position| Record {
            entry: position.entry,
            best: position.best,
        })
    }

    /// The value and remoteness of the position in play `x`, `o`.
    #[inline]
    fn entry(&self, x: u64, o: u64) -> (Value, u8) {
        let (code, _) = self.codes.canonical(x, o);
        unentry(self.record(code).entry).expect("a checked table holds only entries")
    }

    /// The value and remoteness of the board `x`, `o`, a legal board in play.
    #[inline]
    pub(crate) fn value_in_play(&self, x: u64, o: u64) -> (Value, u8) {
        self.entry(x, o)
    }

    /// Whether the game on the board `x`, `o` goes on: the last mover made no line and a cell
    /// is empty.
    #[inline]
    fn in_play(&self, x: u64, o: u64) -> bool {
        !self.codes.has_line(last_mover(x, o)) && x | o != self.codes.full()
    }

    /// Value and remoteness of `board`, for the side to move.
    ///
    /// # Panics
    ///
    /// If `board` belongs to another game.
    pub fn probe(&self, board: &Position) -> Probe {
        self.check(board);
        let (x, o) = narrow(board);
        if self.in_play(x, o) {
            let (value, remoteness) = self.entry(x, o);
            return Probe { value, remoteness };
        }
        // Over: the last mover made a line (on a legal board, no one else can have), or the
        // board is full.
        let value = if self.codes.has_line(last_mover(x, o)) {
            Value::Loss
        } else {
            Value::Draw
        };
        Probe {
            value,
            remoteness: 0,
        }
    }

    /// [`probe`](Table::probe) and [`best_moves`](Table::best_moves) at once, the symmetry
    /// worked out and the record read once: what an audit needs at each of the bot's turns.
    pub(crate) fn evaluate(&self, board: &Position) -> (Probe, Cells) {
        self.check(board);
        let (x, o) = narrow(board);
        if !self.in_play(x, o) {
            return (self.probe(board), Cells::EMPTY);
        }
        let (code, turn) = self.codes.canonical(x, o);
        let record = self.record(code);
        let (value, remoteness) =
            unentry(record.entry).expect("a checked table holds only entries");
        let best = self.codes.turn_mask(self.undo[turn], record.best.into());
        (Probe { value, remoteness }, Cells::from_bits(best.into()))
    }

    /// The optimal moves: the best value, then the fastest
    /// win or the slowest loss; every drawing move when the value is a draw. 0 when the game is
    /// over.
    pub fn best_moves(&self, board: &Position) -> Cells {
        self.check(board);
        let (x, o) = narrow(board);
        if !self.in_play(x, o) {
            return Cells::EMPTY;
        }
        let (code, turn) = self.codes.canonical(x, o);
        let best = self.record(code).best;
        Cells::from_bits(self.codes.turn_mask(self.undo[turn], best.into()).into())
    }

    /// Asks the memory for what a lookup of `board` reads, in two steps a few boards apart:
    /// the first brings the word of its canonical code, the `second` its record (once the
    /// table is unpacked; nothing before).
    #[inline(always)]
    pub(crate) fn fetch(&self, board: &Position, second: bool) {
        if let Some(unpacked) = self.unpacked.get() {
            let (x, o) = narrow(board);
            let (code, _) = self.codes.canonical(x, o);
            match second {
                false => unpacked.fetch_word(code),
                true => unpacked.fetch_record(code),
            }
        }
    }

    /// The lowest of [`best_moves`](Table::best_moves); `None` when the game is over. Once
    /// the table is unpacked, and at once on 4x4, read from a half byte per base-3 code (the
    /// one the position keeps), with no symmetry worked out.
    ///
    /// # Panics
    ///
    /// If `board` belongs to another game.
    #[inline(always)]
    pub fn best_move(&self, board: &Position) -> Option<Cell> {
        self.check(board);
        match self.first_moves() {
            Some(first_moves) => {
                let (x, o) = narrow(board);
                // On a legal board only the last mover can have a line: asking of both
                // spares counting the marks, which has no instruction on the portable build.
                let over = first_moves.has_line(x) || first_moves.has_line(o);
                if over || first_moves.is_full(x | o) {
                    return None;
                }
                // The code the position keeps: no powers of three read here.
                Some(first_moves.at(board.code()))
            }
            None => self.best_moves(board).first(),
        }
    }

    /// The base-3 code of the board `x`, `o` (bit `i` is cell `i + 1`) when the table has its
    /// best moves in memory ([`answers_at_once`](Table::answers_at_once)) and the board is
    /// legal and in play: as many O as X or one fewer, no line, an
    /// empty cell. `None` otherwise, for the caller to read the board the general way, which
    /// says what is wrong with it (batch mode's fast path, with [`best_move_at`]).
    ///
    /// [`best_move_at`]: Table::best_move_at
    #[inline]
    pub(crate) fn quick_code(&self, x: u64, o: u64) -> Option<usize> {
        let first_moves = self.first_moves()?;
        let (xs, os) = (x.count_ones(), o.count_ones());
        let over = first_moves.has_line(x) || first_moves.has_line(o) || first_moves.is_full(x | o);
        if x & o != 0 || (xs != os && xs != os + 1) || over {
            return None;
        }
        Some(first_moves.code(x, o))
    }

    /// The lowest optimal move of the board with base-3 code `code`, one that
    /// [`quick_code`](Table::quick_code) gave.
    #[inline]
    pub(crate) fn best_move_at(&self, code: usize) -> Cell {
        let first_moves = self.first_moves().expect("a code from quick_code");
        first_moves.at(code)
    }

    /// Whether best moves are answered without a lookup in the compressed form: the table is
    /// unpacked, or its best moves are embedded.
    pub(crate) fn answers_at_once(&self) -> bool {
        self.is_unpacked() || self.embedded_first_moves.is_some()
    }

    /// Unpacks the table now, if it is not yet, for a caller about to ask many questions
    /// (batch mode): every lookup after this one reads memory.
    ///
    /// # Panics
    ///
    /// If the table turns out damaged in a way its checksum let through.
    pub fn unpack(&self) {
        if let Some(packed) = &self.packed {
            self.unpacked.get_or_init(|| {
                Unpacked::new(packed.positions(), self.stored, &self.codes).unwrap_or_else(
                    |error| panic!("the table of {} is damaged: {error}", self.game),
                )
            });
        }
    }
}

/// The marks of X and of O on `board`, a board of a game with a table: they fit the low 16
/// bits, and the table's lookups work on `u64`.
#[inline]
fn narrow(board: &Position) -> (u64, u64) {
    (board.mask(Player::X) as u64, board.mask(Player::O) as u64)
}

/// The marks of the player who moved last on the board `x`, `o`: X when X has more.
#[inline]
pub(crate) fn last_mover(x: u64, o: u64) -> u64 {
    if x.count_ones() > o.count_ones() {
        x
    } else {
        o
    }
}

/// What a table holds of a canonical position in play.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Record {
    /// Value and remoteness.
    pub(crate) entry: Entry,
    /// The optimal moves, as a mask (bit `i` is cell `i + 1`).
    pub(crate) best: u16,
}
