//! The positions of a game of up to 25 cells, laid out by tier for a parallel solve: tier `t`
//! holds every board with `t` marks (X has `ceil(t/2)`, O `floor(t/2)`), so a tier depends only
//! on the next one, and a tier is a dense array of entries ([`Entry`], value and remoteness in
//! a byte) indexed by combinatorial rank.
//!
//! The cells X holds are taken up to the board's symmetries: only one set of each orbit (its
//! representative, the smallest mask among its images) has a block, and a block holds every
//! way of placing O's marks on the cells X left empty, by colex rank. So tier `t` holds
//! `orbits(x) * C(N - x, o)` entries, about a quarter of the boards on a rectangle and an
//! eighth on a square. A board is found by turning it so that X's cells are their
//! representative, then ranking O's cells among the empty ones: O(1) with no search.
//!
//! Pure: no I/O. [`solve`] solves one tier from the next with rayon. `ttt solve` writes the
//! tiers to the cache one by one ([`cache`](crate::cache)); `ttt-mpi` splits each tier's
//! blocks across MPI ranks with [`solve::solve_slice`]. [`unentry`] reads an entry back. A
//! pass over every tier (a solve, the counts of `ttt stats`, the checks of `ttt verify`) says
//! where it stands with a [`Step`] after each piece of a tier.

// Named by path so that `build.rs`, which takes this file by path, finds it too.
#[path = "tiers/solve.rs"]
pub mod solve;

use std::ops::Range;
use std::sync::OnceLock;

use crate::game::Game;

pub use crate::value::{Entry, unentry};

pub use crate::game::MAX_TIER_CELLS;

/// The most marks one side has on a board of [`MAX_TIER_CELLS`], plus one for a child's rank.
const MAX_RANKED: usize = MAX_TIER_CELLS / 2 + 2;

/// A game's tiers: the representatives of X's cells, the class of every set of cells, and the
/// tables that rank O's cells. The classes of the sets of each size, and the sets that hold a
/// line, are worked out when first asked for: a table of 25 cells opens at once, and a probe
/// near the start of the game works out only the few sets it meets.
pub struct Tiers {
    game: Game,
    cells: usize,
    full: u32,
    /// By number of cells: its [`Classes`], made when first asked.
    classes: Vec<OnceLock<Classes>>,
    /// Per turn, per byte of a mask: the image of that byte's cells.
    images: Vec<[[u32; 256]; 4]>,
    /// The game's lines, as masks.
    line_masks: Vec<u32>,
    /// A bit per mask: whether it holds a whole line; made when first asked.
    lines: OnceLock<Vec<u64>>,
    /// `binomial[n][k]`.
    binomial: Vec<Vec<u64>>,
    /// Per byte of a compressed mask, per byte value, per count of set bits below the byte:
    /// that byte's share of the colex rank.
    colex: Vec<u32>,
    sizes: Vec<u64>,
}

/// The sets of cells of one size: their representatives, and each set's class.
struct Classes {
    /// By colex rank of a set: the index of its representative among those of its size, times
    /// 8, plus the turn that makes the set its representative.
    class: Vec<u32>,
    /// The representatives, by ascending mask.
    reps: Vec<u32>,
}

