//! The counts of `ttt stats` for a game solved by tiers (the table `ttt solve` caches), in one
//! pass over the tiers from the empty board to the full one, in parallel over each tier's
//! blocks.
//!
//! A tier does not hold one entry per position: it holds a block per representative of X's
//! cells, and in it every way to place O's marks. The boards whose X's cells are another
//! image of the representative are not stored, so a stored entry stands for as many boards as
//! its representative has images: that is its weight in every count of positions. A position
//! symmetric to another in the same block (under a turn that fixes the representative) is
//! stored more than once; the copy with the smallest index ([`Tiers::locate_orbit`]) is the
//! one counted up to symmetry.
//!
//! The tiers hold boards nobody can reach (both sides with a line, play after a win); they are
//! skipped by the rule [`Position::checked`](crate::position::Position) applies: the side to
//! move has no line, and the last mover's lines, if any, share a cell (the last move).
//!
//! The move sequences reaching a board need nothing but the board: every order of its marks
//! (X's and O's taking turns) is a game in play until its end, since a line among some of the
//! marks would be a line of the whole board; of a won board, the orders whose last move is
//! one that leaves no line when taken back. So games and game-tree nodes are counted entry by
//! entry. The games up to symmetry (paths through canonical positions, each distinct
//! canonical child once) are not: each board's count comes from its parents' in the tier
//! before, so that count holds two tiers of 8 bytes an entry, and is made only when that fits
//! the memory limit ([`games_up_to_symmetry_bytes`]).

use rayon::prelude::*;

use super::{ByOutcome, ByValue, Stats};
use crate::board::{Outcome, Player};
use crate::game::Game;
use crate::table::TableError;
use crate::table::disk::DiskTable;
use crate::tiers::{Phase, Step, Tiers, marks_of_tier, tier_sizes};
use crate::value::{Entry, Value, unentry};

/// The counts of the table `ttt solve` cached, calling `progress` as the count begins and
/// after each piece of a tier.
///
/// # Errors
///
/// [`TableError::DamagedFile`] when a tier does not match its checksum.
pub(crate) fn of_disk(table: &DiskTable, progress: &dyn Fn(Step)) -> Result<Stats, TableError> {
    let tier = |t| table.tier(t);
    of_tiers(table.tiers(), tier, table.size_bytes() as u64, progress)
}

/// The memory the count of games up to symmetry holds for `game` at its peak: two tiers of
/// 8 bytes an entry. [`Stats::games_up_to_symmetry`] is counted when that much more is within
/// the memory limit ([`crate::memory`]).
///
/// # Examples
///
/// ```
/// let game = "4x5k4".parse().unwrap();
/// assert_eq!(ttt_oracle::stats::games_up_to_symmetry_bytes(game), 534_403_584);
/// ```
pub fn games_up_to_symmetry_bytes(game: Game) -> u64 {
    let sizes = tier_sizes(game);
    let peak = sizes.windows(2).map(|two| two[0] + two[1]).max();
    u64::try_from(peak.unwrap_or(0) * 8).unwrap_or(u64::MAX)
}

