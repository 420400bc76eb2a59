//! What the walks need of a board and of the table that judges it, for each kind of board:
//! tic-tac-toe's own 4-byte [`Board`] with its dense table, the [`Position`] of any other game
//! of at most 16 cells with its table in memory, and [`Cached`], the position of a game of 17
//! to 25 cells with the table `ttt solve` cached (mapped from disk). The walks are written
//! once, over [`Rules`], and compiled for each. Tic-tac-toe and the games of at most 16 cells
//! carry a base-3 code from move to move and find a position's place in an array by it
//! ([`TicTacToePlaces`], [`Coded`]); past 16 cells, whose codes outgrow any array, a hash map by marks
//! ([`Hashed`]) finds it.
//!
//! The table is what every walk judges moves by. A walk for games without one (issue #15)
//! would give the walks an optional table here, and skip the judging where it is missing.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::board::{Board, CODES, Cell, Cells, HAS_LINE, Player, Status};
use crate::game::Game;
use crate::history::History;
use crate::position::{POWERS, Position};
use crate::table::disk::DiskTable;
use crate::table::tic_tac_toe::Dense as TicTacToeTable;
use crate::table::{Table, TableError};
use crate::tiers::MAX_TIER_CELLS;
use crate::value::Evaluation;
use crate::value::Probe;

/// A board the walks play on, with its table.
pub(crate) trait Rules: Copy + 'static {
    /// The table of the game.
    type Table: 'static;
    /// What the walk by positions carries from a board to the next to find its place cheaply:
    /// the base-3 code on boards of at most 16 cells; nothing past them, found by their
    /// marks.
    type Code: Copy;
    /// The moves of a game in progress: 4 bits a move, 5 past 16 cells.
    type Line: Bits;
    /// Each board's place in the list of a ply, for the walk by positions.
    type Places: Places<Self>;

    /// The empty board of `game` and its code.
    fn empty(game: Game) -> (Self, Self::Code);
    /// The board of `game`.
    fn of(game: &History) -> Self;
    /// Cells on the board: the last ply is one less.
    fn cells(self) -> usize;
    fn empty_cells(self) -> Cells;
    fn to_move(self) -> Player;
    fn status(self) -> Status;
    /// The board after `player`, whose turn it is, marks the empty `cell`.
    fn mark(self, cell: Cell, player: Player) -> Self;
    /// The code of the board after `player` marks `cell` on this board, of code `code`.
    fn code_after(self, code: Self::Code, cell: Cell, player: Player) -> Self::Code;
    /// [`mark`](Rules::mark) and [`code_after`](Rules::code_after) at once: a board that keeps
    /// its own code gives it, not worked out twice.
    #[inline(always)]
    fn marked(self, code: Self::Code, cell: Cell, player: Player) -> (Self, Self::Code) {
        (self.mark(cell, player), self.code_after(code, cell, player))
    }
    /// Whether `player`'s marks with `cell` added hold a line.
    fn makes_line(self, cell: Cell, player: Player) -> bool;
    /// The board as a number of its own, for a memo of boards.
    fn key(self) -> u128;

    fn best_moves(self, table: &Self::Table) -> Cells;
    fn evaluate(self, table: &Self::Table) -> Evaluation;
    /// Whether [`evaluate`](Rules::evaluate) costs what [`best_moves`](Rules::best_moves)
    /// does (one lookup gives both): the walks then evaluate each position of the bot at once,
    /// rather than when a move needs judging.
    const EVALUATE_AT_ONCE: bool;
    /// Whether a lookup costs enough (a canonical form worked out, a record far off in
    /// memory) that an audit's walk keeps what it learns of the next ply's positions, to look
    /// fewer up (`Known`): where the perfect style gets, and the evaluations it has made.
    const REMEMBERS: bool;
    /// Whether a board stands for all its images under the board's symmetries, met as one
    /// position (see `super::images`): the walk then stops at the first move of the bot that
    /// is not optimal, as only a report without one is the same on images.
    const MERGES_IMAGES: bool = false;
    fn probe(self, table: &Self::Table) -> Probe;
    /// Asks the memory for what a lookup of the board in `table` reads, in two steps a few
    /// boards apart, the `second` after the first; nothing by default.
    #[inline(always)]
    fn fetch(self, _table: &Self::Table, _second: bool) {}
}

