//! A progress line on standard error while an audit, a match or a pass over a game's tiers
//! (`ttt solve`, and `stats` and `verify` of a game past 16 cells) runs, for people watching a
//! terminal.
//!
//! An external bot's audit can take minutes, and nothing else is printed until it ends. On a
//! terminal (standard error, not `TERM=dumb`) one line shows the bot and side (or the two bots
//! of a match), the decision points answered so far, their rate and the time taken, redrawn at
//! most ten times a second and cleared when the side (or the match) is done. A pass over the
//! tiers shows its phase, tier, positions done of the table's, their rate, the time taken and
//! the time left. Anywhere else nothing at all is drawn or even set up. Standard output, where
//! the report goes, is never written.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use ttt_oracle::bots::{Bot, BotError, Choice};
use ttt_oracle::tiers::{Phase, Step};
use ttt_oracle::{Game, History};

use super::style;

/// How often the line may be redrawn, and how often it is redrawn while a bot is silent (so
/// that the time taken keeps moving).
const HZ: u8 = 10;

/// Whether to draw progress at all: standard error is a terminal that understands the escape
/// sequences that redraw a line.
fn wanted() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("TERM").is_some_and(|t| t != "dumb")
}

/// The progress line of one audited side or one match; `None` inside when nothing is drawn.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Starts the line for `name` (escaped and cut to fit) playing `side` ("X", "O", or
    /// "X and O" when both are audited at once).
    pub fn start(name: &str, side: &str) -> Progress {
        let style = style::for_stderr();
        Progress::labelled(format!("{} as {side}", style.strong(name)))
    }

    /// Starts the line for a match of `x` against `o` (each escaped and cut to fit).
    pub fn start_match(x: &str, o: &str) -> Progress {
        let style = style::for_stderr();
        Progress::labelled(format!(
            "{} (X) vs {} (O)",
            style.strong(x),
            style.strong(o)
        ))
    }

    /// Starts the line of `total` simulated games of `name` (escaped and cut to fit) playing
    /// `side`, moved on by [`Progress::played`].
    pub fn start_games(name: &str, side: &str, total: u64) -> Progress {
        let style = style::for_stderr();
        let prefix = format!("{} as {side}", style.strong(name));
        let template = "{spinner} {prefix}  {human_pos}/{human_len} games  {per_sec:0}  {took}, about {eta} left";
        let progress = Progress::drawn(prefix, template);
        if let Some(bar) = &progress.bar {
            bar.set_length(total);
        }
        progress
    }

    /// Sets the number of games played.
    pub fn played(&self, games: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(games);
        }
    }

    /// Starts the line, which `prefix` opens.
    fn labelled(prefix: String) -> Progress {
        Progress::drawn(
            prefix,
            "{spinner} {prefix}  {human_pos} positions asked  {per_sec:0}  {took}",
        )
    }

    /// Starts the line, which `prefix` opens, drawn by `template`.
    fn drawn(prefix: String, template: &str) -> Progress {
        Progress {
            bar: bar(prefix, look(template)),
        }
    }

    /// `bot`, counting each decision point on this line.
    pub fn count<'a>(&'a self, bot: &'a mut dyn Bot) -> Counted<'a> {
        Counted {
            bot,
            bar: self.bar.as_ref(),
            prepared: false,
        }
    }

    /// Clears the line, leaving the terminal as it was.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A line drawn in `look`, which `prefix` opens, if one is [wanted]: drawn at once (before
/// the first news, which may be some time coming), then at least [`HZ`] times a second, so
/// that the time taken keeps moving.
fn bar(prefix: String, look: ProgressStyle) -> Option<ProgressBar> {
    if !wanted() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(HZ))
        .with_style(look)
        .with_prefix(prefix);
    bar.tick();
    bar.enable_steady_tick(Duration::from_millis(1000 / u64::from(HZ)));
    Some(bar)
}

/// The look of a line: `template`, whose `{took}` is the time taken.
fn look(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .expect("the template is valid")
        .with_key(
            "took",
            |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                let _ = write!(out, "{}", took(state.elapsed()));
            },
        )
}

/// The progress line of a pass over a game's tiers: `ttt solve`, and `stats` and `verify` of
/// a game past 16 cells. Cleared when dropped, however the command ends.
pub struct TiersProgress {
    bar: Option<ProgressBar>,
    /// The game, as the line names it (in bold where colours are on).
    game: String,
    /// The phase shown, `None` until the first step.
    phase: Mutex<Option<Phase>>,
    /// The positions done when the phase began (a solve that goes on from an earlier run
    /// begins with some): the rate and the time left count only those done since.
    base: Arc<AtomicU64>,
}

