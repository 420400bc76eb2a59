//! Counts over the whole game: positions, outcomes, values, games and game-tree nodes.
//! Games of at most 16 cells are counted here from a fresh solve; larger ones from the tiers
//! of their cached table, in `stats/tiered.rs`.

pub(crate) mod tiered;

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;

use crate::board::{Outcome, Player};
use crate::game::Game;
use crate::position::Position;
use crate::solve::{Codes, Digits, solve_game, unentry};
use crate::table::TableError;
use crate::value::Value;

pub(crate) use tiered::of_disk;

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
    /// Size of the table in bytes: the embedded one, or the file `ttt solve` cached for a
    /// game past 16 cells; 0 for a game solved when used.
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

/// Counts everything `ttt stats --game` reports for `game` (at most 16 cells), from a fresh
/// solve, worked out on canonical positions and their orbits.
///
/// # Errors
///
/// [`TableError::OverMemory`] when the solve would pass the memory limit.
pub fn of_game(game: Game) -> Result<Stats, TableError> {
    crate::table::room_to_solve(game)?;
    let cells = game.cells();
    let solution = solve_game(game);
    let codes = Codes::new(game);
    let digits = Digits::new();
    let geometry = game.geometry();
    let turns = geometry.turns().len() as u64;
    let table_bytes = crate::table::embedded_bytes(game).map_or(0, <[u8]>::len) as u64;
    let mut stats = Stats::zero(cells, table_bytes);
    // The canonical positions by ply, for the passes over paths below, and where each is in
    // `positions` by code.
    let mut positions: Vec<Stored> = Vec::new();
    for (code, &entry) in solution.entries().iter().enumerate() {
        let Some((value, remoteness)) = unentry(entry) else {
            continue;
        };
        let code = code as u32;
        let (x, o) = digits.marks(code);
        let board = Position::from_marks_unchecked(geometry, x.into(), o.into());
        let fixed = (0..turns as usize)
            .filter(|&t| codes.turned_code(t, x, o) == code)
            .count() as u64;
        let orbit = turns / fixed;
        let ply = board.ply();
        stats.reachable_positions += orbit;
        stats.canonical_positions += 1;
        stats.by_ply[ply] += orbit;
        stats.canonical_by_ply[ply] += 1;
        stats.by_remoteness[usize::from(remoteness)] += orbit;
        stats.values.add(value, orbit);
        stats.canonical_values.add(value, 1);
        let outcome = (remoteness == 0).then(|| match board.winner() {
            Some(winner) => Outcome::Win(winner),
            None => Outcome::Draw,
        });
        match outcome {
            Some(outcome) => {
                stats.terminal_positions.add(outcome, orbit);
                stats.canonical_terminal_positions.add(outcome, 1);
            }
            None => stats.non_terminal_positions += orbit,
        }
        positions.push(Stored {
            board,
            code,
            orbit,
            outcome,
        });
    }
    // By ply, so that every parent comes before its children.
    positions.sort_by_key(|position| (position.board.ply(), position.code));
    let index: HashMap<u32, usize> = positions
        .iter()
        .enumerate()
        .map(|(i, position)| (position.code, i))
        .collect();

    // Move sequences reaching each canonical board (the same for each of its images), from the
    // boards one mark fewer that were still in play.
    let mut paths = vec![0u64; positions.len()];
    paths[0] = 1;
    for (i, position) in positions.iter().enumerate().skip(1) {
        let board = position.board;
        let last = !board.to_move();
        let mine = board.mask(last);
        let mut marks = mine;
        while marks != 0 {
            let cell = marks.trailing_zeros() as usize;
            marks &= marks - 1;
            let before = mine & !(1 << cell);
            if geometry.has_line(before) {
                continue;
            }
            let (bx, bo) = match last {
                Player::X => (before, board.mask(Player::O)),
                Player::O => (board.mask(Player::X), before),
            };
            paths[i] += paths[index[&codes.canonical(bx as u64, bo as u64).0]];
        }
    }
    // Paths through canonical boards, each distinct canonical child once, from the end back.
    let mut canonical_games = vec![0u64; positions.len()];
    for (i, position) in positions.iter().enumerate().rev() {
        stats.game_tree_nodes += paths[i] * position.orbit;
        if let Some(outcome) = position.outcome {
            stats.games.add(outcome, paths[i] * position.orbit);
            canonical_games[i] = 1;
            continue;
        }
        let board = position.board;
        let mut children = BTreeSet::new();
        let mut empty = board.empty_mask();
        while empty != 0 {
            let cell = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let child = board.play_unchecked(cell);
            let (cx, co) = (child.mask(Player::X), child.mask(Player::O));
            children.insert(index[&codes.canonical(cx as u64, co as u64).0]);
        }
        canonical_games[i] = children.iter().map(|&child| canonical_games[child]).sum();
    }
    stats.games_up_to_symmetry = canonical_games[0];
    Ok(stats)
}

/// A canonical position, as the passes over paths need it.
struct Stored {
    board: Position,
    code: u32,
    /// How many boards it stands for: its images under the symmetries.
    orbit: u64,
    /// How the game ended there, if it did.
    outcome: Option<Outcome>,
}
