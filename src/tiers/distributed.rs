//! The tiered solve split across MPI ranks (the `mpi` feature), as docs/scale.md lays it out:
//! of each tier, rank `i` of `P` owns the blocks of X's representatives
//! `i * B / P .. (i + 1) * B / P`, `B` being the tier's representatives, and solves them with
//! [`solve_slice`], as one process solves a whole tier.
//!
//! Where O moves (odd tiers) a child keeps X's cells, so it lies in the block of the same
//! representative one tier up; both tiers have as many X marks, so the same split, and every
//! child is on the rank of its parent: no message. Where X moves (even tiers) a child's
//! representative can be any block, so every rank first gathers the whole of the tier above
//! (`MPI_Allgatherv` of the slices). A rank holds its slice of the tier it solves and the one
//! it reads, or the whole tier read where X moves: two tiers, as the single-process solve.

use std::fmt;
use std::ops::Range;
use std::time::{Duration, Instant};

use mpi::Count;
use mpi::datatype::PartitionMut;
use mpi::traits::{Communicator, CommunicatorCollectives};

use super::solve::solve_slice;
use super::{MAX_TIER_CELLS, Tiers};
use crate::game::Game;
use crate::solve::Entry;

/// One rank's slice of one tier, solved.
pub struct TierSlice<'a> {
    /// The tier: its boards have this many marks.
    pub tier: usize,
    /// The index in the tier of the slice's first entry.
    pub first: u64,
    /// The slice's entries, in the tier's order.
    pub entries: &'a [Entry],
    /// The bytes this rank received from the others to solve it: the slices of the tier above
    /// it lacked where X moves, none where O moves.
    pub received: u64,
    /// The time this rank took over the slice, the exchange included.
    pub elapsed: Duration,
}

/// Why a solve across ranks stopped.
#[derive(Debug)]
pub enum AcrossError<E> {
    /// The game cannot be solved by tiers: more cells than [`MAX_TIER_CELLS`].
    TooManyCells(Game),
    /// A tier has more entries than one MPI message counts (`2^31 - 1`), as counts are C
    /// `int`s: such a tier would be sent in pieces, which is not written.
    TierTooLarge {
        /// The tier.
        tier: usize,
        /// Its entries.
        entries: u64,
    },
    /// What the caller did with a slice failed.
    Each(E),
}

impl<E: fmt::Display> fmt::Display for AcrossError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AcrossError::TooManyCells(game) => write!(
                f,
                "game {game} has {} cells; a tiered solve takes at most {MAX_TIER_CELLS}",
                game.cells()
            ),
            AcrossError::TierTooLarge { tier, entries } => write!(
                f,
                "tier {tier} has {entries} entries, more than one MPI message counts \
                 ({}): sending a tier in pieces is not written",
                Count::MAX
            ),
            AcrossError::Each(error) => error.fmt(f),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for AcrossError<E> {}

/// The blocks of a tier of `blocks` representatives that rank `rank` of `ranks` owns.
///
/// # Examples
///
/// ```
/// use ttt_oracle::distributed::owned;
///
/// assert_eq!(owned(5, 0, 2), 0..2);
/// assert_eq!(owned(5, 1, 2), 2..5);
/// assert_eq!(owned(1, 0, 2), 0..0);
/// ```
pub fn owned(blocks: usize, rank: usize, ranks: usize) -> Range<usize> {
    rank * blocks / ranks..(rank + 1) * blocks / ranks
}

/// Solves `game` by tiers across the ranks of `world`, from the full board down to the empty
/// one, and hands this rank's slice of each tier to `each` as soon as it is solved. Every rank
/// of `world` must call it with the same game. The slices of a tier, in rank order, are the
/// tier; the tiers, from the empty board, are the table `ttt solve` writes.
///
/// # Errors
///
/// On every rank alike, before any message, if the game or a tier is too large
/// ([`AcrossError`]); else the first error of `each`, on its rank only: the caller must then
/// stop the others (`MPI_Abort`), which would wait for it at the next exchange.
pub fn solve_across<C, E>(
    game: Game,
    world: &C,
    mut each: impl FnMut(TierSlice<'_>) -> Result<(), E>,
) -> Result<(), AcrossError<E>>
where
    C: Communicator,
{
    if game.cells() > MAX_TIER_CELLS {
        return Err(AcrossError::TooManyCells(game));
    }
    let tiers = Tiers::new(game);
    let cells = tiers.cells();
    if let Some(tier) = (0..=cells).find(|&t| tiers.size(t) > Count::MAX as u64) {
        let entries = tiers.size(tier);
        return Err(AcrossError::TierTooLarge { tier, entries });
    }
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    // This rank's slice of the tier above the one being solved.
    let mut above: Vec<Entry> = Vec::new();
    for t in (0..=cells).rev() {
        let start = Instant::now();
        let reps = owned(tiers.representatives(t), rank, ranks);
        let x_moves = t % 2 == 0;
        let whole = if x_moves && t < cells {
            Some(gather(&tiers, t + 1, &above, world))
        } else {
            None
        };
        let received = whole.as_ref().map_or(0, |w| (w.len() - above.len()) as u64);
        let mut out = vec![0 as Entry; reps.len() * tiers.block(t) as usize];
        let first = reps.start as u64 * tiers.block(t);
        solve_slice(
            &tiers,
            t,
            reps,
            whole.as_deref().unwrap_or(&above),
            &mut out,
        );
        drop(whole);
        each(TierSlice {
            tier: t,
            first,
            entries: &out,
            received,
            elapsed: start.elapsed(),
        })
        .map_err(AcrossError::Each)?;
        above = out;
    }
    Ok(())
}

/// The whole of tier `t`, from every rank's slice of it (`own` this rank's).
fn gather<C: Communicator>(tiers: &Tiers, t: usize, own: &[Entry], world: &C) -> Vec<Entry> {
    let ranks = world.size() as usize;
    let (blocks, block) = (tiers.representatives(t), tiers.block(t));
    // Within a Count: solve_across checked every tier's size.
    let slices: Vec<Range<usize>> = (0..ranks).map(|r| owned(blocks, r, ranks)).collect();
    let counts: Vec<Count> = slices
        .iter()
        .map(|s| (s.len() as u64 * block) as Count)
        .collect();
    let displs: Vec<Count> = slices
        .iter()
        .map(|s| (s.start as u64 * block) as Count)
        .collect();
    let mut whole = vec![0 as Entry; tiers.size(t) as usize];
    let mut partition = PartitionMut::new(&mut whole[..], counts, displs);
    world.all_gather_varcount_into(own, &mut partition);
    whole
}
