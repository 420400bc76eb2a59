//! What is wrong with a position, a move, or the text of either: [`PositionError`], the one
//! error of boards, cells and move lists, the same for every game.
//!
//! This file is shared with `build.rs` (through `#[path]`).

use std::fmt;

use crate::cell::Cell;
use crate::game::Game;
use crate::player::{Outcome, Player, Status};
use crate::text::quote;

/// What is wrong with a position, a move, or the text of either.
///
/// Which calls give which variants:
///
/// | call | variants |
/// | --- | --- |
/// | [`Position::from_marks`](crate::Position::from_marks) | the marks' (`Overlap` to `SeparateLines`) |
/// | [`Position::play`](crate::Position::play), [`History::play`](crate::History::play) | the moves' (`NoSuchCell`, `GameOver`, `Occupied`) |
/// | [`Position::parse`](crate::Position::parse) | a board's text (`Length`, `InvalidChar`, `MisplacedDigit`), and `Unreachable` with one of the marks' inside |
/// | [`Position::from_move_list`](crate::Position::from_move_list), [`History::parse`](crate::History::parse) | a move list's text (`EmptyMove`, `TrailingComma`, `NotACell`), and `IllegalMove` with one of the moves' inside |
/// | `str::parse::<`[`Cell`]`>` | one cell's text (`CellEmpty`, `CellOutOfRange`, `CellSigned`, `CellNotANumber`) |
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Cell, Game, Position, PositionError};
///
/// let error = "0".parse::<Cell>().unwrap_err();
/// assert_eq!(error, PositionError::CellOutOfRange);
/// assert_eq!(error.to_string(), "cells are numbered 1 to 9, each written as one digit");
///
/// let error = Position::from_move_list(Game::TIC_TAC_TOE, "5 1 5").unwrap_err();
/// assert_eq!(error.to_string(), "move 3: cell 5 is already taken by X");
/// let PositionError::IllegalMove { number: 3, error } = error else { unreachable!() };
/// assert!(matches!(*error, PositionError::Occupied { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionError {
    /// Marks play cannot reach: a cell holds both marks.
    Overlap,
    /// Marks play cannot reach: a mark lies beyond the board's last cell.
    OffBoard {
        /// The board's cells.
        cells: usize,
    },
    /// Marks play cannot reach: O has more marks than X, but X moves first.
    TooManyO {
        /// X's marks.
        x: usize,
        /// O's marks.
        o: usize,
    },
    /// Marks play cannot reach: X has two or more marks more than O.
    TooManyX {
        /// X's marks.
        x: usize,
        /// O's marks.
        o: usize,
    },
    /// Marks play cannot reach: both players hold a line.
    BothWin,
    /// Marks play cannot reach: a player made a line, and the other moved after it.
    PlayAfterWin {
        /// Who made the line.
        winner: Player,
    },
    /// Marks play cannot reach: a player holds lines that share no cell, so no last move made
    /// them all; the game ended at the first (possible on boards larger than 3x3).
    SeparateLines {
        /// Who holds the lines.
        winner: Player,
    },

    /// A move on a cell the board does not have.
    NoSuchCell {
        /// The move.
        cell: Cell,
        /// The board's cells.
        cells: usize,
    },
    /// A move after the game ended.
    GameOver {
        /// The move.
        cell: Cell,
        /// How the game ended.
        status: Status,
    },
    /// A move on a cell that already holds a mark.
    Occupied {
        /// The move.
        cell: Cell,
        /// Whose mark is there.
        owner: Player,
    },

    /// The text of a board: not as many cells as the game has.
    Length {
        /// The game.
        game: Game,
        /// How many cells there were.
        found: usize,
    },
    /// The text of a board: a character that is neither a cell nor a separator.
    InvalidChar {
        /// Where it is, counting characters from 1.
        at: usize,
        /// The character.
        ch: char,
    },
    /// The text of a board: a digit that marks an empty cell away from its own place.
    MisplacedDigit {
        /// Where it is, counting characters from 1.
        at: usize,
        /// The digit.
        digit: char,
        /// The cell it stands for.
        cell: usize,
    },
    /// The text is a board, but not one that play can reach: why (one of the marks' errors).
    Unreachable(Box<PositionError>),

    /// The text of a move list: no cell before a comma. The list starts with a comma, or has
    /// two with nothing but spaces between them (`,1`, `1,,2`).
    EmptyMove {
        /// Which move is missing, counting from 1.
        number: usize,
        /// Where the comma stands in the text, counting characters from 1.
        comma: usize,
    },
    /// The text of a move list: no cell after the last comma (`1,`).
    TrailingComma {
        /// Which move is missing, counting from 1.
        number: usize,
        /// Where the comma stands in the text, counting characters from 1.
        comma: usize,
    },
    /// The text of a move list: an item that is not a cell number of this game.
    NotACell {
        /// Which move, counting from 1.
        number: usize,
        /// The item as written.
        token: String,
        /// The game's cells.
        cells: usize,
    },
    /// The text of a move list: a move that the rules forbid at that point.
    IllegalMove {
        /// Which move, counting from 1.
        number: usize,
        /// Why (one of the moves' errors).
        error: Box<PositionError>,
    },

    /// The text of one cell (see [`Cell`]'s `FromStr`): no text at all.
    CellEmpty,
    /// The text of one cell: digits only, but not one digit from 1 to 9 (`0`, `10`, `05`).
    CellOutOfRange,
    /// The text of one cell: a sign before the digits (`+5`, `-1`).
    CellSigned,
    /// The text of one cell: anything else (a letter, a space, a digit from another script,
    /// `5a`). The error carries no copy of the text, which may be long: the caller has it.
    CellNotANumber,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SEPARATE: &str =
            "separate cells with one comma or with spaces, e.g. \"5,1,9\" or \"5 1 9\"";
        match self {
            PositionError::Overlap => write!(f, "a cell holds both X and O"),
            PositionError::OffBoard { cells } => {
                write!(f, "a mark lies beyond the board's {cells} cells")
            }
            PositionError::TooManyO { x, o } => write!(
                f,
                "impossible counts: {o} O against {x} X, but X moves first, so O can never be ahead"
            ),
            PositionError::TooManyX { x, o } => write!(
                f,
                "impossible counts: {x} X against {o} O; X can be at most one mark ahead"
            ),
            PositionError::BothWin => {
                write!(f, "both X and O hold a line; a game ends at the first")
            }
            PositionError::PlayAfterWin { winner } => write!(
                f,
                "{winner} already made a line, but {} moved after it",
                !*winner
            ),
            PositionError::SeparateLines { winner } => write!(
                f,
                "{winner} holds lines that share no cell, so no single move made them; \
                 the game ended at the first"
            ),
            PositionError::GameOver { cell, status } => {
                let ended = match status {
                    Status::Finished(Outcome::Win(winner)) => format!("{winner} had won"),
                    _ => "the board was full".to_string(),
                };
                write!(f, "cell {cell} is played after the game ended: {ended}")
            }
            PositionError::Occupied { cell, owner } => {
                write!(f, "cell {cell} is already taken by {owner}")
            }
            PositionError::NoSuchCell { cell, cells } => {
                write!(
                    f,
                    "there is no cell {cell}: cells are numbered 1 to {cells}"
                )
            }
            PositionError::Length { game, found } if *game == Game::TIC_TAC_TOE => write!(
                f,
                "a board has 9 cells, this has {found} (write 9 of X, O and . row-major, e.g. \
                 X...O....)"
            ),
            PositionError::Length { game, found } => write!(
                f,
                "a board of game {game} has {} cells ({} rows of {}), this has {found}",
                game.cells(),
                game.rows(),
                game.columns()
            ),
            PositionError::InvalidChar { at, ch } => write!(
                f,
                "unknown character {} at position {at} (cells are X, O, or . - _ or the \
                 cell's own digit for empty; | / and spaces are ignored)",
                quote(ch.encode_utf8(&mut [0; 4]))
            ),
            PositionError::MisplacedDigit { at, digit, cell } => write!(
                f,
                "digit {digit:?} at position {at} stands for cell {cell}; a digit marks an \
                 empty cell only at its own place"
            ),
            PositionError::Unreachable(error) => write!(f, "not a reachable position: {error}"),
            PositionError::EmptyMove { number, comma } => write!(
                f,
                "move {number} is empty: nothing before the comma at character {comma} ({SEPARATE})"
            ),
            PositionError::TrailingComma { number, comma } => write!(
                f,
                "move {number} is empty: nothing after the comma at character {comma}, which ends the list ({SEPARATE})"
            ),
            PositionError::NotACell {
                number,
                token,
                cells,
            } => {
                write!(f, "move {number} is {}, not a cell: ", quote(token))?;
                // Tic-tac-toe's cells are single digits, and a cell's own reader says why.
                match token.parse::<Cell>() {
                    Err(error) if *cells == 9 => write!(f, "{error}"),
                    _ => write!(
                        f,
                        "cells are numbered 1 to {cells}, in decimal with no sign or leading zero"
                    ),
                }
            }
            PositionError::IllegalMove { number, error } => write!(f, "move {number}: {error}"),
            PositionError::CellEmpty => {
                f.write_str("nothing there: a cell is one digit from 1 to 9")
            }
            PositionError::CellOutOfRange => {
                f.write_str("cells are numbered 1 to 9, each written as one digit")
            }
            PositionError::CellSigned => {
                f.write_str("a cell is one digit from 1 to 9, with no sign")
            }
            PositionError::CellNotANumber => f.write_str("a cell is one digit from 1 to 9"),
        }
    }
}

impl std::error::Error for PositionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PositionError::Unreachable(error) | PositionError::IllegalMove { error, .. } => {
                Some(error.as_ref())
            }
            _ => None,
        }
    }
}
