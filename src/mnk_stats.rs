//! Counts over a whole m,n,k game, as `ttt stats --game` reports them: the same figures as
//! tic-tac-toe's [`Stats`], worked out on canonical positions and their orbits.

use std::collections::{BTreeSet, HashMap};

use crate::board::{Outcome, Player};
use crate::game::Game;
use crate::position::Position;
use crate::solve::{Codes, Digits, solve_game, unentry};
use crate::stats::Stats;

/// Counts everything `ttt stats --game` reports for `game` (at most 16 cells), from a fresh
/// solve; `table_bytes` is the size of the table the binary embeds, 0 for a game solved on use.
///
/// # Panics
///
/// If the game has more than 16 cells.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Game, mnk_stats, stats, table};
///
/// let stats = mnk_stats("2x2k2".parse()?);
/// assert_eq!(stats.reachable_positions, 29);
/// assert_eq!(mnk_stats(Game::TIC_TAC_TOE).games, ttt_oracle::stats(table()).games);
/// # Ok::<(), ttt_oracle::GameError>(())
/// ```
pub fn mnk_stats(game: Game) -> Stats {
    let cells = game.cells();
    let solution = solve_game(game);
    let codes = Codes::new(game);
    let digits = Digits::new();
    let geometry = game.geometry();
    let turns = geometry.turns().len() as u64;
    let table_bytes = crate::table::mnk_table_bytes(game).map_or(0, <[u8]>::len) as u64;
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
        let mine = board.marks(last);
        let mut marks = mine;
        while marks != 0 {
            let cell = marks.trailing_zeros() as usize;
            marks &= marks - 1;
            let before = mine & !(1 << cell);
            if geometry.has_line(before) {
                continue;
            }
            let (bx, bo) = match last {
                Player::X => (before, board.marks(Player::O)),
                Player::O => (board.marks(Player::X), before),
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
        let mut empty = board.empty_cells();
        while empty != 0 {
            let cell = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let child = board.play_unchecked(cell);
            let (cx, co) = (child.marks(Player::X), child.marks(Player::O));
            children.insert(index[&codes.canonical(cx as u64, co as u64).0]);
        }
        canonical_games[i] = children.iter().map(|&child| canonical_games[child]).sum();
    }
    stats.games_up_to_symmetry = canonical_games[0];
    stats
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
