//! Counts over a whole m,n,k game, as `ttt stats --game` reports them: the same figures as
//! tic-tac-toe's [`Stats`], worked out on canonical positions and their orbits.

use std::collections::BTreeSet;

use crate::board::{Outcome, Player};
use crate::mnk::board::MnkBoard;
use crate::mnk::game::Mnk;
use crate::mnk::solve::{Codes, Digits, solve_game, unentry};
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
/// use ttt_oracle::{Mnk, mnk_stats, stats, table};
///
/// let stats = mnk_stats("2x2k2".parse()?);
/// assert_eq!(stats.reachable_positions, 29);
/// assert_eq!(mnk_stats(Mnk::TIC_TAC_TOE).games, ttt_oracle::stats(table()).games);
/// # Ok::<(), ttt_oracle::GameError>(())
/// ```
pub fn mnk_stats(game: Mnk) -> Stats {
    let cells = game.cells();
    let solution = solve_game(game);
    let codes = Codes::new(game);
    let digits = Digits::new();
    let geometry = game.geometry();
    let turns = geometry.turns().len() as u64;
    let table_bytes = crate::mnk_table::mnk_table_bytes(game).map_or(0, <[u8]>::len) as u64;
    let mut stats = Stats::zero(cells, table_bytes);
    // Canonical positions by ply, for the passes over paths below.
    let mut by_ply: Vec<Vec<u32>> = vec![Vec::new(); cells + 1];
    for (code, &entry) in solution.entries().iter().enumerate() {
        let Some((value, remoteness)) = unentry(entry) else {
            continue;
        };
        let code = code as u32;
        let (x, o) = digits.marks(code);
        let board = MnkBoard::from_marks_unchecked(geometry, x, o);
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
        for _ in 0..orbit {
            stats.values.add(value);
        }
        stats.canonical_values.add(value);
        if remoteness == 0 {
            let outcome = match board.winner() {
                Some(winner) => Outcome::Win(winner),
                None => Outcome::Draw,
            };
            stats.terminal_positions.add(outcome, orbit);
            stats.canonical_terminal_positions.add(outcome, 1);
        } else {
            stats.non_terminal_positions += orbit;
        }
        by_ply[ply].push(code);
    }

    // Move sequences reaching each canonical board (the same for each of its images), from the
    // boards one mark fewer that were still in play.
    let mut paths = vec![0u64; solution.entries().len()];
    paths[0] = 1;
    for codes_at_ply in by_ply.iter().skip(1) {
        for &code in codes_at_ply {
            let (x, o) = digits.marks(code);
            let board = MnkBoard::from_marks_unchecked(geometry, x, o);
            let last = !board.to_move();
            let mine = board.marks(last);
            let mut total = 0;
            let mut marks = mine;
            while marks != 0 {
                let cell = marks.trailing_zeros() as usize;
                marks &= marks - 1;
                let before = mine & !(1 << cell);
                if geometry.has_line(before) {
                    continue;
                }
                let (bx, bo) = match last {
                    Player::X => (before, o),
                    Player::O => (x, before),
                };
                total += paths[codes.canonical(bx, bo).0 as usize];
            }
            paths[code as usize] = total;
        }
    }
    // Paths through canonical boards, each distinct canonical child once, from the end back.
    let mut canonical_games = vec![0u64; solution.entries().len()];
    for codes_at_ply in by_ply.iter().rev() {
        for &code in codes_at_ply {
            let (x, o) = digits.marks(code);
            let board = MnkBoard::from_marks_unchecked(geometry, x, o);
            let (_, remoteness) = unentry(solution.entries()[code as usize]).expect("reached");
            let fixed = (0..turns as usize)
                .filter(|&t| codes.turned_code(t, x, o) == code)
                .count() as u64;
            let orbit = turns / fixed;
            stats.game_tree_nodes += paths[code as usize] * orbit;
            if remoteness == 0 {
                let outcome = match board.winner() {
                    Some(winner) => Outcome::Win(winner),
                    None => Outcome::Draw,
                };
                stats.games.add(outcome, paths[code as usize] * orbit);
                canonical_games[code as usize] = 1;
                continue;
            }
            let mut children = BTreeSet::new();
            let mut empty = board.empty_cells();
            while empty != 0 {
                let cell = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                let child = board.play_unchecked(cell);
                let (cx, co) = (child.marks(Player::X), child.marks(Player::O));
                children.insert(codes.canonical(cx, co).0);
            }
            canonical_games[code as usize] = children
                .iter()
                .map(|&child| canonical_games[child as usize])
                .sum();
        }
    }
    stats.games_up_to_symmetry = canonical_games[0];
    stats
}