impl TiersProgress {
    /// Starts the line for `game`, saying `what` is done until the first [step](Self::step)
    /// (reading the table, say, which a game of 25 cells takes seconds to check).
    pub fn start(game: Game, what: &str) -> TiersProgress {
        let game = style::for_stderr().strong(&game.to_string());
        let prefix = what.replace("{game}", &game);
        TiersProgress {
            bar: bar(prefix, look("{spinner} {prefix}")),
            game,
            phase: Mutex::new(None),
            base: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Shows where the pass stands. A new phase starts the time taken and the rate afresh.
    pub fn step(&self, step: Step) {
        let Some(bar) = &self.bar else {
            return;
        };
        bar.set_message(if step.phase == Phase::Solve && step.done == step.total {
            "writing the table".to_string()
        } else {
            format!("tier {}", step.tier)
        });
        let mut phase = self.phase.lock().unwrap_or_else(|e| e.into_inner());
        if *phase != Some(step.phase) {
            *phase = Some(step.phase);
            self.base.store(step.done, Ordering::Relaxed);
            bar.set_length(step.total);
            bar.set_position(step.done);
            bar.set_prefix(match step.phase {
                Phase::Solve => format!("solving {}", self.game),
                Phase::Count => format!("counting {}", self.game),
                Phase::Checksums => format!("checksums of {}", self.game),
                Phase::Compare => format!("re-solving {}", self.game),
            });
            bar.set_style(self.look());
            bar.reset_elapsed();
        }
        bar.set_position(step.done);
    }

    /// Prints `line` on standard error, above the progress line if there is one.
    pub fn note(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    /// The look once the positions are counted: their rate and the time left are over the
    /// whole phase (from `base`), not the last few seconds, since the cost of a position
    /// changes from tier to tier many times over.
    fn look(&self) -> ProgressStyle {
        // Under 80 columns for a game of 25 cells, "⠋ counting 5x5k4, tier 16: 1.2G/20.4G
        // positions, 12.3M/s, 4m 12s, 13m 40s left", in every phase.
        let template = "{spinner} {prefix}, {msg}: {done}/{total} positions, {rate}, {took}{left}";
        let (rate, left) = (self.base.clone(), self.base.clone());
        let since = move |base: &AtomicU64, state: &ProgressState| {
            let done = state.pos().saturating_sub(base.load(Ordering::Relaxed));
            (done, state.elapsed().as_secs_f64())
        };
        look(template)
            .with_key(
                "done",
                |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = write!(out, "{}", count(state.pos()));
                },
            )
            .with_key(
                "total",
                |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = write!(out, "{}", count(state.len().unwrap_or(0)));
                },
            )
            .with_key(
                "rate",
                move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let (done, seconds) = since(&rate, state);
                    let per_second = (done as f64 / seconds.max(1e-3)) as u64;
                    let _ = write!(out, "{}/s", count(per_second));
                },
            )
            .with_key(
                "left",
                move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let (done, seconds) = since(&left, state);
                    let to_do = state.len().unwrap_or(0).saturating_sub(state.pos());
                    if done > 0 && to_do > 0 {
                        let left = Duration::from_secs_f64(seconds * to_do as f64 / done as f64);
                        let _ = write!(out, ", {} left", took(left));
                    }
                },
            )
    }
}

impl Drop for TiersProgress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A count of positions, short: 9,999, then 12.3K, 178.2M, 20.4G.
fn count(n: u64) -> String {
    match n {
        0..10_000 => ttt_oracle::text::grouped(n),
        10_000..1_000_000 => format!("{:.1}K", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1}M", n as f64 / 1e6),
        _ => format!("{:.1}G", n as f64 / 1e9),
    }
}

/// Minutes and seconds, as "12s" or "3m 31s".
fn took(elapsed: Duration) -> String {
    let seconds = elapsed.as_secs();
    if seconds < 60 {
        format!("{seconds}s")
    } else {
        format!("{}m {:02}s", seconds / 60, seconds % 60)
    }
}

/// A bot that moves the progress line on at each decision point, and otherwise is the bot.
pub struct Counted<'a> {
    bot: &'a mut dyn Bot,
    bar: Option<&'a ProgressBar>,
    /// Whether the bot was told its questions ahead, and counted then.
    prepared: bool,
}

impl Counted<'_> {
    /// One more question asked.
    fn count(&self) {
        // A bot told its questions ahead was counted as it was told them; one asked as the
        // walk goes (the audit without a table) is counted now.
        if let Some(bar) = self.bar.filter(|_| !self.prepared) {
            // Cheap: an atomic add; indicatif redraws at most HZ times a second.
            bar.inc(1);
        }
    }
}

impl Bot for Counted<'_> {
    fn name(&self) -> &str {
        self.bot.name()
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        self.count();
        self.bot.choose(game)
    }

    fn choose_into(&mut self, game: &History, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        self.count();
        self.bot.choose_into(game, choices)
    }

    fn finish(&mut self) -> Result<(), BotError> {
        self.bot.finish()
    }

    fn plays(&self, game: Game) -> Result<(), BotError> {
        self.bot.plays(game)
    }

    /// As the bot counted: a memoryless bot is audited by positions, each asked once.
    fn memoryless(&self) -> bool {
        self.bot.memoryless()
    }

    fn symmetric(&self) -> bool {
        self.bot.symmetric()
    }

    fn depends_on(&self, game: &History) -> ttt_oracle::bots::DependsOn {
        self.bot.depends_on(game)
    }

    fn asks_ahead(&self) -> bool {
        self.bot.asks_ahead()
    }

    fn blocks_threats(&self) -> bool {
        self.bot.blocks_threats()
    }

    fn never_forfeits(&self) -> bool {
        self.bot.never_forfeits()
    }

    fn one_at_a_time(&self) -> Option<Box<dyn Bot>> {
        self.bot.one_at_a_time()
    }

    fn prepare(&mut self, games: &[History]) -> Result<(), BotError> {
        let prepared = self.bot.prepare(games);
        self.prepared = true;
        if let Some(bar) = self.bar {
            bar.inc(games.len() as u64);
        }
        prepared
    }
}
