//! `newell-simon`: the classic rule list for perfect tic-tac-toe (Newell and Simon's program,
//! as Crowley and Siegler (1993) set it out), the rules most hand-written bots try to copy.
//!
//! In order, the first rule that applies gives the move:
//!
//! 1. Win: complete a line of two.
//! 2. Block: stop the opponent's line of two.
//! 3. Fork: make two threats at once.
//! 4. Block a fork: if the opponent has exactly one fork cell, take it. If it has several, make
//!    a threat (two in a line with the third empty) whose forced answer does not give the
//!    opponent a fork; if no threat does, take the first fork cell.
//! 5. Centre.
//! 6. Opposite corner: a corner opposite one of the opponent's.
//! 7. Empty corner.
//! 8. Empty side.
//!
//! Not one of the published bots: the classic rule list they are measured against. Ties
//! go to the lowest-numbered cell, so the bot is deterministic.

use super::tactics::{fork_cells, winning_cells};
use super::{Bot, BotError, Choice, sides};
use crate::board::{Board, Cell, Cells};
use crate::history::History;

/// The Newell and Simon rule list.
#[derive(Clone, Copy, Debug, Default)]
pub struct NewellSimon;

fn block_fork(board: Board) -> Option<Cell> {
    let (me, them) = sides(board);
    let forks = fork_cells(board, them);
    match forks.len() {
        0 => None,
        1 => forks.first(),
        _ => board
            .empty_cells()
            .iter()
            .find(|&cell| {
                let after = board.play_unchecked(cell);
                let threats = winning_cells(after, me);
                // Exactly one threat forces one answer; the answer must not fork.
                threats.len() == 1
                    && threats.first().is_some_and(|answer| {
                        let answered = after.play_unchecked(answer);
                        winning_cells(answered, them).len() < 2
                    })
            })
            .or_else(|| forks.first()),
    }
}

fn decide(board: Board) -> Option<Cell> {
    let (me, them) = sides(board);
    let empty = board.empty_cells();
    let corners = Cells::from_bits(0b101_000_101);
    let theirs = board.marks(them);
    winning_cells(board, me)
        .first()
        .or_else(|| winning_cells(board, them).first())
        .or_else(|| fork_cells(board, me).first())
        .or_else(|| block_fork(board))
        .or_else(|| Cell::from_number(5).filter(|&c| empty.contains(c)))
        .or_else(|| {
            corners
                .intersection(empty)
                .iter()
                .find(|c| theirs.contains(c.opposite()))
        })
        .or_else(|| corners.intersection(empty).first())
        .or_else(|| empty.first())
}

impl Bot for NewellSimon {
    fn name(&self) -> &str {
        "newell-simon"
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        Ok(Choice::only(decide(game.board())))
    }

    fn memoryless(&self) -> bool {
        true
    }
}