impl Tiers {
    /// The layout of `game`, of at most [`MAX_TIER_CELLS`] cells. Holds, once asked for,
    /// `4 * C(N, k)` bytes for the classes of the sets of each size `k` and `2^N / 8` for the
    /// lines: 4.1 MiB for 20 cells, 132 MiB for 25.
    ///
    /// # Panics
    ///
    /// If the game has more than [`MAX_TIER_CELLS`] cells.
    pub fn new(game: Game) -> Tiers {
        let cells = game.cells();
        assert!(
            cells <= MAX_TIER_CELLS,
            "a tiered solve takes at most 25 cells"
        );
        let geometry = game.geometry();
        let full = ((1u64 << cells) - 1) as u32;
        let images: Vec<[[u32; 256]; 4]> = (0..geometry.turns().len())
            .map(|t| {
                let mut tables = [[0u32; 256]; 4];
                for (byte, table) in tables.iter_mut().enumerate() {
                    for mask in 1..256usize {
                        let cell = byte * 8 + mask.trailing_zeros() as usize;
                        let bit = if cell < cells {
                            1 << geometry.turn_cell(t, cell)
                        } else {
                            0
                        };
                        table[mask] = table[mask & (mask - 1)] | bit;
                    }
                }
                tables
            })
            .collect();
        let binomial = binomials(cells);
        let mut colex = vec![0u32; 4 * 256 * MAX_RANKED];
        for byte in 0..4 {
            for value in 0..256usize {
                for below in 0..MAX_RANKED {
                    let mut rank = 0u64;
                    let mut i = below;
                    for bit in 0..8 {
                        if value >> bit & 1 == 1 {
                            i += 1;
                            let p = byte * 8 + bit;
                            rank += binomial.get(p).and_then(|row| row.get(i)).unwrap_or(&0);
                        }
                    }
                    colex[(byte * 256 + value) * MAX_RANKED + below] = rank as u32;
                }
            }
        }
        Tiers {
            game,
            cells,
            full,
            classes: (0..=cells).map(|_| OnceLock::new()).collect(),
            images,
            line_masks: geometry.lines().iter().map(|&l| l as u32).collect(),
            lines: OnceLock::new(),
            binomial,
            colex,
            // Counted by Burnside's lemma, not by laying the sets out.
            sizes: tier_sizes(game)
                .into_iter()
                .map(|size| size as u64)
                .collect(),
        }
    }

    /// The classes of the sets of `size` cells, worked out the first time: every such set in
    /// colex order (ascending masks), each turned to its smallest image.
    fn classes(&self, size: usize) -> &Classes {
        self.classes[size].get_or_init(|| {
            let count = self.binomial[self.cells][size] as usize;
            let mut classes = Classes {
                class: Vec::with_capacity(count),
                reps: Vec::new(),
            };
            let mut mask: u32 = if size == 0 { 0 } else { (1u32 << size) - 1 };
            for _ in 0..count {
                let (rep, turn) = self.representative(mask);
                let index = if rep == mask {
                    classes.reps.push(mask);
                    classes.reps.len() - 1
                } else {
                    // The representative is smaller, so it was met first.
                    (classes.class[self.colex(rep) as usize] >> 3) as usize
                };
                classes.class.push((index as u32) << 3 | turn as u32);
                if mask != 0 {
                    // Gosper's next set of as many bits.
                    let low = mask & mask.wrapping_neg();
                    let ripple = mask.wrapping_add(low);
                    mask = ripple | (((mask ^ ripple) >> 2) / low);
                }
            }
            classes
        })
    }

    /// The class of `mask`: the index of its representative among those of its size, and
    /// the turn that makes `mask` its representative.
    #[inline]
    pub(crate) fn class_of(&self, mask: u32) -> (usize, usize) {
        let class = self.classes(mask.count_ones() as usize).class[self.colex(mask) as usize];
        ((class >> 3) as usize, (class & 7) as usize)
    }

