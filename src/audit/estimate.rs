//! What the walk by positions of a game past 16 cells will hold, estimated in seconds before
//! it starts, so that an audit far too large for the memory limit is refused at once rather
//! than stopped many minutes in.
//!
//! The walk lists, ply by ply, every position a game of the bot's reaches (the opponent playing
//! any move), and keeps every ply's positions and moves until its end, for the odds worked out
//! backwards (`odds.rs`). Which boards it reaches can be told one board at a time, without the
//! walk: a board is reached when a mark of the side that moved last can be taken back to a
//! board in progress that is reached, a mark the bot would choose there when the bot moved.
//! So boards drawn uniformly among those with each number of marks (a fixed seed) are tried,
//! taking marks back depth first with each board's answer remembered, and the share reached,
//! times the number of such boards, is the estimate of the ply's positions; the moves are
//! counted from the same sample. The bytes are reckoned from them as the walk holds its lists.
//! The boards are drawn a round at a time, one of each number of marks, for at most
//! [`SAMPLES`] rounds or [`TIME`]: a bot slow to answer (one reading a large table from disk,
//! or probing every move's replies) gets fewer boards a ply, and the audit is refused only when
//! the estimate's lower bound (over the boards drawn) passes the limit.
//!
//! Only a bot that answers from the board alone, and cheaply (not a program: it
//! [asks ahead](Bot::asks_ahead)), is asked this way: the estimate asks it about boards the
//! walk may never reach.

use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};

use crate::board::{Cell, Cells, Player};
use crate::bots::{Bot, BotError, Turn};
use crate::cell::Mask;
use crate::game::Game;
use crate::history::History;
use crate::memory::Size;
use crate::position::Position;
use crate::rng::SplitMix64;
use crate::text::grouped;
use crate::tiers::{binomial, marks_of_tier};

/// How many boards are drawn for each number of marks at most: within 3 points of the share
/// reached, 19 times in 20.
const SAMPLES: u64 = 1000;

/// How long boards are drawn for, after the first of each number of marks: the estimate is
/// made in seconds whatever the bot and the game.
const TIME: Duration = Duration::from_secs(5);

/// Standard errors below the share reached that the share's lower bound takes (Wilson's
/// interval: about 19 times in 20 the share is above it).
const Z: f64 = 2.0;

/// How many boards' answers are remembered at most; past it they are forgotten (a bound on
/// the estimate's own memory).
const REMEMBERED: usize = 1 << 20;

/// The share of the estimate's lower bound that alone must pass the memory limit for the
/// audit to be refused: the walk's lists, reckoned at their largest, stay within it.
const MARGIN: f64 = 0.75;

/// What the walk by positions of an audit was estimated to hold before it started: the audit
/// is refused ([`AuditError::WouldPassMemory`](super::AuditError::WouldPassMemory)) when a
/// good share of its lower bound alone passes the memory limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// The game.
    pub game: Game,
    /// The side the bot plays.
    pub side: Player,
    /// The positions the walk lists at each ply, estimated.
    pub positions: Vec<u64>,
    /// The moves it records at each ply, estimated.
    pub moves: Vec<u64>,
    /// The bytes the walk would hold at its end, when it holds the most.
    pub bytes: u64,
    /// The memory limit.
    pub limit: u64,
    /// How long the estimate took.
    pub took: Duration,
    /// How many boards it drew, over every ply.
    pub boards: u64,
}

impl Estimate {
    /// A memory limit the audit would fit in: the estimate and a third more, for its error
    /// and what it leaves out.
    pub fn enough(&self) -> u64 {
        self.bytes.saturating_add(self.bytes / 3)
    }
}

/// "auditing X of 4x5k4 would hold about 21.3 GiB (30,211,000 positions and ..., estimated in
/// 4.1 s from 1,000 boards a ply), more than the memory limit, 11.5 GiB"
impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "auditing {} of {} would hold about {} ({} positions and {} moves, estimated in \
             {:.1} s from {} boards), more than the memory limit, {}",
            self.side,
            self.game,
            Size(self.bytes),
            grouped(self.positions.iter().sum::<u64>()),
            grouped(self.moves.iter().sum::<u64>()),
            self.took.as_secs_f64(),
            grouped(self.boards),
            Size(self.limit)
        )
    }
}

