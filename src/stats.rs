//! Counts over the whole game: positions, outcomes, values, games and game-tree nodes, over
//! the tiers of a solve (`stats/tiered.rs`): a fresh one in memory for a game of at most 16
//! cells, the table `ttt solve` cached for a larger one.

pub(crate) mod tiered;

use serde::Serialize;

use crate::game::Game;
use crate::table::TableError;
use crate::tiers::{Tiers, solve_in_memory};

pub use tiered::games_up_to_symmetry_bytes;
pub(crate) use tiered::of_disk;

/// Positions or games split by how they end: counts of positions in 64 bits, of games in 128
/// (a game of more than 20 cells has more than 2^64).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ByOutcome<N = u64> {
    /// All of them.
    pub total: N,
    /// Won by X.
    pub x_wins: N,
    /// Won by O.
    pub o_wins: N,
    /// Drawn.
    pub draw: N,
}

/// Positions split by their value for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ByValue {
    /// Won by the side to move.
    pub win: u64,
    /// Drawn.
    pub draw: u64,
    /// Lost by the side to move (finished games the opponent won included).
    pub loss: u64,
}

/// Everything `ttt stats` reports. Field names are the keys of `ttt stats --format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Positions reachable from the empty board, the empty board included.
    pub reachable_positions: u64,
    /// Reachable positions up to the 8 symmetries of the board.
    pub canonical_positions: u64,
    /// Reachable positions where the game goes on.
    pub non_terminal_positions: u64,
    /// Reachable positions where the game is over, by outcome.
    pub terminal_positions: ByOutcome,
    /// The same, up to symmetry.
    pub canonical_terminal_positions: ByOutcome,
    /// Every reachable position by its value for the side to move.
    pub values: ByValue,
    /// The same, up to symmetry.
    pub canonical_values: ByValue,
    /// Reachable positions by remoteness: entry `r` counts those `r` plies from the end.
    pub by_remoteness: Vec<u64>,
    /// Reachable positions by ply: entry `p` counts those with `p` marks.
    pub by_ply: Vec<u64>,
    /// The same, up to symmetry.
    pub canonical_by_ply: Vec<u64>,
    /// Complete games (move sequences from the empty board to a finished game), by outcome.
    pub games: ByOutcome<u128>,
    /// Complete games where two games are the same when their positions are symmetric at every
    /// ply: paths through the canonical positions. `None` when not counted: that count holds
    /// [`games_up_to_symmetry_bytes`] (two tiers of 8 bytes a position), and that much more
    /// would pass the memory limit ([`crate::memory::set_limit`]).
    pub games_up_to_symmetry: Option<u128>,
    /// Nodes of the full game tree: every move sequence, finished or not, the empty one included.
    pub game_tree_nodes: u128,
    /// Size of the table in bytes: the embedded one, or the file `ttt solve` cached for a
    /// game past 16 cells; 0 for a game solved when used.
    pub table_bytes: u64,
}

/// Counts everything `ttt stats --game` reports for `game` (at most 16 cells), from a fresh
/// solve by tiers, held in memory.
///
/// # Errors
///
/// [`TableError::OverMemory`] when the solve would pass the memory limit.
pub fn of_game(game: Game) -> Result<Stats, TableError> {
    crate::table::room_to_solve(game)?;
    let tiers = Tiers::new(game);
    let solved = solve_in_memory(&tiers);
    let table_bytes = crate::table::embedded_bytes(game).map_or(0, <[u8]>::len) as u64;
    tiered::of_tiers(&tiers, |t| Ok(&solved[t]), table_bytes, &|_| {})
}
