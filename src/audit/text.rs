//! One side of an audit with a table, for people: what `ttt audit` prints under its table for
//! each side (explored, blunders, odds, the worst case, the shortest loss drawn, the shortest
//! forfeit, the re-ask of an external bot, the first mistakes drawn), coloured by a [`Style`]
//! or not.

use std::fmt;

use unicode_width::UnicodeWidthStr;

use super::mistakes::{Mistake, Mistakes};
use super::recheck::Recheck;
use super::report::{SideReport, WorstCase};
use super::verdict::Verdict;
use crate::board::{Cell, Player, Status};
use crate::bots::Published;
use crate::draw::{Square, Style, board_squares, cells, grid_of, replay, side_by_side};
use crate::game::Game;
use crate::history::History;
use crate::ratio::Ratio;
use crate::text::{counted, escape, fit, grouped, percent, shown_width};
use crate::value::Value;

/// The widest a line of the details should be, where the text allows. Wider, but never over
/// 100: a line holding an exact odd of two 39-digit numbers (100), a mistake's words beside
/// its board.
const WIDTH: usize = 80;

/// The widest a drawn game or mistake may be.
const DRAWN_WIDTH: usize = 100;

/// How many columns of a bot's name the heading shows.
const NAME_IN_DETAILS: usize = 44;

/// The name [`Display`](fmt::Display) gives the bot, which the report does not hold.
const UNNAMED: &str = "the bot";

impl SideReport {
    /// This side in detail, as `ttt audit` prints it under its table, a line each (no newline
    /// after the last): a heading naming `bot` (cut to 44 columns) and the verdict, what was
    /// explored, blunders and slow wins, the odds against a random and a perfect opponent
    /// (with the author's `published` figures for this side, if any), the worst case, the
    /// shortest loss drawn, the shortest forfeit, the re-ask of an external bot and the first
    /// [`Mistakes::DRAWN`] mistakes drawn; coloured as `style` says.
    ///
    /// Its [`Display`](fmt::Display) is this text without colour, naming the bot "the bot"
    /// (the report does not hold its name) and without published figures.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{AuditOptions, Game, Player, audit, bots, draw::Style};
    ///
    /// let mut smartbot = bots::from_spec("smartbot")?;
    /// let options = AuditOptions::new(Game::TIC_TAC_TOE, Player::O);
    /// let report = audit(smartbot.as_mut(), &options)?;
    /// let side = report.solved().unwrap();
    /// let text = side.text("smartbot", &[], Style::PLAIN);
    /// assert!(text.starts_with("smartbot as O: can lose\n"));
    /// assert!(format!("{side}").starts_with("the bot as O: can lose\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn text(&self, bot: &str, published: &[Published], style: Style) -> String {
        details(bot, self, published, style).join("\n")
    }
}

/// The text of [`SideReport::text`], without colour: see there.
impl fmt::Display for SideReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(UNNAMED, &[], Style::PLAIN))
    }
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
        format!("{loses} {}", percent(worst.loss.to_f64())),
        "against an opponent who knows it,".to_string(),
        format!("exactly {}", worst.loss),
    ];
    let mut lines = wrap("  worst case:", "   ", &words);
    let mut words: Vec<String> = worst.line.iter().map(ToString::to_string).collect();
    let ends = History::replay(game, &worst.line).position().status() != Status::InProgress;
    if !ends {
        words.push("(then it forfeits)".to_string());
    }
    lines.extend(wrap("    for example:", "   ", &words));
    lines
}

