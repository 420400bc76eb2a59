//! `ttt analyze` and `ttt best`.

use std::io::{self, Write};

use clap::Args;
use ttt_oracle::{Analysis, Cell, Status, Value, table};

use super::draw::{Square, board_squares, grid, side_by_side};
use super::style::Style;
use super::{Failure, Format, PositionArgs};

/// Arguments of `ttt analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Output format.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
}

/// Prints the analysis of one position.
pub fn run(args: &AnalyzeArgs) -> Result<(), Failure> {
    let board = args.position.board()?;
    let analysis = Analysis::new(table(), board);
    let mut out = io::stdout().lock();
    match args.format {
        Format::Json => {
            serde_json::to_writer(&mut out, &analysis).map_err(io::Error::from)?;
            writeln!(out)?;
        }
        Format::Text => {
            for line in text(&analysis, Style::for_stdout()) {
                writeln!(out, "{line}")?;
            }
        }
    }
    Ok(())
}

/// Prints the best move alone.
pub fn best(args: &PositionArgs) -> Result<(), Failure> {
    let board = args.board()?;
    let cell = table().best_move(&board).ok_or_else(|| {
        Failure::usage(format!(
            "the game on {board} is over ({}): there is no move to make",
            board.status()
        ))
    })?;
    writeln!(io::stdout().lock(), "{cell}")?;
    Ok(())
}

fn value_letter(value: Value) -> char {
    match value {
        Value::Win => 'W',
        Value::Draw => 'D',
        Value::Loss => 'L',
    }
}

/// What each empty cell leads to for the side to move: `W3` (a win in 3 plies), `D7`, `L2`,
/// with `*` on the optimal moves; occupied cells show their mark.
pub fn outcome_squares(analysis: &Analysis, style: Style) -> [Square; 9] {
    Cell::ALL.map(
        |cell| match analysis.moves.iter().find(|m| m.cell == cell) {
            Some(m) => {
                let star = if analysis.best.contains(cell) {
                    "*"
                } else {
                    ""
                };
                let label = format!("{}{}{star}", value_letter(m.value), m.remoteness);
                Square::new(label.clone(), style.value(m.value, &label))
            }
            None => {
                let mark = analysis
                    .board
                    .get(cell)
                    .map(|p| p.to_string())
                    .unwrap_or_default();
                Square::new(mark.clone(), style.faint(&mark))
            }
        },
    )
}

/// The board beside a map of where each empty cell leads, then a summary.
fn text(analysis: &Analysis, style: Style) -> Vec<String> {
    let board = analysis.board;
    let left = grid(&board_squares(board, style));
    let mover = analysis.to_move;
    let mut lines = Vec::new();
    match analysis.status {
        Status::InProgress => {
            lines.extend(side_by_side(
                &left,
                &grid(&outcome_squares(analysis, style)),
                5,
            ));
            lines.push(String::new());
            let plies = plural(analysis.remoteness);
            let summary = match analysis.value {
                Value::Win => format!("{mover} to move wins in {plies}"),
                Value::Draw => format!("{mover} to move draws ({plies} to a full board)"),
                Value::Loss => format!("{mover} to move loses in {plies}"),
            };
            lines.push(format!(
                "{}. Best: {}.",
                style.value(analysis.value, &summary),
                analysis.best
            ));
            lines.push(style.faint(&format!(
                "Right: what each move leads to for {mover}: W win, D draw, L loss, then plies to the end; * marks the best."
            )));
        }
        Status::Finished(_) => {
            lines.extend(left);
            lines.push(String::new());
            let result = match board.winner() {
                Some(winner) => format!("Game over: {winner} won."),
                None => "Game over: a draw.".to_string(),
            };
            lines.push(style.strong(&result));
        }
    }
    lines
}

fn plural(plies: u8) -> String {
    if plies == 1 {
        "1 ply".to_string()
    } else {
        format!("{plies} plies")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ttt_oracle::Board;

    #[test]
    fn text_marks_every_empty_cell() {
        let board: Board = "XO..X....".parse().unwrap();
        let lines = text(&Analysis::new(table(), board), Style::plain());
        let joined = lines.join("\n");
        assert_eq!(joined.matches('L').count(), 6 + 1, "{joined}");
        assert!(joined.contains("L4*"), "{joined}");
    }
}
