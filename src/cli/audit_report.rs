//! The report of `ttt audit` on a game with a table: a table of the sides audited, each side
//! in detail, and a last line on every bot; or one JSON document.

use std::io::{self, Write};

use crate::bots::{BotError, Published};
use crate::quote::escape;
use crate::{
    AuditError, Cell, Game, History, Player, Ratio, SideReport, Status, Value, Verdict, WorstCase,
};
use serde::Serialize;
use unicode_width::UnicodeWidthStr;

use super::draw::{Square, cells, grid_of, side_by_side};
use super::named;
use super::style::Style;
use super::text::{first_of, fit, not_done, pad, percent};
use super::{Failure, Format};

/// The widest a line of the report should be, where the text allows. Wider, but never over
/// 100: a table row with the longest verdict (94 columns with a name cut to
/// [`NAME_IN_TABLE`] and six-digit counts), and a line holding an exact odd of two 39-digit
/// numbers (100).
const WIDTH: usize = 80;

/// How many columns of a bot's name the table and the summary show; the rest is cut. A row with the
/// longest verdict then takes 94 columns, one that never loses 79.
pub(super) const NAME_IN_TABLE: usize = 28;

/// How many columns of a bot's name a summary of several bots shows.
pub(super) const NAME_IN_SUMMARY: usize = 24;

/// How many columns of a bot's name the heading of its details shows.
const NAME_IN_DETAILS: usize = 44;

/// One bot's audit.
#[derive(Serialize)]
pub(super) struct BotAudit {
    pub(super) bot: String,
    pub(super) sides: Vec<SideReport>,
    #[serde(skip)]
    pub(super) published: &'static [Published],
}

#[derive(Serialize)]
struct AuditJson<'a> {
    /// The game, for any but tic-tac-toe (whose report is as it was before other games).
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<String>,
    bots: &'a [BotAudit],
    /// The protocol error that stopped the audit, if one did.
    error: Option<&'a str>,
}

/// What stopped the audits: the failure to end with, and the sides left unaudited.
pub(super) struct Stopped {
    pub(super) failure: Failure,
    /// The start of the report's last line, before the sides left.
    heading: &'static str,
    pub(super) left: Vec<String>,
}

impl Stopped {
    pub(super) fn new(error: AuditError) -> Stopped {
        let (failure, heading) = match error {
            AuditError::OverBudget(over) => (
                named::over_budget(&over),
                "Not audited, over the budget of histories (below): ",
            ),
            AuditError::Bot(error) | AuditError::Refused(error) => (
                Failure::protocol(error),
                "Not audited, after a protocol error (below): ",
            ),
            AuditError::NoTable(error) => (
                Failure::protocol(BotError {
                    message: error.to_string(),
                }),
                "Not audited, after a protocol error (below): ",
            ),
        };
        Stopped {
            failure,
            heading,
            left: Vec::new(),
        }
    }
}