    /// The game laid out.
    pub fn game(&self) -> Game {
        self.game
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The entries of each tier, from the empty board (tier 0) to the full one.
    pub fn sizes(&self) -> &[u64] {
        &self.sizes
    }

    /// The smallest image of `mask` and the first turn that gives it.
    fn representative(&self, mask: u32) -> (u32, usize) {
        (0..self.images.len())
            .map(|t| (self.turn(t, mask), t))
            .min()
            .expect("identity is a turn")
    }

    /// The image of `mask` under the `t`-th turn of the geometry.
    #[inline]
    pub fn turn(&self, t: usize, mask: u32) -> u32 {
        let tables = &self.images[t];
        tables[0][(mask & 0xff) as usize]
            | tables[1][(mask >> 8 & 0xff) as usize]
            | tables[2][(mask >> 16 & 0xff) as usize]
            | tables[3][(mask >> 24) as usize]
    }

    /// Whether `mask` holds a whole line.
    #[inline]
    pub fn has_line(&self, mask: u32) -> bool {
        let lines = self.lines.get_or_init(|| {
            let mut lines = vec![0u64; (1usize << self.cells).div_ceil(64)];
            for (word, bits) in lines.iter_mut().enumerate() {
                for bit in 0..64 {
                    let mask = (word * 64 + bit) as u32;
                    if self.line_masks.iter().any(|&line| line & !mask == 0) {
                        *bits |= 1 << bit;
                    }
                }
            }
            lines
        });
        lines[(mask >> 6) as usize] >> (mask & 63) & 1 == 1
    }

    /// `C(n, k)`.
    #[inline]
    pub fn binomial(&self, n: usize, k: usize) -> u64 {
        self.binomial[n][k]
    }

    /// The colex rank of the set bits of `mask` (of at most 32 bits) among sets of as many.
    #[inline]
    pub fn colex(&self, mask: u32) -> u64 {
        let mut rank = 0u64;
        let mut below = 0usize;
        for byte in 0..4 {
            let value = (mask >> (8 * byte) & 0xff) as usize;
            if value != 0 {
                rank += u64::from(self.colex[(byte * 256 + value) * MAX_RANKED + below]);
                below += value.count_ones() as usize;
            }
        }
        rank
    }

    /// Where the board `x`, `o` (masks of the cells each holds, bit `i` for cell `i + 1`)
    /// is: its tier and its index in the tier. The board must have as many X as O, or one X
    /// more.
    #[inline]
    pub fn locate(&self, x: u32, o: u32) -> (usize, u64) {
        let (xs, os) = (x.count_ones() as usize, o.count_ones() as usize);
        let (rep, turn) = self.class_of(x);
        let free = !self.representatives(xs)[rep] & self.full;
        let compressed = compress(self.turn(turn, o), free);
        let block = self.binomial[self.cells - xs][os];
        (xs + os, rep as u64 * block + self.colex(compressed))
    }

    /// The board at `index` of tier `t`, as the masks of X's and O's cells: the inverse of
    /// [`locate`](Tiers::locate), X's cells being their representative.
    ///
    /// # Panics
    ///
    /// If `index` is past the tier's end.
    pub fn board(&self, t: usize, index: u64) -> (u32, u32) {
        assert!(index < self.sizes[t], "index {index} is past tier {t}");
        let (xs, os) = marks_of_tier(t);
        let block = self.binomial[self.cells - xs][os];
        let x = self.representatives(xs)[(index / block) as usize];
        // The colex unrank: the highest position first, the largest that fits the rank left.
        let (mut rank, mut compressed) = (index % block, 0u32);
        for i in (1..=os).rev() {
            let mut p = i - 1;
            while self.binomial[p + 1][i] <= rank {
                p += 1;
            }
            compressed |= 1 << p;
            rank -= self.binomial[p][i];
        }
        let free = !x & self.full;
        let mut o = 0;
        for (bit, cell) in (0..self.cells).filter(|&c| free >> c & 1 == 1).enumerate() {
            if compressed >> bit & 1 == 1 {
                o |= 1 << cell;
            }
        }
        (x, o)
    }

    /// The number of turns of the board (its symmetries, the identity included).
    pub fn turns(&self) -> usize {
        self.images.len()
    }

    /// The representatives of the sets of `x` cells, by ascending mask: block `i` of a tier
    /// whose X has `x` marks is that of the `i`-th.
    pub fn representatives(&self, x: usize) -> &[u32] {
        &self.classes(x).reps
    }

    /// [`locate`](Tiers::locate), and the same up to symmetry: the tier, the board's index,
    /// and the smallest index of the tier holding a board symmetric to it. Two boards are
    /// symmetric exactly when they give the same smallest index. When no turn but the
    /// identity fixes X's representative, it is the board's own index; otherwise those turns
    /// move O's cells within the block, and the smallest of those ranks is taken.
    #[inline]
    pub fn locate_orbit(&self, x: u32, o: u32) -> (usize, u64, u64) {
        let (xs, os) = (x.count_ones() as usize, o.count_ones() as usize);
        let (rep, turn) = self.class_of(x);
        let rep_mask = self.representatives(xs)[rep];
        let free = !rep_mask & self.full;
        let o = self.turn(turn, o);
        let rank = self.colex(compress(o, free));
        let mut smallest = rank;
        // Turn 0 is the identity.
        for t in 1..self.turns() {
            if self.turn(t, rep_mask) == rep_mask {
                smallest = smallest.min(self.colex(compress(self.turn(t, o), free)));
            }
        }
        let base = rep as u64 * self.binomial[self.cells - xs][os];
        (xs + os, base + rank, base + smallest)
    }

    /// The entries of tier `t`: the largest of the tiered solve's arrays per tier.
    pub fn size(&self, t: usize) -> u64 {
        self.sizes[t]
    }

    /// The blocks of tier `t`: as many as the representatives of X's cells in it.
    pub fn blocks(&self, t: usize) -> usize {
        (self.sizes[t] / self.block(t)) as usize
    }

    /// The entries of a block of tier `t`: every way to place O's marks on the cells X left.
    pub fn block(&self, t: usize) -> u64 {
        let (x, o) = marks_of_tier(t);
        self.binomial[self.cells - x][o]
    }

    /// The blocks of tier `t` as consecutive ranges, each a hundredth of the tier or
    /// [`PIECE_ENTRIES`], whichever is larger. A pass reports its progress between two pieces,
    /// from the thread that started it; a piece is large enough that the wait at its end (its
    /// last block finishing while the other threads have none) is small against it.
    pub(crate) fn pieces(&self, t: usize) -> impl Iterator<Item = Range<usize>> + use<> {
        let blocks = self.blocks(t);
        let per_piece = (PIECE_ENTRIES / self.block(t).max(1)).max(1) as usize;
        let per_piece = per_piece.max(blocks.div_ceil(100));
        (0..blocks)
            .step_by(per_piece)
            .map(move |start| start..(start + per_piece).min(blocks))
    }
}

/// The fewest entries of a piece of a tier ([`Tiers::pieces`]) when the tier has more.
const PIECE_ENTRIES: u64 = 1 << 20;

/// Where a pass over a game's tiers stands, for a progress line: what it does, the tier it is
/// at, and the entries done of the whole table. A pass reports one when each phase begins
/// (`done` is then 0, or the entries a solve that goes on from an earlier run found solved),
/// then after each piece of a tier, about a hundredth of it.
///
/// # Examples
///
/// ```
/// use ttt_oracle::tiers::{Phase, Step};
///
/// let step = Step { phase: Phase::Count, tier: 12, done: 45_000_000, total: 180_000_000 };
/// assert_eq!(step.done * 100 / step.total, 25); // a quarter of the way
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// What the pass is doing.
    pub phase: Phase,
    /// The tier being worked on (the last one reached, when a phase begins).
    pub tier: usize,
    /// Entries done so far in this phase, over every tier.
    pub done: u64,
    /// Entries of the whole table: what the phase goes over.
    pub total: u64,
}

