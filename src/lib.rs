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
mod audit;
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
pub mod quote;
mod ratio;
mod review;
mod rng;
pub mod shutdown;
mod simulate;
mod solve;
mod stats;
mod symmetry;
mod table;
mod value;
mod verify;

pub use analysis::Analysis;
pub use audit::tableless::{
    AuditBudget, Counts, Shortest, TablelessReport, audit_tableless, odds_tableless,
};
pub use audit::{
    AuditError, Blunders, Forfeit, IllegalLine, LosingLine, LostGame, Odds, OverBudget, SideReport,
    Verdict, WorstCase, audit, audit_game, audit_game_within, losing_games, losing_games_in,
    losing_games_within,
};
pub use board::{
    Board, Cell, Cells, CellsIter, IllegalBoard, LINES, MoveError, MoveListError, Outcome,
    ParseBoardError, ParseCellError, Player, Status, for_each_move, parse_moves,
};
pub use format::MnkFormatError;
pub use format::tic_tac_toe::{BINCODE_CONFIG, FORMAT_VERSION, FormatError};
pub use game::{Game, GameError, Geometry, MAX_CELLS, MAX_TABLE_CELLS, Mask};
pub use history::History;
pub use matchup::{MatchError, MatchReport, matchup, matchup_game, matchup_game_within};
pub use oracle::Oracle;
pub use position::{MnkMoveError, MnkMoveListError, ParseMnkBoardError, Position, Reachable};
pub use ratio::Ratio;
pub use review::{MoveVerdict, PlyReview, Review};
pub use rng::SplitMix64;
pub use simulate::{Rate, Tally, simulate, simulate_game, simulate_reporting};
pub use solve::tic_tac_toe::{Evaluation, Solution, solve};
pub use solve::{Entry, MnkSolution, entry, solve_game, unentry};
pub use stats::{ByOutcome, ByValue, Stats};
pub use symmetry::{Canonical, Symmetry, canonicalize};
pub use table::tic_tac_toe::{Dense, table, try_table};
pub use table::{Table, TableError};
pub use value::{MoveValue, Probe, Value};
pub use verify::{Mismatch, Verification};