/// The moves of a game in progress, a few bits each, the first move in the lowest: 4 bits a
/// move in a `u32` (8 moves: a tic-tac-toe position the walk lists is at most 8 moves deep) or a
/// `u64` (16, every board of a table in memory), 5 bits in a `u128` (24 moves of a board of up
/// to 25 cells, whose table `ttt solve` cached).
pub(crate) trait Bits: Copy {
    const EMPTY: Self;
    /// The bits of a move.
    const WIDTH: u32;
    /// This line with `cell` as its move number `ply` (from 0).
    fn with(self, ply: usize, cell: Cell) -> Self;
    /// Move number `ply` (from 0).
    fn get(self, ply: usize) -> Cell;
    /// The first move (from 0) where this line and `other` differ: as many as a line holds
    /// when they are the same.
    fn first_difference(self, other: Self) -> usize;
    /// The line in 128 bits, as the list of mistakes keeps every line (with its width).
    fn bits(self) -> u128;
}

macro_rules! bits {
    ($($int:ty, $width:expr;)*) => {$(
        impl Bits for $int {
            const EMPTY: $int = 0;
            const WIDTH: u32 = $width;
            #[inline(always)]
            fn with(self, ply: usize, cell: Cell) -> $int {
                self | (cell.index() as $int) << ($width * ply)
            }
            #[inline(always)]
            fn get(self, ply: usize) -> Cell {
                let bits = (self >> ($width * ply)) & ((1 << $width) - 1);
                Cell::new(bits as usize).expect("a move's bits hold a cell")
            }
            #[inline(always)]
            fn first_difference(self, other: $int) -> usize {
                ((self ^ other).trailing_zeros() / $width) as usize
            }
            #[inline(always)]
            fn bits(self) -> u128 {
                self as u128
            }
        }
    )*};
}

bits! {
    u32, 4;
    u64, 4;
    u128, 5;
}

/// The moves of a game in progress, as [`Bits`] (a board with a table has at most 25 cells,
/// so a position the walk lists is at most 24 moves deep).
#[derive(Clone, Copy)]
pub(crate) struct Line<B>(pub(crate) B);

impl<B: Bits> Line<B> {
    /// This line with `cell` as its move number `ply` (from 0).
    #[inline]
    pub(crate) fn with(self, ply: usize, cell: Cell) -> Line<B> {
        Line(self.0.with(ply, cell))
    }

    /// Move number `i` (from 0).
    #[inline]
    pub(crate) fn get(self, i: usize) -> Cell {
        self.0.get(i)
    }

    /// The first `ply` moves.
    pub(crate) fn to_vec(self, ply: usize) -> Vec<Cell> {
        (0..ply).map(|i| self.get(i)).collect()
    }
}

/// Each board's place in the list of the ply being built.
pub(crate) trait Places<R: Rules>: Default {
    /// Whether [`warm`](Places::warm) and [`peek`](Places::peek) do anything: the walk then
    /// fetches places ahead; elsewhere it skips working out the codes to fetch.
    const FETCHES_AHEAD: bool = false;
    /// Ready for a walk of `game`: every board unseen.
    fn ready(&mut self, game: Game);
    /// Ready for a walk of `game` that [`ready`](Places::ready)'s places left without room:
    /// places that hold only the boards met.
    fn lean(&mut self, game: Game) {
        self.ready(game);
    }
    /// Whether the places took their memory ahead of the boards met (an array by code).
    fn ahead_of_boards(&self) -> bool {
        false
    }
    /// The place of `board` (of code `code`) if it is listed already; otherwise `None`, and it
    /// is noted as listed at `place`.
    fn find_or_add(&mut self, board: R, code: R::Code, place: usize) -> Option<usize>;
    /// Every board listed is unseen again, for places kept from one walk to the next (a walk
    /// meets a board only while listing its ply); places that `ready` makes anew for each walk
    /// may do nothing.
    fn forget(&mut self, listed: impl Iterator<Item = (R, R::Code)>);
    /// Asks the memory for the place of the board of code `code` ahead of
    /// [`find_or_add`](Places::find_or_add), so that the places of a position's moves are
    /// fetched at once rather than one after the other.
    #[inline(always)]
    fn warm(&self, _code: R::Code) {}
    /// The place of the board of code `code` if it is listed, when that is known without a
    /// lookup that could miss the cache twice; `None` otherwise.
    #[inline(always)]
    fn peek(&self, _code: R::Code) -> Option<usize> {
        None
    }
}

