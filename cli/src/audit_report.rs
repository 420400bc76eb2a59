//! The report of `ttt audit` on a game with a table: a table of the sides audited, each side
//! in detail, and a last line on every bot; or one JSON document.

use std::io::Write;

use ttt_oracle::audit::{SideReport, Verdict};
use ttt_oracle::bots::BotError;
use ttt_oracle::draw::Style;
use ttt_oracle::text::{escape, fit, grouped};
use ttt_oracle::{AuditError, Game};
use unicode_width::UnicodeWidthStr;

use super::audit_jobs::{BotAudit, write_json};
use super::named;
use super::style;
use super::summary::{self, Found};
use super::text::{not_done, pad};
use super::{Failure, Format};

/// How many columns of a bot's name the table and the summary show; the rest is cut. A row with the
/// longest verdict then takes 94 columns, one that never loses 79.
pub(super) const NAME_IN_TABLE: usize = 28;

/// What stopped the audits: the failure to end with, and the sides left unaudited.
pub(super) struct Stopped {
    pub(super) failure: Failure,
    /// The start of the report's last line, before the sides left.
    pub(super) heading: &'static str,
    pub(super) left: Vec<String>,
}

impl Stopped {
    /// What `error` stopped, in the audit of a bot that `holds` what it says; `left` the
    /// sides it left unaudited.
    pub(super) fn new(error: AuditError, holds: named::Holds, left: Vec<String>) -> Stopped {
        let (failure, heading) = match error {
            AuditError::OverBudget(over) => (
                named::over_budget(&over, holds),
                "Not audited, over the budget of histories (below): ",
            ),
            AuditError::OverMemory(over) => (
                Failure::audit_memory(over, holds),
                "Not audited, over the memory limit (below): ",
            ),
            AuditError::WouldPassMemory(estimate) => (
                Failure::memory_estimate(&estimate),
                "Not audited, over the memory limit (below): ",
            ),
            AuditError::Bot(error) | AuditError::Refused(error) => (
                Failure::protocol(error),
                "Not audited, after a protocol error (below): ",
            ),
            // No table, or what only a match meets: not met after the audit began.
            other => (
                Failure::protocol(BotError {
                    message: other.to_string(),
                }),
                "Not audited, after a protocol error (below): ",
            ),
        };
        Stopped {
            failure,
            heading,
            left,
        }
    }
}

/// Writes the report: the bots audited, and what an error, if any, left unaudited.
pub(super) fn print(
    game: Game,
    audits: &[BotAudit<SideReport>],
    stopped: Option<&Stopped>,
    format: Format,
) -> Result<(), Failure> {
    let mut out = super::stdout();
    match format {
        Format::Json => {
            let error = stopped.map(|stopped| stopped.failure.message());
            write_json(&mut out, game, audits, error)?;
        }
        Format::Text => {
            let style = style::for_stdout();
            if !audits.is_empty() {
                for line in text(audits, style) {
                    writeln!(out, "{line}")?;
                }
                writeln!(out)?;
            }
            match stopped {
                Some(stopped) => writeln!(
                    out,
                    "{}",
                    style.strong(&not_done(stopped.heading, &stopped.left))
                )?,
                None => writeln!(out, "{}", style.strong(&summary(audits)))?,
            }
        }
    }
    Ok(())
}

/// The whole report but its last line: a legend, the table (a row a side), then each side
/// in detail.
fn text(audits: &[BotAudit<SideReport>], style: Style) -> Vec<String> {
    let mut lines = vec![
        style.faint("lost: games lost on the board     forfeits: games lost by breaking the rules"),
        style.faint(
            "blunders: moves that lowered the value     slow: wins kept, but not the fastest",
        ),
        String::new(),
    ];
    lines.extend(table(audits, style));
    for a in audits {
        for s in &a.sides {
            lines.push(String::new());
            lines.push(s.text(&a.name, a.published, style));
        }
    }
    lines
}

/// A row a side: bot, side, games lost and forfeited, blunders, slow wins, and the verdict
/// last, where its longest words widen no other row.
fn table(audits: &[BotAudit<SideReport>], style: Style) -> Vec<String> {
    const COLUMNS: usize = 7;
    let header = [
        "bot", "side", "lost", "forfeits", "blunders", "slow", "verdict",
    ];
    let mut rows: Vec<(Option<Verdict>, [String; COLUMNS])> =
        vec![(None, header.map(String::from))];
    for a in audits {
        let name = fit(&escape(&a.name), NAME_IN_TABLE);
        for s in &a.sides {
            rows.push((
                Some(s.verdict()),
                [
                    name.clone(),
                    s.side.to_string(),
                    grouped(s.losing_games),
                    grouped(s.illegal_games),
                    grouped(s.blunders.total()),
                    grouped(s.slow_wins),
                    s.verdict().to_string(),
                ],
            ));
        }
    }
    let mut widths = [0; COLUMNS];
    for (_, row) in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.width());
        }
    }
    // Words to the left, numbers to the right, two spaces between; no trailing spaces.
    let line = |verdict: Option<Verdict>, cells: &[String; COLUMNS]| {
        let mut line = String::new();
        for (i, (cell, &width)) in cells.iter().zip(&widths).enumerate() {
            match i {
                0 | 1 => line.push_str(&pad(cell, cell, width)),
                2..=5 => line.push_str(&format!("{cell:>width$}")),
                _ => match verdict {
                    Some(verdict) => line.push_str(&verdict.paint(style, cell)),
                    None => line.push_str(cell),
                },
            }
            if i + 1 < COLUMNS {
                line.push_str("  ");
            }
        }
        line
    };
    rows.iter()
        .map(|(verdict, cells)| match verdict {
            None => style.strong(&line(None, cells)),
            Some(_) => line(*verdict, cells),
        })
        .collect()
}

/// The last line, on every bot.
fn summary(audits: &[BotAudit<SideReport>]) -> String {
    let line = summary::of(audits, |side| Found {
        side: side.side,
        loses: Some(side.verdict().can_lose()),
        breaks_rules: Some(side.verdict().breaks_rules()),
    });
    let sides: Vec<(&str, &[SideReport])> = audits
        .iter()
        .map(|audit| (audit.name.as_str(), audit.sides.as_slice()))
        .collect();
    super::audit_recheck::first(&sides, line)
}