/// `Err` with the estimate when the walk by positions of `bot`, playing `side` of `game`,
/// whose lists take `node` bytes a position, would clearly pass the memory limit; `Ok` when it
/// may fit, when no limit is set, or when the bot is not one to ask about boards the walk may
/// not reach.
pub(super) fn refuse_if_over(
    bot: &mut dyn Bot,
    game: Game,
    side: Player,
    node: u64,
) -> Result<(), EstimateHalt> {
    let Some(limit) = crate::memory::limit() else {
        return Ok(());
    };
    if !bot.memoryless() || bot.asks_ahead() {
        return Ok(());
    }
    let start = Instant::now();
    let Counts {
        positions,
        moves,
        least_positions,
        least_moves,
        tried,
    } = Sample::new(bot, game, side).run()?;
    let least = walk_bytes(&least_positions, &least_moves, node);
    if (least as f64) * MARGIN <= limit as f64 {
        return Ok(());
    }
    let bytes = walk_bytes(&positions, &moves, node);
    Err(EstimateHalt::Over(Box::new(Estimate {
        game,
        side,
        positions,
        moves,
        bytes,
        limit,
        took: start.elapsed(),
        boards: tried.iter().sum(),
    })))
}

/// Why the estimate refused the audit: the bot failed when asked, or the walk would not fit
/// (each the [`AuditError`](super::AuditError) of its kind).
pub(super) enum EstimateHalt {
    Bot(BotError),
    Over(Box<Estimate>),
}

impl From<BotError> for EstimateHalt {
    fn from(error: BotError) -> EstimateHalt {
        EstimateHalt::Bot(error)
    }
}

/// The capacity a vector grown one push at a time has for `n` items.
fn capacity(n: u64) -> u64 {
    match n {
        0 => 0,
        n => n.next_power_of_two().max(4),
    }
}

/// What the walk holds at its end, from its counts: each ply's moves (8 bytes each) and where
/// each position's start (4), the two lists of positions that take turns (`node` bytes each),
/// the places of the largest ply (a hash map's bucket of 33 bytes, at most 7 in 8 full), and
/// the backward pass's scratch (33 bytes a position and end, `odds::Graph::scratch_bytes`).
fn walk_bytes(positions: &[u64], moves: &[u64], node: u64) -> u64 {
    let graph: u64 = positions
        .iter()
        .zip(moves)
        .map(|(&n, &e)| 4 * capacity(n + 1) + 8 * capacity(e))
        .sum();
    let mut lists = [0u64; 2];
    for (p, &n) in positions.iter().enumerate() {
        lists[p % 2] = lists[p % 2].max(capacity(n));
    }
    let widest = positions.iter().copied().max().unwrap_or(0);
    let places = 33 * capacity(widest.saturating_mul(8) / 7);
    let scratch: u64 = positions.iter().map(|&n| (n + 4) * 33).sum();
    graph + node * (lists[0] + lists[1]) + places + scratch
}

/// What the boards drawn tell, a ply each: the positions and moves estimated, their lower
/// bounds, and how many boards were drawn.
struct Counts {
    positions: Vec<u64>,
    moves: Vec<u64>,
    least_positions: Vec<u64>,
    least_moves: Vec<u64>,
    tried: Vec<u64>,
}

/// The boards drawn, and what is known of the boards they lead back to.
struct Sample<'a> {
    bot: &'a mut dyn Bot,
    game: Game,
    side: Player,
    empty: Position,
    /// Whether a board is reached by the walk.
    reached: HashMap<(Mask, Mask), bool>,
    /// The cells the bot marks on a board, when it is to move there.
    answers: HashMap<(Mask, Mask), Mask>,
}

