//! A cell of a board: an index from 0 inside, a number from 1 for people and programs, and a
//! bit of a [`Mask`].
//!
//! This file is shared with `build.rs` (through `#[path]`).

use std::fmt;

/// A set of cells of a board, one bit a cell: bit `i` is cell `i + 1`.
pub type Mask = u128;

/// The most cells a board may have: one bit each in a [`Mask`] (an 11x11 board, 121 cells,
/// fits; 12x12 does not).
pub const MAX_CELLS: usize = Mask::BITS as usize;

/// A square of the board. Inside it is an index 0..9; people and programs see it as 1..9, row-major:
///
/// ```text
/// 1 2 3
/// 4 5 6
/// 7 8 9
/// ```
///
/// # Examples
///
/// ```
/// use ttt_oracle::Cell;
///
/// let centre = Cell::from_number(5).unwrap();
/// assert_eq!(centre.index(), 4);
/// assert_eq!(centre.to_string(), "5");
/// assert_eq!(Cell::from_number(16), Cell::new(15)); // a cell of 4x4
/// assert!(Cell::from_number(0).is_none() && Cell::from_number(129).is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

/// Shows the number people use, `Cell(5)` for the centre.
impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cell({})", self.number())
    }
}

impl Cell {
    /// Every cell of tic-tac-toe, in order 1..9.
    pub(crate) const ALL: [Cell; 9] = [
        Cell(0),
        Cell(1),
        Cell(2),
        Cell(3),
        Cell(4),
        Cell(5),
        Cell(6),
        Cell(7),
        Cell(8),
    ];

    /// The cell people call `number` (1 to 128, the largest board; a game's cells run to
    /// rows * columns), if there is one.
    pub const fn from_number(number: u32) -> Option<Cell> {
        if number >= 1 && number <= MAX_CELLS as u32 {
            Some(Cell(number as u8 - 1))
        } else {
            None
        }
    }

    /// The index of this cell, from 0.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The number people use for this cell, from 1.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// Whether this is one of the four corners (1, 3, 7, 9).
    pub(crate) const fn is_corner(self) -> bool {
        matches!(self.0, 0 | 2 | 6 | 8)
    }

    /// Whether this is one of the four sides (2, 4, 6, 8).
    pub(crate) const fn is_side(self) -> bool {
        matches!(self.0, 1 | 3 | 5 | 7)
    }

    /// The cell mirrored through the centre (1 ↔ 9, 2 ↔ 8, ...).
    pub(crate) const fn opposite(self) -> Cell {
        Cell(8 - self.0)
    }

    /// The cell with index `index` on a board of any game (0..128, the largest board a
    /// [`Cells`](crate::cells::Cells) holds), if there is one.
    #[inline]
    pub const fn new(index: usize) -> Option<Cell> {
        if index < MAX_CELLS {
            Some(Cell(index as u8))
        } else {
            None
        }
    }

    /// The cell of bit `bit` of a [`Mask`]; the caller guarantees that `bit` is below
    /// [`MAX_CELLS`], as every set bit of a mask is.
    #[inline]
    pub(crate) const fn from_bit(bit: u32) -> Cell {
        Cell(bit as u8)
    }

    /// The mask of this cell alone.
    pub(crate) const fn bit(self) -> Mask {
        1 << self.0
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}
