//! `forkbot`: a port of the Perl bot of the unsigned blog post "Writing a Tic-Tac-Toe bot in
//! perl".
//!
//! The finished listing's `bot` routine, in its order (the board is a string of digits and
//! marks, the lines the strings `123 456 789 147 258 369 159 357`):
//!
//! 1. Centre: `return if move('O', 5)`; this comes before anything else.
//! 2. Win: for each open cell in order, play it if some line through it matches `O\d?O`
//!    (the other two cells are the bot's).
//! 3. Block: the same with `X\d?X`.
//! 4. Fork: play the first open cell where `check('O', cell) > 1`, `check` counting the lines
//!    through the cell that hold one of the bot's marks and two empty cells.
//! 5. Forcing move: for each open cell with at least one such line, take the first such line
//!    (in the order above), find its other empty cell (where the opponent must answer) and play
//!    the cell if `check('X', that cell) < 2`, that is, if the forced answer gives the opponent
//!    no fork on the board as it stands now.
//! 6. Otherwise the first open cell.
//!
//! Readings:
//! - The listing's bot is always O and never moves first ("let's assume for now that the bot
//!   will always play 'O'"); we keep its rule order and let it play its own mark on either
//!   side, 'O' meaning the bot's mark and 'X' the opponent's.
//! - The fork check of rule 5 looks only at the first line through the cell and at the board
//!   before the bot's move, as the listing does.

use super::tactics::{fork_cells, open_lines_through, winning_cells};
use super::{Bot, BotError, Choice, sides};
use crate::board::{Board, Cell, LINES};
use crate::history::History;

/// The Perl post's bot.
#[derive(Clone, Copy, Debug, Default)]
pub struct Forkbot;

fn decide(board: Board) -> Option<Cell> {
    let (me, them) = sides(board);
    let centre = Cell::from_number(5).expect("cell 5");
    if board.get(centre).is_none() {
        return Some(centre);
    }
    // The listing scans open cells in order: its `/P\d?P/` and `check(...) > 1` tests pick
    // the lowest cell that completes a line, and the lowest fork cell.
    let open = board.empty_cells();
    let mine = board.marks(me);
    winning_cells(board, me)
        .first()
        .or_else(|| winning_cells(board, them).first())
        .or_else(|| fork_cells(board, me).first())
        .or_else(|| {
            open.iter().find(|&c| {
                LINES
                    .iter()
                    .find(|line| {
                        line.contains(c)
                            && line.intersection(mine).len() == 1
                            && line.intersection(open).len() == 2
                    })
                    .and_then(|line| line.intersection(open).without(c).first())
                    .is_some_and(|answer| open_lines_through(board, them, answer) < 2)
            })
        })
        .or_else(|| open.first())
}

impl Bot for Forkbot {
    fn name(&self) -> &str {
        "forkbot"
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        Ok(Choice::only(decide(game.board())))
    }

    fn memoryless(&self) -> bool {
        true
    }
}
