//! The embedded table: any legal position answered in O(1) from arrays by base-3 code, which
//! `build.rs` expands and embeds beside the serialized table, so that no process decodes it.

use std::sync::OnceLock;

use once_cell::sync::Lazy;

use crate::board::{Board, CODES, Cell, Cells};
use crate::format::tic_tac_toe::{self as format, FormatError, PRESENT};
use crate::game::{Game, Geometry, Mask};
use crate::position::Position;
use crate::solve::tic_tac_toe::{Evaluation, Solution};
use crate::symmetry::Canonical;
use crate::value::{MoveValue, Probe};

/// The table `build.rs` wrote, as embedded in this binary.
static EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/table.bin"));

/// The same table expanded by `build.rs`: `TABLE_CHECKSUM`, `EXPANDED_CHECKSUM`, `WORDS` and
/// `FIRST`.
mod expanded {
    use crate::board::CODES;
    include!(concat!(env!("OUT_DIR"), "/expanded.rs"));
}

/// The embedded table, checked on first use; the error, kept for every later call, if the bytes
/// are damaged.
static TABLE: Lazy<Result<Dense, FormatError>> = Lazy::new(|| {
    Dense::from_expanded(
        EMBEDDED,
        &expanded::WORDS,
        &expanded::FIRST,
        expanded::TABLE_CHECKSUM,
        expanded::EXPANDED_CHECKSUM,
    )
});

/// The process-wide table, checked on first use, or why it cannot be used.
///
/// The embedded bytes are checked once (the serialized table's frame and checksum, the expanded
/// arrays' checksum, and that both are the same table); every call after the first returns the
/// same table (or the same error). A program that must not panic calls this before anything
/// that uses [`table()`], which then cannot fail.
///
/// # Errors
///
/// [`FormatError`] saying what is wrong when the bytes embedded in the binary are damaged
/// (which takes a binary altered after the build: `build.rs` writes them, the tests check them).
pub fn try_table() -> Result<&'static Dense, FormatError> {
    TABLE.as_ref().map_err(FormatError::clone)
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
    /// The lowest optimal move of each code, [`NO_MOVE`](format::NO_MOVE) where the game is over: the
    /// 19.7 KB that [`best_move`](Dense::best_move) reads stay in the first-level cache, where
    /// the 39 KB of the words would not.
    first: [u8; CODES],
    /// Tic-tac-toe's rules, one per process: a position is tic-tac-toe's if it holds them.
    geometry: &'static Geometry,
    /// The canonical entries: decoded with the table from bytes, gathered from the words on
    /// first use for the embedded table.
    solution: OnceLock<Solution>,
    checksum: u64,
    size: usize,
}

impl Dense {
    /// Decodes a table written by `build.rs` (see the `format` module) and expands it over all
    /// eight symmetries of each canonical position.
    ///
    /// Any bytes may be given: whatever they hold, this returns an error rather than panic,
    /// and a table it returns answers every legal position.
    ///
    /// # Errors
    ///
    /// [`FormatError`] when the bytes are not a complete, undamaged table.
    pub fn from_bytes(bytes: &[u8]) -> Result<Dense, FormatError> {
        let (solution, checksum) = format::decode(bytes)?;
        let expanded = format::expand(&solution)?;
        Ok(Dense {
            dense: expanded.words,
            first: *expanded.first,
            geometry: Game::TIC_TAC_TOE.geometry(),
            solution: OnceLock::from(solution),
            checksum,
            size: bytes.len(),
        })
    }

    /// The table from arrays `build.rs` expanded, once the serialized `bytes` pass their
    /// frame and checksum, the arrays theirs (`expanded_checksum`), and both come from the same
    /// table (`table_checksum`, the one the arrays were expanded from).
    ///
    /// # Errors
    ///
    /// [`FormatError`] naming the first check that fails.
    pub(crate) fn from_expanded(
        bytes: &[u8],
        words: &[u16; CODES],
        first: &[u8; CODES],
        table_checksum: u64,
        expanded_checksum: u64,
    ) -> Result<Dense, FormatError> {
        let checksum = format::check_frame(bytes)?;
        let computed = format::expanded_checksum(words, first);
        if computed != expanded_checksum {
            return Err(FormatError::Expanded {
                reason: format!(
                    "does not match its checksum: stored {expanded_checksum:016x}, \
                     its arrays give {computed:016x}"
                ),
            });
        }
        if checksum != table_checksum {
            return Err(FormatError::Expanded {
                reason: format!(
                    "was expanded from the table of checksum {table_checksum:016x}, \
                     not {checksum:016x}"
                ),
            });
        }
        Ok(Dense {
            dense: Box::from(&words[..]),
            first: *first,
            geometry: Game::TIC_TAC_TOE.geometry(),
            solution: OnceLock::new(),
            checksum,
            size: bytes.len(),
        })
    }

    /// Whether `other` answers every code as this table does.
    pub(crate) fn same_answers(&self, other: &Dense) -> bool {
        self.dense == other.dense && self.first == other.first
    }

    /// The bytes embedded in this binary.
    pub fn embedded_bytes() -> &'static [u8] {
        EMBEDDED
    }

    /// The size in bytes of the serialized table this was decoded from.
    pub fn size_bytes(&self) -> usize {
        self.size
    }

    /// The checksum stored in (and verified against) the serialized table.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The canonical entries, as decoded (for the embedded table, gathered from its words on
    /// first use).
    pub fn solution(&self) -> &Solution {
        self.solution.get_or_init(|| {
            let entries = (0..CODES)
                .filter_map(|code| {
                    let canonical = Canonical::new(Board::from_code(code)?)?;
                    Some((canonical, self.evaluate_code(code)?))
                })
                .collect();
            Solution::new(entries)
        })
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