/// The counts of the game laid out by `tiers`, whose solved tier `t` is `tier(t)`, from a
/// table of `table_bytes`, calling `progress` as [`of_disk`] does.
///
/// # Errors
///
/// As [`of_disk`], and what `tier` returns.
pub(crate) fn of_tiers<'a>(
    tiers: &Tiers,
    tier: impl Fn(usize) -> Result<&'a [Entry], TableError> + Sync,
    table_bytes: u64,
    progress: &dyn Fn(Step),
) -> Result<Stats, TableError> {
    let cells = tiers.cells();
    let symmetric = crate::memory::room_for(games_up_to_symmetry_bytes(tiers.game())).is_ok();
    let mut totals = Totals::new(cells);
    // Of each entry of the tier before, the paths to it through canonical positions.
    let mut before: Vec<u64> = Vec::new();
    let (mut done, total) = (0, tiers.sizes().iter().sum());
    let step = |tier, done| {
        let phase = Phase::Count;
        progress(Step {
            phase,
            tier,
            done,
            total,
        });
    };
    step(0, done);
    for t in 0..=cells {
        let entries = tier(t)?;
        let (x, o) = marks_of_tier(t);
        let block = tiers.binomial(cells - x, o) as usize;
        let mut paths = vec![0; if symmetric { entries.len() } else { 0 }];
        for reps in tiers.pieces(t) {
            let piece = reps.start * block..reps.end * block;
            let count =
                |i, entries, out| count_block(tiers, t, reps.start + i, entries, &before, out);
            let blocks = entries[piece.clone()].par_chunks(block).enumerate();
            let counted = if symmetric {
                let outs = paths[piece.clone()].par_chunks_mut(block);
                blocks
                    .zip(outs)
                    .map(|((i, entries), out)| count(i, entries, Some(out)))
                    .reduce(|| Totals::new(cells), Totals::merge)
            } else {
                blocks
                    .map(|(i, entries)| count(i, entries, None))
                    .reduce(|| Totals::new(cells), Totals::merge)
            };
            totals = totals.merge(counted);
            done += piece.len() as u64;
            step(t, done);
        }
        before = paths;
    }
    Ok(totals.into_stats(table_bytes, symmetric))
}

/// Counts the block of representative `rep` of tier `t` into the totals it returns, and,
/// when counting games up to symmetry, each board's paths through canonical positions into
/// `out` (0 for a board play cannot reach), from those of the tier before, `before`.
fn count_block(
    tiers: &Tiers,
    t: usize,
    rep: usize,
    entries: &[Entry],
    before: &[u64],
    mut out: Option<&mut [u64]>,
) -> Totals {
    let cells = tiers.cells();
    let (x, o) = marks_of_tier(t);
    let xs = tiers.representatives(x)[rep];
    let fixing = (0..tiers.turns())
        .filter(|&turn| tiers.turn(turn, xs) == xs)
        .count();
    let weight = (tiers.turns() / fixing) as u128;
    let first = rep as u64 * entries.len() as u64;
    let free: Vec<u32> = (0..cells as u32).filter(|&c| xs >> c & 1 == 0).collect();
    let x_moved_last = x > o;
    // The orders of a board's marks, X's and O's taking turns: of a board in play, all of
    // them; of a won board, for each last move that may end it, those of the marks before.
    let orders = factorial(x) * factorial(o);
    let orders_before_last = match x_moved_last {
        true => factorial(x - 1) * factorial(o),
        false if o > 0 => factorial(x) * factorial(o - 1),
        false => 0,
    };
    let mut totals = Totals::new(cells);
    // The compressed sets of O's cells in colex order: Gosper's next set of as many bits.
    let mut compressed: u32 = if o == 0 { 0 } else { (1u32 << o) - 1 };
    for (i, &entry) in entries.iter().enumerate() {
        let os = expand(compressed, &free);
        if compressed != 0 {
            let low = compressed & compressed.wrapping_neg();
            let ripple = compressed.wrapping_add(low);
            compressed = ripple | (((compressed ^ ripple) >> 2) / low);
        }
        let (last, to_move) = if x_moved_last { (xs, os) } else { (os, xs) };
        if tiers.has_line(to_move) {
            continue;
        }
        let won = tiers.has_line(last);
        let paths = match won {
            true => u128::from(last_moves(tiers, last)) * orders_before_last,
            false => orders,
        };
        if paths == 0 {
            continue;
        }
        let canonical_paths = match out.as_deref_mut() {
            Some(out) => {
                let canonical_paths = match t {
                    0 => 1,
                    _ => canonical_parents(tiers, xs, os, x_moved_last, before),
                };
                out[i] = canonical_paths;
                canonical_paths
            }
            None => 0,
        };
        // Only a turn that fixes X's cells can map a stored board onto another of the block.
        let canonical = fixing == 1 || tiers.locate_orbit(xs, os).2 == first + i as u64;
        let (value, remoteness) = unentry(entry).unwrap_or((Value::Draw, 0));
        let winner = if x_moved_last { Player::X } else { Player::O };
        let outcome = if won {
            Some(Outcome::Win(winner))
        } else {
            (t == cells).then_some(Outcome::Draw)
        };
        let paths = Paths {
            all: paths,
            canonical: canonical_paths,
        };
        totals.add(t, value, remoteness, outcome, weight, paths, canonical);
    }
    totals
}

