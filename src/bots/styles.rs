//! Playing styles built on the table: `tricky`, `casual:P` and `epsilon:P`, on every game with
//! one (at most 16 cells, or up to 25 that `ttt solve` cached). (`perfect` and `random` have files of their own.) Each is a
//! bot, so the auditor can judge it too.

use super::solved::{self, Solved};
use super::{Bot, BotError, Choice, Turn};
use crate::Game;
use crate::board::{Cell, Cells};
use crate::game::MAX_TIER_CELLS;
use crate::history::History;
use crate::ratio::Ratio;

/// How many replies of the opponent, in the position after the side to move plays `cell` (a
/// legal move) in `game`, would lower the opponent's own game-theoretic value: its ways to go
/// wrong.
///
/// # Errors
///
/// [`BotError`] when `cell` is not a legal move, or the game has no table (more than 16 cells).
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Cell, History, bots};
///
/// // After a corner, 7 of O's 8 replies lose; after the centre, 4.
/// let empty = History::new();
/// assert_eq!(bots::ways_to_go_wrong(&empty, Cell::from_number(1).unwrap())?, 7);
/// assert_eq!(bots::ways_to_go_wrong(&empty, Cell::from_number(5).unwrap())?, 4);
/// # Ok::<(), bots::BotError>(())
/// ```
pub fn ways_to_go_wrong(game: &History, cell: Cell) -> Result<usize, BotError> {
    if !game.legal_moves().contains(cell) {
        return Err(BotError {
            message: format!("cell {cell} is not a legal move of {}", game.position()),
        });
    }
    Solved::with(game, "ways_to_go_wrong", |solved| {
        solved.ways_to_go_wrong(cell)
    })
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
    /// The optimal moves in `game` that leave the most ways to go wrong.
    ///
    /// # Errors
    ///
    /// [`BotError`] when the game has no table (more than 16 cells).
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{History, bots::Tricky};
    ///
    /// assert_eq!(Tricky::candidates(&History::new())?.to_string(), "1 3 7 9");
    /// # Ok::<(), ttt_oracle::bots::BotError>(())
    /// ```
    pub fn candidates(game: &History) -> Result<Cells, BotError> {
        Solved::with(game, "tricky", Tricky::candidates_in)
    }

    fn candidates_in(solved: Solved) -> Cells {
        let ways: Vec<(Cell, usize)> = solved
            .best_moves()
            .iter()
            .map(|cell| (cell, solved.ways_to_go_wrong(cell)))
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

    solved::table_bot!();

    fn choose_into(&mut self, game: &History, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        let candidates = Solved::with(game, self.name(), Tricky::candidates_in)?;
        Choice::add_uniform(candidates, choices);
        Ok(())
    }
}

/// Adds up choices that name the same move, and appends them to `choices`.
fn merge(parts: impl IntoIterator<Item = (Cells, Ratio)>, choices: &mut Vec<Choice>) {
    // The styles play games with a table only (embedded, solved, or cached by `ttt solve`):
    // their cells are at most MAX_TIER_CELLS, and this runs at every question of an audit.
    let mut weights = [Ratio::ZERO; MAX_TIER_CELLS];
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
        (0..MAX_TIER_CELLS)
            .filter(|&index| weights[index] != Ratio::ZERO)
            .filter_map(|index| {
                Some(Choice {
                    turn: Turn::Mark(Cell::new(index)?),
                    probability: weights[index],
                })
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

    solved::table_bot!();

    fn choose_into(&mut self, game: &History, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        let (best, keeping) = Solved::with(game, &self.name, |solved| {
            let value = solved.value();
            let keeping: Cells = solved
                .moves()
                .into_iter()
                .filter(|&(_, worth)| worth == value)
                .map(|(cell, _)| cell)
                .collect();
            (solved.best_moves(), keeping)
        })?;
        merge([(best, self.p.complement()), (keeping, self.p)], choices);
        Ok(())
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

    solved::table_bot!();

    fn choose_into(&mut self, game: &History, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        let best = Solved::with(game, &self.name, |solved| solved.best_moves())?;
        merge(
            [(best, self.p.complement()), (game.legal_moves(), self.p)],
            choices,
        );
        Ok(())
    }
}
