//! Positions and games as text: a board of any game read from its cells and a move list read
//! into the game it plays, with what is wrong with text that
//! is neither. How a position is written is its `Display`, in `position.rs`.

use std::fmt;

use crate::board::IllegalPosition;
use crate::cell::{Cell, MAX_CELLS, Mask};
use crate::game::Game;
use crate::moves::MoveError;
use crate::player::Player;
use crate::position::Position;
use crate::text::quote;

/// Why text is not a position of a given game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParsePositionError {
    /// Not as many cells as the game has.
    Length {
        /// The game.
        game: Game,
        /// How many cells there were.
        found: usize,
    },
    /// A character that is neither a cell nor a separator.
    InvalidChar {
        /// Where it is, counting characters from 1.
        position: usize,
        /// The character.
        ch: char,
    },
    /// A digit that marks an empty cell away from its own place.
    MisplacedDigit {
        /// Where it is, counting characters from 1.
        position: usize,
        /// The digit.
        digit: char,
        /// The cell it stands for.
        cell: usize,
    },
    /// The text is a board, but not one that play can reach.
    Illegal(IllegalPosition),
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParsePositionError::Length { game, found } if game == Game::TIC_TAC_TOE => write!(
                f,
                "a board has 9 cells, this has {found} (write 9 of X, O and . row-major, e.g. \
                 X...O....)"
            ),
            ParsePositionError::Length { game, found } => write!(
                f,
                "a board of game {game} has {} cells ({} rows of {}), this has {found}",
                game.cells(),
                game.rows(),
                game.columns()
            ),
            ParsePositionError::InvalidChar { position, ch } => write!(
                f,
                "unknown character {} at position {position} (cells are X, O, or . - _ or the \
                 cell's own digit for empty; | / and spaces are ignored)",
                crate::text::quote(ch.encode_utf8(&mut [0; 4]))
            ),
            ParsePositionError::MisplacedDigit {
                position,
                digit,
                cell,
            } => write!(
                f,
                "digit {digit:?} at position {position} stands for cell {cell}; a digit marks an \
                 empty cell only at its own place"
            ),
            ParsePositionError::Illegal(error) => write!(f, "not a reachable position: {error}"),
        }
    }
}

impl std::error::Error for ParsePositionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ParsePositionError::Illegal(error) => Some(error),
            _ => None,
        }
    }
}

impl Position {
    /// Reads a board of `game` (see the type's documentation for the syntax).
    ///
    /// # Errors
    ///
    /// [`ParsePositionError`] naming the character, or the count of cells (with the game's
    /// shape, or on tic-tac-toe how a board is written), or why play cannot reach the board.
    pub fn parse(game: Game, text: &str) -> Result<Position, ParsePositionError> {
        let (mut x, mut o): (Mask, Mask) = (0, 0);
        let cells = read_cells(text, |cell, player| {
            let bit = if cell < MAX_CELLS { 1 << cell } else { 0 };
            match player {
                Player::X => x |= bit,
                Player::O => o |= bit,
            }
        })?;
        if cells != game.cells() {
            return Err(ParsePositionError::Length { game, found: cells });
        }
        Position::checked(game.geometry(), x, o).map_err(ParsePositionError::Illegal)
    }
}

/// Why a move list is not a game of an m,n,k board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveListError {
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
    /// An item that is not a cell number of this game.
    NotACell {
        /// Which move, counting from 1.
        position: usize,
        /// The item as written.
        token: String,
        /// The game's cells.
        cells: usize,
    },
    /// A move that the rules forbid at that point.
    Illegal {
        /// Which move, counting from 1.
        position: usize,
        /// Why.
        error: MoveError,
    },
}

impl fmt::Display for MoveListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SEPARATE: &str =
            "separate cells with one comma or with spaces, e.g. \"5,1,9\" or \"5 1 9\"";
        match self {
            MoveListError::EmptyMove { position, comma } => write!(
                f,
                "move {position} is empty: nothing before the comma at character {comma} ({SEPARATE})"
            ),
            MoveListError::TrailingComma { position, comma } => write!(
                f,
                "move {position} is empty: nothing after the comma at character {comma}, which ends the list ({SEPARATE})"
            ),
            MoveListError::NotACell {
                position,
                token,
                cells,
            } => {
                write!(f, "move {position} is {}, not a cell: ", quote(token))?;
                // Tic-tac-toe's cells are single digits, and a cell's own reader says why.
                match token.parse::<Cell>() {
                    Err(error) if *cells == 9 => write!(f, "{error}"),
                    _ => write!(
                        f,
                        "cells are numbered 1 to {cells}, in decimal with no sign or leading zero"
                    ),
                }
            }
            MoveListError::Illegal { position, error } => write!(f, "move {position}: {error}"),
        }
    }
}

