//! The map of perfect play, in the style of xkcd 832: one picture of every game of tic-tac-toe
//! that a perfect player can face. The player's move is drawn bold on the board; in each
//! empty cell left, a smaller board shows the game after the opponent replies there, with
//! the player's next move, and so on to the end of every game.
//!
//! The SVG is built from the table alone, with fixed decimals and in cell order, so the same
//! options give the same bytes. Every board is a `<g class="board">` carrying the moves that
//! led to it (`data-moves`, `none` for the empty board) and its square (`data-box`: x, y,
//! side); every mark is a `<g class="mark">` with its cell (`data-cell`) and player
//! (`data-player`), and the player's move on that board has class `mark best`. A program can
//! so read the picture back, as `tests/integration/map.rs` does to check it against the table.

use std::fmt::Write;

use crate::board::{Cell, Player};
use crate::game::Game;
use crate::oracle::Oracle;
use crate::position::Position;
use crate::table::TableError;

/// The side of the whole picture, in SVG user units.
const SIDE: f64 = 2430.0;

/// The part of a cell a nested board leaves as a margin on each side.
const MARGIN: f64 = 0.06;

/// A square on the picture: its top left corner and its side.
#[derive(Clone, Copy)]
struct Square {
    x: f64,
    y: f64,
    side: f64,
}

impl Square {
    /// The square of `cell` on a 3x3 board drawn in `self`.
    fn cell(self, cell: Cell) -> Square {
        let third = self.side / 3.0;
        let (row, column) = (cell.index() / 3, cell.index() % 3);
        Square {
            x: self.x + third * column as f64,
            y: self.y + third * row as f64,
            side: third,
        }
    }

    /// `self` less a margin on every side, for a board nested in a cell.
    fn inset(self) -> Square {
        let margin = self.side * MARGIN;
        Square {
            x: self.x + margin,
            y: self.y + margin,
            side: self.side - 2.0 * margin,
        }
    }
}

/// The SVG map of perfect tic-tac-toe for a perfect player of side `player`: X's map starts
/// from X's first move; O's from the empty board, each of X's openings a board of its own.
///
/// # Errors
///
/// [`TableError`] when the embedded table is damaged.
///
/// # Examples
///
/// ```
/// use ttt_oracle::Player;
/// use ttt_oracle::web::map;
///
/// let svg = map::svg(Player::X)?;
/// assert!(svg.starts_with("<?xml"));
/// assert_eq!(svg, map::svg(Player::X)?); // the same bytes every time
/// # Ok::<(), ttt_oracle::TableError>(())
/// ```
pub fn svg(player: Player) -> Result<String, TableError> {
    let oracle = Oracle::of(Game::TIC_TAC_TOE)?;
    let mut out = String::with_capacity(1 << 20);
    let title = format!("Perfect tic-tac-toe as {player}");
    let _ = write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {SIDE} {SIDE}\" \
         width=\"{SIDE}\" height=\"{SIDE}\" data-player=\"{player}\">\n\
         <title>{title}</title>\n\
         <desc>The map of perfect play for {player}: its move bold on each board, every \
         reply of the opponent a smaller board in the cell it takes.</desc>\n\
         <style>.grid{{stroke:#222;fill:none}}.mark{{fill:none;stroke:#222}}\
         .best{{stroke:#c0392b}}.over{{fill:#eee}}\
         @media (prefers-color-scheme:dark){{.grid,.mark{{stroke:#ddd}}.best{{stroke:#ff7b6b}}\
         .over{{fill:#333}}svg{{background:#111}}}}</style>\n\
         <rect width=\"{SIDE}\" height=\"{SIDE}\" fill=\"none\"/>\n"
    );
    let square = Square {
        x: 0.0,
        y: 0.0,
        side: SIDE,
    };
    board(
        &mut out,
        &oracle,
        player,
        &Position::empty(Game::TIC_TAC_TOE),
        &[],
        square.inset(),
    );
    out.push_str("</svg>\n");
    Ok(out)
}

