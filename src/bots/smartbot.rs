//! `smartbot`: a port of the C bot of Keshav Nath and Vatsal Mittal's student report "Smart Bot
//! for Tic-Tac-Toe" (Delhi Technological University, 2021).
//!
//! The report describes the bot in prose and flowcharts; its C source is not in it. What it
//! says, in its order:
//!
//! 1. Win: scan the rows, then the columns, then the two diagonals (1-5-9, then 3-5-7) for a
//!    line with two of the bot's marks and the third cell empty, and fill the first found.
//! 2. Block: the same scan for the opponent's marks.
//! 3. Key-spot strategy, by the bot's mark:
//!    - As O. X took the centre: take the top-left corner (1); if X then takes the opposite
//!      corner (9), take the top-right corner (3). X took a corner: take the centre; if X then
//!      takes the corner opposite its first, take the top side (2).
//!    - As X. Open in the centre or the top-left corner, each with probability 1/2. From the
//!      centre: if O takes a side, take a corner adjacent to that side; after O blocks, take
//!      the corner that forms a "free triangle" (a double play). If O takes a corner, take the
//!      opposite corner. From the corner: if O takes a side, take the corner next to the bot's
//!      corner that does not touch O's side, then the corner opposite the first. If O takes the
//!      centre, take the opposite corner (9).
//! 4. Otherwise: as O, the centre if it is free ("the bot always plays the center square if
//!    available"); then a random empty cell ("when it has no strategies to implement ... it
//!    chooses a random spot").
//!
//! Readings where the report is silent or unclear:
//! - "A corner adjacent to that side" names no corner: we take the lower-numbered one
//!   (side 2 → 1, 4 → 1, 6 → 3, 8 → 7), which matches the report's figure (O on 6, X on 3). The
//!   report's gameplay sample shows X answering side 8 with corner 1, which is not adjacent to
//!   8; we follow the rule as written rather than that one sample.
//! - The "free triangle" is read as an empty corner that makes two threats at once, the double
//!   play the report draws; the first such corner in order 1, 3, 7, 9. None: the random fill.
//! - The scripted follow-ups apply only on the bot's next move, and only after win and block
//!   found nothing; a scripted cell that is no longer empty falls through to the fallback.
//! - Lines the report does not script (X opening on a side, O answering the corner with a
//!   corner) go straight to the fallback.
//! - The random choices are uniform: the report uses C's `rand()` and does not say more.

use super::{Bot, BotError, Choice, Turn, sides};
use crate::board::{Board, Cell, Cells, LINES, Player};
use crate::history::History;
use crate::ratio::Ratio;

/// Nath and Mittal's smart bot. Plays either side.
///
/// Not [memoryless](Bot::memoryless): its opening and its scripts read the moves so far, so two
/// histories of one board can get different answers.
#[derive(Clone, Copy, Debug, Default)]
pub struct Smartbot;

fn cell(number: u32) -> Cell {
    Cell::from_number(number).expect("cells 1..9")
}

/// The report's scan: rows, then columns, then diagonals; the empty cell of the first line with
/// two of `player`'s marks.
fn two_in_a_line(board: Board, player: Player) -> Option<Cell> {
    // Tic-tac-toe's nine cells fit 16 bits: the 128-bit masks of `Cells` (made for any board)
    // take two instructions for each step, at every line of every move an audit asks about.
    let nine = |cells: Cells| cells.bits() as u16;
    let (mine, empty) = (nine(board.marks(player)), nine(board.empty_cells()));
    // Two of the line's three cells are `player`'s and the third is empty: what is not
    // `player`'s is a single cell, and an empty one.
    LINES.iter().find_map(|&line| {
        let rest = nine(line) & !mine;
        let single = rest != 0 && rest & (rest - 1) == 0;
        (single && rest & empty != 0).then(|| Cell::ALL[rest.trailing_zeros() as usize])
    })
}

/// The first corner that gives `player` two threats at once.
fn free_triangle(board: Board, player: Player) -> Option<Cell> {
    let forks = super::tactics::fork_cells(board, player);
    [1, 3, 7, 9]
        .map(cell)
        .into_iter()
        .find(|&c| forks.contains(c))
}

/// The script's move, if the key-spot strategy has one here.
fn scripted(board: Board, moves: &[Cell], me: Player) -> Option<Cell> {
    let centre = cell(5);
    match (me, moves) {
        // As O, first move.
        (Player::O, [x1]) if *x1 == centre => Some(cell(1)),
        (Player::O, [x1]) if x1.is_corner() => Some(centre),
        // As O, second move.
        (Player::O, [x1, o1, x2]) if *x1 == centre && *o1 == cell(1) && *x2 == cell(9) => {
            Some(cell(3))
        }
        (Player::O, [x1, o1, x2]) if x1.is_corner() && *o1 == centre && *x2 == x1.opposite() => {
            Some(cell(2))
        }
        // As X, second move.
        (Player::X, [x1, o1]) if *x1 == centre && o1.is_side() => Some(match o1.number() {
            2 | 4 => cell(1),
            6 => cell(3),
            _ => cell(7),
        }),
        (Player::X, [x1, o1]) if *x1 == centre && o1.is_corner() => Some(o1.opposite()),
        (Player::X, [x1, o1]) if *x1 == cell(1) && o1.is_side() => Some(match o1.number() {
            2 | 6 => cell(7),
            _ => cell(3),
        }),
        (Player::X, [x1, o1]) if *x1 == cell(1) && *o1 == centre => Some(cell(9)),
        // As X, third move.
        (Player::X, [x1, o1, _, _]) if *x1 == centre && o1.is_side() => free_triangle(board, me),
        (Player::X, [x1, o1, _, _]) if *x1 == cell(1) && o1.is_side() => Some(cell(9)),
        _ => None,
    }
}

impl Bot for Smartbot {
    fn name(&self) -> &str {
        "smartbot"
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        super::collect(|choices| self.choose_into(game, choices))
    }

    fn choose_into(&mut self, game: &History, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        let board = game.board();
        let (me, them) = sides(board);
        if game.moves().is_empty() {
            let half = Ratio::new(1, 2);
            choices.extend([cell(5), cell(1)].map(|c| Choice {
                turn: Turn::Mark(c),
                probability: half,
            }));
            return Ok(());
        }
        let planned = two_in_a_line(board, me)
            .or_else(|| two_in_a_line(board, them))
            .or_else(|| scripted(board, game.moves(), me))
            .filter(|&c| board.get(c).is_none());
        let empty = board.empty_cells();
        match planned {
            Some(c) => choices.push(Choice::certain(Turn::Mark(c))),
            None if me == Player::O && empty.contains(cell(5)) => {
                choices.push(Choice::certain(Turn::Mark(cell(5))));
            }
            None => Choice::add_uniform(empty, choices),
        }
        Ok(())
    }
}