impl<'a> Sample<'a> {
    fn new(bot: &'a mut dyn Bot, game: Game, side: Player) -> Sample<'a> {
        Sample {
            bot,
            game,
            side,
            empty: Position::empty(game),
            reached: HashMap::new(),
            answers: HashMap::new(),
        }
    }

    /// The estimated positions and moves of each ply, and how many boards were drawn for each.
    fn run(mut self) -> Result<Counts, BotError> {
        let cells = self.game.cells();
        let mut rng = SplitMix64::new(0x7474_745f_6f72_6163);
        // Of each ply: the boards drawn, those reached, and their moves.
        let mut tried = vec![0u64; cells];
        let mut listed = vec![0u64; cells];
        let mut edges = vec![0u64; cells];
        let start = Instant::now();
        'rounds: for round in 0..SAMPLES {
            for ply in 0..cells {
                if round > 0 && start.elapsed() >= TIME {
                    break 'rounds;
                }
                let (xs, os, _) = boards(cells, ply);
                tried[ply] += 1;
                let (x, o) = drawn(&mut rng, cells, xs, os);
                if self.over(x, o) || !self.is_reached(x, o)? {
                    continue;
                }
                listed[ply] += 1;
                edges[ply] += match Player::at_ply(ply) == self.side {
                    true => u64::from(self.answer(x, o)?.count_ones()).max(1),
                    false => (cells - ply) as u64,
                };
            }
        }
        let mut counts = Counts {
            positions: Vec::new(),
            moves: Vec::new(),
            least_positions: Vec::new(),
            least_moves: Vec::new(),
            tried: tried.clone(),
        };
        for ply in 0..cells {
            let (_, _, boards) = boards(cells, ply);
            let n = tried[ply] as f64;
            let share = listed[ply] as f64 / n;
            let least = least_share(share, n);
            // The moves a reached board has, on average over those drawn.
            let each = edges[ply] as f64 / listed[ply].max(1) as f64;
            counts.positions.push((boards * share).round() as u64);
            counts.moves.push((boards * share * each).round() as u64);
            counts.least_positions.push((boards * least).round() as u64);
            counts
                .least_moves
                .push((boards * least * each).round() as u64);
        }
        Ok(counts)
    }

    /// Whether the game is over on the board: a line made (the board is full only at the end).
    fn over(&self, x: Mask, o: Mask) -> bool {
        let geometry = self.empty.geometry();
        geometry.has_line(x) || geometry.has_line(o)
    }

    /// Whether the walk reaches the board `x`, `o` (a board in progress, or the end a last
    /// move made).
    fn is_reached(&mut self, x: Mask, o: Mask) -> Result<bool, BotError> {
        let ply = (x | o).count_ones() as usize;
        if ply == 0 {
            return Ok(true);
        }
        if let Some(&known) = self.reached.get(&(x, o)) {
            return Ok(known);
        }
        let mover = Player::at_ply(ply - 1);
        let mine = if mover == Player::X { x } else { o };
        let mut found = false;
        for cell in Cells::from_bits(mine) {
            let bit: Mask = 1 << cell.index();
            let (before_x, before_o) = match mover {
                Player::X => (x & !bit, o),
                Player::O => (x, o & !bit),
            };
            if self.over(before_x, before_o) {
                continue;
            }
            if mover == self.side && self.answer(before_x, before_o)? & bit == 0 {
                continue;
            }
            if self.is_reached(before_x, before_o)? {
                found = true;
                break;
            }
        }
        if self.reached.len() >= REMEMBERED {
            self.reached.clear();
        }
        self.reached.insert((x, o), found);
        Ok(found)
    }

    /// The cells the bot marks on the board `x`, `o` (in progress, the bot to move), asked with
    /// one history that reaches it: a memoryless bot gives the same answer after any.
    fn answer(&mut self, x: Mask, o: Mask) -> Result<Mask, BotError> {
        if let Some(&cells) = self.answers.get(&(x, o)) {
            return Ok(cells);
        }
        let (xs, os): (Vec<Cell>, Vec<Cell>) = (
            Cells::from_bits(x).iter().collect(),
            Cells::from_bits(o).iter().collect(),
        );
        // X's marks and O's in turn: no line before the last, as the board holds none.
        let mut moves = Vec::with_capacity(xs.len() + os.len());
        for (i, &cell) in xs.iter().enumerate() {
            moves.push(cell);
            moves.extend(os.get(i));
        }
        let game = History::replay(self.game, &moves);
        let empty = Cells::from_bits(!(x | o) & self.empty.empty_mask());
        let mut cells: Mask = 0;
        for choice in self.bot.choose(&game)? {
            if let Turn::Mark(cell) = choice.turn {
                if empty.contains(cell) {
                    cells |= 1 << cell.index();
                }
            }
        }
        if self.answers.len() >= REMEMBERED {
            self.answers.clear();
        }
        self.answers.insert((x, o), cells);
        Ok(cells)
    }
}

/// The marks of X and of O after `ply` moves on `cells` cells, and how many boards hold them.
fn boards(cells: usize, ply: usize) -> (usize, usize, f64) {
    let (xs, os) = marks_of_tier(ply);
    (
        xs,
        os,
        (binomial(cells, xs) * binomial(cells - xs, os)) as f64,
    )
}

