//! The tables `ttt serve` solves on request, apart from the answers that need none.
//!
//! Tic-tac-toe and the other embedded games are answered at once, whatever is being solved:
//! nothing here is asked for them. Any other game's table is solved by the first request that
//! needs it, one solve at a time, with no lock held meanwhile; a request for a game being
//! solved waits for that solve, and one for another unsolved game waits its turn, with at most
//! [`MAX_WAITING`] requests waiting (solving included), the next refused with 503. The tables
//! solved for analysis, review and play alike stay within [the cache](set_cache), reckoned at
//! [`reckoned`] bytes each, the least recently used dropped first when the next needs the room
//! (a request answering from a dropped table holds it until its answer is made).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::Refusal;
use crate::analysis::Analysis;
use crate::game::Game;
use crate::history::History;
use crate::oracle::Oracle;
use crate::position::Position;
use crate::review::Review;
use crate::table::{self, Table, TableError};

/// The most requests that wait for a solve at once, the one solving included: the server
/// keeps as many threads for them beside those that answer at once.
pub const MAX_WAITING: usize = 8;

/// The cache's size by default, in bytes: six tables of 16 cells.
pub const DEFAULT_CACHE: u64 = 256 << 20;

/// What the table of `game` is reckoned to hold, in bytes: one per base-3 code, 43 MB at
/// 16 cells, where 4x4's holds 36.8 MB once asked for a line (a bit per code with a count
/// every 64, 10.8 MB; a record per position, 4.5 MB; a half byte per code for the best move,
/// 21.5 MB).
pub fn reckoned(game: Game) -> u64 {
    3u64.pow(game.cells() as u32)
}

struct State {
    /// The bytes the tables solved on request may hold.
    capacity: u64,
    /// The tables solved, the least recently used first.
    cached: Vec<(Game, Arc<Table>)>,
    /// Requests waiting for a solve, the one solving included.
    waiting: usize,
    solving: bool,
}

static STATE: Mutex<State> = Mutex::new(State {
    capacity: DEFAULT_CACHE,
    cached: Vec::new(),
    waiting: 0,
    solving: false,
});

/// Told whenever a solve ends.
static SOLVED: Condvar = Condvar::new();

fn lock() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Sets the bytes the tables solved on request may hold ([`DEFAULT_CACHE`] until set); the
/// tables past it are dropped, the least recently used first.
pub fn set_cache(bytes: u64) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
    let mut state = lock();
    state.capacity = bytes;
    state.fit();
}

impl State {
    /// Drops the least recently used tables until all fit in the cache.
    fn fit(&mut self) {
        let mut held = self.cached.iter().map(|(g, _)| reckoned(*g)).sum::<u64>();
        while held > self.capacity && !self.cached.is_empty() {
            held -= reckoned(self.cached.remove(0).0);
        }
    }
}

/// The analysis of `position`, from its game's [`oracle`].
pub(super) fn analysis(position: &Position) -> Result<Analysis, Refusal> {
    Ok(oracle(position.game())?.analyze(position))
}

/// The review of `game`, from its game's [`oracle`].
pub(super) fn review(game: &History) -> Result<Review, Refusal> {
    Ok(Review::with_oracle(&oracle(game.game())?, game))
}

/// The oracle of `game`: at once for an embedded game, else over the cache's table, solved
/// apart if it is not there.
pub(super) fn oracle(game: Game) -> Result<Oracle, Refusal> {
    if table::embedded_bytes(game).is_some() {
        return Oracle::of(game).map_err(refusal);
    }
    let table = apart(
        |state| {
            let index = state.cached.iter().position(|(cached, _)| *cached == game);
            // The last place is the most recently used.
            index.map(|index| {
                let entry = state.cached.remove(index);
                state.cached.push(entry);
                Arc::clone(&state.cached[state.cached.len() - 1].1)
            })
        },
        || Table::solve(game).map(Arc::new),
        |state, table| {
            if reckoned(game) <= state.capacity {
                state.cached.push((game, Arc::clone(table)));
                state.fit();
            }
        },
    )?;
    Ok(Oracle::of_table(table))
}

/// What `ready` finds at hand, or else what `solve` makes, run when no other solve runs and
/// with no lock held, then handed to `store`; refused when it would wait past
/// [`MAX_WAITING`].
fn apart<T>(
    mut ready: impl FnMut(&mut State) -> Option<T>,
    solve: impl FnOnce() -> Result<T, TableError>,
    store: impl FnOnce(&mut State, &T),
) -> Result<T, Refusal> {
    let mut state = lock();
    if let Some(found) = ready(&mut state) {
        return Ok(found);
    }
    if state.waiting >= MAX_WAITING {
        let message = format!(
            "{MAX_WAITING} requests already wait for games to be solved: ask again in a moment"
        );
        return Err((503, message));
    }
    state.waiting += 1;
    let mut solve = Some(solve);
    let result = loop {
        if let Some(found) = ready(&mut state) {
            break Ok(found);
        }
        if state.solving {
            state = SOLVED.wait(state).unwrap_or_else(PoisonError::into_inner);
            continue;
        }
        state.solving = true;
        drop(state);
        let solve = solve.take().expect("one solve a request");
        let solved = catch_unwind(AssertUnwindSafe(solve));
        state = lock();
        state.solving = false;
        SOLVED.notify_all();
        break match solved {
            Ok(Ok(made)) => {
                store(&mut state, &made);
                Ok(made)
            }
            Ok(Err(error)) => Err(refusal(error)),
            Err(_) => Err((500, "the solve failed: see the server's log".to_string())),
        };
    };
    state.waiting -= 1;
    drop(state);
    give_back();
    result
}

/// Gives the pages the solve and the tables dropped freed back to the system: glibc keeps
/// them otherwise (each thread's arena, and blocks under its mmap threshold, which rises to
/// 32 MiB as large ones are freed), and the server's resident memory would stay at its peak.
fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory of the allocator's to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// A table that cannot be had: over the memory limit for now (503), or a fault (500).
fn refusal(error: TableError) -> Refusal {
    let status = match error {
        TableError::OverMemory { .. } => 503,
        _ => 500,
    };
    (status, error.to_string())
}