/// What a pass over the tiers is doing, each phase going over every tier once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Solving the tiers, from the full board down (`ttt solve`).
    Solve,
    /// Counting positions, values and games, from the empty board up (`ttt stats`).
    Count,
    /// Checking each stored tier against its checksum (the first half of `ttt verify`).
    Checksums,
    /// Solving the tiers afresh and comparing them with the stored ones (its second half).
    Compare,
}

/// `n` choose `k`, for the counts of boards of a game of up to [`MAX_TIER_CELLS`] cells.
pub fn binomial(n: usize, k: usize) -> u128 {
    (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
}

/// How many marks X and O have in tier `t`: X moves first.
pub const fn marks_of_tier(t: usize) -> (usize, usize) {
    (t.div_ceil(2), t / 2)
}

/// The set bits of `mask` that lie in `free`, packed down to the low bits in order.
#[inline]
pub fn compress(mask: u32, free: u32) -> u32 {
    let mut packed = 0;
    let mut free = free;
    let mut bit = 0;
    while free != 0 {
        let low = free & free.wrapping_neg();
        if mask & low != 0 {
            packed |= 1 << bit;
        }
        bit += 1;
        free &= free - 1;
    }
    packed
}

fn binomials(n: usize) -> Vec<Vec<u64>> {
    let mut rows = vec![vec![0u64; n + 2]; n + 2];
    for i in 0..n + 2 {
        rows[i][0] = 1;
        for k in 1..=i {
            rows[i][k] = rows[i - 1][k - 1] + rows[i - 1][k];
        }
    }
    rows
}

/// The entries of each tier of `game`, from the empty board to the full one, counted without
/// laying anything out (Burnside's lemma over the board's symmetries for the orbits of X's
/// cells): what a tiered solve of any size would hold, for planning.
pub fn tier_sizes(game: Game) -> Vec<u128> {
    let cells = game.cells();
    let geometry = game.geometry();
    let turns = geometry.turns().len();
    // For each turn, the lengths of its cycles on the cells.
    let cycles: Vec<Vec<usize>> = (0..turns)
        .map(|t| {
            let mut seen = vec![false; cells];
            let mut lengths = Vec::new();
            for start in 0..cells {
                let mut length = 0;
                let mut cell = start;
                while !seen[cell] {
                    seen[cell] = true;
                    length += 1;
                    cell = geometry.turn_cell(t, cell);
                }
                if length > 0 {
                    lengths.push(length);
                }
            }
            lengths
        })
        .collect();
    // The sets of each size each turn fixes: unions of its cycles.
    let fixed: Vec<Vec<u128>> = cycles
        .iter()
        .map(|lengths| {
            let mut ways = vec![0u128; cells + 1];
            ways[0] = 1;
            for &length in lengths {
                for size in (length..=cells).rev() {
                    ways[size] += ways[size - length];
                }
            }
            ways
        })
        .collect();
    (0..=cells)
        .map(|t| {
            let (x, o) = marks_of_tier(t);
            let orbits = fixed.iter().map(|ways| ways[x]).sum::<u128>() / turns as u128;
            orbits * binomial(cells - x, o)
        })
        .collect()
}

/// Every tier of `tiers` solved in memory, from the empty board to the full one, on the current
/// rayon pool: for tests and small games (the command line keeps only two tiers at a time, and
/// the rest on disk).
pub fn solve_in_memory(tiers: &Tiers) -> Vec<Vec<Entry>> {
    solve_all(tiers, true, &mut |_| ())
}

/// [`solve_in_memory`], on the current rayon pool if `parallel`, else on this thread alone,
/// telling `done` the share of the boards solved after each tier.
pub(crate) fn solve_all(
    tiers: &Tiers,
    parallel: bool,
    done: &mut dyn FnMut(f64),
) -> Vec<Vec<Entry>> {
    let mut solved: Vec<Vec<Entry>> = Vec::with_capacity(tiers.cells() + 1);
    let all: u64 = tiers.sizes().iter().sum();
    let mut boards = 0;
    for t in (0..=tiers.cells()).rev() {
        let mut out = vec![0; tiers.size(t) as usize];
        let next = solved.last().map_or(&[][..], Vec::as_slice);
        solve::solve_blocks(tiers, t, 0..tiers.blocks(t), next, &mut out, parallel);
        solved.push(out);
        boards += tiers.size(t);
        done(boards as f64 / all as f64);
    }
    solved.reverse();
    solved
}

/// The entry every board of a finished game gets: lost, 0 plies, for the side to move.
pub const LOST: Entry = crate::value::entry(crate::value::Value::Loss, 0);
