//! How the sides of a bot are audited: one after the other, or X and O at once on two threads
//! (`ttt audit --jobs`), each with a progress line; for the audits with a table and without.

use std::sync::atomic::{AtomicBool, Ordering};

use ttt_oracle::Player;
use ttt_oracle::bots::Bot;

use super::progress::Progress;

/// Audits `bot` on each of `sides` in turn with `audit`, up to the first that fails, with a
/// progress line for each: for the audits with a table and without.
pub(super) fn one_by_one<R, E>(
    bot: &mut (dyn Bot + Send),
    sides: &[Player],
    label: &str,
    audit: impl Fn(&mut dyn Bot, Player) -> Result<R, E>,
) -> Vec<Result<R, E>> {
    let mut results = Vec::new();
    for &side in sides {
        let progress = Progress::start(label, &side.to_string());
        let result = audit(&mut progress.count(bot), side);
        progress.finish();
        let failed = result.is_err();
        results.push(result);
        if failed {
            break;
        }
    }
    results
}

/// Audits X with `bot` and O with `twin` at the same time with `audit`, on two threads; the
/// report is the one [`one_by_one`] gives: O's side counts only when X's did not fail, and
/// when it fails `stop_twin` (an external twin's, from `ExternalArgs::twins`) is set, so that O
/// stops asking rather than work out what will not be printed.
pub(super) fn both_at_once<R: Send, E: Send>(
    bot: &mut (dyn Bot + Send),
    twin: &mut (dyn Bot + Send),
    stop_twin: Option<&AtomicBool>,
    label: &str,
    audit: impl Fn(&mut dyn Bot, Player) -> Result<R, E> + Sync,
) -> Vec<Result<R, E>> {
    let progress = Progress::start(label, "X and O");
    let (x, o) = std::thread::scope(|scope| {
        let o = scope.spawn(|| audit(&mut progress.count(twin), Player::O));
        let x = audit(&mut progress.count(bot), Player::X);
        if let (Err(_), Some(stop)) = (&x, stop_twin) {
            stop.store(true, Ordering::SeqCst);
        }
        (x, o.join())
    });
    progress.finish();
    let o = match o {
        Ok(o) => o,
        Err(panic) => std::panic::resume_unwind(panic),
    };
    if x.is_err() { vec![x] } else { vec![x, o] }
}
