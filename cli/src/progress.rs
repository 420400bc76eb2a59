//! A progress line on standard error while an audit or a match runs, for people watching a
//! terminal.
//!
//! An external bot's audit can take minutes, and nothing else is printed until it ends. On a
//! terminal (standard error, not `TERM=dumb`) one line shows the bot and side (or the two bots
//! of a match), the decision points answered so far, their rate and the time taken, redrawn at
//! most ten times a second and cleared when the side (or the match) is done. Anywhere else nothing at all is drawn or even set up.
//! Standard output, where the report goes, is never written.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use ttt_oracle::bots::{Bot, BotError, Choice};
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
        if !wanted() {
            return Progress { bar: None };
        }
        let look = ProgressStyle::with_template(template)
            .expect("the template is valid")
            .with_key(
                "took",
                |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = write!(out, "{}", took(state.elapsed()));
                },
            );
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(HZ))
            .with_style(look)
            .with_prefix(prefix);
        // Drawn at once, before the bot's first answer (which may take its start-up time).
        bar.tick();
        bar.enable_steady_tick(Duration::from_millis(1000 / u64::from(HZ)));
        Progress { bar: Some(bar) }
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
