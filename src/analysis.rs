//! Everything the table says about one position, in the shape `ttt analyze --format json` prints.

use serde::Serialize;

use crate::board::{Cell, Cells, Player, Status};
use crate::game::Game;
use crate::position::Position;
use crate::value::{MoveValue, Value};

/// A position with its value, remoteness, optimal moves, perfect line and every legal move's
/// value, on any game with a table: what [`Oracle::analyze`](crate::Oracle::analyze) answers.
///
/// Serializes (with serde) to exactly the keys of `ttt analyze --format json`; the first key,
/// `game`, is left out for tic-tac-toe.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Game, Oracle, Position};
///
/// let game = Game::TIC_TAC_TOE;
/// let analysis = Oracle::of(game)?.analyze(&Position::parse(game, "XX.OO....")?);
/// let json = serde_json::to_string(&analysis)?;
/// assert!(json.starts_with(r#"{"board":"XX.OO....","to_move":"X","status":"in_progress","value":"win","remoteness":1,"best":[3],"line":[3],"#));
///
/// let game = "4x4k3".parse()?;
/// let analysis = Oracle::of(game)?.analyze(&Position::parse(game, "XX../OO../..../....")?);
/// let json = serde_json::to_string(&analysis)?;
/// assert!(json.starts_with(r#"{"game":"4x4k3","board":"XX../OO../..../....","to_move":"X","status":"in_progress","value":"win","remoteness":1,"best":[3],"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// The game.
    #[serde(skip_serializing_if = "Game::is_tic_tac_toe")]
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
    /// The optimal moves; empty for a finished game.
    pub best: Cells,
    /// The perfect line: both sides playing the deterministic best move to the end (see
    /// [`Oracle::line`](crate::Oracle::line)); empty for a finished game.
    pub line: Vec<Cell>,
    /// Every legal move, by cell, valued from the view of the player making it.
    pub moves: Vec<MoveValue>,
    /// The lines the winner made ([`Position::won_lines`]); left out of the JSON unless the
    /// game is won.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub won_lines: Vec<Cells>,
}
