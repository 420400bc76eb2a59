//! A bot's time: how long to wait for its line, and how many times this program was continued
//! after being stopped, so that time this program spends stopped (Ctrl-Z) never counts against
//! a bot. The count is kept here, below both the waits that read it and the `SIGCONT` handler
//! (in `shutdown`) that moves it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How many times this program was continued after being stopped (`SIGCONT`).
static RESUMES: AtomicUsize = AtomicUsize::new(0);

/// How long to wait for a line.
#[derive(Clone, Copy)]
pub(crate) enum Deadline {
    /// Until this moment.
    At(Instant),
    /// Until the bot has read everything written to it, by `read_by` at the latest, and then
    /// for `then` more: a start-up allowance, ended by the bot's first read, and a timeout
    /// after it. Where the system cannot tell what was read, until `read_by` plus `then`.
    AfterRead {
        /// When the bot must have read what it was sent.
        read_by: Instant,
        /// How long it has from then.
        then: Duration,
    },
}

/// A request's deadline as set: how many times this program had been continued then
/// ([`resumes`]), and the whole allowance, which a stop (Ctrl-Z) after that moment gives
/// again, so that time this program spends stopped never counts against a bot.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Clock {
    /// [`resumes`] when the deadline was set.
    pub resumes: usize,
    /// The time the request was allowed.
    pub allowance: Duration,
}

/// How many times the program has been continued after being stopped (Ctrl-Z, then `fg`): a
/// wait that sees this change does not count the time the program was stopped against a bot.
pub(crate) fn resumes() -> usize {
    RESUMES.load(Ordering::SeqCst)
}

/// Counts one more time the program was continued: all that the `SIGCONT` handler does, and
/// safe there (an atomic increment is async-signal-safe).
pub(crate) fn resumed() {
    RESUMES.fetch_add(1, Ordering::SeqCst);
}
