//! Positions and games as text: a board of any game read from its cells and a move list read
//! into the game it plays. How a position is written is its `Display`, in `position.rs`.

use std::str::FromStr;

use crate::cell::{Cell, MAX_CELLS, Mask};
use crate::game::Game;
use crate::player::Player;
use crate::position::Position;
use crate::position_error::PositionError;

impl Position {
    /// Reads a board of `game` (see the type's documentation for the syntax).
    ///
    /// # Errors
    ///
    /// [`PositionError`] naming the character, or the count of cells (with the game's
    /// shape, or on tic-tac-toe how a board is written), or why play cannot reach the board.
    pub fn parse(game: Game, text: &str) -> Result<Position, PositionError> {
        let (mut x, mut o): (Mask, Mask) = (0, 0);
        let cells = read_cells(text, |cell, player| {
            let bit = if cell < MAX_CELLS { 1 << cell } else { 0 };
            match player {
                Player::X => x |= bit,
                Player::O => o |= bit,
            }
        })?;
        if cells != game.cells() {
            return Err(PositionError::Length { game, found: cells });
        }
        Position::checked(game.geometry(), x, o)
            .map_err(|error| PositionError::Unreachable(Box::new(error)))
    }
}

impl Position {
    /// The board reached by playing `text`, a move list (cells 1..rows*columns separated by
    /// commas or whitespace, as tic-tac-toe's are), from the empty board of `game`; and the
    /// moves as cell numbers.
    ///
    /// # Errors
    ///
    /// [`PositionError`] for the first item that is not a cell of the game or cannot be
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
    pub fn from_move_list(game: Game, text: &str) -> Result<(Position, Vec<Cell>), PositionError> {
        let cells = game.cells();
        let mut board = Position::empty(game);
        let mut moves = Vec::new();
        for_each_move(text, |number, token| {
            let cell = cell_number(token, cells)
                .and_then(|number| Cell::new(number - 1))
                .ok_or_else(|| PositionError::NotACell {
                    number,
                    token: token.to_string(),
                    cells,
                })?;
            board = board
                .play(cell)
                .map_err(|error| PositionError::IllegalMove {
                    number,
                    error: Box::new(error),
                })?;
            moves.push(cell);
            Ok::<(), PositionError>(())
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
/// [`PositionError::InvalidChar`] or [`PositionError::MisplacedDigit`] for the
/// first character that is not a cell or a separator.
pub(crate) fn read_cells(
    text: &str,
    mut mark: impl FnMut(usize, Player),
) -> Result<usize, PositionError> {
    let mut cells = 0usize;
    for (i, ch) in text.chars().enumerate() {
        let at = i + 1;
        match ch {
            _ if ch.is_whitespace() || ch == '|' || ch == '/' => continue,
            'X' | 'x' => mark(cells, Player::X),
            'O' | 'o' => mark(cells, Player::O),
            '.' | '-' | '_' => {}
            '1'..='9' if ch as usize - '0' as usize == cells + 1 => {}
            '1'..='9' => {
                return Err(PositionError::MisplacedDigit {
                    at,
                    digit: ch,
                    cell: cells + 1,
                });
            }
            _ => return Err(PositionError::InvalidChar { at, ch }),
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
/// What `each` returns, or [`PositionError::EmptyMove`] or [`PositionError::TrailingComma`]
/// for a misplaced comma.
fn for_each_move(
    text: &str,
    mut each: impl FnMut(usize, &str) -> Result<(), PositionError>,
) -> Result<(), PositionError> {
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
                return Err(PositionError::EmptyMove {
                    number: count + 1,
                    comma: index + 1,
                });
            }
            open_comma = Some(index + 1);
        }
    }
    if let Some(start) = item {
        each(count + 1, &text[start..])?;
    } else if let Some(comma) = open_comma {
        return Err(PositionError::TrailingComma {
            number: count + 1,
            comma,
        });
    }
    Ok(())
}

/// Reads a cell as people and programs write it: exactly one ASCII digit `1` to `9`.
///
/// Nothing else is a cell: no sign, no leading zero, no other digits, no space around it (a
/// caller reading a line trims it first). What is wrong is told apart in [`PositionError`].
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Cell, PositionError};
///
/// let centre: Cell = "5".parse()?;
/// assert_eq!(centre.number(), 5);
/// assert_eq!("05".parse::<Cell>(), Err(PositionError::CellOutOfRange));
/// assert_eq!("10".parse::<Cell>(), Err(PositionError::CellOutOfRange));
/// assert_eq!("+5".parse::<Cell>(), Err(PositionError::CellSigned));
/// assert_eq!("5 ".parse::<Cell>(), Err(PositionError::CellNotANumber));
/// assert_eq!("".parse::<Cell>(), Err(PositionError::CellEmpty));
/// # Ok::<(), PositionError>(())
/// ```
impl FromStr for Cell {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Cell, PositionError> {
        let digits = |bytes: &[u8]| !bytes.is_empty() && bytes.iter().all(u8::is_ascii_digit);
        match text.as_bytes() {
            [digit @ b'1'..=b'9'] => Ok(Cell::from_bit(u32::from(digit - b'1'))),
            [] => Err(PositionError::CellEmpty),
            [b'+' | b'-', rest @ ..] if digits(rest) => Err(PositionError::CellSigned),
            all if digits(all) => Err(PositionError::CellOutOfRange),
            _ => Err(PositionError::CellNotANumber),
        }
    }
}
