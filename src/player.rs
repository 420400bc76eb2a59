//! The two players, and where a game stands: in progress, or over with a win or a draw.
//!
//! This file is shared with `build.rs` (through `#[path]`).

use std::fmt;
use std::ops::Not;

/// One of the two players. X always moves first.
///
/// # Examples
///
/// ```
/// use ttt_oracle::Player;
///
/// assert_eq!(!Player::X, Player::O);
/// assert_eq!(Player::O.to_string(), "O");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Player {
    /// Both players, X first.
    pub const BOTH: [Player; 2] = [Player::X, Player::O];

    /// The mark this player writes on the board: `'X'` or `'O'`.
    pub const fn mark(self) -> char {
        match self {
            Player::X => 'X',
            Player::O => 'O',
        }
    }

    /// Whose turn it is after `ply` moves (from 0): X on even plies. Known from the moves'
    /// count, where counting a board's marks has no instruction on the portable build.
    #[inline(always)]
    pub const fn at_ply(ply: usize) -> Player {
        if ply % 2 == 0 { Player::X } else { Player::O }
    }

    /// The name programs see: `"X"` or `"O"`, the mark as a string.
    pub const fn name(self) -> &'static str {
        match self {
            Player::X => "X",
            Player::O => "O",
        }
    }
}

impl Not for Player {
    type Output = Player;

    fn not(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mark())
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player made three in a row.
    Win(Player),
    /// The board filled up with no line.
    Draw,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has a move to make.
    InProgress,
    /// The game is over.
    Finished(Outcome),
}

impl Status {
    /// The name programs see: `in_progress`, `x_wins`, `o_wins` or `draw`.
    pub const fn name(self) -> &'static str {
        match self {
            Status::InProgress => "in_progress",
            Status::Finished(Outcome::Win(Player::X)) => "x_wins",
            Status::Finished(Outcome::Win(Player::O)) => "o_wins",
            Status::Finished(Outcome::Draw) => "draw",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
