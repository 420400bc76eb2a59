//! The stored table of a game: what `build.rs` writes for each embedded game, and
//! what `ttt` reads back, whole or a block at a time. Shared with `build.rs` (through
//! `#[path]`).
//!
//! Only the canonical positions still in play are stored: a finished board needs no table,
//! and the other images of a position are found by symmetry. Each position carries its entry
//! (value and remoteness) and its optimal moves, so that a best move is one position's
//! record, not one per legal move. Positions go by ascending base-3 code in blocks of
//! `block`; an index gives each block's first code and the bit where the block starts, so
//! that one position is found by decoding one block. Layout (integers little-endian):
//!
//! | field | size | meaning |
//! | --- | --- | --- |
//! | magic | 8 | `TTTMNKTB` |
//! | version | 4 | [`MNK_FORMAT_VERSION`] |
//! | rows, columns, k | 1 each | the game |
//! | count | 4 | canonical positions in play stored |
//! | block | 2 | positions a block |
//! | rice | 1 | the Rice parameter of the gaps |
//! | symbols | 2 + 3 each | how many pairs, then each pair's entry, move count and code length |
//! | index | 8 a block | the block's first code, and the bit where the block starts |
//! | positions | 4 + bytes | a bit stream, a record per position |
//! | checksum | 8 | [`checksum`] of everything before it |
//!
//! A pair is an entry and a number of optimal moves, as one Huffman symbol. A position's record
//! is: but for a block's first, its code less the one before, less one, Rice-coded; the Huffman
//! code of its pair (entry, n); and which of the C(e, n) sets of n of its e empty cells are its
//! optimal moves, as their colex rank in truncated binary. Bit streams are read from the low
//! bit of each byte up.
//!
//! `write.rs` writes a table and `read.rs` reads it, whole or a block at a time, both with the
//! bit streams and truncated binary of `bits.rs`, the Huffman code of `huffman.rs` and the
//! subset ranks of `subsets.rs`. `dense.rs` expands tic-tac-toe's stored table into the arrays
//! the 3x3 layout answers from.

mod bits;
pub mod dense;
mod huffman;
mod read;
mod subsets;
mod write;

use std::fmt;

use crate::game::Game;
use crate::solve::{Digits, Solution};
use crate::value::{Entry, unentry};

pub use read::{Packed, decode};
pub use write::encode;

/// The first eight bytes of an m,n,k table.
pub const MNK_MAGIC: [u8; 8] = *b"TTTMNKTB";

/// The version of this layout; a reader refuses any other.
pub const MNK_FORMAT_VERSION: u32 = 2;

/// Positions a block: one query decodes up to this many (a few microseconds), and the index
/// costs 8 bytes a block.
pub const BLOCK: usize = 256;

/// What a position's Huffman code stands for: its entry, and how many optimal moves it has.
type Pair = (Entry, u8);

/// Bytes of a block's index record: its first code, and the bit where it starts.
const INDEX_RECORD: usize = 8;

/// Why bytes are not an m,n,k table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableFormatError {
    /// The bytes end before the table does.
    Truncated,
    /// Not a table of this kind.
    BadMagic,
    /// Written by another version of the layout.
    Version(u32),
    /// The stored checksum does not match the bytes.
    Checksum,
    /// The bytes hold a table, but something in it is impossible: what.
    Invalid(&'static str),
}

impl fmt::Display for TableFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableFormatError::Truncated => f.write_str("the table ends too early"),
            TableFormatError::BadMagic => f.write_str("not an m,n,k table (wrong magic)"),
            TableFormatError::Version(version) => write!(
                f,
                "table format version {version}, this build reads version {MNK_FORMAT_VERSION}"
            ),
            TableFormatError::Checksum => f.write_str("the checksum does not match"),
            TableFormatError::Invalid(what) => write!(f, "damaged table: {what}"),
        }
    }
}

impl std::error::Error for TableFormatError {}

