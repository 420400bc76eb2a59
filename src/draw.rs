//! Boards and moves drawn for people, with colour or without: the grids of the reports'
//! text (an audit's, a match's, a review's) and of `ttt play` and `ttt analyze`, and the
//! [`Style`] that colours them.

use crate::analysis::Analysis;
use crate::board::Cell;
use crate::game::Game;
use crate::position::Position;
use crate::text::shown_width;
use crate::value::Value;

/// Whether text for people is coloured, and how: the one choice every report's text takes.
///
/// [`PLAIN`](Style::PLAIN) writes the text alone (what the reports' `Display` writes, and
/// `ttt` with `NO_COLOR`); [`COLOURED`](Style::COLOURED) wraps it in ANSI escape sequences
/// (`ESC [ ... m`).
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Value, draw::Style};
///
/// assert_eq!(Style::PLAIN.value(Value::Win, "win"), "win");
/// assert_eq!(Style::COLOURED.value(Value::Win, "win"), "\x1b[32mwin\x1b[0m");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    colour: bool,
}

impl Style {
    /// No colour: the text alone.
    pub const PLAIN: Style = Style { colour: false };

    /// Colour, as a terminal shows it.
    pub const COLOURED: Style = Style { colour: true };

    fn paint(self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// Green for a win, yellow for a draw, red for a loss.
    pub fn value(self, value: Value, text: &str) -> String {
        let code = match value {
            Value::Win => "32",
            Value::Draw => "33",
            Value::Loss => "31",
        };
        self.paint(code, text)
    }

    /// Bold.
    pub fn strong(self, text: &str) -> String {
        self.paint("1", text)
    }

    /// Dimmed, for what matters less.
    pub fn faint(self, text: &str) -> String {
        self.paint("2", text)
    }

    /// Bold red, as clap shows `error:`.
    pub fn error(self, text: &str) -> String {
        self.paint("1;31", text)
    }
}

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

/// Draws squares as a grid of `columns` columns, each padded to the widest:
///
/// ```text
///  X | O | 3
/// ---+---+---
/// ```
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Game, Position, draw::{Style, board_squares, grid_of}};
///
/// let board = Position::parse(Game::TIC_TAC_TOE, "XO.......")?;
/// let grid = grid_of(&board_squares(&board, Style::PLAIN), 3);
/// assert_eq!(grid, [" X | O | 3", "---+---+---", " 4 | 5 | 6", "---+---+---", " 7 | 8 | 9"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn grid_of(squares: &[Square], columns: usize) -> Vec<String> {
    let rows = squares.len() / columns;
    let width = widest(squares);
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
        lines.push(cells.join("|").trim_end().to_string());
    }
    lines
}

/// Two grids of equal height side by side, `gap` spaces apart: the right one starts in the same
/// column on every line, and no line ends in spaces.
pub fn side_by_side(left: &[String], right: &[String], gap: usize) -> Vec<String> {
    let width = left.iter().map(|l| shown_width(l)).max().unwrap_or(0);
    left.iter()
        .zip(right)
        .map(|(l, r)| {
            let pad = " ".repeat(width - shown_width(l) + gap);
            format!("{l}{pad}{r}").trim_end().to_string()
        })
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

/// The command that shows a game of an audit again: `review` to step through every move of it,
/// judged; `analyze` for the position it reaches.
pub(crate) fn replay(command: &str, game: Game, moves: &[Cell]) -> String {
    let flag = match game {
        Game::TIC_TAC_TOE => String::new(),
        game => format!(" --game {game}"),
    };
    format!("replay: ttt {command}{flag} --moves \"{}\"", cells(moves))
}

/// The width of the widest square, in characters.
fn widest(squares: &[Square]) -> usize {
    squares
        .iter()
        .map(|s| s.plain.chars().count())
        .max()
        .unwrap_or(1)
}

/// The width in columns of the grid [`grid_of`] draws of `squares` in `columns` columns.
fn grid_width(squares: &[Square], columns: usize) -> usize {
    columns * (widest(squares) + 3) - 1
}

/// Draws squares as a grid of `columns` columns, as [`grid_of`] does, in at most `room`
/// columns of text: a board too wide for that (a row of 20 cells or more) is cut into bands of
/// whole columns, left to right, each under the one before it after a blank line. The cell
/// numbers say where each band belongs.
pub fn grid_within(squares: &[Square], columns: usize, room: usize) -> Vec<String> {
    if grid_width(squares, columns) <= room {
        return grid_of(squares, columns);
    }
    let widest = widest(squares);
    // Every band padded to the widest square of all, so that the bands line up.
    let padded = |s: &Square| {
        let pad = " ".repeat(widest - s.plain.chars().count());
        Square::new(format!("{}{pad}", s.plain), format!("{}{pad}", s.painted))
    };
    let band = ((room + 1) / (widest + 3)).max(1);
    let rows = squares.len() / columns;
    let mut lines = Vec::new();
    for first in (0..columns).step_by(band) {
        let last = (first + band).min(columns);
        let part: Vec<Square> = (0..rows)
            .flat_map(|row| (first..last).map(move |column| row * columns + column))
            .map(|index| padded(&squares[index]))
            .collect();
        if first > 0 {
            lines.push(String::new());
        }
        lines.extend(grid_of(&part, last - first));
    }
    lines
}

/// Whether [`pair_within`] draws two grids side by side, rather than one under the other.
pub fn pair_fits(
    left: &[Square],
    right: &[Square],
    columns: usize,
    gap: usize,
    room: usize,
) -> bool {
    grid_width(left, columns) + gap + grid_width(right, columns) <= room
}

/// A board's squares and a second set of the same shape (what each cell leads to) drawn as
/// grids of `columns` columns: side by side, `gap` spaces apart, when both fit in `room`
/// columns of text; otherwise the second under the first, after a blank line, each cut into
/// bands as [`grid_within`] cuts it.
pub fn pair_within(
    left: &[Square],
    right: &[Square],
    columns: usize,
    gap: usize,
    room: usize,
) -> Vec<String> {
    if pair_fits(left, right, columns, gap, room) {
        return side_by_side(&grid_of(left, columns), &grid_of(right, columns), gap);
    }
    let mut lines = grid_within(left, columns, room);
    lines.push(String::new());
    lines.extend(grid_within(right, columns, room));
    lines
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