/// One side in detail: what was explored, blunders, odds against a random opponent (beside
/// the author's published figures, if any), the shortest loss drawn and the shortest forfeit.
fn details(bot: &str, s: &SideReport, published: &[Published], style: Style) -> Vec<String> {
    let verdict = s.verdict();
    let name = fit(&escape(bot), NAME_IN_DETAILS);
    let mut lines = vec![format!(
        "{} {}",
        style.strong(&format!("{name} as {}:", s.side)),
        verdict.paint(style, &verdict.to_string())
    )];
    lines.extend(recheck(s, style));
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
            odds(
                percent(v.win.to_f64()),
                percent(v.draw.to_f64()),
                percent(v.loss.to_f64())
            ),
            percent(v.illegal.to_f64())
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
    lines.extend(mistakes(s, style));
    lines
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
    let per_row = ((DRAWN_WIDTH - 4 + 2) / (width + 2)).min(6);
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

/// The lines on the re-ask of side `s`, under its heading: the same answers, or the position
/// where one differed, drawn, with both answers; none when it was not asked again.
fn recheck(s: &SideReport, style: Style) -> Vec<String> {
    match s.recheck.as_deref() {
        Some(recheck) => recheck_lines(recheck, s.game, "", "the audit", style),
        None => Vec::new(),
    }
}

/// The lines on `recheck` of a bot playing `game` (`who`, before "asked", names it where
/// several were), as the audit's text and the match's give them: the same answers, or the
/// position where one differed, drawn, with the answer `recorded_in` recorded and the one
/// given alone.
pub(crate) fn recheck_lines(
    recheck: &Recheck,
    game: Game,
    who: &str,
    recorded_in: &str,
    style: Style,
) -> Vec<String> {
    let Recheck {
        games,
        requests,
        seed,
        difference,
    } = recheck;
    let asked = format!(
        "  {who}asked again one at a time ({}, {}):",
        counted(*requests, "request", "requests"),
        counted(*games, "game", "games")
    );
    let Some(difference) = difference else {
        return vec![format!("{asked} the same answers")];
    };
    let moves = &difference.moves;
    let after = if moves.is_empty() {
        "at the start:".to_string()
    } else {
        format!("after {}:", cells(moves))
    };
    let mut lines = vec![
        format!("{asked} it answered differently"),
        format!("    {after}"),
    ];
    let position = History::replay(game, moves).position();
    let drawn = grid_of(&board_squares(&position, style), game.columns());
    lines.extend(
        drawn
            .iter()
            .map(|l| format!("    {l}").trim_end().to_string()),
    );
    let label = format!("in {recorded_in}:");
    let width = label.len().max("one at a time:".len()) + 2;
    lines.push(format!("    {label:<width$}{}", difference.recorded_text()));
    lines.push(format!(
        "    {:<width$}{}",
        "one at a time:",
        difference.alone_text()
    ));
    lines.push(format!("    {}", replay("analyze", game, moves)));
    lines.push(format!(
        "    games drawn with seed {seed}: --recheck-seed {seed} asks them again"
    ));
    lines
}

/// The mistakes of a side, under its details: how many, then the first [`Mistakes::DRAWN`]
/// drawn. No line when it made none.
fn mistakes(report: &SideReport, style: Style) -> Vec<String> {
    let Mistakes { total, list } = &report.mistakes;
    if *total == 0 {
        return Vec::new();
    }
    let shown = list.len().min(Mistakes::DRAWN);
    let total_text = grouped(total);
    let heading = if *total as usize == shown {
        format!("  mistakes: {total_text} (by position and move):")
    } else if shown == 0 {
        // None listed (`AuditOptions::mistakes` is 0, a library's default): the count alone.
        format!("  mistakes: {total_text} by position and move")
    } else {
        format!(
            "  mistakes: {total_text} by position and move; the first {shown} (--mistakes FILE: all):"
        )
    };
    let mut lines = vec![heading];
    for (i, mistake) in list.iter().take(Mistakes::DRAWN).enumerate() {
        lines.extend(one(report.game, report.side, i + 1, mistake, style));
    }
    lines
}

/// `value in N plies`, as people read what a move leads to.
fn worth(value: Value, remoteness: u8) -> String {
    format!(
        "{} in {}",
        value.name(),
        counted(remoteness, "ply", "plies")
    )
}

/// One mistake: what it was and where, the board before it, the move played and the best ones,
/// and the command that shows every move there.
fn one(game: Game, side: Player, n: usize, mistake: &Mistake, style: Style) -> Vec<String> {
    let position = History::replay(game, &mistake.moves);
    let after = match mistake.moves.len() {
        0 => "on the empty board".to_string(),
        _ => format!("after {}", cells(&mistake.moves)),
    };
    let kind = style.value(mistake.played.value, &mistake.kind.to_string());
    let mut lines = vec![format!("    {n}. {kind} {after}")];
    let board = position.position();
    let grid = grid_of(&board_squares(&board, style), game.columns());
    let played = &mistake.played;
    let best = &mistake.best;
    let best_cells: Vec<String> = best.iter().map(|m| m.cell.to_string()).collect();
    let mut words = vec![
        format!(
            "{side} played {}: {}",
            played.cell,
            style.value(played.value, &worth(played.value, played.remoteness))
        ),
        match best.first() {
            Some(first) => format!(
                "best {}: {}",
                best_cells.join(" "),
                style.value(first.value, &worth(first.value, first.remoteness))
            ),
            None => "no move is best: the game is over".to_string(),
        },
        format!(
            "met in {}, {} after the move",
            counted(mistake.histories, "history", "histories"),
            counted(mistake.games, "game", "games"),
        ),
    ];
    // The game up to the mistake and the mistake itself, which the review then judges.
    let mut game_to_it = mistake.moves.clone();
    game_to_it.push(played.cell);
    let replay = replay("review", game, &game_to_it);
    // The words beside the board when they fit, under it otherwise; the replay under it.
    let indent = "       ";
    let grid_width = grid.first().map_or(0, |l| shown_width(l));
    let widest = words.iter().map(|w| shown_width(w)).max().unwrap_or(0);
    if indent.len() + grid_width + 4 + widest <= DRAWN_WIDTH {
        words.resize(grid.len().max(words.len()), String::new());
        let mut grid = grid;
        grid.resize(words.len(), " ".repeat(grid_width));
        lines.extend(
            side_by_side(&grid, &words, 4)
                .into_iter()
                .map(|l| format!("{indent}{l}").trim_end().to_string()),
        );
    } else {
        lines.extend(grid.into_iter().map(|l| format!("{indent}{l}")));
        lines.extend(words.into_iter().map(|w| format!("{indent}{w}")));
    }
    lines.push(format!("{indent}{replay}"));
    lines
}