impl std::error::Error for MoveListError {}

impl Position {
    /// The board reached by playing `text`, a move list (cells 1..rows*columns separated by
    /// commas or whitespace, as tic-tac-toe's are), from the empty board of `game`; and the
    /// moves as cell numbers.
    ///
    /// # Errors
    ///
    /// [`MoveListError`] for the first item that is not a cell of the game or cannot be
    /// played there, or a misplaced comma.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::Position;
    ///
    /// let (board, moves) = Position::from_move_list("4x4".parse()?, "1 16, 6")?;
    /// assert_eq!(board.to_string(), "X.../.X../..../...O");
    /// assert_eq!(moves.iter().map(|cell| cell.number()).collect::<Vec<_>>(), [1, 16, 6]);
    /// assert!(Position::from_move_list("4x4".parse()?, "17").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_move_list(game: Game, text: &str) -> Result<(Position, Vec<Cell>), MoveListError> {
        let cells = game.cells();
        let mut board = Position::empty(game);
        let mut moves = Vec::new();
        for_each_move(text, |position, token| {
            let cell = cell_number(token, cells)
                .and_then(|number| Cell::new(number - 1))
                .ok_or_else(|| MoveListError::NotACell {
                    position,
                    token: token.to_string(),
                    cells,
                })?;
            board = board
                .play(cell)
                .map_err(|error| MoveListError::Illegal { position, error })?;
            moves.push(cell);
            Ok::<(), MoveListError>(())
        })?;
        Ok((board, moves))
    }
}

/// The cell `token` names on a board of `cells` cells: a decimal number 1..=cells with no
/// sign or leading zero.
fn cell_number(token: &str, cells: usize) -> Option<usize> {
    let digits = token.as_bytes();
    if digits.is_empty() || digits.len() > 3 || digits[0] == b'0' {
        return None;
    }
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let number: usize = token.parse().ok()?;
    (1..=cells).contains(&number).then_some(number)
}

/// Reads the cells of a board's text, for every game: `X`/`x` and `O`/`o` are marks (handed
/// to `mark` with the cell's index), `.`, `-`, `_` or the cell's own digit `1`..`9` are empty,
/// and `|`, `/` and whitespace are skipped. Returns how many cells there were; the caller
/// checks that against its board.
///
/// # Errors
///
/// [`ParsePositionError::InvalidChar`] or [`ParsePositionError::MisplacedDigit`] for the
/// first character that is not a cell or a separator.
pub(crate) fn read_cells(
    text: &str,
    mut mark: impl FnMut(usize, Player),
) -> Result<usize, ParsePositionError> {
    let mut cells = 0usize;
    for (i, ch) in text.chars().enumerate() {
        let position = i + 1;
        match ch {
            _ if ch.is_whitespace() || ch == '|' || ch == '/' => continue,
            'X' | 'x' => mark(cells, Player::X),
            'O' | 'o' => mark(cells, Player::O),
            '.' | '-' | '_' => {}
            '1'..='9' if ch as usize - '0' as usize == cells + 1 => {}
            '1'..='9' => {
                return Err(ParsePositionError::MisplacedDigit {
                    position,
                    digit: ch,
                    cell: cells + 1,
                });
            }
            _ => return Err(ParsePositionError::InvalidChar { position, ch }),
        }
        cells += 1;
    }
    Ok(cells)
}

/// Reads a move list (items separated by commas or whitespace), handing each item (numbered
/// from 1) to `each` as it is met: the separators' rules for every game's move lists. A run of
/// whitespace is one separator, and so is a comma with whitespace around it; there must be an
/// item between two commas and on both sides of each comma. Stops at the first error,
/// whether `each` returns it or a comma is misplaced.
///
/// # Errors
///
/// What `each` returns, or [`MoveListError::EmptyMove`] or [`MoveListError::TrailingComma`]
/// for a misplaced comma.
fn for_each_move(
    text: &str,
    mut each: impl FnMut(usize, &str) -> Result<(), MoveListError>,
) -> Result<(), MoveListError> {
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
                return Err(MoveListError::EmptyMove {
                    position: count + 1,
                    comma: index + 1,
                });
            }
            open_comma = Some(index + 1);
        }
    }
    if let Some(start) = item {
        each(count + 1, &text[start..])?;
    } else if let Some(comma) = open_comma {
        return Err(MoveListError::TrailingComma {
            position: count + 1,
            comma,
        });
    }
    Ok(())
}
