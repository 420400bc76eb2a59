//! The tiered solve split across MPI ranks, as docs/scale.md lays it out:
//! of each tier, rank `i` of `P` owns the blocks of X's representatives
//! `i * B / P .. (i + 1) * B / P`, `B` being the tier's representatives, and solves them with
//! [`solve_slice`], as one process solves a whole tier.
//!
//! Where O moves (odd tiers) a child keeps X's cells, so it lies in the block of the same
//! representative one tier up; both tiers have as many X marks, so the same split, and every
//! child is on the rank of its parent: no message. Where X moves (even tiers) a child's
//! representative can be any block, so every rank first gathers the whole of the tier above:
//! each rank's slice is broadcast to the others in pieces of at most a given size, as an MPI
//! count is a C `int` and a tier of 5x5 holds 3.3 billion entries (one `MPI_Allgatherv` would
//! carry at most 2^31 - 1). A rank holds its slice of the tier it solves and the one it reads,
//! or the whole tier read where X moves: two tiers, as the single-process solve.

use std::fmt;
use std::ops::Range;
use std::time::{Duration, Instant};

use mpi::Count;
use mpi::traits::{Communicator, Root};

use ttt_oracle::Game;
use ttt_oracle::tiers::solve::solve_slice;
use ttt_oracle::tiers::{Entry, MAX_TIER_CELLS, Tiers};

/// The bytes a message of the exchange holds at most, unless told otherwise: 1 GiB.
pub const PIECE: usize = 1 << 30;

/// One rank's slice of one tier, solved.
pub struct TierSlice<'a> {
    /// The tier: its boards have this many marks.
    pub tier: usize,
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
    /// A piece of the exchange must hold between 1 and `2^31 - 1` bytes (an MPI count).
    BadPiece(usize),
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
            AcrossError::BadPiece(bytes) => write!(
                f,
                "a piece of {bytes} bytes: pieces hold 1 to {} bytes (an MPI count)",
                Count::MAX
            ),
            AcrossError::Each(error) => error.fmt(f),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for AcrossError<E> {}

/// The blocks of a tier of `blocks` representatives that rank `rank` of `ranks` owns: as many
/// as any other rank, give or take one, so none for some ranks when the tier has fewer blocks
/// than ranks.
pub fn owned(blocks: usize, rank: usize, ranks: usize) -> Range<usize> {
    rank * blocks / ranks..(rank + 1) * blocks / ranks
}

/// Solves `game` by tiers across the ranks of `world`, from the full board down to the empty
/// one, and hands this rank's slice of each tier to `each` as soon as it is solved; slices
/// travel in messages of at most `piece` bytes. Every rank of `world` must call it with the
/// same game and piece. The slices of a tier, in rank order, are the
/// tier; the tiers, from the empty board, are the table `ttt solve` writes.
///
/// # Errors
///
/// On every rank alike, before any message, if the game is too large for tiers or `piece` is
/// no MPI count ([`AcrossError`]); else the first error of `each`, on its rank only: the caller must then
/// stop the others (`MPI_Abort`), which would wait for it at the next exchange.
pub fn solve_across<C, E>(
    game: Game,
    world: &C,
    piece: usize,
    mut each: impl FnMut(TierSlice<'_>) -> Result<(), E>,
) -> Result<(), AcrossError<E>>
where
    C: Communicator,
{
    if game.cells() > MAX_TIER_CELLS {
        return Err(AcrossError::TooManyCells(game));
    }
    if piece == 0 || piece > Count::MAX as usize {
        return Err(AcrossError::BadPiece(piece));
    }
    let tiers = Tiers::new(game);
    let cells = tiers.cells();
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    // This rank's slice of the tier above the one being solved.
    let mut above: Vec<Entry> = Vec::new();
    for t in (0..=cells).rev() {
        let start = Instant::now();
        let reps = owned(tiers.blocks(t), rank, ranks);
        let x_moves = t % 2 == 0;
        // Where X moves, this rank's slice of the tier above is freed once gathered.
        let own = std::mem::take(&mut above);
        let (reads, received) = if x_moves && t < cells {
            let whole = gather(&tiers, t + 1, &own, world, piece);
            let received = (whole.len() - own.len()) as u64;
            (whole, received)
        } else {
            (own, 0)
        };
        let mut out = vec![0 as Entry; reps.len() * tiers.block(t) as usize];
        solve_slice(&tiers, t, reps, &reads, &mut out);
        drop(reads);
        each(TierSlice {
            tier: t,
            entries: &out,
            received,
            elapsed: start.elapsed(),
        })
        .map_err(AcrossError::Each)?;
        above = out;
    }
    Ok(())
}

/// The whole of tier `t`, from every rank's slice of it (`own` this rank's): each rank
/// broadcasts its slice in turn, in pieces of at most `piece` bytes.
fn gather<C: Communicator>(
    tiers: &Tiers,
    t: usize,
    own: &[Entry],
    world: &C,
    piece: usize,
) -> Vec<Entry> {
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let (blocks, block) = (tiers.blocks(t), tiers.block(t) as usize);
    let mut whole = vec![0 as Entry; tiers.size(t) as usize];
    for root in 0..ranks {
        let slice = owned(blocks, root, ranks);
        let (start, end) = (slice.start * block, slice.end * block);
        if root == rank {
            whole[start..end].copy_from_slice(own);
        }
        for chunk in whole[start..end].chunks_mut(piece) {
            world.process_at_rank(root as i32).broadcast_into(chunk);
        }
    }
    whole
}
