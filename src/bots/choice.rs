//! What a bot answers: the turns it may take, each with its probability, and a draw among them.

use std::fmt;

use crate::board::{Cell, Cells};
use crate::game::MAX_CELLS;
use crate::ratio::Ratio;
use crate::rng::SplitMix64;

/// What a bot does with its turn. Only [`Turn::Mark`] on an empty cell is legal; the rest are
/// the ways real bots break the rules, which the auditor reports as forfeits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// One mark on this cell (a forfeit if the cell is taken).
    Mark(Cell),
    /// No move at all.
    Nothing,
    /// More than one mark in one turn, on these cells in this order.
    Several(Vec<Cell>),
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turn::Mark(cell) => write!(f, "played {cell}"),
            Turn::Nothing => write!(f, "made no move"),
            Turn::Several(cells) => {
                let list: Vec<String> = cells.iter().map(Cell::to_string).collect();
                write!(
                    f,
                    "marked {} cells in one turn: {}",
                    cells.len(),
                    list.join(" ")
                )
            }
        }
    }
}

/// One thing a bot may do, and how likely it is to do it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// What the bot does.
    pub turn: Turn,
    /// How likely, given the game so far; a bot's choices add up to 1.
    pub probability: Ratio,
}

impl Choice {
    /// A move the bot always makes.
    pub fn certain(turn: Turn) -> Choice {
        Choice {
            turn,
            probability: Ratio::ONE,
        }
    }

    /// What a deterministic bot does: a mark on `cell`, or no move at all when it found none.
    pub fn only(cell: Option<Cell>) -> Vec<Choice> {
        vec![Choice::certain(cell.map_or(Turn::Nothing, Turn::Mark))]
    }

    /// One mark on each of `cells`, all equally likely; no choice at all for no cells.
    pub fn uniform(cells: Cells) -> Vec<Choice> {
        let mut choices = Vec::with_capacity(cells.len());
        Choice::add_uniform(cells, &mut choices);
        choices
    }

    /// What [`Choice::uniform`] returns, appended to `choices`.
    pub fn add_uniform(cells: Cells, choices: &mut Vec<Choice>) {
        let p = ONE_IN[cells.len()];
        choices.extend(cells.iter().map(|cell| Choice {
            turn: Turn::Mark(cell),
            probability: p,
        }));
    }
}

/// `1/n` for each number of cells `n` (zero for none), reduced once at compile time: an audit
/// asks for uniform choices at every position.
const ONE_IN: [Ratio; MAX_CELLS + 1] = {
    let mut table = [Ratio::ZERO; MAX_CELLS + 1];
    let mut n = 1;
    while n <= MAX_CELLS {
        table[n] = Ratio::new(1, n as u128);
        n += 1;
    }
    table
};

/// Picks one of `choices` at random, by their probabilities; `None` when there are none.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Cell, Cells, SplitMix64, bots::{Choice, Turn, sample}};
///
/// let corners: Cells = [1, 3, 7, 9].into_iter().filter_map(Cell::from_number).collect();
/// let choices = Choice::uniform(corners);
/// let mut rng = SplitMix64::new(1);
/// assert!(matches!(sample(&choices, &mut rng), Some(Turn::Mark(c)) if corners.contains(*c)));
/// ```
pub fn sample<'a>(choices: &'a [Choice], rng: &mut SplitMix64) -> Option<&'a Turn> {
    let mut left = rng.next_f64();
    for choice in choices {
        left -= choice.probability.to_f64();
        if left < 0.0 {
            return Some(&choice.turn);
        }
    }
    // Rounding can leave a sliver past the last choice; it belongs to the last one.
    choices.last().map(|choice| &choice.turn)
}