/// The lower end of Wilson's score interval for a share `share` seen over `n` draws, [`Z`]
/// standard errors below.
fn least_share(share: f64, n: f64) -> f64 {
    let z2 = Z * Z;
    let centre = share + z2 / (2.0 * n);
    let spread = Z * (share * (1.0 - share) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - spread) / (1.0 + z2 / n)).max(0.0)
}

/// A board drawn uniformly among those with `xs` marks of X and `os` of O on `cells` cells.
fn drawn(rng: &mut SplitMix64, cells: usize, xs: usize, os: usize) -> (Mask, Mask) {
    let mut order: Vec<usize> = (0..cells).collect();
    // The first xs + os of a partial Fisher-Yates shuffle.
    for i in 0..xs + os {
        let j = i + rng.below((cells - i) as u64) as usize;
        order.swap(i, j);
    }
    let bits = |cells: &[usize]| cells.iter().fold(0 as Mask, |mask, &c| mask | 1 << c);
    (bits(&order[..xs]), bits(&order[xs..xs + os]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bytes_grow_with_the_positions_and_moves() {
        let small = walk_bytes(&[1, 10, 100], &[10, 100, 1000], 48);
        let large = walk_bytes(&[1, 1000, 100_000], &[10, 10_000, 1_000_000], 48);
        assert!(small < large);
        // At least the moves' 8 bytes each.
        assert!(large > 8 * 1_010_010);
    }

    #[test]
    fn the_least_share_is_below_the_share_and_nears_it_with_more_draws() {
        assert_eq!(least_share(0.0, 10.0), 0.0);
        let (few, many) = (least_share(0.5, 10.0), least_share(0.5, 1000.0));
        assert!(few < many && many < 0.5, "{few} {many}");
        assert!(many > 0.46, "{many}");
    }

    #[test]
    fn boards_are_drawn_with_the_marks_asked() {
        let mut rng = SplitMix64::new(1);
        for _ in 0..100 {
            let (x, o) = drawn(&mut rng, 20, 5, 4);
            assert_eq!((x.count_ones(), o.count_ones(), x & o), (5, 4, 0));
            assert!(x | o < 1 << 20);
        }
    }
}

#[cfg(test)]
mod accuracy {
    use std::collections::HashSet;

    use super::*;
    use crate::bots;

    /// The positions the walk lists at each ply, counted by walking forward.
    fn exact(bot: &mut dyn Bot, game: Game, side: Player) -> Vec<u64> {
        let mut ply_boards: HashSet<(Mask, Mask)> = HashSet::from([(0, 0)]);
        let mut counts = Vec::new();
        let mut sample = Sample::new(bot, game, side);
        for ply in 0..game.cells() {
            counts.push(ply_boards.len() as u64);
            let mover = Player::at_ply(ply);
            let mut next = HashSet::new();
            for &(x, o) in &ply_boards {
                let cells = match mover == side {
                    true => sample.answer(x, o).unwrap(),
                    false => sample.empty.empty_mask() & !(x | o),
                };
                for cell in Cells::from_bits(cells) {
                    let bit: Mask = 1 << cell.index();
                    let after = match mover {
                        Player::X => (x | bit, o),
                        Player::O => (x, o | bit),
                    };
                    if !sample.over(after.0, after.1) {
                        next.insert(after);
                    }
                }
            }
            ply_boards = next;
        }
        counts
    }

    #[test]
    fn the_estimate_is_near_the_count() {
        // Not 4x4k3: a test checks that its table is still read in place.
        for (game, spec) in [("4x3", "perfect"), ("3x4", "tricky"), ("3x4", "random")] {
            let game: Game = game.parse().unwrap();
            let cells = game.cells();
            for side in [Player::X, Player::O] {
                let mut bot = bots::from_spec(spec).unwrap();
                let counted = exact(bot.as_mut(), game, side);
                let Counts {
                    positions: estimated,
                    tried,
                    ..
                } = Sample::new(bot.as_mut(), game, side).run().unwrap();
                for (ply, (&counted, &estimated)) in counted.iter().zip(&estimated).enumerate() {
                    // Within four standard errors of the share over the boards drawn.
                    let (_, _, boards) = boards(cells, ply);
                    let share = counted as f64 / boards;
                    let error = (share * (1.0 - share) / tried[ply] as f64).sqrt();
                    let apart = (counted as f64 - estimated as f64).abs();
                    assert!(
                        apart <= 4.0 * error * boards + 1.0,
                        "{game} {spec} {side} ply {ply}: {counted} counted, {estimated} estimated"
                    );
                }
            }
        }
    }
}
