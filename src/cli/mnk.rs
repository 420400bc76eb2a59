//! `--game`: the commands that take a position (`analyze`, `best`) on m,n,k games other than
//! tic-tac-toe, through the tables of `crate::mnk_table`, and the table `export` writes;
//! the boards of any game as `play` and `review` draw them.

use std::io::{IsTerminal, Write};

use crate::quote::quote;
use crate::{Analysis, Cell, Game, History, Player, Position, Status, Table, TableError, Value};
use serde::Serialize;

use super::Failure;
use super::analyze::{Notation, Summary, layout, no_move, outcome_label};
use super::draw::{Square, grid_of};
use super::style::Style;

/// The table of `game`, solving it first (with a note on a terminal) when none is embedded.
///
/// # Errors
///
/// A usage error for a game too large for a table; exit code 4 for a damaged embedded table.
pub fn table_of(game: Game) -> Result<&'static Table, Failure> {
    let note = !game.is_embedded() && std::io::stderr().is_terminal();
    if note {
        let mut err = std::io::stderr();
        let _ = write!(err, "solving {game} (no table is embedded for it)...");
        let _ = err.flush();
    }
    let table = crate::table::of(game);
    if note {
        // Erase the note: the answer is what stays on the screen.
        let _ = write!(std::io::stderr(), "\r\x1b[2K");
    }
    table.map_err(|error| match error {
        TableError::TooLarge { .. } => Failure::usage(error.to_string()),
        TableError::Damaged { .. } => Failure::with_code(4, format!("{error}; rebuild ttt")),
        TableError::NotEmbedded { .. } => unreachable!("only verify asks for an embedded table"),
    })
}

/// Reads a position of `game` written as `notation`; the error quotes at most the start of
/// `text`.
pub fn parse(game: Game, notation: Notation, text: &str) -> Result<Position, String> {
    let parsed = match notation {
        Notation::Board => Position::parse(game, text).map_err(|error| error.to_string()),
        Notation::Moves => Position::from_move_list(game, text)
            .map(|(board, _)| board)
            .map_err(|error| error.to_string()),
    };
    parsed.map_err(|error| format!("bad {} {}: {error}", notation.noun(), quote(text)))
}

/// `ttt best --game G --format json`.
#[derive(Debug, Serialize)]
pub struct MnkBest {
    game: Game,
    board: Position,
    to_move: Player,
    best: Cell,
    value: Value,
    remoteness: u8,
}

impl MnkBest {
    /// The cell to play.
    pub fn cell(&self) -> Cell {
        self.best
    }
}

/// The best move on `board`; the error says why there is none.
pub fn best(table: &Table, board: Position) -> Result<MnkBest, String> {
    let best = table
        .best_move(&board)
        .ok_or_else(|| no_move(&board, board.status()))?;
    let probe = table.probe(&board);
    Ok(MnkBest {
        game: board.game(),
        board,
        to_move: board.to_move(),
        best,
        value: probe.value,
        remoteness: probe.remoteness,
    })
}

/// The board beside a map of where each empty cell leads, then a summary: the layout of
/// tic-tac-toe's analysis, on the game's grid.
pub fn text(analysis: &Analysis, style: Style) -> Vec<String> {
    let board = analysis.board;
    let game = board.game();
    let left = grid_of(&board_squares(&board, style), game.columns());
    let right = match analysis.status {
        Status::InProgress => grid_of(&outcome_squares(analysis, style), game.columns()),
        Status::Finished(_) => Vec::new(),
    };
    let summary = Summary {
        value: analysis.value,
        remoteness: analysis.remoteness,
        mover: analysis.to_move,
        best: analysis.best.to_string(),
        line: super::draw::cells(&analysis.line),
        winner: board.winner(),
    };
    layout(left, right, &summary, style)
}

/// The squares of a board of any game: marks in bold, empty cells as their dimmed number.
pub fn board_squares(board: &Position, style: Style) -> Vec<Square> {
    (0..board.game().cells())
        .map(|cell| match board.at(cell) {
            Some(player) => Square::new(player.to_string(), style.strong(&player.to_string())),
            None => {
                let number = (cell + 1).to_string();
                Square::new(number.clone(), style.faint(&number))
            }
        })
        .collect()
}

/// What each empty cell leads to for the side to move, as tic-tac-toe's
/// [`outcome_squares`](super::analyze::outcome_squares) shows it.
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
                    let mark = board.at(cell).map(|p| p.to_string()).unwrap_or_default();
                    Square::new(mark.clone(), style.faint(&mark))
                }
            },
        )
        .collect()
}
/// Reads a move list of `game` into the game it plays; tic-tac-toe's as
/// [`parse_game`](super::analyze::parse_game) reads it. The error is one line that quotes at
/// most the start of `text`, as `ttt analyze --game G --moves` gives it.
pub fn parse_game(game: Game, text: &str) -> Result<History, String> {
    if game == Game::TIC_TAC_TOE {
        return super::analyze::parse_game(text);
    }
    let (_, numbers) = Position::from_move_list(game, text)
        .map_err(|error| format!("bad {} {}: {error}", Notation::Moves.noun(), quote(text)))?;
    let mut played = History::empty(game);
    for cell in numbers {
        played.play(cell).expect("a move list that replays");
    }
    Ok(played)
}
