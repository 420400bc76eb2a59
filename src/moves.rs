//! Moves: why one cannot be played, and lists of them read from text, the same for every game.
//!
//! This file is shared with `build.rs` (through `#[path]`).

use std::fmt;

use crate::cell::{Cell, ParseCellError};
use crate::player::{Outcome, Player, Status};
use crate::text::quote;

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

/// Why a list of moves does not make a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovesError {
    /// An item that is not a cell 1..9.
    NotACell {
        /// Which move, counting from 1.
        position: usize,
        /// The item as written, whole; its `Display` shows at most the start of it.
        token: String,
        /// What is wrong with it.
        error: ParseCellError,
    },
    /// No cell before a comma: the list starts with a comma, or has two with nothing but
    /// spaces between them (`,1`, `1,,2`).
    EmptyMove {
        /// Which move is missing, counting from 1.
        position: usize,
        /// Where the comma stands in the text, counting characters from 1.
        comma: usize,
    },
    /// No cell after the last comma (`1,`).
    TrailingComma {
        /// Which move is missing, counting from 1.
        position: usize,
        /// Where the comma stands in the text, counting characters from 1.
        comma: usize,
    },
    /// A move that the rules forbid at that point.
    Illegal {
        /// Which move, counting from 1.
        position: usize,
        /// Why.
        error: MoveError,
    },
}

impl fmt::Display for MovesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SEPARATE: &str =
            "separate cells with one comma or with spaces, e.g. \"5,1,9\" or \"5 1 9\"";
        match self {
            MovesError::NotACell {
                position,
                token,
                error,
            } => write!(
                f,
                "move {position} is {}, not a cell: {error}",
                quote(token)
            ),
            MovesError::EmptyMove { position, comma } => write!(
                f,
                "move {position} is empty: nothing before the comma at character {comma} ({SEPARATE})"
            ),
            MovesError::TrailingComma { position, comma } => write!(
                f,
                "move {position} is empty: nothing after the comma at character {comma}, which ends the list ({SEPARATE})"
            ),
            MovesError::Illegal { position, error } => write!(f, "move {position}: {error}"),
        }
    }
}

impl std::error::Error for MovesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MovesError::NotACell { error, .. } => Some(error),
            MovesError::Illegal { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Reads a move list: cells 1..9 (each as [`Cell`]'s `FromStr` reads it) separated by commas or
/// whitespace. A run of whitespace is one separator, and so is a comma with whitespace around
/// it; there must be a cell between two commas and on both sides of each comma. Text that is
/// empty or all whitespace is the empty list.
///
/// Checks only that each item is a cell; [`Board::from_moves`](crate::board::Board::from_moves) checks that the moves can be
/// played.
///
/// # Errors
///
/// [`MovesError`] for the first item that is not a cell ([`NotACell`]), or the first comma
/// with nothing before it ([`EmptyMove`]) or after it ([`TrailingComma`]).
///
/// [`NotACell`]: MovesError::NotACell
/// [`EmptyMove`]: MovesError::EmptyMove
/// [`TrailingComma`]: MovesError::TrailingComma
pub fn parse_moves(text: &str) -> Result<Vec<Cell>, MovesError> {
    let mut moves = Vec::new();
    for_each_move(text, |position, token| {
        let cell = token
            .parse::<Cell>()
            .map_err(|error| MovesError::NotACell {
                position,
                token: token.to_string(),
                error,
            })?;
        moves.push(cell);
        Ok(())
    })?;
    Ok(moves)
}

/// Reads a move list as [`parse_moves`] does, handing each item (numbered from 1) to `each` as
/// it is met: the separators' rules for every game's move lists. Stops at the first error,
/// whether `each` returns it or a comma is misplaced.
///
/// # Errors
///
/// What `each` returns, or [`MovesError::EmptyMove`] or [`MovesError::TrailingComma`]
/// (converted) for a misplaced comma.
pub fn for_each_move<E: From<MovesError>>(
    text: &str,
    mut each: impl FnMut(usize, &str) -> Result<(), E>,
) -> Result<(), E> {
    let mut count = 0;
    // The byte offset where the item being read starts.
    let mut item = None;
    // The last comma, while no cell has followed it.
    let mut open_comma = None;
    for (index, (offset, ch)) in text.char_indices().enumerate() {
        if ch != ',' && !ch.is_whitespace() {
            item.get_or_insert(offset);
            continue;
        }
        if let Some(start) = item.take() {
            count += 1;
            each(count, &text[start..offset])?;
            open_comma = None;
        }
        if ch == ',' {
            if count == 0 || open_comma.is_some() {
                return Err(MovesError::EmptyMove {
                    position: count + 1,
                    comma: index + 1,
                }
                .into());
            }
            open_comma = Some(index + 1);
        }
    }
    if let Some(start) = item {
        each(count + 1, &text[start..])?;
    } else if let Some(comma) = open_comma {
        return Err(MovesError::TrailingComma {
            position: count + 1,
            comma,
        }
        .into());
    }
    Ok(())
}
