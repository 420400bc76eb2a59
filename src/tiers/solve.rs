//! One tier solved from the next, in parallel over the blocks of X's representatives.
//!
//! A block's boards share X's cells, so their children fall in at most `N - x` blocks of the
//! next tier, a few kilobytes each: the reads stay in cache, and a child is found by a few
//! table lookups. Every board is solved, reachable or not: a board whose last mover has a line
//! is lost at 0 plies, a full board is drawn at 0, any other is one ply of minimax over its
//! children, the winner taking the fastest win and the loser the slowest loss.

use std::ops::{Index, Range};

use rayon::prelude::*;

use super::{LOST, Tiers, marks_of_tier};
use crate::value::{Entry, Value, entry};

/// How good a child's entry is for the parent that moves to it: higher is better. A lost child
/// is a win, the sooner the better (96 to 127); a drawn child 64; a won child a loss, the
/// later the better (1 to 32); 0 for no entry.
const SCORES: [u8; 256] = {
    let mut scores = [0u8; 256];
    let mut remoteness = 0;
    while remoteness < 32 {
        scores[1 + remoteness] = 127 - remoteness as u8;
        scores[1 + 32 + remoteness] = 64;
        scores[1 + 64 + remoteness] = 1 + remoteness as u8;
        remoteness += 1;
    }
    scores
};

/// The score of the best move there is: a child lost at once.
const BEST: u8 = 127;

/// The parent's entry for its best child's score; `drawn` for a draw, whose remoteness is the
/// empty cells left, whatever the moves.
#[inline]
fn parent_entry(score: u8, drawn: Entry) -> Entry {
    match score {
        96.. => entry(Value::Win, 128 - score),
        64 => drawn,
        _ => entry(Value::Loss, score),
    }
}

/// Solves tier `t` of `tiers` into `out` (its [`size`](Tiers::size) entries) from `next`, the
/// solved tier `t + 1` (empty for the last tier), on the current rayon pool, a piece at a
/// time (about a hundredth of the tier), calling `solved` with the entries of each piece once
/// it is done, on this thread.
///
/// # Panics
///
/// If `out` or `next` has the wrong length.
pub fn solve_tier(
    tiers: &Tiers,
    t: usize,
    next: &[Entry],
    out: &mut [Entry],
    solved: &dyn Fn(u64),
) {
    let block = tiers.block(t) as usize;
    assert_eq!(
        out.len() as u64,
        tiers.size(t),
        "tier {t} has the wrong length"
    );
    for reps in tiers.pieces(t) {
        // Where O moves a piece reads only the blocks of its own representatives one tier up
        // (see `solve_slice`); a next tier too short is passed whole, for `solve_blocks` to
        // refuse with its length.
        let next = if t % 2 == 1 && t < tiers.cells() {
            let up = tiers.block(t + 1) as usize;
            next.get(reps.start * up..reps.end * up).unwrap_or(next)
        } else {
            next
        };
        let piece = &mut out[reps.start * block..reps.end * block];
        solve_blocks(tiers, t, reps.clone(), next, piece, true);
        solved(piece.len() as u64);
    }
}

/// Solves the blocks `reps` of tier `t` (X's representatives by index, ascending mask) into
/// `out`, on the current rayon pool: what one process does of a tier split by representative
/// (`ttt-mpi`, in mpi/; one process's tier is one slice).
///
/// `next` is what tier `t + 1` the slice reads (empty for the last tier). Where X moves (even
/// `t`) a child's X cells can have any representative, so `next` is the whole tier. Where O
/// moves (odd `t`) a child keeps X's cells, so its block is the one of the same representative
/// one tier up: `next` is only the blocks `reps` of tier `t + 1`.
///
/// # Panics
///
/// If `reps` runs past the tier's blocks, or `out` or `next` has the wrong length.
pub fn solve_slice(tiers: &Tiers, t: usize, reps: Range<usize>, next: &[Entry], out: &mut [Entry]) {
    solve_blocks(tiers, t, reps, next, out, true);
}