/// The place of a board not yet reached.
const UNSEEN: u16 = u16::MAX;

/// Tic-tac-toe's places: an array by base-3 code, a board belonging to one ply only (its
/// number of marks), so that the places of every ply share it. A ply lists at most 1,520.
#[derive(Default)]
pub(crate) struct TicTacToePlaces(Vec<u16>);

impl Places<Board> for TicTacToePlaces {
    fn ready(&mut self, _: Game) {
        if self.0.is_empty() {
            self.0 = vec![UNSEEN; CODES];
        }
    }

    #[inline(always)]
    fn find_or_add(&mut self, _: Board, code: u16, place: usize) -> Option<usize> {
        let slot = &mut self.0[usize::from(code)];
        if *slot == UNSEEN {
            *slot = place as u16;
            None
        } else {
            Some(usize::from(*slot))
        }
    }

    fn forget(&mut self, listed: impl Iterator<Item = (Board, u16)>) {
        for (_, code) in listed {
            self.0[usize::from(code)] = UNSEEN;
        }
    }
}

/// The places of the boards of a game of at most 16 cells: an array by base-3 code, like
/// tic-tac-toe's, of the place plus one (0 for unseen, so that the array, 172 MB on 4x4, comes
/// from the kernel zeroed and only the pages of the codes met are ever touched). On 4x4 it
/// made the walk faster than a hash map, whose probes missed the cache twice (its control
/// bytes, then its entries) where this misses once, and whose places could not be fetched
/// ahead. When the memory limit leaves no room for the array, the hash map of larger games.
pub(crate) enum Coded {
    Dense(Vec<u32>),
    Hashed(Hashed),
}

/// The hash map, which holds nothing until used: the array is made by `ready`.
impl Default for Coded {
    fn default() -> Coded {
        Coded::Hashed(Hashed::default())
    }
}

impl Places<Position> for Coded {
    const FETCHES_AHEAD: bool = true;

    fn ready(&mut self, game: Game) {
        let codes = 3usize.pow(game.cells() as u32);
        // Made anew for each walk: a board belongs to the ply of its marks, so that a walk
        // meets it only while listing that ply, and need not forget it (see `forget`).
        *self = Coded::default();
        *self = if crate::memory::room_for(4 * codes as u64).is_ok() {
            let mut slots = vec![0; codes];
            crate::memory::huge_pages(&mut slots);
            Coded::Dense(slots)
        } else {
            Coded::Hashed(Hashed::default())
        };
    }

    fn lean(&mut self, _: Game) {
        *self = Coded::Hashed(Hashed::default());
    }

    fn ahead_of_boards(&self) -> bool {
        matches!(self, Coded::Dense(_))
    }

    #[inline(always)]
    fn find_or_add(&mut self, board: Position, code: u32, place: usize) -> Option<usize> {
        self.find_or_add_code(code, || board.key(), place)
    }

    fn forget(&mut self, listed: impl Iterator<Item = (Position, u32)>) {
        self.forget_all();
        drop(listed);
    }

    #[inline(always)]
    fn peek(&self, code: u32) -> Option<usize> {
        self.peek_code(code)
    }

    #[inline(always)]
    fn warm(&self, code: u32) {
        self.warm_code(code);
    }
}

