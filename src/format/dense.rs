//! Tic-tac-toe's table laid out for speed: a 16-bit word for every base-3 code of the 3x3 board
//! and the lowest optimal move of every code, expanded over the 8 symmetries from the stored
//! table (the format of every embedded game). `build.rs` writes these arrays as Rust statics;
//! `ttt verify` expands the stored table again and compares.
//!
//! This file is shared with `build.rs` (through `#[path]`).
//!
//! A word is [`PRESENT`] for a legal board, bits 13-14 the value (0 loss, 1 draw, 2 win), bits
//! 9-12 the remoteness, bits 0-8 the optimal moves (bit `i` is cell `i + 1`).

use crate::board::{Board, CODES, Cells};
use crate::format::Stored;
use crate::game::{Game, Mask};
use crate::solve::Codes;
use crate::value::{Evaluation, Value, unentry};

/// The bit of a word that marks a legal board; every other word is zero.
pub const PRESENT: u16 = 1 << 15;

/// The first move of a code with none: an illegal board, or a game over.
pub const NO_MOVE: u8 = u8::MAX;

/// Packs an evaluation into a word, without [`PRESENT`].
pub const fn pack(evaluation: Evaluation) -> u16 {
    let value = match evaluation.value {
        Value::Loss => 0,
        Value::Draw => 1,
        Value::Win => 2,
    };
    value << 13 | (evaluation.remoteness as u16) << 9 | evaluation.best.bits() as u16
}

/// Unpacks a word that [`pack`] made; `None` for a value or remoteness no word can hold.
pub const fn unpack(packed: u16) -> Option<Evaluation> {
    let value = match packed >> 13 & 0b11 {
        0 => Value::Loss,
        1 => Value::Draw,
        2 => Value::Win,
        _ => return None,
    };
    let remoteness = (packed >> 9 & 0xf) as u8;
    if remoteness > 9 {
        return None;
    }
    Some(Evaluation {
        value,
        remoteness,
        best: Cells::from_bits((packed & 0x1ff) as Mask),
    })
}

/// The arrays of the dense layout.
pub struct Expanded {
    /// A word for every code.
    pub words: Box<[u16]>,
    /// The lowest optimal move of every code (a cell index), or [`NO_MOVE`].
    pub first: Box<[u8; CODES]>,
}

/// Expands tic-tac-toe's stored table (its positions in play, in canonical form) to every legal
/// board; a finished game is valued as it ended. Fails, saying why, when a position in play is
/// missing or holds no value.
pub fn expand(stored: &Stored) -> Result<Expanded, &'static str> {
    let codes = Codes::new(Game::TIC_TAC_TOE);
    let mut words = vec![0u16; CODES].into_boxed_slice();
    let mut first = Box::new([NO_MOVE; CODES]);
    for code in 0..CODES {
        let Some(board) = Board::from_code(code) else {
            continue;
        };
        let evaluation = if board.is_over() {
            Evaluation {
                value: match board.winner() {
                    Some(_) => Value::Loss,
                    None => Value::Draw,
                },
                remoteness: 0,
                best: Cells::EMPTY,
            }
        } else {
            let mask = |player| board.marks(player).bits() as u64;
            let (x, o) = (mask(crate::board::Player::X), mask(crate::board::Player::O));
            let (canonical, turn) = codes.canonical(x, o);
            let at = (stored.codes)
                .binary_search(&canonical)
                .map_err(|_| "a position in play is missing")?;
            let (value, remoteness) =
                unentry(stored.entries[at]).ok_or("a position in play holds no value")?;
            let best = codes.turn_mask(
                codes.geometry().inverse_turn(turn),
                u64::from(stored.best[at]),
            );
            Evaluation {
                value,
                remoteness,
                best: Cells::from_bits(best as Mask),
            }
        };
        words[code] = PRESENT | pack(evaluation);
        first[code] = evaluation
            .best
            .first()
            .map_or(NO_MOVE, |cell| cell.index() as u8);
    }
    Ok(Expanded { words, first })
}

/// FNV-1a 64 of the arrays, over words of 64 bits (four words, or eight first moves, to one),
/// so that checking them when a process first asks costs a few thousand steps.
pub fn expanded_checksum(words: &[u16], first: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut step = |word: u64| hash = (hash ^ word).wrapping_mul(0x0100_0000_01b3);
    let mut chunks = words.chunks_exact(4);
    for chunk in &mut chunks {
        step(
            chunk
                .iter()
                .fold(0, |word, &half| word << 16 | u64::from(half)),
        );
    }
    chunks
        .remainder()
        .iter()
        .for_each(|&half| step(u64::from(half)));
    let mut chunks = first.chunks_exact(8);
    for chunk in &mut chunks {
        step(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
    }
    chunks
        .remainder()
        .iter()
        .for_each(|&byte| step(u64::from(byte)));
    hash
}