/// [`solve_slice`], on the current rayon pool if `parallel`, else on this thread alone.
pub(crate) fn solve_blocks(
    tiers: &Tiers,
    t: usize,
    reps: Range<usize>,
    next: &[Entry],
    out: &mut [Entry],
    parallel: bool,
) {
    let block = tiers.block(t) as usize;
    assert!(
        reps.end <= tiers.blocks(t),
        "tier {t} has {} blocks, not {}",
        tiers.blocks(t),
        reps.end
    );
    assert_eq!(
        out.len(),
        reps.len() * block,
        "tier {t}'s slice has the wrong length"
    );
    if t < tiers.cells() {
        let x_moves = t % 2 == 0;
        let expected = if x_moves {
            tiers.size(t + 1)
        } else {
            reps.len() as u64 * tiers.block(t + 1)
        };
        assert_eq!(
            next.len() as u64,
            expected,
            "tier {} has the wrong length",
            t + 1
        );
    }
    let solve = |scratch: &mut Scratch, (i, chunk): (usize, &mut [Entry])| {
        solve_block(tiers, t, reps.start + i, i, next, chunk, scratch);
    };
    if parallel {
        (out.par_chunks_mut(block).enumerate()).for_each_init(Scratch::default, solve);
    } else {
        let mut scratch = Scratch::default();
        (out.chunks_mut(block).enumerate()).for_each(|chunk| solve(&mut scratch, chunk));
    }
}

/// What a block's solve builds before its boards: reused across the blocks of a thread.
#[derive(Default)]
struct Scratch {
    /// By compressed byte of O's cells: O's cells on the board.
    expand: Vec<[u32; 256]>,
    /// Per free cell X may take: per compressed byte, O's cells compressed in the child's block.
    moves: Vec<[u32; 256]>,
    /// Per free cell X may take: where the child's block starts in the next tier.
    bases: Vec<u64>,
}

/// Solves the block of representative `rep` of tier `t`, the `slot`-th block of its slice
/// (where an O move's child block lies in `next`). `next` is the solved tier `t + 1`, or for
/// a [`Sample`] a stand-in for it.
fn solve_block<Next: Index<usize, Output = Entry> + ?Sized>(
    tiers: &Tiers,
    t: usize,
    rep: usize,
    slot: usize,
    next: &Next,
    out: &mut [Entry],
    scratch: &mut Scratch,
) {
    let cells = tiers.cells();
    let (x, o) = marks_of_tier(t);
    let xs = tiers.representatives(x)[rep];
    let x_moves = x == o;
    if !x_moves && tiers.has_line(xs) {
        out.fill(LOST);
        return;
    }
    let free_mask = !xs & tiers.full;
    let free: Vec<u32> = (0..cells as u32)
        .filter(|&c| free_mask >> c & 1 == 1)
        .collect();
    let m = free.len();
    let bytes = m.div_ceil(8).max(1);
    let drawn = entry(Value::Draw, (cells - t) as u8);
    let Scratch {
        expand,
        moves,
        bases,
    } = scratch;
    fill_bytes(expand, bytes, m, |position| free[position]);
    if x_moves && t < cells {
        moves.clear();
        bases.clear();
        moves.resize(m * bytes, [0; 256]);
        for (j, &cell) in free.iter().enumerate() {
            let child = xs | 1 << cell;
            let (child_rep, turn) = tiers.class_of(child);
            let child_free = !tiers.representatives(x + 1)[child_rep] & tiers.full;
            let position = |p: usize| {
                let image = tiers.turn(turn, 1 << free[p]);
                1u32 << (child_free & (image - 1)).count_ones()
            };
            fill_bytes_into(&mut moves[j * bytes..(j + 1) * bytes], position, m);
            bases.push(child_rep as u64 * tiers.binomial(cells - x - 1, o));
        }
    }
    let own_base = slot as u64 * tiers.binomial(m, o + 1);
    let empty_all = if m == 32 { u32::MAX } else { (1u32 << m) - 1 };
    // The compressed sets of O's cells in colex order: Gosper's next set of as many bits.
    let mut compressed: u32 = if o == 0 { 0 } else { (1u32 << o) - 1 };
    for slot in out.iter_mut() {
        let os = expand_mask(expand, bytes, compressed);
        *slot = if x_moves && t > 0 && tiers.has_line(os) {
            LOST
        } else if t == cells {
            drawn
        } else {
            let mut best = 0u8;
            let mut empty = !compressed & empty_all;
            while empty != 0 && best != BEST {
                let j = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                let index = if x_moves {
                    let child = expand_mask(&moves[j * bytes..(j + 1) * bytes], bytes, compressed);
                    bases[j] + tiers.colex(child)
                } else {
                    own_base + tiers.colex(compressed | 1 << j)
                };
                best = best.max(SCORES[usize::from(next[index as usize])]);
            }
            parent_entry(best, drawn)
        };
        if compressed != 0 {
            let low = compressed & compressed.wrapping_neg();
            let ripple = compressed.wrapping_add(low);
            compressed = ripple | (((compressed ^ ripple) >> 2) / low);
        }
    }
}

