//! Tic-tac-toe's table laid out for speed: any legal position answered in O(1) from arrays by
//! base-3 code, which `build.rs` expands from the stored table (`format/dense.rs`) and embeds
//! beside it, so that no process decodes it.

use once_cell::sync::Lazy;

use crate::board::{Board, CODES, Cell, Cells};
use crate::format::dense::{self as format, Expanded, PRESENT};
use crate::format::{Packed, checksum_of};
use crate::game::{Game, Geometry, Mask};
use crate::position::Position;
use crate::value::{Evaluation, MoveValue, Probe};

/// The arrays `build.rs` expanded: `TABLE_CHECKSUM`, `EXPANDED_CHECKSUM`, `WORDS` and `FIRST`.
mod expanded {
    use crate::board::CODES;
    include!(concat!(env!("OUT_DIR"), "/expanded.rs"));
}

/// The embedded table, checked on first use; the error, kept for every later call, if the bytes
/// are damaged.
static TABLE: Lazy<Result<Dense, String>> = Lazy::new(|| {
    let bytes = super::embedded_bytes(Game::TIC_TAC_TOE).expect("tic-tac-toe is embedded");
    Dense::from_expanded(
        bytes,
        &expanded::WORDS,
        &expanded::FIRST,
        expanded::TABLE_CHECKSUM,
        expanded::EXPANDED_CHECKSUM,
    )
});

/// The process-wide table, checked on first use, or what is wrong with the embedded bytes.
///
/// The embedded bytes are checked once (the stored table's frame and checksum, the expanded
/// arrays' checksum, and that both are the same table); every call after the first returns the
/// same table (or the same error). A program that must not panic calls this before anything
/// that uses [`table()`], which then cannot fail. Damage takes a binary altered after the
/// build: `build.rs` writes the bytes, the tests check them.
pub fn try_table() -> Result<&'static Dense, String> {
    TABLE.as_ref().map_err(String::clone)
}

/// The process-wide table, checked on first use.
///
/// # Panics
///
/// If the embedded bytes are damaged. The build writes them and the tests check them, so that
/// takes a binary altered after the build; [`try_table()`] returns the damage as an error
/// instead.
pub fn table() -> &'static Dense {
    match try_table() {
        Ok(table) => table,
        Err(error) => panic!("the embedded table is damaged ({error}); rebuild the crate"),
    }
}

/// The solved game, ready for queries.
///
/// Holds one 16-bit word for each of the 3^9 base-3 codes of a board: a query computes the code
/// with two array reads and reads the word, so no symmetry is tried and nothing is searched.
pub struct Dense {
    dense: Box<[u16]>,
    /// The lowest optimal move of each code, [`NO_MOVE`](format::NO_MOVE) where the game is
    /// over: the 19.7 KB that [`best_move`](Dense::best_move) reads stay in the first-level
    /// cache, where the 39 KB of the words would not.
    first: [u8; CODES],
    /// Tic-tac-toe's rules, one per process: a position is tic-tac-toe's if it holds them.
    geometry: &'static Geometry,
    checksum: u64,
    size: usize,
}

impl Dense {
    /// The table from arrays `build.rs` expanded, once the stored `bytes` pass their frame and
    /// checksum, the arrays theirs (`expanded_checksum`), and both come from the same table
    /// (`table_checksum`, the one the arrays were expanded from).
    ///
    /// # Errors
    ///
    /// What is wrong, naming the first check that fails.
    pub(crate) fn from_expanded(
        bytes: &[u8],
        words: &[u16; CODES],
        first: &[u8; CODES],
        table_checksum: u64,
        expanded_checksum: u64,
    ) -> Result<Dense, String> {
        Packed::open(bytes).map_err(|error| error.to_string())?;
        let checksum = checksum_of(bytes);
        let computed = format::expanded_checksum(words, first);
        if computed != expanded_checksum {
            return Err(format!(
                "the expanded table does not match its checksum: stored {expanded_checksum:016x}, \
                 its arrays give {computed:016x}"
            ));
        }
        if checksum != table_checksum {
            return Err(format!(
                "the expanded table was expanded from the table of checksum \
                 {table_checksum:016x}, not {checksum:016x}"
            ));
        }
        Ok(Dense {
            dense: Box::from(&words[..]),
            first: *first,
            geometry: Game::TIC_TAC_TOE.geometry(),
            checksum,
            size: bytes.len(),
        })
    }

