//! The lowest optimal move of every position in play, a half byte per base-3 code (low half
//! first), every image of each stored position written out: a best move is then one read, with
//! no symmetry worked out. 21.5 MB for a game of 16 cells.
//!
//! `build.rs` writes 4x4's at build time and the binary embeds it, so that a process answers
//! 4x4's best moves at once; any other game's is made from its unpacked table on the first best
//! move asked (0.2 to 0.4 s for 16 cells: its 8.8 million writes miss the caches), so that a
//! process asking only values does not pay for it. The file is shared with `build.rs`, which
//! includes it by path: it uses nothing of the crate beyond the solver's codes, the cells and
//! the base-3 code of a position's marks.

use crate::board::Cell;
use crate::position::code_of;
use crate::solve::{Codes, Digits};

/// The half bytes of the positions `stored` (each canonical code, in order, with the mask of
/// its optimal moves) into `moves`, a zeroed half byte per base-3 code of the game.
pub(crate) fn write(codes: &Codes, stored: impl Iterator<Item = (u32, u16)>, moves: &mut [u8]) {
    let turns = codes.geometry().turns().len();
    let digits = Digits::new();
    // The writes of a few hundred images are worked out first, then made in a loop of a few
    // instructions each, so that many of their misses of the caches overlap.
    const BATCH: usize = 256;
    let mut pending: Vec<(u32, u8)> = Vec::with_capacity(BATCH + 8);
    let mut flush = |pending: &mut Vec<(u32, u8)>| {
        for &(image, first) in pending.iter() {
            let (byte, shift) = (image as usize / 2, image % 2 * 4);
            moves[byte] = moves[byte] & !(0xf << shift) | first << shift;
        }
        pending.clear();
    };
    for (code, best) in stored {
        let (x, o) = digits.marks(code);
        for turn in 0..turns {
            let image = codes.turned_code(turn, x, o);
            let first = codes.turn_mask(turn, best.into()).trailing_zeros() as u8;
            pending.push((image, first));
        }
        if pending.len() >= BATCH {
            flush(&mut pending);
        }
    }
    flush(&mut pending);
}

/// How many bytes the half bytes of a game of `cells` cells take.
pub(crate) fn len(cells: usize) -> usize {
    3usize.pow(cells as u32).div_ceil(2)
}

/// The half bytes, with what a query needs to find its code and to tell a position in play.
pub(crate) struct FirstMoves {
    moves: Moves,
    /// Whether each mask of cells holds a line, a bit per mask.
    lines: Box<[u64]>,
    full: u64,
}

/// Where the half bytes are: in the binary, or made in this process.
enum Moves {
    Embedded(&'static [u8]),
    Made(Box<[u8]>),
}

impl FirstMoves {
    /// The embedded half bytes `moves` of the game `codes` are of.
    pub(crate) fn new(codes: &Codes, moves: &'static [u8]) -> FirstMoves {
        FirstMoves::around(codes, Moves::Embedded(moves))
    }

    /// The half bytes made from `moves`.
    pub(crate) fn made(codes: &Codes, moves: Box<[u8]>) -> FirstMoves {
        FirstMoves::around(codes, Moves::Made(moves))
    }

    fn around(codes: &Codes, moves: Moves) -> FirstMoves {
        let cells = codes.geometry().game().cells();
        // Every superset of each line, met by counting up through the cells outside it.
        let mut lines = vec![0u64; (1usize << cells).div_ceil(64)].into_boxed_slice();
        let full = codes.full();
        for &line in codes.geometry().lines() {
            let line = line as u64;
            let mut marks = line;
            loop {
                lines[(marks / 64) as usize] |= 1 << (marks % 64);
                if marks == full {
                    break;
                }
                marks = (marks + 1) | line;
            }
        }
        FirstMoves {
            moves,
            lines,
            full: codes.full(),
        }
    }

    /// The half bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        match &self.moves {
            Moves::Embedded(bytes) => bytes,
            Moves::Made(bytes) => bytes,
        }
    }

    /// Whether `marks` hold a line.
    #[inline]
    pub(crate) fn has_line(&self, marks: u64) -> bool {
        self.lines
            .get((marks / 64) as usize)
            .is_some_and(|word| word >> (marks % 64) & 1 != 0)
    }

    /// Whether every cell is marked.
    #[inline]
    pub(crate) fn is_full(&self, marks: u64) -> bool {
        marks == self.full
    }

    /// The base-3 code of the board `x`, `o`.
    #[inline]
    pub(crate) fn code(&self, x: u64, o: u64) -> usize {
        code_of(x.into(), o.into()) as usize
    }

    /// The lowest optimal move of the position in play with base-3 code `code`.
    #[inline]
    pub(crate) fn at(&self, code: usize) -> Cell {
        let nibble = self.bytes()[code / 2] >> (code % 2 * 4) & 0xf;
        Cell::from_bit(nibble.into())
    }
}
