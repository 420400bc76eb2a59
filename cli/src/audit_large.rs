//! `ttt audit --game G` for a game other than tic-tac-toe: the audit without a table, and its
//! report.

use std::io::Write;

use clap::Args;

use ttt_oracle::audit::AuditJson;
use ttt_oracle::audit::{
    AuditBudget, Forfeit, Shortest, TablelessReport, Verdict, audit_tableless,
};
use ttt_oracle::bots::{Bot, Turn};
use ttt_oracle::text::escape;
use ttt_oracle::text::grouped;
use ttt_oracle::{AuditError, Cell, Game, Player, Ratio};

use super::audit_jobs::{BotAudit, Entry, audit_all};
use super::audit_report::Stopped;
use super::draw::cells;
use super::named::ExternalArgs;
use super::style::Style;
use super::summary::{self, Found};
use super::text::{fit, not_done, percent, plies};
use super::{Failure, Format};

/// The widest a line of the report is.
const WIDTH: usize = 96;

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
                let bots = audits
                    .iter()
                    .map(|audit| (audit.name.as_str(), &audit.sides[..]))
                    .collect();
                let json = AuditJson::new(game, bots, error);
                super::json_line(&mut out, &json)?;
            }
            Format::Text => {
                let style = Style::for_stdout();
                for line in text(game, &audits, budget, style) {
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

/// The verdict in words, or what is not settled.
fn verdict_words(s: &TablelessReport) -> String {
    if let Some(verdict) = s.verdict() {
        return verdict.to_string();
    }
    // What one search settled stands beside what the other did not.
    let words = match (s.shortest_loss.exists(), s.shortest_illegal.exists()) {
        (Some(true), _) => "can lose, forfeits not settled",
        (Some(false), _) => "never loses on the board, forfeits not settled",
        (None, Some(true)) => "breaks the rules, losses not settled",
        (None, Some(false)) => "never forfeits, losses not settled",
        (None, None) => "not settled",
    };
    words.to_string()
}

fn text(
    game: Game,
    audits: &[BotAudit<TablelessReport>],
    budget: AuditBudget,
    style: Style,
) -> Vec<String> {
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
                verdict_words(s)
            ));
        }
    }
    for (audit, name) in audits.iter().zip(&names) {
        for s in &audit.sides {
            lines.push(String::new());
            lines.extend(details(name, s, budget, style));
        }
    }
    lines
}

fn details(name: &str, s: &TablelessReport, budget: AuditBudget, style: Style) -> Vec<String> {
    let mut lines = vec![format!(
        "{} {}",
        style.strong(&format!("{name} as {} on {}:", s.side, s.game)),
        verdict_words(s)
    )];
    match s.counts {
        Some(c) => lines.push(format!(
            "  {} decision points, {} games explored ({} states)",
            grouped(c.decision_points),
            grouped(c.games),
            grouped(s.states)
        )),
        None => {
            lines.push(format!(
                "  counts and exact odds: not worked out, more than the budget of {} states",
                grouped(budget.states)
            ));
            lines.push("    (--budget raises it)".to_string());
        }
    }
    if let Some(v) = &s.vs_random {
        lines.push(format!(
            "  vs random:  win {:>6}  draw {:>6}  loss {:>6}  forfeit {:>6}",
            percent(v.win),
            percent(v.draw),
            percent(v.loss),
            percent(v.illegal)
        ));
        let exact = [
            ("win", v.win),
            ("draw", v.draw),
            ("loss", v.loss),
            ("forfeit", v.illegal),
        ];
        for (label, ratio) in exact {
            lines.push(format!("    exactly {label:<7} {}", fraction(ratio)));
        }
    } else if s.counts.is_some() {
        lines.push("  vs random: a probability outgrew 128 bits; no exact odds".to_string());
    }
    lines.push(format!(
        "  unavailable without a table of {}: blunders, slow wins, worst case, vs perfect",
        s.game
    ));
    if s.game.cells() <= Game::MAX_TIER_CELLS {
        lines.push(format!(
            "  (`ttt solve --game {}` makes one, and the audit then judges every move by it)",
            s.game
        ));
    }
    match &s.shortest_illegal {
        Shortest::Line(line) => {
            let after = if line.moves.is_empty() {
                "no moves".to_string()
            } else {
                cells(&line.moves)
            };
            lines.push(format!(
                "  shortest forfeit, {}, then the bot {}:",
                plies(line.moves.len()),
                forfeit_words(&line.what)
            ));
            let marks = match &line.what {
                Forfeit::Turn(Turn::Several(cells)) => cells.clone(),
                Forfeit::Turn(Turn::Mark(cell)) => vec![*cell],
                _ => Vec::new(),
            };
            lines.extend(draw_game(s.game, &line.moves, &marks));
            lines.push(format!("    moves: {after}"));
        }
        Shortest::Never => lines.push("  forfeits: none".to_string()),
        Shortest::Unsettled { plies: covered } => lines.push(format!(
            "  forfeits: none in {} or fewer; not settled within the budget",
            plies(*covered)
        )),
    }
    match &s.shortest_loss {
        Shortest::Line(line) => {
            lines.push(format!("  shortest loss, {}:", plies(line.moves.len())));
            lines.extend(draw_game(s.game, &line.moves, &[]));
            lines.push(format!("    moves: {}", cells(&line.moves)));
        }
        Shortest::Never => lines.push("  losses on the board: none".to_string()),
        Shortest::Unsettled { plies: covered } => lines.push(format!(
            "  losses on the board: none in {} or fewer; not settled within the budget",
            plies(*covered)
        )),
    }
    lines
}