    /// Every code the table answers otherwise than `expanded` does (its word or its first
    /// move), with the word of each.
    pub(crate) fn codes_differing<'a>(
        &'a self,
        expanded: &'a Expanded,
    ) -> impl Iterator<Item = (usize, u16, u16)> + 'a {
        (0..CODES)
            .filter(|&code| {
                self.dense[code] != expanded.words[code] || self.first[code] != expanded.first[code]
            })
            .map(|code| (code, self.dense[code], expanded.words[code]))
    }

    /// The size of the stored table, in bytes.
    pub fn size_bytes(&self) -> usize {
        self.size
    }

    /// The checksum of the stored table.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// Value, remoteness and optimal moves of `board`, for the side to move.
    pub fn evaluate(&self, board: &Board) -> Evaluation {
        let word = self.dense[board.code()];
        debug_assert!(word & PRESENT != 0, "every legal board is in the table");
        format::unpack(word & !PRESENT).expect("the table holds only valid words")
    }

    /// Value, remoteness and optimal moves of the board with base-3 code `code`, if it is a
    /// legal board (every legal board is in the table); `None` for any other code.
    #[inline]
    pub(crate) fn evaluate_code(&self, code: usize) -> Option<Evaluation> {
        let word = *self.dense.get(code)?;
        if word & PRESENT == 0 {
            return None;
        }
        format::unpack(word & !PRESENT)
    }

    /// Value and remoteness of `board`, for the side to move.
    pub fn probe(&self, board: &Board) -> Probe {
        let evaluation = self.evaluate(board);
        Probe {
            value: evaluation.value,
            remoteness: evaluation.remoteness,
        }
    }

    /// The optimal moves: the best value, then the fastest win or the slowest loss; every
    /// drawing move when the value is a draw. Empty when the game is over.
    pub fn best_moves(&self, board: &Board) -> Cells {
        // The hot path: the low nine bits of the word are the moves, nothing to unpack.
        let word = self.dense[board.code()];
        debug_assert!(word & PRESENT != 0, "every legal board is in the table");
        Cells::from_bits((word & 0x1ff) as Mask)
    }

    /// One optimal move, chosen deterministically: the fastest win, else the slowest loss, and
    /// among equals the lowest cell. `None` when the game is over.
    ///
    /// One byte read from a 19.7 KB array by the base-3 code the position keeps: the whole
    /// query is a comparison of pointers, the code's load and the byte's.
    ///
    /// # Panics
    ///
    /// If `position` is not tic-tac-toe's.
    #[inline(always)]
    pub(crate) fn best_move(&self, position: &Position) -> Option<Cell> {
        if !position.is_of(self.geometry) {
            crate::game::wrong_game(position.game(), Game::TIC_TAC_TOE);
        }
        Cell::new(usize::from(self.first[position.code()]))
    }

    /// Every legal move with its value and remoteness from the view of the player making it,
    /// by cell. Empty when the game is over.
    pub fn analyze(&self, board: &Board) -> Vec<MoveValue> {
        board
            .legal_moves()
            .iter()
            .map(|cell| self.analyze_move(board, cell))
            .collect()
    }

    /// Where `cell`, a legal move on `board`, leads, from the view of the player making it.
    pub(crate) fn analyze_move(&self, board: &Board, cell: Cell) -> MoveValue {
        debug_assert!(board.legal_moves().contains(cell));
        let after = self.probe(&board.play_unchecked(cell));
        MoveValue {
            cell,
            value: -after.value,
            remoteness: after.remoteness + 1,
        }
    }
}