/// Blocks of tier `t` solved without tier `t + 1`, to time the solve of the tier
/// (`cache::Plan::estimate`): they are solved against a stand-in for the next tier, and the
/// result thrown away. A solve's work depends on the next tier's entries in one way only: a
/// board's moves are looked at until one wins at once (a child lost in 0 plies), so the
/// stand-in has those where the real tier has them, and nothing elsewhere. Its reads stay in
/// the cache, where a solve's of a large tier go out to memory.
#[cfg(not(target_family = "wasm"))]
pub(crate) struct Sample<'a> {
    tiers: &'a Tiers,
    t: usize,
    /// The stand-in where X moves in tier `t` (a child's block says it all), built once.
    by_block: Option<WinsByBlock>,
}

/// The blocks of one timing of a [`Sample`], with what they read, built before the timing.
#[cfg(not(target_family = "wasm"))]
pub(crate) struct Round<'a> {
    sample: &'a Sample<'a>,
    reps: Vec<usize>,
    /// The stand-in where O moves in tier `t`: the same blocks of the next tier.
    in_blocks: Option<Vec<Entry>>,
}

#[cfg(not(target_family = "wasm"))]
impl<'a> Sample<'a> {
    pub(crate) fn new(tiers: &'a Tiers, t: usize) -> Sample<'a> {
        let x_moves = t % 2 == 0 && t < tiers.cells();
        Sample {
            tiers,
            t,
            by_block: x_moves.then(|| WinsByBlock::new(tiers, t + 1)),
        }
    }

    /// The blocks of the tier, as many as there are to sample.
    pub(crate) fn blocks(&self) -> usize {
        self.tiers.blocks(self.t)
    }

    /// `count` blocks (at most [`blocks`](Sample::blocks)), spread evenly over the tier.
    pub(crate) fn round(&self, count: usize) -> Round<'_> {
        let (tiers, t, blocks) = (self.tiers, self.t, self.blocks());
        let reps: Vec<usize> = (0..count).map(|i| i * blocks / count).collect();
        let o_moves = t % 2 == 1 && t < tiers.cells();
        let in_blocks = o_moves.then(|| wins_in_blocks(tiers, t + 1, &reps));
        Round {
            sample: self,
            reps,
            in_blocks,
        }
    }
}

#[cfg(not(target_family = "wasm"))]
impl Round<'_> {
    /// Solves the blocks on the current rayon pool; returns their entries.
    pub(crate) fn solve(&self) -> u64 {
        let Sample { tiers, t, .. } = *self.sample;
        let block = tiers.block(t) as usize;
        let solve = |(scratch, out): &mut (Scratch, Vec<Entry>), (slot, &rep): (usize, &usize)| {
            match (&self.sample.by_block, &self.in_blocks) {
                (Some(next), _) => solve_block(tiers, t, rep, slot, next, out, scratch),
                (_, Some(next)) => solve_block(tiers, t, rep, slot, &next[..], out, scratch),
                // The full board: no next tier to read.
                _ => solve_block(tiers, t, rep, slot, &[][..], out, scratch),
            }
            std::hint::black_box(&out);
        };
        let scratch = || (Scratch::default(), vec![0 as Entry; block]);
        (self.reps.par_iter().enumerate()).for_each_init(scratch, solve);
        (self.reps.len() * block) as u64
    }
}