/// The positions of a decoded table: base-3 codes of canonical boards in play, ascending, and
/// the entry and optimal moves of each.
pub struct Stored {
    /// The game.
    pub game: Game,
    /// Codes, ascending.
    pub codes: Vec<u32>,
    /// The entry of each code.
    pub entries: Vec<Entry>,
    /// The optimal moves of each code, as a mask (bit `i` is cell `i + 1`).
    pub best: Vec<u16>,
}

/// One stored position: its code, entry and optimal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredPosition {
    /// The base-3 code of the canonical board.
    pub code: u32,
    /// Its value and remoteness.
    pub entry: Entry,
    /// Its optimal moves, as a mask (bit `i` is cell `i + 1`).
    pub best: u16,
}

/// Collects the positions a table stores from a solution: the canonical boards in play.
pub fn stored(solution: &Solution) -> Stored {
    let game = solution.game();
    let (mut codes, mut entries, mut best) = (Vec::new(), Vec::new(), Vec::new());
    let mut moves = solution.best_moves().iter();
    for (code, &entry) in solution.entries().iter().enumerate() {
        // A remoteness of 0 is a finished board.
        if matches!(unentry(entry), Some((_, remoteness)) if remoteness > 0) {
            let &(visited, mask) = moves.next().expect("every board in play was visited");
            assert_eq!(visited, code as u32, "the solver visits the boards in play");
            codes.push(visited);
            entries.push(entry);
            best.push(mask);
        }
    }
    Stored {
        game,
        codes,
        entries,
        best,
    }
}

/// The checksum of a table: FNV-1a's step (xor, then multiply by its prime) on 64-bit words in
/// four interleaved lanes, then the lanes and the length folded by the same step. Each step is
/// one-to-one in its lane, so a damaged word changes its lane for good; four lanes keep four
/// multiplications in flight, so the 1.4 MB of 4x4's table take about 0.1 ms, where FNV-1a a
/// byte at a time takes 1.6 ms, more than a whole `ttt best` on tic-tac-toe.
pub fn checksum(bytes: &[u8]) -> u64 {
    const BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0100_0000_01b3;
    let step = |hash: u64, word: u64| (hash ^ word).wrapping_mul(PRIME);
    let word = |chunk: &[u8]| {
        let mut bytes = [0u8; 8];
        bytes[..chunk.len()].copy_from_slice(chunk);
        u64::from_le_bytes(bytes)
    };
    let mut lanes = [BASIS, BASIS ^ 1, BASIS ^ 2, BASIS ^ 3];
    let mut chunks = bytes.chunks_exact(32);
    for chunk in &mut chunks {
        for (lane, bytes) in lanes.iter_mut().zip(chunk.chunks_exact(8)) {
            *lane = step(*lane, word(bytes));
        }
    }
    for (lane, bytes) in lanes.iter_mut().zip(chunks.remainder().chunks(8)) {
        *lane = step(*lane, word(bytes));
    }
    lanes
        .into_iter()
        .chain([bytes.len() as u64])
        .fold(BASIS, step)
}

/// The empty cells of the board with base-3 code `code`, on a board whose cells are `full`.
/// The checksum a table stores in its last 8 bytes, read without checking it (0 when there
/// are fewer bytes).
pub fn checksum_of(bytes: &[u8]) -> u64 {
    let sum = bytes
        .len()
        .checked_sub(8)
        .map_or(&[][..], |start| &bytes[start..]);
    sum.try_into().map_or(0, u64::from_le_bytes)
}

fn empty_cells(digits: &Digits, full: u64, code: u32) -> u64 {
    let (x, o) = digits.marks(code);
    !(x | o) & full
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checksum_sees_any_one_bit_changed() {
        let bytes: Vec<u8> = (0..100u32).map(|i| (i * 37 % 251) as u8).collect();
        let sum = checksum(&bytes);
        for length in [0, 7, 8, 31, 32, 33, 100] {
            assert_ne!(
                checksum(&bytes[..length]),
                checksum(&[&bytes[..length], &[0][..]].concat())
            );
        }
        for bit in 0..8 * bytes.len() {
            let mut damaged = bytes.clone();
            damaged[bit / 8] ^= 1 << (bit % 8);
            assert_ne!(checksum(&damaged), sum, "bit {bit}");
        }
    }
}
