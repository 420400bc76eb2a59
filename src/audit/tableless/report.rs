//! What an audit without a table found on one side: the counts and odds when the walk fitted
//! its budget, and the shortest loss and forfeit, found or searched for.

use crate::audit::{IllegalLine, LosingLine, Odds, Verdict};
use crate::board::Player;
use crate::game::Game;

/// What the exhaustive walk counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Decision points: histories where the bot was asked for a move.
    pub decision_points: u64,
    /// Distinct games, forfeits included.
    pub games: u64,
    /// Games lost on the board.
    pub losing_games: u64,
    /// Games forfeited by breaking the rules or panicking.
    pub illegal_games: u64,
}

/// What a search for the shortest line of a kind found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shortest<T> {
    /// One shortest line (the first in the walk's order among the shortest).
    Line(T),
    /// There is no such line: the bot never ends a game this way.
    Never,
    /// The budget ran out first: no such line is as short as `plies` or shorter.
    Unsettled {
        /// Every line of at most this many plies was searched.
        plies: usize,
    },
}

impl<T> Shortest<T> {
    /// The line, if one was found.
    pub fn line(&self) -> Option<&T> {
        match self {
            Shortest::Line(line) => Some(line),
            _ => None,
        }
    }

    /// Whether a line exists: `Some(true)` when found, `Some(false)` when there is none,
    /// `None` when the budget ran out first.
    pub fn exists(&self) -> Option<bool> {
        match self {
            Shortest::Line(_) => Some(true),
            Shortest::Never => Some(false),
            Shortest::Unsettled { .. } => None,
        }
    }
}

/// What an audit without a table found on one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TablelessReport {
    /// The game played.
    pub game: Game,
    /// The side the bot played.
    pub side: Player,
    /// The counts, when the exhaustive walk finished within its budget.
    pub counts: Option<Counts>,
    /// Exact odds against a uniformly random opponent, when the exhaustive walk finished and
    /// every probability fitted 128 bits.
    pub vs_random: Option<Odds>,
    /// One shortest game lost on the board (no mistake is marked: that needs values).
    pub shortest_loss: Shortest<LosingLine>,
    /// One shortest forfeit.
    pub shortest_illegal: Shortest<IllegalLine>,
    /// Distinct states the exhaustive walk worked out, up to where it stopped (for a program,
    /// every one of its turns the walk came to).
    pub states: usize,
}

impl TablelessReport {
    /// The verdict, once both kinds of defeat are settled; `None` while either is not.
    pub fn verdict(&self) -> Option<Verdict> {
        let lost = self.shortest_loss.exists()?;
        let forfeited = self.shortest_illegal.exists()?;
        Some(Verdict::from_counts(u64::from(lost), u64::from(forfeited)))
    }
}
