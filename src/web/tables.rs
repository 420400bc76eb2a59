//! The tables `ttt serve` solves on request, apart from the answers that need none.
//!
//! Tic-tac-toe and the other embedded games are answered at once, whatever is being solved:
//! nothing here is asked for them, and the server keeps threads for them that requests for
//! other games never take. Those are answered at most [`MAX_APART`] at a time (the next is
//! refused with 503), from tables solved on request: one solve at a time, with no lock held
//! meanwhile, in the order the requests came; a request for a game being solved waits for
//! that solve and answers from it. The tables solved for analysis, review and play alike stay
//! within [the cache](set_cache), reckoned at [`reckoned`] bytes each, the least recently used
//! dropped first when the next needs the room, or when a solve would pass the memory limit
//! beside them (a request answering from a dropped table holds it until its answer is made).

use std::collections::VecDeque;
use std::panic::catch_unwind;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::Refusal;
use crate::game::Game;
use crate::oracle::Oracle;
use crate::position::Position;
use crate::table::{self, Table, TableError};

/// The most requests for games with no table built in that are answered at once, those
/// waiting for a solve included: the server keeps as many threads for them beside those
/// that answer the embedded games.
pub const MAX_APART: usize = 8;

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
    /// The last table solved, when the cache could not keep it, while requests wait: those
    /// that waited for its game share it, and it goes once none waits.
    last: Option<(Game, Arc<Table>)>,
    /// Requests being answered here.
    busy: usize,
    /// Those of them answering from a table they hold.
    holding: usize,
    /// The tickets of the requests waiting for a table, with their games, in the order they
    /// came: the first solves (it stays first until its solve ends), the others wait.
    queue: VecDeque<(u64, Game)>,
    next_ticket: u64,
}

static STATE: Mutex<State> = Mutex::new(State {
    capacity: DEFAULT_CACHE,
    cached: Vec::new(),
    last: None,
    busy: 0,
    holding: 0,
    queue: VecDeque::new(),
    next_ticket: 0,
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

    /// The table of `game` at hand, now the most recently used.
    fn find(&mut self, game: Game) -> Option<Arc<Table>> {
        if let Some(index) = self.cached.iter().position(|(cached, _)| *cached == game) {
            self.cached[index..].rotate_left(1);
            return self.cached.last().map(|(_, table)| Arc::clone(table));
        }
        match &self.last {
            Some((last, table)) if *last == game => Some(Arc::clone(table)),
            _ => None,
        }
    }

    /// Keeps the table just solved in the cache, if it can hold it, or else for the requests
    /// waiting.
    fn store(&mut self, game: Game, table: &Arc<Table>) {
        if reckoned(game) <= self.capacity {
            self.cached.push((game, Arc::clone(table)));
            self.fit();
        } else if self.queue.iter().any(|&(_, waiting)| waiting == game) {
            self.last = Some((game, Arc::clone(table)));
        }
    }

    /// Lets the last table go once no request waits for its game.
    fn settle(&mut self) {
        if let Some((game, _)) = self.last
            && !self.queue.iter().any(|&(_, waiting)| waiting == game)
        {
            self.last = None;
        }
    }
}

/// What `answer` makes of the oracle of `game`: at once for an embedded game; else, among at
/// most [`MAX_APART`] requests, over the cache's table, solved if it is not there.
pub(super) fn answering<T>(game: Game, answer: impl FnOnce(&Oracle) -> T) -> Result<T, Refusal> {
    if table::embedded_bytes(game).is_some() {
        return Ok(answer(&Oracle::of(game).map_err(refusal)?));
    }
    let mut busy = Busy::take()?;
    let oracle = Oracle::of_table(table_of(game, &mut busy)?);
    Ok(answer(&oracle))
}

/// A request counted among the [`MAX_APART`] answered here, until dropped; `true` once it
/// holds its table.
struct Busy(bool);

impl Busy {
    fn take() -> Result<Busy, Refusal> {
        let mut state = lock();
        if state.busy >= MAX_APART {
            let message = format!(
                "{MAX_APART} requests for games with no table built in are being answered: ask \
                 again in a moment"
            );
            return Err((503, message));
        }
        state.busy += 1;
        Ok(Busy(false))
    }

    /// Counts the request among those holding a table, in the same hold of the lock as the
    /// table is handed to it: a solve that finds no table to drop must see it holding one, or
    /// it would refuse rather than wait for it to be let go.
    fn hold(&mut self, state: &mut State) {
        state.holding += 1;
        self.0 = true;
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let mut state = lock();
        state.busy -= 1;
        if self.0 {
            state.holding -= 1;
            // A solve waiting for the room this request's table took may try again.
            SOLVED.notify_all();
        }
        drop(state);
        give_back();
    }
}

/// The table of `game`, which `busy` then holds: from the cache, or solved when this
/// request's turn comes.
fn table_of(game: Game, busy: &mut Busy) -> Result<Arc<Table>, Refusal> {
    let mut state = lock();
    let ticket = (state.next_ticket, game);
    state.next_ticket += 1;
    state.queue.push_back(ticket);
    loop {
        if let Some(table) = state.find(game) {
            busy.hold(&mut state);
            state.queue.retain(|&waiting| waiting != ticket);
            state.settle();
            // The next in the queue may solve now.
            SOLVED.notify_all();
            return Ok(table);
        }
        if state.queue.front() == Some(&ticket) {
            break;
        }
        state = SOLVED.wait(state).unwrap_or_else(PoisonError::into_inner);
    }
    // First in the queue, and so the only one solving until the ticket leaves it.
    drop(state);
    let solved = solve(game);
    let mut state = lock();
    state.queue.pop_front();
    SOLVED.notify_all();
    let stored = solved.inspect(|table| {
        state.store(game, table);
        busy.hold(&mut state);
    });
    state.settle();
    stored
}

/// Solves `game` with its best moves laid out, as the first analysis would have them (up to
/// a second for 16 cells): dropping the table kept for waiting requests, then the cache's,
/// the least recently used first, while the solve would pass the memory limit beside them,
/// and then waiting for the requests that answer from a table to be done with it.
fn solve(game: Game) -> Result<Arc<Table>, Refusal> {
    loop {
        let solved = catch_unwind(|| {
            Table::solve(game).map(|table| {
                table.best_move(&Position::empty(game));
                Arc::new(table)
            })
        });
        match solved {
            Ok(Ok(table)) => return Ok(table),
            Ok(Err(error)) => {
                let mut state = lock();
                if !matches!(error, TableError::OverMemory { .. }) {
                    return Err(refusal(error));
                }
                if state.last.take().is_none() {
                    if !state.cached.is_empty() {
                        state.cached.remove(0);
                    } else if state.holding > 0 {
                        state = SOLVED.wait(state).unwrap_or_else(PoisonError::into_inner);
                    } else {
                        return Err(refusal(error));
                    }
                }
                drop(state);
                give_back();
            }
            Err(_) => return Err((500, "the solve failed: see the server's log".to_string())),
        }
    }
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
