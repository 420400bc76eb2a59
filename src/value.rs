//! What a position is worth: its value for the side to move, and how moves compare.
//!
//! This file is shared with `build.rs` (through `#[path]`).

use std::fmt;
use std::ops::Neg;

use crate::board::{Cell, Cells};

/// The game-theoretic value of a position, always for the side to move.
///
/// Values order from worst to best, and negate to the other side's view:
///
/// ```
/// use ttt_oracle::Value;
///
/// assert!(Value::Loss < Value::Draw && Value::Draw < Value::Win);
/// assert_eq!(-Value::Win, Value::Loss);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// The side to move loses against perfect play.
    Loss,
    /// Perfect play by both sides draws.
    Draw,
    /// The side to move wins, whatever the opponent does.
    Win,
}

impl Value {
    /// The name programs see: `win`, `draw` or `loss`.
    pub const fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        }
    }
}

impl Neg for Value {
    type Output = Value;

    fn neg(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Draw => Value::Draw,
            Value::Loss => Value::Win,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How good a move is for the player making it: better value first, then a faster win or a
/// slower loss.
pub fn move_rank(value: Value, remoteness: u8) -> i32 {
    let plies = i32::from(remoteness);
    match value {
        Value::Win => 100 - plies,
        Value::Draw => 0,
        Value::Loss => -100 + plies,
    }
}

/// The value and remoteness of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Probe {
    /// Win, draw or loss for the side to move.
    pub value: Value,
    /// Plies to the end of the game under perfect play; 0 for a finished game.
    pub remoteness: u8,
}

/// One legal move and where it leads, from the view of the player making it.
///
/// Serializes as `{"cell", "value", "remoteness"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveValue {
    /// The move.
    pub cell: Cell,
    /// What the move is worth to the player making it.
    pub value: Value,
    /// Plies from before this move to the end of the game, under perfect play after it.
    pub remoteness: u8,
}

/// What a table says of a position: its value and remoteness, and every optimal move (none once
/// the game is over).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Evaluation {
    /// The value for the side to move.
    pub value: Value,
    /// Moves to the end of the game under perfect play.
    pub remoteness: u8,
    /// Every optimal move.
    pub best: Cells,
}

/// A value and remoteness in one byte, as the solver and the tables keep them: 0 for a board
/// not reached, else `1 + 32 * value + remoteness` with the value 0 (loss), 1 (draw) or 2 (win)
/// for the side to move.
pub type Entry = u8;

/// The entry for `value` and `remoteness`.
pub const fn entry(value: Value, remoteness: u8) -> Entry {
    let value = match value {
        Value::Loss => 0,
        Value::Draw => 1,
        Value::Win => 2,
    };
    1 + 32 * value + remoteness
}

/// The value and remoteness of an entry, `None` for 0 (not reached) or a byte no entry has.
pub const fn unentry(entry: Entry) -> Option<(Value, u8)> {
    if entry == 0 {
        return None;
    }
    let remoteness = (entry - 1) % 32;
    let value = match (entry - 1) / 32 {
        0 => Value::Loss,
        1 => Value::Draw,
        2 => Value::Win,
        _ => return None,
    };
    Some((value, remoteness))
}