/// `n!`, exact for the 25 cells a tier holds at most (25! < 2^84).
fn factorial(n: usize) -> u128 {
    (1..=n as u128).product()
}

/// How many of the cells of `marks` leave no line when taken back: the moves that can have
/// been the last of a board whose last mover has `marks`. None when its lines share no cell.
fn last_moves(tiers: &Tiers, marks: u32) -> u32 {
    let mut moves = 0;
    let mut cells = marks;
    while cells != 0 {
        let cell = cells & cells.wrapping_neg();
        cells &= cells - 1;
        moves += u32::from(!tiers.has_line(marks & !cell));
    }
    moves
}

/// The paths through canonical positions reaching the board `xs`, `os` (reachable, not
/// empty), from its distinct parents up to symmetry in the tier before: the boards with one
/// of the last mover's marks taken back that were still in play. No count passes 64 bits: it
/// is at most the board's move sequences, at most 13! 12! on 25 cells.
fn canonical_parents(tiers: &Tiers, xs: u32, os: u32, x_moved_last: bool, before: &[u64]) -> u64 {
    let last = if x_moved_last { xs } else { os };
    let mut paths = 0;
    // The parents counted so far, by their smallest index.
    let mut seen = [0u64; 16];
    let mut distinct = 0;
    let mut cells = last;
    while cells != 0 {
        let cell = cells & cells.wrapping_neg();
        cells &= cells - 1;
        let taken_back = last & !cell;
        if tiers.has_line(taken_back) {
            continue;
        }
        let (px, po) = if x_moved_last {
            (taken_back, os)
        } else {
            (xs, taken_back)
        };
        let (_, at, orbit) = tiers.locate_orbit(px, po);
        if !seen[..distinct].contains(&orbit) {
            seen[distinct] = orbit;
            distinct += 1;
            paths += before[at as usize];
        }
    }
    paths
}

/// Of a reachable board, the move sequences from the empty board reaching it, and the paths
/// to it through canonical positions (0 when those are not counted).
#[derive(Clone, Copy)]
struct Paths {
    all: u128,
    canonical: u64,
}

