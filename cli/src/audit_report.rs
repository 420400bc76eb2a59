//! The report of `ttt audit` on a game with a table: a table of the sides audited, each side
//! in detail, and a last line on every bot; or one JSON document.

use std::io::Write;

use ttt_oracle::audit::AuditJson;
use ttt_oracle::audit::{SideReport, Verdict, WorstCase};
use ttt_oracle::bots::{BotError, Published};
use ttt_oracle::text::escape;
use ttt_oracle::text::grouped;
use ttt_oracle::{AuditError, Cell, Game, History, Player, Ratio, Status, Value};
use unicode_width::UnicodeWidthStr;

use super::audit_jobs::BotAudit;
use super::draw::{Square, cells, grid_of, replay, side_by_side};
use super::named;
use super::style::Style;
use super::summary::{self, Found};
use super::text::{fit, not_done, pad, percent};
use super::{Failure, Format};

/// The widest a line of the report should be, where the text allows. Wider, but never over
/// 100: a table row with the longest verdict (94 columns with a name cut to
/// [`NAME_IN_TABLE`] and six-digit counts), and a line holding an exact odd of two 39-digit
/// numbers (100).
const WIDTH: usize = 80;

/// How many columns of a bot's name the table and the summary show; the rest is cut. A row with the
/// longest verdict then takes 94 columns, one that never loses 79.
pub(super) const NAME_IN_TABLE: usize = 28;