/// Draws the board of `position` (reached by `moves`) in `square`: its marks, the move of
/// `player` if it is to move, and a nested board for each reply of the opponent.
fn board(
    out: &mut String,
    oracle: &Oracle,
    player: Player,
    position: &Position,
    moves: &[Cell],
    square: Square,
) {
    let list = match moves {
        [] => "none".to_string(),
        moves => {
            let numbers: Vec<String> = moves.iter().map(Cell::to_string).collect();
            numbers.join(" ")
        }
    };
    let _ = writeln!(
        out,
        "<g class=\"board\" data-moves=\"{list}\" data-box=\"{:.2} {:.2} {:.2}\">",
        square.x, square.y, square.side
    );
    let best = (!position.is_over() && position.to_move() == player)
        .then(|| oracle.best_move(position))
        .flatten();
    let after = best.map_or(*position, |cell| {
        position.play(cell).expect("the best move is legal")
    });
    if after.is_over() {
        let _ = writeln!(
            out,
            "<rect class=\"over\" x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\"/>",
            square.x, square.y, square.side, square.side
        );
    }
    grid(out, square);
    for index in 0..9 {
        let cell = Cell::new(index).expect("a cell of tic-tac-toe");
        if let Some(mark) = position.get(cell) {
            draw_mark(out, square.cell(cell), cell, mark, false);
        }
    }
    if let Some(cell) = best {
        draw_mark(out, square.cell(cell), cell, player, true);
    }
    if !after.is_over() {
        let mut next = moves.to_vec();
        next.extend(best);
        for reply in after.legal_moves().iter() {
            let child = after.play(reply).expect("a legal reply");
            next.push(reply);
            board(
                out,
                oracle,
                player,
                &child,
                &next,
                square.cell(reply).inset(),
            );
            next.pop();
        }
    }
    out.push_str("</g>\n");
}

/// The two lines each way of a 3x3 grid in `square`, their width a fraction of its side.
fn grid(out: &mut String, square: Square) {
    let third = square.side / 3.0;
    let (x0, y0, x1, y1) = (
        square.x,
        square.y,
        square.x + square.side,
        square.y + square.side,
    );
    let mut path = String::new();
    for k in 1..3 {
        let x = x0 + third * f64::from(k);
        let y = y0 + third * f64::from(k);
        let _ = write!(
            path,
            "M{x:.2} {y0:.2}V{y1:.2}M{x0:.2} {y:.2}H{x1:.2}",
            x = x,
            y = y
        );
    }
    let _ = writeln!(
        out,
        "<path class=\"grid\" stroke-width=\"{:.2}\" d=\"{path}\"/>",
        square.side / 120.0
    );
}

/// A mark of `player` in `cell`, drawn in `square`: X a cross, O a ring; the perfect move
/// bolder and in the accent colour.
fn draw_mark(out: &mut String, square: Square, cell: Cell, player: Player, best: bool) {
    let pad = square.side * 0.2;
    let (x0, y0) = (square.x + pad, square.y + pad);
    let (x1, y1) = (square.x + square.side - pad, square.y + square.side - pad);
    let width = square.side * if best { 0.12 } else { 0.06 };
    let class = if best { "mark best" } else { "mark" };
    let shape = match player {
        Player::X => format!(
            "<path d=\"M{x0:.2} {y0:.2}L{x1:.2} {y1:.2}M{x1:.2} {y0:.2}L{x0:.2} {y1:.2}\"/>"
        ),
        Player::O => format!(
            "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"{:.2}\"/>",
            square.x + square.side / 2.0,
            square.y + square.side / 2.0,
            square.side / 2.0 - pad
        ),
    };
    let _ = writeln!(
        out,
        "<g class=\"{class}\" data-cell=\"{}\" data-player=\"{player}\" stroke-width=\"{width:.2}\">{shape}</g>",
        cell.number()
    );
}