impl Coded {
    /// [`Places::find_or_add`] for the board of code `code`, and of key `key` for the hash
    /// map.
    #[inline(always)]
    pub(super) fn find_or_add_code(
        &mut self,
        code: u32,
        key: impl FnOnce() -> u128,
        place: usize,
    ) -> Option<usize> {
        let slots = match self {
            Coded::Dense(slots) => slots,
            Coded::Hashed(hashed) => return hashed.find_or_add_key(key(), place),
        };
        let slot = &mut slots[code as usize];
        if *slot == 0 {
            *slot = u32::try_from(place + 1).expect("a ply lists fewer than 2^32 positions");
            None
        } else {
            Some(*slot as usize - 1)
        }
    }

    /// [`Places::forget`]: the array's slots of a listed ply are never read again in its
    /// walk, and the next walk makes a new array (clearing them cost a cache miss a position).
    pub(super) fn forget_all(&mut self) {
        if let Coded::Hashed(hashed) = self {
            hashed.0.clear();
        }
    }

    /// [`Places::peek`] by code.
    #[inline(always)]
    pub(super) fn peek_code(&self, code: u32) -> Option<usize> {
        match self {
            Coded::Dense(slots) => (slots.get(code as usize)?.checked_sub(1)).map(|p| p as usize),
            Coded::Hashed(_) => None,
        }
    }

    /// [`Places::warm`] by code.
    #[inline(always)]
    pub(super) fn warm_code(&self, code: u32) {
        if let Coded::Dense(slots) = self {
            if let Some(slot) = slots.get(code as usize) {
                crate::memory::prefetch(slot);
            }
        }
    }
}

/// The places of boards past 16 cells, and of smaller ones where the memory limit leaves no
/// room for [`Coded`]'s array: by their [keys](Rules::key), in a hash map.
#[derive(Default)]
pub(crate) struct Hashed(HashMap<u128, u32, BuildHasherDefault<Multiply>>);

impl<R: Rules<Code = ()>> Places<R> for Hashed {
    fn ready(&mut self, _: Game) {
        self.0.clear();
    }

    #[inline]
    fn find_or_add(&mut self, board: R, _: (), place: usize) -> Option<usize> {
        self.find_or_add_key(board.key(), place)
    }

    fn forget(&mut self, _: impl Iterator<Item = (R, ())>) {
        self.0.clear();
    }
}

impl Hashed {
    #[inline]
    fn find_or_add_key(&mut self, key: u128, place: usize) -> Option<usize> {
        match self.0.entry(key) {
            std::collections::hash_map::Entry::Occupied(seen) => Some(*seen.get() as usize),
            std::collections::hash_map::Entry::Vacant(unseen) => {
                unseen.insert(place as u32);
                None
            }
        }
    }
}

/// A hash of the marks: both halves folded and multiplied, enough for boards (whose keys an
/// opponent does not choose) and several times faster than the default.
#[derive(Default)]
pub(crate) struct Multiply(u64);

impl Hasher for Multiply {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u128(&mut self, key: u128) {
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        self.0 = (self.0 ^ folded).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 ^= self.0 >> 29;
    }

    fn write_u64(&mut self, value: u64) {
        self.write_u128(u128::from(value));
    }
}

/// `3^i` for each cell `i`: what a mark there adds to a board's base-3 code, once for X and
/// twice for O.
const POWERS_OF_3: [u16; 9] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

impl Rules for Board {
    type Table = TicTacToeTable;
    type Code = u16;
    type Line = u32;
    type Places = TicTacToePlaces;
    // Its best moves are the low bits of a word; the rest needs unpacking.
    const EVALUATE_AT_ONCE: bool = false;
    // A lookup is a load from an array in the first-level cache.
    const REMEMBERS: bool = false;