/// How many columns of a bot's name the heading of its details shows.
const NAME_IN_DETAILS: usize = 44;

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
            let bots = audits
                .iter()
                .map(|audit| (audit.name.as_str(), &audit.sides[..]))
                .collect();
            let json = AuditJson::new(game, bots, error);
            super::json_line(&mut out, &json)?;
        }
        Format::Text => {
            let style = Style::for_stdout();
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

/// The words on a side, coloured as a result: green, red, or yellow for a bot that only
/// breaks the rules (it never lost a game it played by them).
fn paint_verdict(verdict: Verdict, style: Style) -> impl Fn(&str) -> String {
    let value = match verdict {
        Verdict::NeverLoses => Value::Win,
        Verdict::BreaksRules => Value::Draw,
        Verdict::CanLose | Verdict::CanLoseAndBreaksRules | Verdict::AnswersDifferently => {
            Value::Loss
        }
    };
    move |text| style.value(value, text)
}

/// Words wrapped to [`WIDTH`] columns, a space before each: the first line starts with
/// `first`, the others with `indent`. A word too wide for any line stays whole, alone after
/// `indent`.
fn wrap(first: &str, indent: &str, words: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = first.to_string();
    for word in words {
        // A line is never a bare `indent` here: a word follows every break at once.
        if line.width() + 1 + word.width() > WIDTH {
            lines.push(std::mem::replace(&mut line, indent.to_string()));
        }
        line.push(' ');
        line.push_str(word);
    }
    lines.push(line);
    lines
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
        let name = fit(&escape(&a.name), NAME_IN_DETAILS);
        for s in &a.sides {
            lines.push(String::new());
            lines.extend(details(&name, s, a.published, style));
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
                    Some(verdict) => line.push_str(&paint_verdict(verdict, style)(cell)),
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

/// The worst case in words: what an opponent who knows the bot can do, and a game that shows
/// how.
fn worst_case(game: Game, worst: &WorstCase, verdict: Verdict) -> Vec<String> {
    if worst.loss == Ratio::ZERO {
        return vec!["  worst case: no opponent can make it lose, whatever it knows".to_string()];
    }
    // A game lost is lost on the board or by breaking the rules: the words say which can be.
    let loses = match (verdict.can_lose(), verdict.breaks_rules()) {
        (true, true) => "loses or forfeits",
        (false, true) => "forfeits",
        _ => "loses",
    };
    let words = [
        format!("{loses} {}", percent(worst.loss)),
        "against an opponent who knows it,".to_string(),
        format!("exactly {}", worst.loss),
    ];
    let mut lines = wrap("  worst case:", "   ", &words);
    let mut words: Vec<String> = worst.line.iter().map(ToString::to_string).collect();
    let ends = super::any_game::replayed(game, &worst.line)
        .position()
        .status()
        != Status::InProgress;
    if !ends {
        words.push("(then it forfeits)".to_string());
    }
    lines.extend(wrap("    for example:", "   ", &words));
    lines
}

/// One side in detail: what was explored, blunders, odds against a random opponent (beside
/// the author's published figures, if any), the shortest loss drawn and the shortest forfeit.
fn details(name: &str, s: &SideReport, published: &[Published], style: Style) -> Vec<String> {
    let verdict = s.verdict();
    let mut lines = vec![format!(
        "{} {}",
        style.strong(&format!("{name} as {}:", s.side)),
        paint_verdict(verdict, style)(&verdict.to_string())
    )];
    lines.extend(super::audit_recheck::lines(s, style));
    lines.push(format!(
        "  {} decision points, {} games explored",
        grouped(s.decision_points),
        grouped(s.games)
    ));
    let b = &s.blunders;
    let blunders = [
        (b.win_to_draw, "win>draw"),
        (b.win_to_loss, "win>loss"),
        (b.draw_to_loss, "draw>loss"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, kind)| format!("{} {kind}", grouped(*n)))
    .collect::<Vec<_>>();
    lines.push(format!(
        "  blunders: {}; slow wins: {}",
        if blunders.is_empty() {
            "none".to_string()
        } else {
            blunders.join(", ")
        },
        match s.slow_wins {
            0 => "none".to_string(),
            n => grouped(n),
        }
    ));
    let odds = |win: String, draw: String, loss: String| {
        format!("win {win:>6}  draw {draw:>6}  loss {loss:>6}")
    };
    for (label, v) in [
        ("vs random: ", &s.vs_random),
        ("vs perfect:", &s.vs_perfect),
    ] {
        lines.push(format!(
            "  {label} {}  forfeit {:>6}",
            odds(percent(v.win), percent(v.draw), percent(v.loss)),
            percent(v.illegal)
        ));
        let exact = [
            format!("win {},", v.win),
            format!("draw {},", v.draw),
            format!("loss {},", v.loss),
            format!("forfeit {}", v.illegal),
        ];
        lines.extend(wrap("              exactly", "             ", &exact));
        // The author's figures, from games against a random opponent, under the exact ones.
        if label == "vs random: " {
            if let Some(p) = published.iter().find(|p| p.side == s.side) {
                let share = |n: u64| format!("{:.2}%", n as f64 * 100.0 / p.games as f64);
                lines.push(format!(
                    "  published:  {}  ({} games vs {})",
                    odds(share(p.wins), share(p.draws), share(p.losses)),
                    grouped(p.games),
                    p.opponent
                ));
            }
        }
    }
    lines.extend(worst_case(s.game, &s.worst_case, verdict));
    if let Some(line) = &s.shortest_loss {
        let mark = if line.mistake.is_some() {
            " (! marks the bot's losing mistake)"
        } else {
            ""
        };
        lines.push(format!(
            "  shortest loss, {} plies{mark}:",
            line.moves.len()
        ));
        lines.extend(draw_game(s.game, &line.moves, line.mistake, style));
        lines.push(format!("    {}", replay("review", s.game, &line.moves)));
    }
    if let Some(line) = &s.shortest_illegal {
        let after = if line.moves.is_empty() {
            "no moves".to_string()
        } else {
            cells(&line.moves)
        };
        let words: Vec<String> = format!("after {after} the bot {}", line.what)
            .split(' ')
            .map(|word| fit(&escape(word), WIDTH - 4))
            .collect();
        lines.extend(wrap("  shortest forfeit:", "   ", &words));
    }
    lines.extend(super::mistakes::text(s, style));
    lines
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

/// The game as rows of boards, one a move, as many a row as fit in 100 columns (at most six);
/// `!` marks the bot's losing mistake.
fn draw_game(game: Game, moves: &[Cell], mistake: Option<usize>, style: Style) -> Vec<String> {
    let mut played = History::empty(game);
    let columns = game.columns();
    // A grid is 4 columns a cell, less one; the title (`12. X 16 !`) takes 10.
    let width = (4 * columns - 1).max(11);
    let mut rows: Vec<Vec<String>> = Vec::new();
    for (i, &cell) in moves.iter().enumerate() {
        let mover = Player::at_ply(i);
        played.play(cell).expect("a reported game replays");
        let board = played.position();
        let squares: Vec<Square> = (0..game.cells())
            .map(
                |c| match board.get(Cell::new(c).expect("a cell of the board")) {
                    Some(p) if c == cell.index() => {
                        Square::new(p.to_string(), style.strong(&p.to_string()))
                    }
                    Some(p) => Square::new(p.to_string(), p.to_string()),
                    None => Square::new(".", style.faint(".")),
                },
            )
            .collect();
        let mark = if Some(i) == mistake { " !" } else { "  " };
        let title = format!("{}. {mover} {cell}{mark}", i + 1);
        let mut block = vec![format!("{title:width$}")];
        let grid = grid_of(&squares, columns).into_iter();
        block.extend(grid.map(|l| format!("{l:width$}")));
        rows.push(block);
    }
    // Four spaces before the first board, two between boards.
    let per_row = ((100 - 4 + 2) / (width + 2)).min(6);
    let mut lines = Vec::new();
    for chunk in rows.chunks(per_row) {
        let mut joined = chunk[0].clone();
        for block in &chunk[1..] {
            joined = side_by_side(&joined, block, 2);
        }
        lines.extend(
            joined
                .into_iter()
                .map(|l| format!("    {l}").trim_end().to_string()),
        );
    }
    lines
}
