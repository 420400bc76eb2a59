//! The bots named on the command line of `ttt audit`, `ttt match` and `ttt simulate`: built-in
//! names, styles, `cmd:COMMAND` and `--cmd COMMAND`, with the options for external bots that
//! they take; and the opponent of `ttt play`, with the same options for an external one.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::{Args, ValueHint};
use ttt_oracle::audit::OverBudget;
use ttt_oracle::bots::{self, Bot};

use super::Failure;

/// Options for external bots, the same wherever bots are named.
#[derive(Debug, Args)]
pub struct ExternalArgs {
    /// An external bot, run as `sh -c COMMAND` and spoken to over the line protocol (see
    /// `ttt man` or docs/protocol.md). May be given several times.
    #[arg(long, value_name = "COMMAND", value_hint = ValueHint::CommandString)]
    cmd: Vec<String>,
    /// A name for each --cmd bot, in order (default: the command itself).
    #[arg(long, value_name = "NAME", value_hint = ValueHint::Other)]
    name: Vec<String>,
    /// How long an external bot may take to read a request and reply, in milliseconds.
    #[arg(long, value_name = "N", value_hint = ValueHint::Other, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    timeout_ms: u64,
    /// How much longer than --timeout-ms an external bot may take to start and give its first
    /// reply, in milliseconds (it is started afresh for each side audited and each match).
    #[arg(long, value_name = "N", value_hint = ValueHint::Other, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    startup_ms: u64,
    /// Declares that the external bots (--cmd and cmd:COMMAND) answer from the board alone,
    /// whatever the moves that led there: each distinct board is asked once, with the moves
    /// of the first game to reach it. Only the games an audit asks again check the claim
    /// (see docs/protocol.md).
    #[arg(long)]
    stateless: bool,
    /// How many requests an external bot may be sent ahead of the reply awaited; 1 sends each
    /// request only after the last reply.
    #[arg(long, value_name = "N", value_hint = ValueHint::Other, default_value_t = bots::external::DEFAULT_IN_FLIGHT as u16, value_parser = clap::value_parser!(u16).range(1..=4096))]
    in_flight: u16,
}

/// The opponent of `ttt play`: a bot or a style, or an external program with the options
/// `ttt audit` takes for one, with the same meaning.
#[derive(Debug, Args)]
pub struct Opponent {
    /// The opponent: perfect, tricky, casual:P, epsilon:P, random, any built-in bot (`ttt
    /// bots` lists them), or cmd:COMMAND for an external program speaking the line protocol.
    #[arg(long, default_value = "perfect", value_name = "STYLE", value_parser = super::values::BotValues, hide_possible_values = true)]
    opponent: String,
    /// A name for a cmd:COMMAND opponent, shown in the game (default: the command itself).
    #[arg(long, value_name = "NAME", value_hint = ValueHint::Other)]
    name: Option<String>,
    /// How long a cmd:COMMAND opponent may take to read a request and reply, in milliseconds.
    #[arg(long, value_name = "N", value_hint = ValueHint::Other, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    timeout_ms: u64,
}

impl Opponent {
    /// The opponent, ready to play.
    ///
    /// # Errors
    ///
    /// A usage error for an unknown bot or a bad style, an empty command, an empty --name, or
    /// a --name for an opponent that is not external.
    pub fn make(&self) -> Result<Box<dyn Bot + Send>, Failure> {
        let command = self.opponent.strip_prefix("cmd:");
        match (&self.name, command) {
            (Some(name), Some(_)) if name.trim().is_empty() => Err(Failure::usage(
                "--name needs a name that shows: it names the opponent in the game",
            )),
            (Some(_), None) => Err(Failure::usage(format!(
                "--name names an external opponent, and {} is built in: give --opponent \
                 cmd:COMMAND, or leave out --name",
                ttt_oracle::text::quote(&self.opponent)
            ))),
            (name, Some(command)) if !command.trim().is_empty() => {
                let name = name.as_deref().unwrap_or(command);
                let timeout = Duration::from_millis(self.timeout_ms);
                Ok(Box::new(bots::External::new(name, command, timeout)))
            }
            _ => bots::from_spec(&self.opponent).map_err(|error| Failure::usage(error.message)),
        }
    }
}

/// A bot named on the command line, which can be made as many times as needed.
pub struct Named {
    /// Its name in reports: what was typed, or the --name of a --cmd bot.
    pub name: String,
    /// For an external bot, its command.
    pub command: Option<String>,
}

impl ExternalArgs {
    /// Whether no --cmd was given.
    pub fn is_empty(&self) -> bool {
        self.cmd.is_empty()
    }

