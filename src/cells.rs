//! A set of cells, one bit a cell, and its iterator.
//!
//! This file is shared with `build.rs` (through `#[path]`).

use std::fmt;

use crate::cell::{Cell, Mask};

/// A set of cells, one bit a cell: tic-tac-toe's nine, or the cells of any board up to 128
/// cells. Iterates in order of cell number.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Cell, Cells};
///
/// let corners: Cells = [1, 3, 7, 9].into_iter().filter_map(Cell::from_number).collect();
/// assert_eq!(corners.len(), 4);
/// assert!(corners.contains(Cell::from_number(7).unwrap()));
/// assert_eq!(corners.to_string(), "1 3 7 9");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Cells(Mask);

impl Cells {
    /// No cells.
    pub const EMPTY: Cells = Cells(0);
    /// All nine cells of tic-tac-toe.
    pub const ALL: Cells = Cells(0x1ff);

    /// The set whose mask is `bits`: bit `i` is the cell with index `i`.
    #[inline]
    pub const fn from_bits(bits: Mask) -> Cells {
        Cells(bits)
    }

    /// The mask of this set: bit `i` is the cell with index `i`.
    #[inline]
    pub const fn bits(self) -> Mask {
        self.0
    }

    /// Whether `cell` is in the set.
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 & cell.bit() != 0
    }

    /// The set with `cell` added.
    #[must_use]
    pub const fn with(self, cell: Cell) -> Cells {
        Cells(self.0 | cell.bit())
    }

    /// The set with `cell` taken out.
    #[must_use]
    pub const fn without(self, cell: Cell) -> Cells {
        Cells(self.0 & !cell.bit())
    }

    /// Adds `cell` to the set.
    pub fn insert(&mut self, cell: Cell) {
        self.0 |= cell.bit();
    }

    /// How many cells are in the set.
    pub const fn len(self) -> usize {
        count(self.0) as usize
    }

    /// Whether the set has no cells.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has exactly one cell: cheaper than `len() == 1` where the processor
    /// has no instruction for counting bits (the portable build's case), and the bots' rules
    /// ask it of every line at every move.
    pub const fn is_single(self) -> bool {
        self.0 != 0 && self.0 & (self.0 - 1) == 0
    }

    /// The lowest-numbered cell of the set.
    #[inline]
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::from_bit(self.0.trailing_zeros()))
        }
    }

    /// The cells in both sets.
    #[must_use]
    pub const fn intersection(self, other: Cells) -> Cells {
        Cells(self.0 & other.0)
    }

    /// The cells in either set.
    #[must_use]
    pub const fn union(self, other: Cells) -> Cells {
        Cells(self.0 | other.0)
    }

    /// The cells in order 1..9.
    pub fn iter(self) -> CellsIter {
        CellsIter {
            low: self.0 as u64,
            high: (self.0 >> 64) as u64,
        }
    }
}

impl fmt::Debug for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(Cell::number))
            .finish()
    }
}

/// Cells separated by single spaces, for example `1 5 9`; nothing for the empty set.
impl fmt::Display for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, cell) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{cell}")?;
        }
        Ok(())
    }
}

impl FromIterator<Cell> for Cells {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Cells {
        let mut cells = Cells::EMPTY;
        for cell in iter {
            cells.insert(cell);
        }
        cells
    }
}

impl IntoIterator for Cells {
    type Item = Cell;
    type IntoIter = CellsIter;

    fn into_iter(self) -> CellsIter {
        self.iter()
    }
}

/// The number of cells in `mask`: on tic-tac-toe's and other small boards only the low half
/// has any, and the portable build counts bits in software, half as many this way.
#[inline]
pub(crate) const fn count(mask: Mask) -> u32 {
    let (low, high) = (mask as u64, (mask >> 64) as u64);
    if high == 0 {
        low.count_ones()
    } else {
        low.count_ones() + high.count_ones()
    }
}

/// The iterator behind [`Cells::iter`].
///
/// The mask in two halves, low cells first: most sets (every one of tic-tac-toe's) lie in the
/// low half, where each step is one 64-bit operation rather than a 128-bit one.
#[derive(Clone, Debug)]
pub struct CellsIter {
    low: u64,
    high: u64,
}

impl Iterator for CellsIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.low == 0 {
            if self.high == 0 {
                return None;
            }
            let cell = Cell::from_bit(64 + self.high.trailing_zeros());
            self.high &= self.high - 1;
            return Some(cell);
        }
        let cell = Cell::from_bit(self.low.trailing_zeros());
        self.low &= self.low - 1;
        Some(cell)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let high = if self.high == 0 {
            0
        } else {
            self.high.count_ones()
        };
        let n = (self.low.count_ones() + high) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CellsIter {}
