//! `ttt audit --game G` for a game other than tic-tac-toe: the audit without a table, and its
//! report.

use std::io::Write;

use clap::Args;

use ttt_oracle::audit::{AuditBudget, TablelessReport, Verdict, audit_tableless};
use ttt_oracle::bots::Bot;
use ttt_oracle::draw::Style;
use ttt_oracle::text::{escape, fit, grouped};
use ttt_oracle::{AuditError, Game, Player};

use super::audit_jobs::{BotAudit, Entry, audit_all, write_json};
use super::audit_report::Stopped;
use super::named::ExternalArgs;
use super::style;
use super::summary::{self, Found};
use super::text::not_done;
use super::{Failure, Format};

/// The options of `ttt audit` for other games.
#[derive(Debug, Args)]
pub struct LargeArgs {
    /// For a game without a table (past 16 cells, none cached): how many distinct states each
    /// walk may hold before it stops (the counts and exact odds need the whole walk; the
    /// verdict and shortest lines are then searched within as many). On a game with a table other than
    /// 3x3: how many histories a bot that does not say it answers from the board alone may be
    /// asked about (each is asked on its own); the audit stops (exit 2) rather than go past it.
    #[arg(long, value_name = "STATES", default_value_t = AuditBudget::DEFAULT.states as u32, value_parser = clap::value_parser!(u32).range(1..=1_000_000_000))]
    pub budget: u32,
}

/// What `ttt audit` needs to run on another game.
pub struct Request<'a> {
    pub bots: &'a [String],
    pub external: &'a ExternalArgs,
    pub sides: &'static [Player],
    pub format: Format,
    pub jobs: usize,
    pub game: Game,
    pub budget: u32,
}

/// Audits the bots named on `request.game`, each side in a thread of its own when there are
/// two jobs.
pub fn run(request: Request<'_>) -> Result<(), Failure> {
    let Request {
        bots,
        external,
        sides,
        format,
        jobs,
        game,
        budget,
    } = request;
    if bots.is_empty() && external.is_empty() {
        return Err(Failure::usage(
            "name at least one bot to audit: a built-in one (`ttt bots` lists them) or \
             --cmd COMMAND",
        ));
    }
    let at_once = jobs > 1 && sides.len() > 1;
    let walks = if at_once { 2 } else { 1 };
    super::budget_fits(budget, super::bytes_a_state(game), walks)?;
    let budget = AuditBudget::of(budget as usize);
    let mut named = Vec::new();
    for bot in &external.named(bots)? {
        named.push(Entry::new(external, bot, game, at_once)?);
    }
    // Without a table, whatever `ttt solve` caches meanwhile: the command decided once.
    let audit = |bot: &mut dyn Bot, side| audit_tableless(bot, game, side, budget);
    let audited = audit_all(&mut named, sides, 30, false, audit);
    let audits = audited.audits;
    let (stopped, left) = audited
        .stopped
        .map(|(error, holds, left)| ((error, holds), left))
        .unzip();
    let left = left.unwrap_or_default();
    // As with a table, but for what --budget bounds here.
    let stopped = stopped.map(|(error, holds)| match error {
        AuditError::OverMemory(over) => (
            Failure::memory(
                over,
                "raise --max-memory, or lower --budget (the states the walk holds, and the \
                 questions of each search)",
            ),
            "Not audited, over the memory limit (below): ",
        ),
        other => {
            let stopped = Stopped::new(other, holds, Vec::new());
            (stopped.failure, stopped.heading)
        }
    });
    // Written, then the answer: a reader that stops early changes neither.
    let printed = (|| -> Result<(), Failure> {
        let mut out = super::stdout();
        match format {
            Format::Json => {
                let error = stopped.as_ref().map(|(failure, _)| failure.message());
                write_json(&mut out, game, &audits, error)?;
            }
            Format::Text => {
                let style = style::for_stdout();
                for line in text(game, &audits, style) {
                    writeln!(out, "{line}")?;
                }
                writeln!(out)?;
                let last = if let Some((_, heading)) = &stopped {
                    not_done(heading, &left)
                } else {
                    summary::of(&audits, |side| Found {
                        side: side.side,
                        loses: side.shortest_loss.exists(),
                        breaks_rules: side.shortest_illegal.exists(),
                    })
                };
                writeln!(out, "{}", style.strong(&last))?;
            }
        }
        Ok(())
    })();
    Failure::reader_stopped(printed)?;
    if let Some((failure, _)) = stopped {
        return Err(failure);
    }
    let all_never_lose = audits
        .iter()
        .flat_map(|audit| &audit.sides)
        .all(|side| side.verdict() == Some(Verdict::NeverLoses));
    if all_never_lose {
        Ok(())
    } else {
        Err(Failure::quiet(1))
    }
}

/// The whole report but its last line: a legend, the table (a row a side), then each side
/// in detail.
fn text(game: Game, audits: &[BotAudit<TablelessReport>], style: Style) -> Vec<String> {
    let mut lines = vec![
        style.faint(&format!(
            "{game}, {} in a row, audited without a table: every reply of the opponent, every \
             choice of the bot",
            game.k()
        )),
        style.faint("lost: games lost on the board     forfeits: games lost by breaking the rules"),
        String::new(),
    ];
    let names: Vec<String> = audits
        .iter()
        .map(|audit| fit(&escape(&audit.name), 28))
        .collect();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(3)
        .max(3);
    let count = |n: Option<u64>| n.map_or("-".to_string(), grouped);
    let counts = |s: &TablelessReport| {
        let lost = count(s.counts.map(|c| c.losing_games));
        (lost, count(s.counts.map(|c| c.illegal_games)))
    };
    // Each count's column as wide as its widest count, and never narrower than its heading.
    let (lost, forfeits) = audits
        .iter()
        .flat_map(|audit| &audit.sides)
        .map(counts)
        .fold(
            ("lost".len(), "forfeits".len()),
            |(l, f), (lost, forfeits)| (l.max(lost.len()), f.max(forfeits.len())),
        );
    lines.push(format!(
        "{:<width$}  side  {:>lost$}  {:>forfeits$}  verdict",
        "bot", "lost", "forfeits"
    ));
    for (audit, name) in audits.iter().zip(&names) {
        for s in &audit.sides {
            let (lost_games, forfeited) = counts(s);
            lines.push(format!(
                "{name:<width$}  {:<4}  {lost_games:>lost$}  {forfeited:>forfeits$}  {}",
                s.side.to_string(),
                s.verdict_words()
            ));
        }
    }
    for audit in audits {
        for s in &audit.sides {
            lines.push(String::new());
            lines.push(s.text(&audit.name, style));
        }
    }
    lines
}
