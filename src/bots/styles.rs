//! Playing styles built on the table: `tricky`, `casual:P` and `epsilon:P`. (`perfect` and
//! `random` have files of their own.) Each is a bot, so the auditor can judge it too.

use super::{Bot, BotError, Choice, Turn};
use crate::board::{Board, Cell, Cells};
use crate::game::Game;
use crate::ratio::Ratio;
use crate::table::table;

/// How many replies of the opponent, in the position after `cell`, would lower the
/// opponent's own game-theoretic value: its ways to go wrong.
pub fn ways_to_go_wrong(board: Board, cell: Cell) -> usize {
    let table = table();
    let after = board.play_unchecked(cell);
    let holds = table.probe(&after).value;
    table
        .analyze(&after)
        .iter()
        .filter(|reply| reply.value < holds)
        .count()
}

/// Perfect, and among the optimal moves the ones that leave the opponent the most ways to go
/// wrong: replies that lower the opponent's value (see [`ways_to_go_wrong`]). Ties are equally
/// likely.
///
/// As X on the empty board every move draws; a corner leaves O seven losing replies of eight,
/// the centre four, a side four, so `tricky` opens in a corner.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tricky;

impl Tricky {
    /// The optimal moves that leave the most ways to go wrong.
    pub fn candidates(board: Board) -> Cells {
        let ways: Vec<(Cell, usize)> = table()
            .best_moves(&board)
            .iter()
            .map(|cell| (cell, ways_to_go_wrong(board, cell)))
            .collect();
        let most = ways.iter().map(|&(_, n)| n).max().unwrap_or(0);
        ways.into_iter()
            .filter(|&(_, n)| n == most)
            .map(|(cell, _)| cell)
            .collect()
    }
}

impl Bot for Tricky {
    fn name(&self) -> &str {
        "tricky"
    }

    fn choose(&mut self, game: &Game) -> Result<Vec<Choice>, BotError> {
        super::collect(|choices| self.choose_into(game, choices))
    }

    fn choose_into(&mut self, game: &Game, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        Choice::add_uniform(Tricky::candidates(game.board()), choices);
        Ok(())
    }

    fn memoryless(&self) -> bool {
        true
    }
}

/// Adds up choices that name the same move, and appends them to `choices`.
fn merge(parts: impl IntoIterator<Item = (Cells, Ratio)>, choices: &mut Vec<Choice>) {
    let mut weights = [Ratio::ZERO; 9];
    for (cells, weight) in parts {
        if cells.is_empty() {
            continue;
        }
        let each = weight * Ratio::new(1, cells.len() as u128);
        for cell in cells {
            weights[cell.index()] += each;
        }
    }
    choices.extend(
        Cell::ALL
            .into_iter()
            .filter(|cell| weights[cell.index()] != Ratio::ZERO)
            .map(|cell| Choice {
                turn: Turn::Mark(cell),
                probability: weights[cell.index()],
            }),
    );
}

/// A probability as a person would write it: a decimal when it has one of at most three
/// places (`0.25`), otherwise a fraction (`1/3`).
fn label(p: Ratio) -> String {
    let den = p.denom();
    if 1000 % den == 0 {
        let thousandths = p.numer() * (1000 / den);
        let text = format!("{}.{:03}", thousandths / 1000, thousandths % 1000);
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        p.to_string()
    }
}

/// Never gives away the result it could hold, but with probability `p` plays a random move
/// among those that keep the value instead of the fastest win or slowest loss: beatable in
/// speed, never in outcome.
#[derive(Clone, Debug)]
pub struct Casual {
    p: Ratio,
    name: String,
}

impl Casual {
    /// Casual play with probability `p` (0 to 1) of a relaxed move.
    pub fn new(p: Ratio) -> Casual {
        Casual {
            p,
            name: format!("casual:{}", label(p)),
        }
    }
}

impl Bot for Casual {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, game: &Game) -> Result<Vec<Choice>, BotError> {
        super::collect(|choices| self.choose_into(game, choices))
    }

    fn choose_into(&mut self, game: &Game, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        let board = game.board();
        let table = table();
        let value = table.probe(&board).value;
        let keeping: Cells = table
            .analyze(&board)
            .iter()
            .filter(|m| m.value == value)
            .map(|m| m.cell)
            .collect();
        merge(
            [
                (table.best_moves(&board), self.p.complement()),
                (keeping, self.p),
            ],
            choices,
        );
        Ok(())
    }

    fn memoryless(&self) -> bool {
        true
    }
}

/// With probability `p` a uniformly random legal move, otherwise a perfect one: the
/// "stochastic factor" of the SRM report.
#[derive(Clone, Debug)]
pub struct Epsilon {
    p: Ratio,
    name: String,
}

impl Epsilon {
    /// Random with probability `p` (0 to 1), perfect otherwise.
    pub fn new(p: Ratio) -> Epsilon {
        Epsilon {
            p,
            name: format!("epsilon:{}", label(p)),
        }
    }
}

impl Bot for Epsilon {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, game: &Game) -> Result<Vec<Choice>, BotError> {
        super::collect(|choices| self.choose_into(game, choices))
    }

    fn choose_into(&mut self, game: &Game, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        let board = game.board();
        merge(
            [
                (table().best_moves(&board), self.p.complement()),
                (board.legal_moves(), self.p),
            ],
            choices,
        );
        Ok(())
    }

    fn memoryless(&self) -> bool {
        true
    }
}
