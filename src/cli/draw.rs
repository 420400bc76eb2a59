//! Boards drawn for people: a 3x3 grid of short labels; and moves written for them.

use ttt_oracle::{Board, Cell};

use super::style::Style;

/// One square of a drawn grid: its text, and the same text with colour (if any).
#[derive(Clone, Debug, Default)]
pub struct Square {
    plain: String,
    painted: String,
}

impl Square {
    /// A square shown as `plain`, painted as `painted` (same visible text).
    pub fn new(plain: impl Into<String>, painted: impl Into<String>) -> Square {
        Square {
            plain: plain.into(),
            painted: painted.into(),
        }
    }
}

/// Draws nine squares as a grid, each padded to the widest:
///
/// ```text
///  X | O | 3
/// ---+---+---
/// ```
pub fn grid(squares: &[Square; 9]) -> Vec<String> {
    grid_of(squares, 3)
}

/// Draws squares as a grid of `columns` columns, as [`grid`] draws nine.
pub fn grid_of(squares: &[Square], columns: usize) -> Vec<String> {
    let rows = squares.len() / columns;
    let width = squares
        .iter()
        .map(|s| s.plain.chars().count())
        .max()
        .unwrap_or(1);
    let mut lines = Vec::with_capacity(2 * rows);
    for row in 0..rows {
        if row > 0 {
            lines.push(vec!["-".repeat(width + 2); columns].join("+"));
        }
        let cells: Vec<String> = (0..columns)
            .map(|column| {
                let square = &squares[row * columns + column];
                let pad = width - square.plain.chars().count();
                format!(" {}{} ", square.painted, " ".repeat(pad))
            })
            .collect();
        lines.push(cells.join("|"));
    }
    lines
}

/// The squares of a board: marks in bold, empty cells as their dimmed number.
pub fn board_squares(board: Board, style: Style) -> [Square; 9] {
    Cell::ALL.map(|cell| match board.get(cell) {
        Some(player) => Square::new(player.to_string(), style.strong(&player.to_string())),
        None => Square::new(cell.to_string(), style.faint(&cell.to_string())),
    })
}

/// Two grids of equal height side by side, `gap` spaces apart.
pub fn side_by_side(left: &[String], right: &[String], gap: usize) -> Vec<String> {
    left.iter()
        .zip(right)
        .map(|(l, r)| format!("{l}{}{r}", " ".repeat(gap)))
        .collect()
}

/// Cells separated by spaces, as people read a game or a line: `5 1 9`.
pub fn cells(moves: &[Cell]) -> String {
    moves
        .iter()
        .map(Cell::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
