//! Tic-tac-toe's own board: a legal position in 4 bytes, its eight lines and base-3 codes. Why
//! marks are not a position, or a move is not legal, is `Position`'s to say
//! (`position_error.rs`).
//!
//! This file is shared with `build.rs` (through `#[path]`), so it depends on nothing but `std`
//! and files that `build.rs` pulls in too: the rules (`player.rs`, `cell.rs`, `cells.rs`).

use std::fmt;

use crate::cell::Mask;

// The rules this file held before they were split by idea, still found here by the files
// that import them from `board`.
pub(crate) use crate::cell::Cell;
pub(crate) use crate::cells::Cells;
pub(crate) use crate::player::{Outcome, Player, Status};

/// The eight lines of three: rows, columns, then the diagonals 1-5-9 and 3-5-7.
pub const LINES: [Cells; 8] = [
    Cells::from_bits(0b000_000_111),
    Cells::from_bits(0b000_111_000),
    Cells::from_bits(0b111_000_000),
    Cells::from_bits(0b001_001_001),
    Cells::from_bits(0b010_010_010),
    Cells::from_bits(0b100_100_100),
    Cells::from_bits(0b100_010_001),
    Cells::from_bits(0b001_010_100),
];

/// Whether each of the 512 sets of tic-tac-toe cells holds a line: one load where every
/// position of an audit asks who won.
pub(crate) const HAS_LINE: [bool; 512] = {
    let mut table = [false; 512];
    let mut bits = 0;
    while bits < 512 {
        table[bits] = has_line(Cells::from_bits(bits as Mask));
        bits += 1;
    }
    table
};

/// Whether `cells` holds a whole line.
pub const fn has_line(cells: Cells) -> bool {
    let mut i = 0;
    while i < LINES.len() {
        if cells.bits() & LINES[i].bits() == LINES[i].bits() {
            return true;
        }
        i += 1;
    }
    false
}

/// The X and O masks of the first `cells` base-3 digits of `code` (cell `i` weighs `3^i`; 1 for
/// X, 2 for O): what [`Board::code`] and the m,n,k codes undo.
pub const fn code_marks(code: usize, cells: usize) -> (u64, u64) {
    let (mut x, mut o, mut rest, mut i) = (0u64, 0u64, code, 0);
    while i < cells {
        match rest % 3 {
            1 => x |= 1 << i,
            2 => o |= 1 << i,
            _ => {}
        }
        rest /= 3;
        i += 1;
    }
    (x, o)
}

/// Powers of three of each 9-bit mask: `TERNARY[m]` is the sum of `3^i` over the bits `i` of `m`.
const TERNARY: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut sum = 0u16;
        let mut power = 1u16;
        let mut i = 0;
        while i < 9 {
            if mask & (1 << i) != 0 {
                sum += power;
            }
            power *= 3;
            i += 1;
        }
        table[mask] = sum;
        mask += 1;
    }
    table
};

/// The number of base-3 codes of a board: `3^9`.
pub const CODES: usize = 19_683;

/// A legal position: one that play from the empty board can reach.
///
/// Every `Board` value is legal by construction: the only ways to make one are parsing (which
/// checks), playing legal moves, and the library's own transformations of legal boards.
///
/// Boards read from text: 9 cells row-major. `X`/`x` and `O`/`o` are marks; `.`, `-`, `_` or the
/// cell's own digit `1`..`9` are empty; `|`, `/` and whitespace between cells are ignored. They are
/// written as 9 characters of `X`, `O` and `.`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    // Nine bits each: a tic-tac-toe board stays 4 bytes, where the auditor lists thousands.
    x: u16,
    o: u16,
}

impl Board {
    /// The empty board, X to move.
    pub const EMPTY: Board = Board { x: 0, o: 0 };

    /// The board with X on `x` and O on `o`, if play can reach it (why not is
    /// [`Position::from_marks`](crate::Position::from_marks)'s error).
    pub const fn from_marks(x: Cells, o: Cells) -> Option<Board> {
        let (nx, no) = (x.len(), o.len());
        if x.bits() & o.bits() != 0 || (x.bits() | o.bits()) & !Cells::ALL.bits() != 0 {
            return None;
        }
        if no > nx || nx > no + 1 {
            return None;
        }
        match (has_line(x), has_line(o)) {
            (true, true) => None,
            (true, false) if nx == no => None,
            (false, true) if nx > no => None,
            _ => Some(Board {
                x: x.bits() as u16,
                o: o.bits() as u16,
            }),
        }
    }

    /// The board with X on `x` and O on `o`; the caller guarantees the position is legal (for
    /// example, the image of a legal board under a symmetry).
    #[inline]
    pub(crate) const fn from_marks_unchecked(x: Cells, o: Cells) -> Board {
        Board {
            x: x.bits() as u16,
            o: o.bits() as u16,
        }
    }