    fn empty(_: Game) -> (Board, u16) {
        (Board::EMPTY, 0)
    }
    #[inline]
    fn of(game: &History) -> Board {
        game.board()
    }
    #[inline]
    fn cells(self) -> usize {
        9
    }
    #[inline]
    fn empty_cells(self) -> Cells {
        Board::empty_cells(self)
    }
    #[inline]
    fn to_move(self) -> Player {
        Board::to_move(self)
    }
    #[inline]
    fn status(self) -> Status {
        Board::status(self)
    }
    #[inline(always)]
    fn mark(self, cell: Cell, player: Player) -> Board {
        self.mark_unchecked(cell, player)
    }
    #[inline(always)]
    fn code_after(self, code: u16, cell: Cell, player: Player) -> u16 {
        let mark = if player == Player::X { 1 } else { 2 };
        code + mark * POWERS_OF_3[cell.index()]
    }
    #[inline(always)]
    fn makes_line(self, cell: Cell, player: Player) -> bool {
        HAS_LINE[self.marks(player).with(cell).bits() as usize]
    }
    fn key(self) -> u128 {
        self.code() as u128
    }
    #[inline]
    fn best_moves(self, table: &TicTacToeTable) -> Cells {
        table.best_moves(&self)
    }
    #[inline]
    fn evaluate(self, table: &TicTacToeTable) -> Evaluation {
        table.evaluate(&self)
    }
    #[inline]
    fn probe(self, table: &TicTacToeTable) -> Probe {
        table.probe(&self)
    }
}

impl Rules for Position {
    type Table = Table;
    type Code = u32;
    type Line = u64;
    type Places = Coded;
    // The symmetry and the record are the lookup's work: both come from one.
    const EVALUATE_AT_ONCE: bool = true;
    const REMEMBERS: bool = true;

    fn empty(game: Game) -> (Position, u32) {
        (Position::empty(game), 0)
    }
    #[inline]
    fn of(game: &History) -> Position {
        game.position()
    }
    #[inline]
    fn cells(self) -> usize {
        self.game().cells()
    }
    #[inline]
    fn empty_cells(self) -> Cells {
        Position::empty_cells(&self)
    }
    #[inline]
    fn to_move(self) -> Player {
        Position::to_move(self)
    }
    #[inline]
    fn status(self) -> Status {
        Position::status(&self)
    }
    #[inline]
    fn mark(self, cell: Cell, player: Player) -> Position {
        self.mark_unchecked(cell.index(), player)
    }
    #[inline(always)]
    fn marked(self, _: u32, cell: Cell, player: Player) -> (Position, u32) {
        // A board with a table in memory has at most 16 cells: the kept code is the whole
        // board's.
        let board = self.mark(cell, player);
        (board, board.code() as u32)
    }
    #[inline(always)]
    fn code_after(self, code: u32, cell: Cell, player: Player) -> u32 {
        let mark = if player == Player::X { 1 } else { 2 };
        code + mark * POWERS[cell.index()]
    }
    #[inline]
    fn makes_line(self, cell: Cell, player: Player) -> bool {
        let marks = self.mask(player) | 1 << cell.index();
        self.geometry().makes_line(marks, cell.index())
    }
    #[inline]
    fn key(self) -> u128 {
        // A board with a table has at most 25 cells, so the two masks side by side fit.
        self.mask(Player::X) | self.mask(Player::O) << 64
    }
    #[inline]
    fn best_moves(self, table: &Table) -> Cells {
        table.best_moves(&self)
    }
    fn evaluate(self, table: &Table) -> Evaluation {
        let (probe, best) = table.evaluate(&self);
        Evaluation {
            value: probe.value,
            remoteness: probe.remoteness,
            best,
        }
    }
    #[inline]
    fn probe(self, table: &Table) -> Probe {
        table.probe(&self)
    }
    #[inline(always)]
    fn fetch(self, table: &Table, second: bool) {
        table.fetch(&self, second);
    }
}

/// A board of a game of 17 to 25 cells, judged by the table `ttt solve` cached: the rules are
/// [`Position`]'s, the lines 5 bits a move.
#[derive(Clone, Copy)]
pub(crate) struct Cached(pub(crate) Position);

