//! `--game` for every command: the oracle of any game (solved first when none is embedded), a
//! move list of any game read into the game it plays, and the squares that draw a board of any
//! game and what each of its moves leads to.

use std::io::{IsTerminal, Write};

use ttt_oracle::{Analysis, Cell, Game, History, Oracle, Position, TableError, Value};

use super::Failure;
use super::draw::Square;
use super::style::Style;

/// The oracle of `game`, its table solved first (with a note on a terminal) when none is
/// embedded.
///
/// # Errors
///
/// A usage error for a game too large for a table; exit code 4 for a damaged embedded table.
pub fn oracle_of(game: Game) -> Result<Oracle, Failure> {
    let note = game.has_table() && !game.is_embedded() && std::io::stderr().is_terminal();
    if note {
        let mut err = std::io::stderr();
        let _ = write!(err, "solving {game} (no table is embedded for it)...");
        let _ = err.flush();
    }
    let table = Oracle::of(game);
    if note {
        // Erase the note: the answer is what stays on the screen.
        let _ = write!(std::io::stderr(), "\r\x1b[2K");
    }
    Ok(table?)
}

/// Whether `game`, a game past 16 cells, has a table `ttt solve` cached. Without one it is
/// audited without a table, and the report says how to make one.
///
/// # Errors
///
/// Exit code 4 when the cached table is damaged.
pub fn cached(game: Game) -> Result<bool, Failure> {
    match Oracle::of(game) {
        Ok(_) => Ok(true),
        Err(TableError::NotSolved { .. } | TableError::TooLarge { .. }) => Ok(false),
        Err(error) => Err(error.into()),
    }
}

/// The game of `moves` on `game`, moves an audit reported and so legal.
pub fn replayed(game: Game, moves: &[Cell]) -> History {
    let mut played = History::empty(game);
    for &cell in moves {
        played.play(cell).expect("a reported game replays");
    }
    played
}

/// `W3`, `D7`, `L2`: a value and the plies to the end, as people read a move's outcome.
pub fn outcome_label(value: Value, remoteness: u8) -> String {
    let letter = match value {
        Value::Win => 'W',
        Value::Draw => 'D',
        Value::Loss => 'L',
    };
    format!("{letter}{remoteness}")
}

/// The squares of a board of any game: marks in bold, empty cells as their dimmed number.
pub fn board_squares(board: &Position, style: Style) -> Vec<Square> {
    (0..board.game().cells())
        .map(
            |cell| match board.get(Cell::new(cell).expect("a cell of the board")) {
                Some(player) => Square::new(player.to_string(), style.strong(&player.to_string())),
                None => {
                    let number = (cell + 1).to_string();
                    Square::new(number.clone(), style.faint(&number))
                }
            },
        )
        .collect()
}

/// What each empty cell leads to for the side to move, on a board of any game: `W3` (a win in
/// 3 plies), `D7`, `L2`, with `*` on the optimal moves; occupied cells show their mark.
pub fn outcome_squares(analysis: &Analysis, style: Style) -> Vec<Square> {
    let board = analysis.board;
    (0..board.game().cells())
        .map(
            |cell| match analysis.moves.iter().find(|m| m.cell.index() == cell) {
                Some(m) => {
                    let star = if analysis.best.contains(m.cell) {
                        "*"
                    } else {
                        ""
                    };
                    let label = format!("{}{star}", outcome_label(m.value, m.remoteness));
                    Square::new(label.clone(), style.value(m.value, &label))
                }
                None => {
                    let mark = board
                        .get(Cell::new(cell).expect("a cell of the board"))
                        .map(|p| p.to_string())
                        .unwrap_or_default();
                    Square::new(mark.clone(), style.faint(&mark))
                }
            },
        )
        .collect()
}
