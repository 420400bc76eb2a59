//! Tic-tac-toe, solved.
//!
//! `build.rs` runs full minimax over every reachable position, reduced by the 8 symmetries of the
//! board to 765 canonical positions, and embeds the resulting table in the crate. [`table()`]
//! decodes it once and then answers any legal position in constant time: its value for the side
//! to move, its remoteness (plies to the end under perfect play) and its optimal moves.
//!
//! Cells are numbered 1..9 row-major wherever a person or a program sees them:
//!
//! ```text
//! 1 2 3
//! 4 5 6
//! 7 8 9
//! ```
//!
//! # Examples
//!
//! ```
//! use ttt_oracle::{Board, Value, table};
//!
//! let board: Board = "XO..X....".parse()?;
//! let table = table();
//! assert_eq!(table.probe(&board).value, Value::Loss); // O to move cannot stop X
//! assert_eq!(table.best_move(&board).map(|c| c.number()), Some(9));
//! # Ok::<(), ttt_oracle::ParseBoardError>(())
//! ```

#![warn(missing_docs)]

mod analysis;
pub mod audit;
mod board;
pub mod bots;
mod child;
pub mod cli;
pub mod export;
mod format;
mod game;
mod history;
mod json;
mod matchup;
mod oracle;
pub mod output;
mod position;
mod quote;
mod ratio;
mod review;
mod rng;
mod shutdown;
mod simulate;
mod solve;
pub mod stats;
mod symmetry;
mod table;
#[cfg(test)]
mod tests;
mod value;
mod verify;

pub use analysis::Analysis;
pub use audit::{AuditError, AuditOptions, audit, losing_games};
pub use board::{Cell, Cells, IllegalPosition, MoveError, Outcome, ParseCellError, Player, Status};
pub use game::{Game, GameError};
pub use history::History;
pub use matchup::{MatchError, MatchOptions, MatchReport, matchup};
pub use oracle::Oracle;
pub use position::{MoveListError, ParsePositionError, Position};
pub use ratio::Ratio;
pub use review::{MoveVerdict, PlyReview, Review};
pub use rng::SplitMix64;
pub use simulate::{SimulateOptions, Tally, simulate};
pub use table::TableError;
pub use value::{MoveValue, Probe, Value};
pub use verify::{Mismatch, Verification};

// Crate-internal names at the root, for the command line: the layouts behind the front door.
pub(crate) use audit::tableless::odds_tableless;
pub(crate) use audit::{
    AuditBudget, Forfeit, LostGame, Odds, OverBudget, Shortest, SideReport, TablelessReport,
    Verdict, WorstCase,
};
pub(crate) use board::{Board, parse_moves};
pub(crate) use game::MAX_TABLE_CELLS;
pub(crate) use simulate::{Rate, simulate_game};
pub(crate) use stats::ByOutcome;
pub(crate) use table::Table;
pub(crate) use table::tic_tac_toe::{Dense, table, try_table};
