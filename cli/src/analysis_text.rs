//! An analysis drawn for people, on the grid of any game (tic-tac-toe's 3x3 included): the
//! board beside a map of where each empty cell leads, then the value, the optimal moves, the
//! perfect line and a key.

use ttt_oracle::draw::{Style, board_squares, cells, grid_of, outcome_squares, side_by_side};
use ttt_oracle::text::counted;
use ttt_oracle::{Analysis, Status, Value};

/// The board beside a map of where each empty cell leads, then a summary, on the game's grid.
pub fn text(analysis: &Analysis, style: Style) -> Vec<String> {
    let board = analysis.board;
    let game = board.game();
    let left = grid_of(&board_squares(&board, style), game.columns());
    let right = match analysis.status {
        Status::InProgress => grid_of(&outcome_squares(analysis, style), game.columns()),
        Status::Finished(_) => Vec::new(),
    };
    // Under the board and the map: the value, the optimal moves, the perfect line and the key;
    // or, under the board alone, how the game ended.
    let mover = analysis.to_move;
    let mut lines = Vec::new();
    if right.is_empty() {
        lines.extend(left);
        lines.push(String::new());
        let result = match board.winner() {
            Some(winner) => format!("Game over: {winner} won."),
            None => "Game over: a draw.".to_string(),
        };
        lines.push(style.strong(&result));
        return lines;
    }
    lines.extend(side_by_side(&left, &right, 5));
    let plies = counted(analysis.remoteness, "ply", "plies");
    let said = match analysis.value {
        Value::Win => format!("{mover} to move wins in {plies}"),
        Value::Draw => format!("{mover} to move draws ({plies} to a full board)"),
        Value::Loss => format!("{mover} to move loses in {plies}"),
    };
    lines.push(String::new());
    let best = format!("Best: {}.", analysis.best);
    // On one line while it fits in 100 columns; a board of 25 cells can have 25 best moves.
    match said.len() + 2 + best.len() <= 100 {
        true => lines.push(format!("{}. {best}", style.value(analysis.value, &said))),
        false => {
            lines.push(format!("{}.", style.value(analysis.value, &said)));
            lines.push(best);
        }
    }
    lines.push(format!("Perfect play: {}", cells(&analysis.line)));
    lines.push(style.faint(&format!(
        "Right: what each move leads to for {mover}: W win, D draw, L loss, plies to the end; * best."
    )));
    lines
}