    /// The board whose base-3 code is `code` (see [`Board::code`]), if that code is a legal board.
    pub fn from_code(code: usize) -> Option<Board> {
        if code >= CODES {
            return None;
        }
        let (x, o) = code_marks(code, 9);
        Board::from_marks(Cells::from_bits(x as Mask), Cells::from_bits(o as Mask))
    }

    /// The board's base-3 code: the sum over cells `i` of `3^i` times 0 (empty), 1 (X) or 2 (O).
    /// Every board has its own code below `3^9` = 19,683.
    #[inline]
    pub const fn code(self) -> usize {
        // The masks hold nine bits: saying so spares the two bounds checks.
        TERNARY[self.x as usize & 0x1ff] as usize + 2 * TERNARY[self.o as usize & 0x1ff] as usize
    }

    /// The mark on `cell`, if any.
    pub const fn get(self, cell: Cell) -> Option<Player> {
        if self.xs().contains(cell) {
            Some(Player::X)
        } else if self.os().contains(cell) {
            Some(Player::O)
        } else {
            None
        }
    }

    /// The cells holding `player`'s marks.
    pub const fn marks(self, player: Player) -> Cells {
        match player {
            Player::X => self.xs(),
            Player::O => self.os(),
        }
    }

    /// The cells holding no mark.
    pub const fn empty_cells(self) -> Cells {
        Cells::from_bits(!(self.x | self.o) as Mask & 0x1ff)
    }

    /// How many moves have been played.
    pub const fn ply(self) -> usize {
        (self.x.count_ones() + self.o.count_ones()) as usize
    }

    /// The player whose turn it is (on a finished board, whose turn it would be).
    pub const fn to_move(self) -> Player {
        if self.x.count_ones() > self.o.count_ones() {
            Player::O
        } else {
            Player::X
        }
    }

    /// The player who made a line, if any.
    pub const fn winner(self) -> Option<Player> {
        if HAS_LINE[self.x as usize] {
            Some(Player::X)
        } else if HAS_LINE[self.o as usize] {
            Some(Player::O)
        } else {
            None
        }
    }

    /// Where the game stands.
    pub const fn status(self) -> Status {
        match self.winner() {
            Some(player) => Status::Finished(Outcome::Win(player)),
            None if self.ply() == 9 => Status::Finished(Outcome::Draw),
            None => Status::InProgress,
        }
    }

    /// Whether the game is over.
    pub const fn is_over(self) -> bool {
        !matches!(self.status(), Status::InProgress)
    }

    /// The cells the side to move may play: the empty cells, or none once the game is over.
    #[inline]
    pub const fn legal_moves(self) -> Cells {
        if self.is_over() {
            Cells::EMPTY
        } else {
            self.empty_cells()
        }
    }

    /// The board after the side to move plays `cell`, if the rules allow it (why not is
    /// [`Position::play`](crate::Position::play)'s error).
    pub const fn play(self, cell: Cell) -> Option<Board> {
        if cell.index() >= 9 || self.is_over() || self.get(cell).is_some() {
            return None;
        }
        Some(self.play_unchecked(cell))
    }

    /// Marks `cell` for `player`, the side to move, which the caller knows (as it knows the
    /// move is legal): counting the marks to find it has no instruction on the portable build.
    #[inline(always)]
    pub(crate) const fn mark_unchecked(self, cell: Cell, player: Player) -> Board {
        debug_assert!(matches!(
            (self.to_move(), player),
            (Player::X, Player::X) | (Player::O, Player::O)
        ));
        match player {
            Player::X => Board {
                x: self.x | cell.bit() as u16,
                o: self.o,
            },
            Player::O => Board {
                x: self.x,
                o: self.o | cell.bit() as u16,
            },
        }
    }

    /// Plays `cell` for the side to move; the caller guarantees the move is legal.
    pub(crate) const fn play_unchecked(self, cell: Cell) -> Board {
        self.mark_unchecked(cell, self.to_move())
    }

    /// The board with `cell` emptied; the caller guarantees the result is legal (taking back
    /// the last move of a legal game).
    pub(crate) const fn unplay_unchecked(self, cell: Cell) -> Board {
        Board {
            x: self.x & !(cell.bit() as u16),
            o: self.o & !(cell.bit() as u16),
        }
    }

    /// Every legal position, ordered by ply and then by the board's text (`.` < `O` < `X`).
    pub fn reachable() -> Vec<Board> {
        let mut boards: Vec<Board> = (0..CODES).filter_map(Board::from_code).collect();
        boards.sort_by_cached_key(|board| (board.ply(), board.to_string()));
        boards
    }
}

impl Board {
    const fn xs(self) -> Cells {
        Cells::from_bits(self.x as Mask)
    }

    const fn os(self) -> Cells {
        Cells::from_bits(self.o as Mask)
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::EMPTY
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cell in Cell::ALL {
            let c = match self.get(cell) {
                Some(player) => player.mark(),
                None => '.',
            };
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}
