//! Moves: why one cannot be played, the same for every game.
//!
//! This file is shared with `build.rs` (through `#[path]`).

use std::fmt;

use crate::cell::Cell;
use crate::player::{Outcome, Player, Status};

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The board has no such cell.
    NoSuchCell {
        /// The move.
        cell: Cell,
        /// The board's cells.
        cells: usize,
    },
    /// The game had already ended.
    GameOver {
        /// The move.
        cell: Cell,
        /// How the game ended.
        status: Status,
    },
    /// The cell already holds a mark.
    Occupied {
        /// The move.
        cell: Cell,
        /// Whose mark is there.
        owner: Player,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver { cell, status } => {
                let ended = match status {
                    Status::Finished(Outcome::Win(winner)) => format!("{winner} had won"),
                    _ => "the board was full".to_string(),
                };
                write!(f, "cell {cell} is played after the game ended: {ended}")
            }
            MoveError::Occupied { cell, owner } => {
                write!(f, "cell {cell} is already taken by {owner}")
            }
            MoveError::NoSuchCell { cell, cells } => {
                write!(
                    f,
                    "there is no cell {cell}: cells are numbered 1 to {cells}"
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}