/// Writes the report: the bots audited, and what an error, if any, left unaudited.
pub(super) fn print(
    game: Game,
    audits: &[BotAudit],
    stopped: Option<&Stopped>,
    format: Format,
) -> Result<(), Failure> {
    let mut out = super::stdout();
    match format {
        Format::Json => {
            let error = stopped.map(|stopped| stopped.failure.message());
            let json = AuditJson {
                game: (game != Game::TIC_TAC_TOE).then(|| game.to_string()),
                bots: audits,
                error,
            };
            serde_json::to_writer(&mut out, &json).map_err(io::Error::from)?;
            writeln!(out)?;
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
        Verdict::CanLose | Verdict::CanLoseAndBreaksRules => Value::Loss,
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
fn text(audits: &[BotAudit], style: Style) -> Vec<String> {
    let mut lines = vec![
        style.faint("lost: games lost on the board     forfeits: games lost by breaking the rules"),
        style.faint(
            "blunders: moves that lowered the value     slow: wins kept, but not the fastest",
        ),
        String::new(),
    ];
    lines.extend(table(audits, style));
    for a in audits {
        let name = fit(&escape(&a.bot), NAME_IN_DETAILS);
        for s in &a.sides {
            lines.push(String::new());
            lines.extend(details(&name, s, a.published, style));
        }
    }
    lines
}

/// A row a side: bot, side, games lost and forfeited, blunders, slow wins, and the verdict
/// last, where its longest words widen no other row.
fn table(audits: &[BotAudit], style: Style) -> Vec<String> {
    const COLUMNS: usize = 7;
    let header = [
        "bot", "side", "lost", "forfeits", "blunders", "slow", "verdict",
    ];
    let mut rows: Vec<(Option<Verdict>, [String; COLUMNS])> =
        vec![(None, header.map(String::from))];
    for a in audits {
        let name = fit(&escape(&a.bot), NAME_IN_TABLE);
        for s in &a.sides {
            rows.push((
                Some(s.verdict()),
                [
                    name.clone(),
                    s.side.to_string(),
                    s.losing_games.to_string(),
                    s.illegal_games.to_string(),
                    s.blunders.total().to_string(),
                    s.slow_wins.to_string(),
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
fn worst_case(game: Game, worst: &WorstCase) -> Vec<String> {
    if worst.loss == Ratio::ZERO {
        return vec!["  worst case: no opponent can make it lose, whatever it knows".to_string()];
    }
    let words = [
        format!("loses {}", percent(worst.loss)),
        "against an opponent who knows it,".to_string(),
        format!("exactly {}", worst.loss),
    ];
    let mut lines = wrap("  worst case:", "   ", &words);
    let mut words: Vec<String> = worst.line.iter().map(ToString::to_string).collect();
    let ends = replay(game, &worst.line).position().status() != Status::InProgress;
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
    lines.push(format!(
        "  {} decision points, {} games explored",
        s.decision_points, s.games
    ));
    let b = &s.blunders;
    let blunders = [
        (b.win_to_draw, "win>draw"),
        (b.win_to_loss, "win>loss"),
        (b.draw_to_loss, "draw>loss"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, kind)| format!("{n} {kind}"))
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
            n => n.to_string(),
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
                    p.games,
                    p.opponent
                ));
            }
        }
    }
    lines.extend(worst_case(s.game, &s.worst_case));
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
        let game = match s.game {
            Game::TIC_TAC_TOE => String::new(),
            game => format!(" --game {game}"),
        };
        lines.push(format!(
            "    replay: ttt analyze{game} --moves \"{}\"",
            cells(&line.moves)
        ));
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
    lines
}

/// One line on every bot: all never lose, or which can lose and which break the rules (a bot
/// named without a side did so on every side audited).
fn summary(audits: &[BotAudit]) -> String {
    let n = audits.len();
    // The bots for which `test` holds on some side: the name, and the side when not on all.
    let which = |test: fn(Verdict) -> bool| -> Vec<(String, Option<Player>)> {
        audits
            .iter()
            .filter_map(|a| {
                let sides: Vec<Player> = a
                    .sides
                    .iter()
                    .filter(|s| test(s.verdict()))
                    .map(|s| s.side)
                    .collect();
                let name = fit(&escape(&a.bot), NAME_IN_SUMMARY);
                match sides.as_slice() {
                    [] => None,
                    [side] if a.sides.len() > 1 => Some((name, Some(*side))),
                    _ => Some((name, None)),
                }
            })
            .collect()
    };
    let as_side = |side: Option<Player>| side.map_or(String::new(), |side| format!(" as {side}"));
    let losers = which(Verdict::can_lose);
    let breakers = which(Verdict::breaks_rules);
    if n == 1 {
        // "perfect never loses", "marcelo can lose as O and breaks the rules".
        let name = fit(&escape(&audits[0].bot), NAME_IN_TABLE);
        let mut parts = Vec::new();
        if let Some((_, side)) = losers.first() {
            parts.push(format!("can lose{}", as_side(*side)));
        }
        if let Some((_, side)) = breakers.first() {
            parts.push(format!("breaks the rules{}", as_side(*side)));
        }
        if parts.is_empty() {
            parts.push("never loses".to_string());
        }
        return format!("{name} {}", parts.join(" and "));
    }
    if losers.is_empty() && breakers.is_empty() {
        return match n {
            2 => "both bots never lose".to_string(),
            _ => format!("all {n} bots never lose"),
        };
    }
    // In a list, the side in parentheses, so that it plainly belongs to one name.
    let in_list = |(name, side): (String, Option<Player>)| match side {
        Some(side) => format!("{name} (as {side})"),
        None => name,
    };
    let losers: Vec<String> = losers.into_iter().map(in_list).collect();
    let breakers: Vec<String> = breakers.into_iter().map(in_list).collect();
    // As many names as fit in the line, the rest counted ("random, smartbot and 1 more"), or
    // none at all when even one is too many (the table names them all): `first_of`.
    let line = |keep_losers: usize, keep_breakers: usize| {
        let (k, b) = (losers.len(), breakers.len());
        let breaks = if b == 1 { "breaks" } else { "break" };
        let lose = match first_of(&losers, keep_losers) {
            Some(names) => format!("{k} of {n} bots can lose: {names}"),
            None => format!("{k} of {n} bots can lose"),
        };
        match (k, first_of(&breakers, keep_breakers)) {
            (0, Some(names)) => format!("{b} of {n} bots {breaks} the rules: {names}"),
            (0, None) => format!("{b} of {n} bots {breaks} the rules"),
            (_, _) if b == 0 => lose,
            (_, Some(names)) => format!("{lose}; {names} {breaks} the rules"),
            (_, None) => format!("{lose}; {b} {breaks} the rules"),
        }
    };
    let (mut keep_losers, mut keep_breakers) = (losers.len(), breakers.len());
    while line(keep_losers, keep_breakers).width() > WIDTH && keep_losers + keep_breakers > 0 {
        // The longer list gives way first; on a tie, the rule breakers, as losing matters more.
        if keep_breakers >= keep_losers {
            keep_breakers -= 1;
        } else {
            keep_losers -= 1;
        }
    }
    line(keep_losers, keep_breakers)
}

/// The game of `moves`, which the caller knows are legal (a game an audit reported).
fn replay(game: Game, moves: &[Cell]) -> History {
    let mut replayed = History::empty(game);
    for &cell in moves {
        replayed.play(cell).expect("a reported game replays");
    }
    replayed
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
        let mover = if i % 2 == 0 { Player::X } else { Player::O };
        played.play(cell).expect("a reported game replays");
        let board = played.position();
        let squares: Vec<Square> = (0..game.cells())
            .map(|c| match board.at(c) {
                Some(p) if c == cell.index() => {
                    Square::new(p.to_string(), style.strong(&p.to_string()))
                }
                Some(p) => Square::new(p.to_string(), p.to_string()),
                None => Square::new(".", style.faint(".")),
            })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AuditBudget;
    use crate::bots;

    #[test]
    fn the_summary_names_as_many_bots_as_fit() {
        let report = |name: &str, side| {
            let mut bot = bots::builtin(name).unwrap();
            let budget = AuditBudget::DEFAULT;
            crate::audit::with_table(bot.as_mut(), Game::TIC_TAC_TOE, side, budget).unwrap()
        };
        let (lose, cheat) = (report("smartbot", Player::X), report("marcelo", Player::X));
        let bot = |i: usize, side: &SideReport| BotAudit {
            bot: format!("a-bot-with-a-very-long-name-{i:02}"),
            sides: vec![side.clone()],
            published: &[],
        };
        let mut audits: Vec<BotAudit> = (0..8).map(|i| bot(i, &lose)).collect();
        assert_eq!(
            summary(&audits),
            "8 of 8 bots can lose: a-bot-with-…long-name-00 and 7 more"
        );
        audits.extend((8..12).map(|i| bot(i, &cheat)));
        assert_eq!(
            summary(&audits),
            "8 of 12 bots can lose: a-bot-with-…long-name-00 and 7 more; 4 break the rules"
        );
        audits.truncate(2);
        audits.push(bot(12, &cheat));
        assert_eq!(
            summary(&audits),
            "2 of 3 bots can lose: a-bot-with-…long-name-00 and 1 more; 1 breaks the rules"
        );
    }

    #[test]
    fn wrap_breaks_between_words_and_keeps_a_long_word_whole() {
        let words: Vec<String> = (0..30).map(|i| format!("word{i}")).collect();
        let lines = wrap("  first:", "   ", &words);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| l.width() <= WIDTH), "{lines:?}");
        assert!(lines[1..].iter().all(|l| l.starts_with("    word")));
        assert_eq!(lines.join(" ").split_whitespace().count(), 31);
        let long = vec!["x".repeat(90), "y".to_string()];
        assert_eq!(
            wrap("  first:", "   ", &long),
            [
                "  first:".to_string(),
                format!("    {}", "x".repeat(90)),
                "    y".to_string()
            ]
        );
    }
}
