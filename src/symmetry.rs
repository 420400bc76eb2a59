//! The eight symmetries of the square, and the canonical form of a board under them.
//!
//! This file is shared with `build.rs` (through `#[path]`).

use std::fmt;

use crate::board::Board;
use crate::cell::Mask;
use crate::cells::Cells;
use crate::player::Player;

/// One of the eight ways to turn or flip the board onto itself.
///
/// Each moves the mark on a cell to another cell; with cells numbered
///
/// ```text
/// 1 2 3
/// 4 5 6
/// 7 8 9
/// ```
///
/// | name | what it does | 1 2 3 4 5 6 7 8 9 go to |
/// | --- | --- | --- |
/// | `identity` | nothing | 1 2 3 4 5 6 7 8 9 |
/// | `rotate90` | a quarter turn clockwise | 3 6 9 2 5 8 1 4 7 |
/// | `rotate180` | a half turn | 9 8 7 6 5 4 3 2 1 |
/// | `rotate270` | a quarter turn anticlockwise | 7 4 1 8 5 2 9 6 3 |
/// | `flip_horizontal` | mirror left to right | 3 2 1 6 5 4 9 8 7 |
/// | `flip_vertical` | mirror top to bottom | 7 8 9 4 5 6 1 2 3 |
/// | `transpose` | mirror in the diagonal 1-5-9 | 1 4 7 2 5 8 3 6 9 |
/// | `anti_transpose` | mirror in the diagonal 3-5-7 | 9 6 3 8 5 2 7 4 1 |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves every cell where it is.
    Identity,
    /// A quarter turn clockwise.
    Rotate90,
    /// A half turn.
    Rotate180,
    /// A quarter turn anticlockwise.
    Rotate270,
    /// A mirror that swaps left and right.
    FlipHorizontal,
    /// A mirror that swaps top and bottom.
    FlipVertical,
    /// A mirror in the diagonal 1-5-9.
    Transpose,
    /// A mirror in the diagonal 3-5-7.
    AntiTranspose,
}

/// Where each symmetry sends the cell with index `i`, in the order of [`Symmetry::ALL`].
const TARGETS: [[u8; 9]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [2, 5, 8, 1, 4, 7, 0, 3, 6],
    [8, 7, 6, 5, 4, 3, 2, 1, 0],
    [6, 3, 0, 7, 4, 1, 8, 5, 2],
    [2, 1, 0, 5, 4, 3, 8, 7, 6],
    [6, 7, 8, 3, 4, 5, 0, 1, 2],
    [0, 3, 6, 1, 4, 7, 2, 5, 8],
    [8, 5, 2, 7, 4, 1, 6, 3, 0],
];

/// Each symmetry applied to every 9-bit mask, so that moving a set of cells is one lookup.
const MASKS: [[u16; 512]; 8] = {
    let mut table = [[0u16; 512]; 8];
    let mut s = 0;
    while s < 8 {
        let mut mask = 0;
        while mask < 512 {
            let mut image = 0u16;
            let mut i = 0;
            while i < 9 {
                if mask & (1 << i) != 0 {
                    image |= 1 << TARGETS[s][i];
                }
                i += 1;
            }
            table[s][mask] = image;
            mask += 1;
        }
        s += 1;
    }
    table
};

impl Symmetry {
    /// All eight, identity first; where several map a board to its canonical form, the first of
    /// them in this order is the one reported.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The name programs see, for example `rotate90` or `flip_horizontal`.
    pub const fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::Rotate180 => "rotate180",
            Symmetry::Rotate270 => "rotate270",
            Symmetry::FlipHorizontal => "flip_horizontal",
            Symmetry::FlipVertical => "flip_vertical",
            Symmetry::Transpose => "transpose",
            Symmetry::AntiTranspose => "anti_transpose",
        }
    }

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// Where this symmetry sends each of `cells`.
    pub(crate) const fn apply_cells(self, cells: Cells) -> Cells {
        Cells::from_bits(MASKS[self as usize][cells.bits() as usize] as Mask)
    }

    /// The board with every mark moved by this symmetry.
    pub(crate) const fn apply(self, board: Board) -> Board {
        let x = self.apply_cells(board.marks(Player::X));
        let o = self.apply_cells(board.marks(Player::O));
        // Turning or flipping the board keeps counts and lines, so the image is legal too.
        Board::from_marks_unchecked(x, o)
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The canonical form of `board` (of its eight images, the one with the smallest base-3 code,
/// [`Board::code`]), and the first symmetry (in the order of [`Symmetry::ALL`]) that maps
/// `board` onto it.
pub fn canonicalize(board: Board) -> (Board, Symmetry) {
    let mut best = (board, Symmetry::Identity);
    for symmetry in Symmetry::ALL.into_iter().skip(1) {
        let image = symmetry.apply(board);
        if image.code() < best.0.code() {
            best = (image, symmetry);
        }
    }
    best
}