impl Cached {
    /// The table of `game`, a game past 16 cells, if `ttt solve` has cached one; `None` when
    /// there is none, or the game is larger than a cached table can be.
    ///
    /// # Errors
    ///
    /// [`TableError::DamagedFile`] when the cached table is damaged, in any tier: a walk
    /// reads most of it, and checks it all before it starts.
    pub(crate) fn table(game: Game) -> Result<Option<&'static DiskTable>, TableError> {
        if game.has_table() || game.cells() > MAX_TIER_CELLS {
            return Ok(None);
        }
        match crate::table::disk::solved(game) {
            Ok(table) => table.check_unread_tiers().map(|()| Some(table)),
            Err(TableError::NotSolved { .. }) => Ok(None),
            Err(error) => Err(error),
        }
    }
}

impl Rules for Cached {
    type Table = DiskTable;
    type Code = ();
    type Line = u128;
    type Places = Hashed;
    // Its best moves are found by probing every move.
    const EVALUATE_AT_ONCE: bool = false;
    // An evaluation of more than 16 cells does not fit `Known`.
    const REMEMBERS: bool = false;

    fn empty(game: Game) -> (Cached, ()) {
        (Cached(Position::empty(game)), ())
    }
    #[inline]
    fn of(game: &History) -> Cached {
        Cached(game.position())
    }
    #[inline]
    fn cells(self) -> usize {
        Rules::cells(self.0)
    }
    #[inline]
    fn empty_cells(self) -> Cells {
        self.0.empty_cells()
    }
    #[inline]
    fn to_move(self) -> Player {
        self.0.to_move()
    }
    #[inline]
    fn status(self) -> Status {
        self.0.status()
    }
    #[inline]
    fn mark(self, cell: Cell, player: Player) -> Cached {
        Cached(self.0.mark(cell, player))
    }
    #[inline]
    fn code_after(self, _: (), _: Cell, _: Player) {}
    #[inline]
    fn makes_line(self, cell: Cell, player: Player) -> bool {
        self.0.makes_line(cell, player)
    }
    #[inline]
    fn key(self) -> u128 {
        self.0.key()
    }
    #[inline]
    fn best_moves(self, table: &DiskTable) -> Cells {
        table.best_moves(&self.0)
    }
    fn evaluate(self, table: &DiskTable) -> Evaluation {
        let probe = table.probe(&self.0);
        Evaluation {
            value: probe.value,
            remoteness: probe.remoteness,
            best: table.best_moves(&self.0),
        }
    }
    #[inline]
    fn probe(self, table: &DiskTable) -> Probe {
        table.probe(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The array and the hash map it falls back to give every board of a walk the same place:
    /// each board of 3x4 with 4 marks, listed in turn, then met again.
    #[test]
    fn coded_places_fall_back_to_the_hash_map_place_for_place() {
        let game: Game = "3x4".parse().unwrap();
        let mut boards = Vec::new();
        let mut codes = Vec::new();
        let empty = <Position as Rules>::empty(game);
        let mut ply = vec![empty];
        for depth in 0..4 {
            let player = Player::at_ply(depth);
            let mut next = Vec::new();
            for (board, code) in ply {
                for cell in Rules::empty_cells(board) {
                    next.push((
                        board.mark(cell, player),
                        board.code_after(code, cell, player),
                    ));
                }
            }
            ply = next;
        }
        for (board, code) in ply {
            boards.push(board);
            codes.push(code);
        }
        let mut dense = Coded::default();
        <Coded as Places<Position>>::ready(&mut dense, game);
        assert!(matches!(dense, Coded::Dense(_)));
        let mut hashed = Coded::Hashed(Hashed::default());
        let mut places = 0;
        for (&board, &code) in boards.iter().zip(&codes) {
            let found = dense.find_or_add(board, code, places);
            assert_eq!(found, hashed.find_or_add(board, code, places));
            if found.is_none() {
                places += 1;
            }
        }
        // 12 cells, 2 X and 2 O: 12!/(2! 2! 8!) boards, each reached 4 times.
        assert_eq!((boards.len(), places), (11_880, 2_970));
        <Coded as Places<Position>>::ready(&mut dense, game);
        let Coded::Dense(slots) = &dense else {
            unreachable!()
        };
        assert!(
            slots.iter().all(|&slot| slot == 0),
            "every board unseen again"
        );
    }
}