/// The cells `free[i]` for each set bit `i` of `compressed`.
fn expand(compressed: u32, free: &[u32]) -> u32 {
    let mut marks = 0;
    let mut bits = compressed;
    while bits != 0 {
        marks |= 1 << free[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    marks
}

/// The counts of [`Stats`] as they add up, wide enough not to overflow on the way.
#[derive(Default)]
struct Totals {
    reachable: u128,
    canonical: u128,
    non_terminal: u128,
    /// X wins, O wins, draws: all, and up to symmetry.
    terminal: [u128; 3],
    canonical_terminal: [u128; 3],
    /// Win, draw, loss for the side to move: all, and up to symmetry.
    values: [u128; 3],
    canonical_values: [u128; 3],
    by_remoteness: Vec<u128>,
    by_ply: Vec<u128>,
    canonical_by_ply: Vec<u128>,
    games: [u128; 3],
    games_up_to_symmetry: u128,
    game_tree_nodes: u128,
}

impl Totals {
    fn new(cells: usize) -> Totals {
        Totals {
            by_remoteness: vec![0; cells + 1],
            by_ply: vec![0; cells + 1],
            canonical_by_ply: vec![0; cells + 1],
            ..Totals::default()
        }
    }

    /// Adds a reachable stored board of ply `ply` standing for `weight` boards.
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        ply: usize,
        value: Value,
        remoteness: u8,
        outcome: Option<Outcome>,
        weight: u128,
        paths: Paths,
        canonical: bool,
    ) {
        let value = match value {
            Value::Win => 0,
            Value::Draw => 1,
            Value::Loss => 2,
        };
        let outcome = outcome.map(|outcome| match outcome {
            Outcome::Win(Player::X) => 0,
            Outcome::Win(Player::O) => 1,
            Outcome::Draw => 2,
        });
        self.reachable += weight;
        self.by_ply[ply] += weight;
        if let Some(count) = self.by_remoteness.get_mut(usize::from(remoteness)) {
            *count += weight;
        }
        self.values[value] += weight;
        self.game_tree_nodes += paths.all * weight;
        match outcome {
            Some(outcome) => {
                self.terminal[outcome] += weight;
                self.games[outcome] += paths.all * weight;
            }
            None => self.non_terminal += weight,
        }
        if canonical {
            self.canonical += 1;
            self.canonical_by_ply[ply] += 1;
            self.canonical_values[value] += 1;
            if let Some(outcome) = outcome {
                self.canonical_terminal[outcome] += 1;
                self.games_up_to_symmetry += u128::from(paths.canonical);
            }
        }
    }

    fn merge(mut self, other: Totals) -> Totals {
        let add = |a: &mut [u128], b: &[u128]| a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
        self.reachable += other.reachable;
        self.canonical += other.canonical;
        self.non_terminal += other.non_terminal;
        add(&mut self.terminal, &other.terminal);
        add(&mut self.canonical_terminal, &other.canonical_terminal);
        add(&mut self.values, &other.values);
        add(&mut self.canonical_values, &other.canonical_values);
        add(&mut self.by_remoteness, &other.by_remoteness);
        add(&mut self.by_ply, &other.by_ply);
        add(&mut self.canonical_by_ply, &other.canonical_by_ply);
        add(&mut self.games, &other.games);
        self.games_up_to_symmetry += other.games_up_to_symmetry;
        self.game_tree_nodes += other.game_tree_nodes;
        self
    }

    /// The counts, those of games up to symmetry when `symmetric`.
    fn into_stats(self, table_bytes: u64, symmetric: bool) -> Stats {
        // Positions are fewer than 3^25 < 2^64.
        let fits = |n: u128| u64::try_from(n).expect("positions fit 64 bits");
        let outcomes = |[x, o, draw]: [u128; 3]| ByOutcome {
            total: fits(x + o + draw),
            x_wins: fits(x),
            o_wins: fits(o),
            draw: fits(draw),
        };
        let values = |[win, draw, loss]: [u128; 3]| ByValue {
            win: fits(win),
            draw: fits(draw),
            loss: fits(loss),
        };
        let list = |counts: Vec<u128>| counts.into_iter().map(fits).collect();
        let [x, o, draw] = self.games;
        Stats {
            reachable_positions: fits(self.reachable),
            canonical_positions: fits(self.canonical),
            non_terminal_positions: fits(self.non_terminal),
            terminal_positions: outcomes(self.terminal),
            canonical_terminal_positions: outcomes(self.canonical_terminal),
            values: values(self.values),
            canonical_values: values(self.canonical_values),
            by_remoteness: list(self.by_remoteness),
            by_ply: list(self.by_ply),
            canonical_by_ply: list(self.canonical_by_ply),
            games: ByOutcome {
                total: x + o + draw,
                x_wins: x,
                o_wins: o,
                draw,
            },
            games_up_to_symmetry: symmetric.then_some(self.games_up_to_symmetry),
            game_tree_nodes: self.game_tree_nodes,
            table_bytes,
        }
    }
}
