//! Everything the table says about one position, in the shape `ttt analyze --format json` prints.

use serde::Serialize;

use crate::board::{Board, Cell, Cells, Player, Status};
use crate::game::{Game, MAX_CELLS};
use crate::position::Position;
use crate::table::tic_tac_toe::{MoveAnalysis, Table};
use crate::table::{MnkMove, MnkTable};
use crate::value::Value;

/// A position with its value, remoteness, optimal moves, perfect line and every legal move's
/// outcome.
///
/// Serializes (with serde) to exactly the keys of `ttt analyze --format json`.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Analysis, Board, table};
///
/// let board: Board = "XX.OO....".parse()?;
/// let json = serde_json::to_string(&Analysis::new(table(), board))?;
/// assert!(json.starts_with(r#"{"board":"XX.OO....","to_move":"X","status":"in_progress","value":"win","remoteness":1,"best":[3],"line":[3],"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// The position.
    pub board: Board,
    /// The side to move (on a finished board, whose turn it would be).
    pub to_move: Player,
    /// Where the game stands.
    pub status: Status,
    /// The value for the side to move.
    pub value: Value,
    /// Plies to the end under perfect play; 0 for a finished game.
    pub remoteness: u8,
    /// The optimal moves; empty for a finished game.
    pub best: Cells,
    /// The perfect line: both sides playing the deterministic best move to the end (see
    /// [`Table::line`]); empty for a finished game.
    pub line: Vec<Cell>,
    /// Every legal move, by cell, valued from the view of the player making it.
    pub moves: Vec<MoveAnalysis>,
}

impl Analysis {
    /// Looks `board` up in `table`.
    pub fn new(table: &Table, board: Board) -> Analysis {
        let evaluation = table.evaluate(&board);
        Analysis {
            board,
            to_move: board.to_move(),
            status: board.status(),
            value: evaluation.value,
            remoteness: evaluation.remoteness,
            best: evaluation.best,
            line: table.line(&board),
            moves: table.analyze(&board),
        }
    }
}

/// A position of any m,n,k game with a table, analysed as [`Analysis`] analyses tic-tac-toe's:
/// value, remoteness, optimal moves, perfect line and every legal move's outcome, cells
/// numbered from 1.
///
/// Serializes to the keys of `ttt analyze --game G --format json`: those of [`Analysis`],
/// after a first key `game`.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{MnkAnalysis, Position, mnk_table};
///
/// let game = "4x4k3".parse()?;
/// let board = Position::parse(game, "XX../OO../..../....")?;
/// let json = serde_json::to_string(&MnkAnalysis::new(mnk_table(game)?, board))?;
/// assert!(json.starts_with(r#"{"game":"4x4k3","board":"XX../OO../..../....","to_move":"X","status":"in_progress","value":"win","remoteness":1,"best":[3],"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MnkAnalysis {
    /// The game.
    pub game: Game,
    /// The position.
    pub board: Position,
    /// The side to move (on a finished board, whose turn it would be).
    pub to_move: Player,
    /// Where the game stands.
    pub status: Status,
    /// The value for the side to move.
    pub value: Value,
    /// Plies to the end under perfect play; 0 for a finished game.
    pub remoteness: u8,
    /// The optimal moves, by cell number; empty for a finished game.
    pub best: Vec<usize>,
    /// The perfect line, by cell number; empty for a finished game.
    pub line: Vec<usize>,
    /// Every legal move, by cell, valued from the view of the player making it.
    pub moves: Vec<MnkMove>,
}

impl MnkAnalysis {
    /// Looks `board` up in `table`, the table of its game.
    ///
    /// # Panics
    ///
    /// If `board` belongs to another game than `table`.
    pub fn new(table: &MnkTable, board: Position) -> MnkAnalysis {
        let probe = table.probe(&board);
        let best = table.best_moves(&board);
        MnkAnalysis {
            game: board.game(),
            board,
            to_move: board.to_move(),
            status: board.status(),
            value: probe.value,
            remoteness: probe.remoteness,
            best: (0..MAX_CELLS)
                .filter(|i| best >> i & 1 == 1)
                .map(|i| i + 1)
                .collect(),
            line: table.line(&board),
            moves: table.analyze(&board),
        }
    }
}