/// What the bot did at a forfeit, in few words (the cells are drawn).
fn forfeit_words(what: &Forfeit) -> String {
    match what {
        Forfeit::Turn(Turn::Several(cells)) => {
            format!("marked {} cells in one turn (lower case)", cells.len())
        }
        other => fit(&escape(&other.to_string()), WIDTH - 40),
    }
}

/// A fraction, cut in the middle if it is wider than a line allows.
fn fraction(ratio: Ratio) -> String {
    fit(&ratio.to_string(), WIDTH - 20)
}

/// The game as rows of small boards, one a move, each headed by its ply, mark and cell; after
/// the last, the forfeited turn's `marks` in lower case, if any.
fn draw_game(game: Game, moves: &[Cell], marks: &[Cell]) -> Vec<String> {
    let (rows, columns) = (game.rows(), game.columns());
    let mut grid = vec!['.'; rows * columns];
    let mut boards: Vec<(String, Vec<String>)> = Vec::new();
    let draw = |grid: &[char]| -> Vec<String> {
        grid.chunks(columns)
            .map(|row| {
                row.iter()
                    .map(char::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    for (ply, &cell) in moves.iter().enumerate() {
        let mark = Player::at_ply(ply);
        grid[cell.index()] = if mark == Player::X { 'X' } else { 'O' };
        boards.push((format!("{}. {mark} {cell}", ply + 1), draw(&grid)));
    }
    if !marks.is_empty() {
        let mark = if moves.len() % 2 == 0 { 'x' } else { 'o' };
        for cell in marks {
            if grid[cell.index()] == '.' {
                grid[cell.index()] = mark;
            }
        }
        boards.push((format!("{}. forfeit", moves.len() + 1), draw(&grid)));
    }
    let board_width = (2 * columns - 1).max(11);
    let gap = 3;
    let per_row = ((WIDTH - 4 + gap) / (board_width + gap)).max(1);
    let mut lines = Vec::new();
    for chunk in boards.chunks(per_row) {
        let mut heading = String::from("   ");
        for (title, _) in chunk {
            heading.push_str(&format!(" {title:<board_width$}{:gap$}", ""));
        }
        lines.push(heading.trim_end().to_string());
        for row in 0..rows {
            let mut line = String::from("   ");
            for (_, board) in chunk {
                line.push_str(&format!(" {:<board_width$}{:gap$}", board[row], ""));
            }
            lines.push(line.trim_end().to_string());
        }
    }
    lines
}
