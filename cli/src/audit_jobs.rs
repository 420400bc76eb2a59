//! How the bots of `ttt audit` are audited, in turn: the sides of each one after the other, or
//! X and O at once on two threads (`--jobs`), each with a progress line, up to the first error;
//! for the audits with a table and without.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ttt_oracle::bots::{self, Bot, Published};
use ttt_oracle::text::escape;
use ttt_oracle::{AuditError, Game, Player};

use super::Failure;
use super::named::{ExternalArgs, Holds, Named};
use super::progress::Progress;
use ttt_oracle::text::fit;

/// A bot to audit.
pub(super) struct Entry {
    /// Its name in the report.
    pub(super) name: String,
    pub(super) bot: Box<dyn Bot + Send>,
    /// A second bot like it, to audit O while `bot` audits X when both sides go at once; an
    /// external one stops once `bot`'s side fails ([`both_at_once`]).
    twin: Option<Box<dyn Bot + Send>>,
    /// What stops an external twin.
    stop_twin: Option<Arc<AtomicBool>>,
    /// Where a built-in bot was published.
    pub(super) published: &'static [Published],
}

impl Entry {
    /// `sides` of this bot as the report's last line names those left unaudited: "NAME as X".
    pub(super) fn sides_named(&self, sides: &[Player]) -> impl Iterator<Item = String> {
        let name = fit(&escape(&self.name), 30);
        sides.iter().map(move |side| format!("{name} as {side}"))
    }

    /// `bot`, made as the options say, with its twin when both sides go `at_once`, once it says
    /// it plays `game` (a refusal is bad usage).
    pub(super) fn new(
        external: &ExternalArgs,
        bot: &Named,
        game: Game,
        at_once: bool,
    ) -> Result<Entry, Failure> {
        let (instance, twin, stop_twin): (Box<dyn Bot + Send>, Option<Box<dyn Bot + Send>>, _) =
            match &bot.command {
                Some(command) if at_once => {
                    let (x, o, stop) = external.twins(&bot.name, command);
                    (Box::new(x), Some(Box::new(o)), Some(stop))
                }
                // A built-in bot answers from this program: a second instance audits O on
                // another thread, the walks of 4x4 taking seconds a side.
                _ => (
                    external.make(bot)?,
                    at_once.then(|| external.make(bot)).transpose()?,
                    None,
                ),
            };
        instance
            .plays(game)
            .map_err(|error| Failure::usage(error.message))?;
        Ok(Entry {
            // As the bot names itself: `casual:0.05` for `casual:1/20`.
            name: instance.name().to_string(),
            bot: instance,
            twin,
            stop_twin,
            published: bots::CATALOG
                .iter()
                .find(|info| info.name == bot.name)
                .map_or(&[][..], |info| info.published),
        })
    }

    /// Each bot that audited a side, with the sides it audited (an external bot's answers are
    /// remembered by the one that was asked): the twin audited O when both sides went at once.
    pub(super) fn auditors(
        &mut self,
        sides: &'static [Player],
    ) -> Vec<(&mut dyn Bot, &'static [Player])> {
        match &mut self.twin {
            Some(twin) => vec![
                (self.bot.as_mut(), &[Player::X]),
                (twin.as_mut(), &[Player::O]),
            ],
            None => vec![(self.bot.as_mut(), sides)],
        }
    }
}

/// One bot's audit: what was found on each side audited, `R` a report with a table or without.
pub(super) struct BotAudit<R> {
    /// The bot's name in the report.
    pub(super) name: String,
    pub(super) sides: Vec<R>,
    /// Where a built-in bot was published.
    pub(super) published: &'static [Published],
}

/// Writes `audits` of `game` to `out` as `ttt audit --format json` does: one document, with
/// the message of the error that stopped them, if one did.
pub(super) fn write_json<R: serde::Serialize>(
    out: &mut impl std::io::Write,
    game: Game,
    audits: &[BotAudit<R>],
    error: Option<&str>,
) -> std::io::Result<()> {
    let bots = audits
        .iter()
        .map(|audit| (audit.name.as_str(), &audit.sides[..]))
        .collect();
    super::json_line(out, &ttt_oracle::audit::AuditJson::new(game, bots, error))
}

/// What the audits of the bots found: each bot's, in order, up to the first error; then that
/// error, and the sides it left unaudited, each "NAME as X".
pub(super) struct Audited<R> {
    pub(super) audits: Vec<BotAudit<R>>,
    /// The error, what the audit of the bot that met it holds, and the sides left.
    pub(super) stopped: Option<(AuditError, Holds, Vec<String>)>,
}

/// Audits `sides` of each entry in turn with `audit` (X and O at once when the entry has a
/// twin), up to the first error, with a progress line headed by the name cut to `label`
/// columns. With `retry`, the sides of a built-in bot stopped at the memory limit side by side
/// are audited again one after the other, each with all of it (X kept when it finished).
pub(super) fn audit_all<R: Send>(
    entries: &mut [Entry],
    sides: &'static [Player],
    label: usize,
    retry: bool,
    audit: impl Fn(&mut dyn Bot, Player) -> Result<R, AuditError> + Sync,
) -> Audited<R> {
    let mut audited = Audited {
        audits: Vec::new(),
        stopped: None,
    };
    for entry in entries.iter_mut() {
        let mut done = Vec::new();
        if audited.stopped.is_none() {
            let label = fit(&escape(&entry.name), label);
            let mut results = match &mut entry.twin {
                Some(twin) => {
                    let stop = entry.stop_twin.as_deref();
                    both_at_once(entry.bot.as_mut(), twin.as_mut(), stop, &label, &audit)
                }
                None => one_by_one(entry.bot.as_mut(), sides, &label, &audit),
            };
            let over_memory =
                |result: &Result<R, AuditError>| matches!(result, Err(AuditError::OverMemory(_)));
            if retry
                && entry.twin.is_some()
                && entry.stop_twin.is_none()
                && results.iter().any(over_memory)
            {
                results.retain(Result::is_ok);
                let left = &sides[results.len()..];
                results.extend(one_by_one(entry.bot.as_mut(), left, &label, &audit));
            }
            for result in results {
                match result {
                    Ok(report) => done.push(report),
                    Err(error) => {
                        let holds = Holds::of(entry.bot.as_ref());
                        audited.stopped = Some((error, holds, Vec::new()));
                        break;
                    }
                }
            }
        }
        if let Some((_, _, left)) = &mut audited.stopped {
            left.extend(entry.sides_named(&sides[done.len()..]));
        }
        if !done.is_empty() {
            audited.audits.push(BotAudit {
                name: entry.name.clone(),
                sides: done,
                published: entry.published,
            });
        }
    }
    audited
}

/// Audits `bot` on each of `sides` in turn with `audit`, up to the first that fails, with a
/// progress line for each.
fn one_by_one<R, E>(
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
fn both_at_once<R: Send, E: Send>(
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
