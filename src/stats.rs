//! Counts over the whole game: positions, outcomes, values, games and game-tree nodes.

use std::collections::HashMap;

use serde::Serialize;

use crate::board::{Board, Outcome, Player, Status};
use crate::symmetry::{Canonical, canonicalize};
use crate::table::tic_tac_toe::Table;
use crate::value::Value;

/// Positions or games split by how they end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ByOutcome {
    /// All of them.
    pub total: u64,
    /// Won by X.
    pub x_wins: u64,
    /// Won by O.
    pub o_wins: u64,
    /// Drawn.
    pub draw: u64,
}

impl ByOutcome {
    pub(crate) fn add(&mut self, outcome: Outcome, n: u64) {
        self.total += n;
        match outcome {
            Outcome::Win(Player::X) => self.x_wins += n,
            Outcome::Win(Player::O) => self.o_wins += n,
            Outcome::Draw => self.draw += n,
        }
    }

    fn merge(&mut self, other: ByOutcome) {
        self.total += other.total;
        self.x_wins += other.x_wins;
        self.o_wins += other.o_wins;
        self.draw += other.draw;
    }
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

impl ByValue {
    pub(crate) fn add(&mut self, value: Value, n: u64) {
        match value {
            Value::Win => self.win += n,
            Value::Draw => self.draw += n,
            Value::Loss => self.loss += n,
        }
    }
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
    pub games: ByOutcome,
    /// Complete games where two games are the same when their positions are symmetric at every
    /// ply: paths through the canonical positions.
    pub games_up_to_symmetry: u64,
    /// Nodes of the full game tree: every move sequence, finished or not, the empty one included.
    pub game_tree_nodes: u64,
    /// Size of the embedded table in bytes.
    pub table_bytes: u64,
}

impl Stats {
    /// Every count at zero, for a board of `cells` cells and a table of `table_bytes`.
    pub(crate) fn zero(cells: usize, table_bytes: u64) -> Stats {
        Stats {
            reachable_positions: 0,
            canonical_positions: 0,
            non_terminal_positions: 0,
            terminal_positions: ByOutcome::default(),
            canonical_terminal_positions: ByOutcome::default(),
            values: ByValue::default(),
            canonical_values: ByValue::default(),
            by_remoteness: vec![0; cells + 1],
            by_ply: vec![0; cells + 1],
            canonical_by_ply: vec![0; cells + 1],
            games: ByOutcome::default(),
            games_up_to_symmetry: 0,
            game_tree_nodes: 0,
            table_bytes,
        }
    }
}

/// Counts everything `ttt stats` reports, from the rules and `table`.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{stats, table};
///
/// let stats = stats(table());
/// assert_eq!(stats.reachable_positions, 5478);
/// assert_eq!(stats.games.total, 255_168);
/// ```
pub fn stats(table: &Table) -> Stats {
    let mut stats = Stats::zero(9, table.size_bytes() as u64);
    for board in Board::reachable() {
        let probe = table.probe(&board);
        let canonical = Canonical::new(board).is_some();
        stats.reachable_positions += 1;
        stats.by_ply[board.ply()] += 1;
        stats.by_remoteness[usize::from(probe.remoteness)] += 1;
        stats.values.add(probe.value, 1);
        if canonical {
            stats.canonical_positions += 1;
            stats.canonical_by_ply[board.ply()] += 1;
            stats.canonical_values.add(probe.value, 1);
        }
        match board.status() {
            Status::InProgress => stats.non_terminal_positions += 1,
            Status::Finished(outcome) => {
                stats.terminal_positions.add(outcome, 1);
                if canonical {
                    stats.canonical_terminal_positions.add(outcome, 1);
                }
            }
        }
    }
    let (games, nodes) = count_games(Board::EMPTY, &mut HashMap::new());
    stats.games = games;
    stats.game_tree_nodes = nodes;
    stats.games_up_to_symmetry =
        count_canonical_games(canonicalize(Board::EMPTY).0, &mut HashMap::new());
    stats
}

/// Complete games from `board` by outcome, and game-tree nodes from `board` (itself included).
fn count_games(board: Board, memo: &mut HashMap<Board, (ByOutcome, u64)>) -> (ByOutcome, u64) {
    if let Some(&known) = memo.get(&board) {
        return known;
    }
    let mut games = ByOutcome::default();
    let mut nodes = 1;
    match board.status() {
        Status::Finished(outcome) => games.add(outcome, 1),
        Status::InProgress => {
            for cell in board.legal_moves() {
                let (child_games, child_nodes) = count_games(board.play_unchecked(cell), memo);
                games.merge(child_games);
                nodes += child_nodes;
            }
        }
    }
    memo.insert(board, (games, nodes));
    (games, nodes)
}

/// Paths from `canonical` to a finished game through canonical positions, each distinct
/// canonical child counted once.
fn count_canonical_games(canonical: Canonical, memo: &mut HashMap<Canonical, u64>) -> u64 {
    if let Some(&known) = memo.get(&canonical) {
        return known;
    }
    let board = canonical.board();
    let total = if board.is_over() {
        1
    } else {
        let mut children: Vec<Canonical> = board
            .legal_moves()
            .iter()
            .map(|cell| canonicalize(board.play_unchecked(cell)).0)
            .collect();
        children.sort();
        children.dedup();
        children
            .into_iter()
            .map(|child| count_canonical_games(child, memo))
            .sum()
    };
    memo.insert(canonical, total);
    total
}