    /// Every bot named: each of `names` in order (a built-in name, a style, or `cmd:COMMAND`,
    /// an external bot like --cmd with the same options), then each --cmd with its --name.
    ///
    /// # Errors
    ///
    /// A usage error for an unknown bot or a bad style, an empty command or name, or more
    /// names than commands.
    pub fn named(&self, names: &[String]) -> Result<Vec<Named>, Failure> {
        let mut named = Vec::new();
        for name in names {
            let command = match name.strip_prefix("cmd:") {
                Some(command) if !command.trim().is_empty() => Some(command.to_string()),
                // Checked here, so that making it later cannot fail.
                _ => {
                    bots::from_spec(name).map_err(|error| Failure::usage(error.message))?;
                    None
                }
            };
            named.push(Named {
                name: name.clone(),
                command,
            });
        }
        if self.name.iter().any(|name| name.trim().is_empty()) {
            return Err(Failure::usage(
                "--name needs a name that shows: it names the bot in the report",
            ));
        }
        if self.name.len() > self.cmd.len() {
            return Err(Failure::usage(format!(
                "{} --name for {} --cmd: give one name per external bot, in order",
                self.name.len(),
                self.cmd.len()
            )));
        }
        for (i, command) in self.cmd.iter().enumerate() {
            if command.trim().is_empty() {
                return Err(Failure::usage(
                    "--cmd needs a command, e.g. --cmd \"python3 bot.py\"",
                ));
            }
            named.push(Named {
                name: self.name.get(i).unwrap_or(command).clone(),
                command: Some(command.clone()),
            });
        }
        if self.stateless && named.iter().all(|bot| bot.command.is_none()) {
            return Err(Failure::usage(
                "--stateless is said of external bots, and none was named: add --cmd COMMAND \
                 or cmd:COMMAND (built-in bots that answer from the board alone are audited \
                 by positions already)",
            ));
        }
        Ok(named)
    }

    /// The external bot `name`, run as `command`, as these options say.
    pub fn external(&self, name: &str, command: &str) -> bots::External {
        let bot = bots::External::new(name, command, Duration::from_millis(self.timeout_ms))
            .with_startup(Duration::from_millis(self.startup_ms))
            .with_in_flight(usize::from(self.in_flight));
        if self.stateless { bot.stateless() } else { bot }
    }

    /// Two processes of the external bot `name`, to audit X and O at once: the second stops
    /// asking once the first breaks the protocol, the moment it does, or once the flag
    /// returned is set ([`audit_all`](super::audit_jobs::audit_all) sets it when X's side fails
    /// otherwise), as its report would not be printed.
    pub fn twins(
        &self,
        name: &str,
        command: &str,
    ) -> (bots::External, bots::External, Arc<AtomicBool>) {
        let stop = Arc::new(AtomicBool::new(false));
        (
            self.external(name, command).with_broke(Arc::clone(&stop)),
            self.external(name, command).with_cancel(Arc::clone(&stop)),
            stop,
        )
    }

    /// A fresh instance of `bot`: for an external bot, one that starts its own process.
    pub fn make(&self, bot: &Named) -> Result<Box<dyn Bot + Send>, Failure> {
        match &bot.command {
            Some(command) => Ok(Box::new(self.external(&bot.name, command))),
            None => bots::from_spec(&bot.name).map_err(|error| Failure::usage(error.message)),
        }
    }
}

/// What an audit (or match) of a bot holds, so that the advice when it is over its budget or
/// the memory limit names only what applies to that bot. Ordered from the least held: a match
/// holds what the greater of its two bots does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Holds {
    /// Each board once: a memoryless bot, built in or external and declared `--stateless`.
    /// `--budget` does not bound that walk.
    Boards,
    /// Each history, at most `--budget` of them: a built-in bot that remembers.
    Histories,
    /// Each history of an external bot not declared `--stateless`.
    ExternalHistories,
}

impl Holds {
    /// What the audit of `bot` holds.
    pub fn of(bot: &dyn Bot) -> Holds {
        match (bot.memoryless(), bot.asks_ahead()) {
            (true, _) => Holds::Boards,
            (false, false) => Holds::Histories,
            (false, true) => Holds::ExternalHistories,
        }
    }

    /// What to change to stay within the memory limit.
    pub fn memory_advice(self) -> &'static str {
        match self {
            Holds::Boards => {
                "raise --max-memory: the audit holds each board the bot can meet once, and no \
                 option of the audit makes that fewer"
            }
            Holds::Histories => {
                "raise --max-memory, or lower --budget (the most histories the audit holds)"
            }
            Holds::ExternalHistories => {
                "raise --max-memory; an external bot not declared --stateless is asked about \
                 each history, and a lower --budget holds fewer"
            }
        }
    }
}

/// A walk by histories over its budget: bad usage (exit 2), with what to do about it: for an
/// external bot `--stateless` too, which a built-in bot cannot be told.
pub fn over_budget(over: &OverBudget, holds: Holds) -> Failure {
    let advice = match holds {
        Holds::ExternalHistories => {
            "say --stateless of a bot that answers from the board alone (each board is then \
             asked once), or raise --budget"
        }
        Holds::Boards | Holds::Histories => "raise --budget",
    };
    Failure::usage(format!("{over}; {advice}"))
}