/// A stand-in for tier `t` where O is to move, read by a solve of tier `t - 1`: a board there
/// is lost at once where X's cells hold a line, which its block alone says (`out.fill(LOST)`
/// in `solve_block`), and nowhere else. One entry per block, whose index a multiplication
/// finds where a solve reads the entry itself.
#[cfg(not(target_family = "wasm"))]
pub(crate) struct WinsByBlock {
    by_block: Vec<Entry>,
    /// `2^64 / block`, rounded up: an index times it, over `2^64`, is its block (exactly
    /// while an index times a block is below `2^64`).
    reciprocal: u128,
}

#[cfg(not(target_family = "wasm"))]
impl WinsByBlock {
    pub(crate) fn new(tiers: &Tiers, t: usize) -> WinsByBlock {
        let x = marks_of_tier(t).0;
        let by_block = (tiers.representatives(x).iter())
            .map(|&xs| if tiers.has_line(xs) { LOST } else { 0 })
            .collect();
        WinsByBlock {
            by_block,
            reciprocal: (u64::MAX / tiers.block(t).max(1)) as u128 + 1,
        }
    }
}

#[cfg(not(target_family = "wasm"))]
impl Index<usize> for WinsByBlock {
    type Output = Entry;

    #[inline]
    fn index(&self, index: usize) -> &Entry {
        &self.by_block[((index as u128 * self.reciprocal) >> 64) as usize]
    }
}

/// A stand-in for the blocks `reps` of tier `t` where X is to move, read by a solve of the
/// same blocks of tier `t - 1` (as a slice's next tier is, see [`solve_slice`]): a board there
/// is lost at once where O's cells hold a line, and nowhere else.
#[cfg(not(target_family = "wasm"))]
pub(crate) fn wins_in_blocks(tiers: &Tiers, t: usize, reps: &[usize]) -> Vec<Entry> {
    let (x, o) = marks_of_tier(t);
    let mut next = Vec::with_capacity(reps.len() * tiers.block(t) as usize);
    for &rep in reps {
        let free: Vec<u32> = (0..tiers.cells() as u32)
            .filter(|&c| !tiers.representatives(x)[rep] >> c & 1 == 1)
            .collect();
        // Every set of `o` of the free cells, in colex order (Gosper's next set).
        let mut compressed: u64 = (1 << o) - 1;
        for _ in 0..tiers.block(t) {
            let os = (free.iter().enumerate())
                .filter(|&(i, _)| compressed >> i & 1 == 1)
                .fold(0, |os, (_, &cell)| os | 1 << cell);
            next.push(if tiers.has_line(os) { LOST } else { 0 });
            if compressed != 0 {
                let low = compressed & compressed.wrapping_neg();
                let ripple = compressed + low;
                compressed = ripple | (((compressed ^ ripple) >> 2) / low);
            }
        }
    }
    next
}

/// Fills `tables` with `bytes` lookups: for each byte of a compressed mask, the OR of `bit(p)`
/// over its set positions `p`.
fn fill_bytes(
    tables: &mut Vec<[u32; 256]>,
    bytes: usize,
    positions: usize,
    cell: impl Fn(usize) -> u32,
) {
    tables.clear();
    tables.resize(bytes, [0; 256]);
    fill_bytes_into(tables, |p| 1u32 << cell(p), positions);
}

fn fill_bytes_into(tables: &mut [[u32; 256]], bit: impl Fn(usize) -> u32, positions: usize) {
    for (byte, table) in tables.iter_mut().enumerate() {
        for value in 1..256usize {
            let p = byte * 8 + value.trailing_zeros() as usize;
            let add = if p < positions { bit(p) } else { 0 };
            table[value] = table[value & (value - 1)] | add;
        }
    }
}

#[inline]
fn expand_mask(tables: &[[u32; 256]], bytes: usize, mask: u32) -> u32 {
    let mut out = 0;
    for (byte, table) in tables.iter().enumerate().take(bytes) {
        out |= table[(mask >> (8 * byte) & 0xff) as usize];
    }
    out
}
