//! `ttt match`.

use std::io::Write;

use clap::Args;
use serde::Serialize;
use ttt_oracle::audit::AuditBudget;
use ttt_oracle::bots::Bot;
use ttt_oracle::draw::Style;
use ttt_oracle::text::{escape, fit, grouped, percent};
use ttt_oracle::{
    AuditError, Game, Player, Value, matchup,
    matchup::{MatchOptions, MatchReport},
};
use unicode_width::UnicodeWidthStr;

use super::named::{ExternalArgs, Holds, Named};
use super::progress::Progress;
use super::style;
use super::text::{not_done, pad};
use super::{Failure, Format};

/// The widest a line may be: the cross table takes as many columns as fit, then goes on below.
const WIDTH: usize = 100;

/// How many columns of a bot's name the tables of `--all` show: a row a match then takes at most
/// 99 columns (two names, six-digit games, the percentages), and the cross table fits ten bots.
const NAME_IN_TABLE: usize = 19;

/// Arguments of `ttt match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The bots: built-in names, casual:P, epsilon:P or cmd:COMMAND (see `ttt bots`). Two,
    /// each playing X against the other; with --all, two or more.
    #[arg(value_name = "BOT", value_parser = super::values::BotValues, hide_possible_values = true)]
    bots: Vec<String>,
    #[command(flatten)]
    external: ExternalArgs,
    /// Play every ordered pair of the bots, each against itself too, and show a cross table of
    /// their scores.
    #[arg(long)]
    all: bool,
    /// Output format.
    #[arg(short = 'f', long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
    /// The game: 3x3 (tic-tac-toe), MxN or MxNkK (see `ttt best --help`), up to 16 cells, or
    /// 17 to 25 once `ttt solve --game G` has cached its table.
    #[arg(short = 'g', long, value_name = "GAME", default_value = "3x3", value_parser = super::values::GameValues, hide_possible_values = true)]
    game: Game,
    /// On a game other than 3x3: how many histories a match may walk when a bot does not say
    /// it answers from the board alone (each history is asked on its own); the match stops
    /// (exit 2) rather than go past it.
    #[arg(long, value_name = "STATES", default_value_t = AuditBudget::DEFAULT.states as u32, value_parser = clap::value_parser!(u32).range(1..=1_000_000_000))]
    budget: u32,
    /// After each match, ask an external bot again one request at a time, each written once
    /// the last is answered, by a fresh process, along N games drawn from both bots' answers;
    /// an answer that differs from the match's is reported and fails the match (exit 1).
    /// 0 asks nothing again.
    #[arg(long, value_name = "N", default_value_t = ttt_oracle::audit::RECHECK_GAMES as u32, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    recheck: u32,
    /// The seed of the games --recheck draws; by default a fresh one each match (the JSON
    /// gives the seed used).
    #[arg(long, value_name = "SEED")]
    recheck_seed: Option<u64>,
}

#[derive(Serialize)]
struct MatchesJson<'a> {
    matches: &'a [MatchReport],
    /// The error that stopped the matches, if one did.
    error: Option<&'a str>,
}

/// Plays the matches the arguments name and prints them. A bot that breaks the protocol stops
/// them (exit 3), as do odds too fine to compute exactly (exit 2); the matches played before
/// are printed first.
pub fn run(args: &MatchArgs) -> Result<(), Failure> {
    let named = args.external.named(&args.bots)?;
    let n = named.len();
    match (args.all, n) {
        (_, 0) => {
            return Err(Failure::usage(
                "name two bots to match: built-in ones (`ttt bots` lists them), styles, or \
                 --cmd COMMAND",
            ));
        }
        (false, 1) => {
            return Err(Failure::usage(
                "ttt match plays two bots against each other: name a second one (or the same \
                 one again, to play it against itself)",
            ));
        }
        (false, 2) => {}
        (false, _) => {
            return Err(Failure::usage(format!(
                "ttt match plays two bots, and {n} are named: add --all to play every pair"
            )));
        }
        (true, 1) => {
            return Err(Failure::usage(
                "--all plays every pair of two bots or more: name another (`ttt match BOT BOT` \
                 plays a bot against itself)",
            ));
        }
        (true, _) => {}
    }
    super::audit::no_recheck_without_external(args.recheck, &named, "plays")?;
    let pairs: Vec<(usize, usize)> = if args.all {
        (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).collect()
    } else if same(&named[0], &named[1]) {
        // A bot against itself plays the same match in both orders: play it once.
        vec![(0, 1)]
    } else {
        vec![(0, 1), (1, 0)]
    };
    // One instance a bot, for all its matches (an external bot's answers are kept between
    // them), and a second one for a bot against itself.
    let mut players = named
        .iter()
        .map(|bot| args.external.make(bot))
        .collect::<Result<Vec<_>, _>>()?;
    if !args.game.has_table() {
        // Past 16 cells, the table `ttt solve` cached: a damaged one is exit 4.
        if !super::any_game::cached(args.game)? {
            return Err(Failure::usage(AuditError::TooLarge(args.game).to_string()));
        }
    }
    if args.game != Game::TIC_TAC_TOE {
        super::budget_fits(args.budget, super::BYTES_A_HISTORY, 1)?;
    }
    for player in &players {
        player
            .plays(args.game)
            .map_err(|error| Failure::usage(error.message))?;
    }
    let mut twins: Vec<Option<Box<dyn Bot + Send>>> = (0..n).map(|_| None).collect();
    let mut reports = Vec::new();
    let mut stopped: Option<(Failure, Vec<String>)> = None;
    for &(i, j) in &pairs {
        let label = format!(
            "{} (X) vs {} (O)",
            fit(&escape(players[i].name()), NAME_IN_TABLE),
            fit(&escape(players[j].name()), NAME_IN_TABLE)
        );
        if let Some((_, left)) = &mut stopped {
            left.push(label);
            continue;
        }
        if i == j && twins[i].is_none() {
            twins[i] = Some(args.external.make(&named[i])?);
        }
        let (x, o) = match (i == j, &mut twins[i]) {
            (true, Some(twin)) => (&mut players[i], twin),
            _ => two(&mut players, i, j),
        };
        let options = MatchOptions {
            game: args.game,
            budget: AuditBudget::of(args.budget as usize),
            recheck: args.recheck as usize,
            recheck_seed: args.recheck_seed,
        };
        let holds = Holds::of(x.as_ref()).max(Holds::of(o.as_ref()));
        match play(x.as_mut(), o.as_mut(), &options) {
            Ok(report) => reports.push(report),
            Err(error) => {
                let failure = match error {
                    AuditError::Refused(error) => Failure::usage(error.message),
                    AuditError::NoTable(error) => error.into(),
                    AuditError::Bot(error) => Failure::protocol(error),
                    AuditError::Overflow => Failure::usage(format!("{label}: {error}")),
                    AuditError::OverBudget(over) => super::named::over_budget(&over, holds),
                    AuditError::OverMemory(over) => Failure::audit_memory(over, holds),
                    // TooLarge, and what a later version may add.
                    _ => Failure::usage(error.to_string()),
                };
                stopped = Some((failure, vec![label]));
            }
        }
    }
    let printed = print(&reports, stopped.as_ref(), args);
    if let Some((failure, _)) = stopped {
        // The error is the answer even when the report could not be written.
        if let Err(unprinted) = Failure::reader_stopped(printed) {
            super::report(&unprinted);
        }
        return Err(failure);
    }
    // A reader that stops early changes nothing of the answer.
    Failure::reader_stopped(printed)?;
    // The chances of a bot that answers otherwise in a game are not its games' (the text
    // says which, above).
    match reports
        .iter()
        .any(|report| report.answers_differently().is_some())
    {
        true => Err(Failure::quiet(1)),
        false => Ok(()),
    }
}

/// Whether `a` and `b` name one bot: the same name and, for external bots, the same command.
fn same(a: &Named, b: &Named) -> bool {
    a.name == b.name && a.command == b.command
}

/// `x` as X against `o` as O as `options` say, with a progress line on a terminal.
fn play(
    x: &mut dyn Bot,
    o: &mut dyn Bot,
    options: &MatchOptions,
) -> Result<MatchReport, AuditError> {
    let progress = Progress::start_match(
        &fit(&escape(x.name()), NAME_IN_TABLE),
        &fit(&escape(o.name()), NAME_IN_TABLE),
    );
    let report = matchup(&mut progress.count(x), &mut progress.count(o), options);
    progress.finish();
    report
}

/// Items `i` and `j` (not the same) of `items`, both to change.
fn two<T>(items: &mut [T], i: usize, j: usize) -> (&mut T, &mut T) {
    if i < j {
        let (left, right) = items.split_at_mut(j);
        (&mut left[i], &mut right[0])
    } else {
        let (left, right) = items.split_at_mut(i);
        (&mut right[0], &mut left[j])
    }
}

/// Writes the matches played, and what an error, if any, left unplayed.
fn print(
    reports: &[MatchReport],
    stopped: Option<&(Failure, Vec<String>)>,
    args: &MatchArgs,
) -> Result<(), Failure> {
    let mut out = super::stdout();
    match args.format {
        Format::Json => {
            let json = MatchesJson {
                matches: reports,
                error: stopped.map(|(failure, _)| failure.message()),
            };
            super::json_line(&mut out, &json)?;
        }
        Format::Text => {
            let style = style::for_stdout();
            let lines = match (args.all, stopped) {
                (true, None) => {
                    let mut lines = rows(reports, style);
                    lines.push(String::new());
                    lines.extend(cross_table(reports, style));
                    lines.extend(differ(reports, style));
                    lines
                }
                (true, Some(_)) if reports.is_empty() => Vec::new(),
                (true, Some(_)) => rows(reports, style),
                (false, _) => {
                    let mut lines = Vec::new();
                    for report in reports {
                        lines.push(report.text(style));
                        lines.push(String::new());
                    }
                    if let [there, back] = reports {
                        lines.extend(scores(there, back));
                    } else if stopped.is_none() {
                        // One match, of a bot against itself: no means to compare.
                        lines.pop();
                    }
                    lines
                }
            };
            for line in lines {
                writeln!(out, "{line}")?;
            }
            if let Some((_, left)) = stopped {
                if args.all && !reports.is_empty() {
                    writeln!(out)?;
                }
                let line = not_done("Not played, after an error (below): ", left);
                writeln!(out, "{}", style.strong(&line))?;
            }
        }
    }
    Ok(())
}

/// For `--all`, a line for each match in which a bot answered differently when asked again
/// one request at a time: its chances are not those of its games.
fn differ(reports: &[MatchReport], style: Style) -> Vec<String> {
    let differ = reports.iter().filter_map(|report| {
        let side = report.answers_differently()?;
        let name = if side == Player::X {
            &report.x
        } else {
            &report.o
        };
        Some(style.strong(&format!(
            "{} as {side} vs {}: answers differently in a game",
            fit(&escape(name), NAME_IN_TABLE),
            fit(
                &escape(if side == Player::X {
                    &report.o
                } else {
                    &report.x
                }),
                NAME_IN_TABLE
            ),
        )))
    });
    let lines: Vec<String> = differ.collect();
    match lines.is_empty() {
        true => lines,
        false => {
            let hint = [
                "(ttt match of the two bots shows where; their chances above are not those of",
                "their games, and their scores are ?, left out of the means)",
            ];
            [vec![String::new()], lines, hint.map(String::from).to_vec()].concat()
        }
    }
}

/// The score of the side that played X (win 1, draw 1/2, a forfeit by O 1), or of O.
fn score(r: &MatchReport, x: bool) -> f64 {
    let (wins, forfeits) = if x {
        (r.x_wins, r.o_forfeits)
    } else {
        (r.o_wins, r.x_forfeits)
    };
    wins.to_f64() + r.draws.to_f64() / 2.0 + forfeits.to_f64()
}

/// The mean score a game of the bot that played X in `there` and O in `back`, against the
/// other.
fn both_ways(there: &MatchReport, back: &MatchReport) -> f64 {
    (score(there, true) + score(back, false)) / 2.0
}

/// Two bots' mean scores a game over both orders.
fn scores(there: &MatchReport, back: &MatchReport) -> Vec<String> {
    let names = [&there.x, &there.o].map(|name| fit(&escape(name), MatchReport::NAME_WIDTH));
    let width = names.iter().map(|name| name.width()).max().unwrap_or(0);
    let mut lines =
        vec!["Mean score a game, as X and as O (win 1, draw 1/2, a forfeit 0):".to_string()];
    // Not known where a bot answered differently asked one request at a time.
    let known = there.answers_differently().is_none() && back.answers_differently().is_none();
    for (name, value) in names
        .iter()
        .zip([both_ways(there, back), both_ways(back, there)])
    {
        let value = match known {
            true => format!("{value:.2}"),
            false => "?".to_string(),
        };
        lines.push(format!("  {}  {value}", pad(name, name, width)));
    }
    lines
}

/// A row a match: the bots, the games, and each way a game ends as a percentage.
fn rows(reports: &[MatchReport], style: Style) -> Vec<String> {
    const COLUMNS: usize = 8;
    let header = [
        "X",
        "O",
        "games",
        "X wins",
        "draws",
        "O wins",
        "X forfeits",
        "O forfeits",
    ];
    let mut rows: Vec<[String; COLUMNS]> = vec![header.map(String::from)];
    for r in reports {
        let [a, b, c, d, e] = r.ends().map(|(_, p)| percent(p.to_f64()));
        rows.push([
            fit(&escape(&r.x), NAME_IN_TABLE),
            fit(&escape(&r.o), NAME_IN_TABLE),
            grouped(r.games),
            a,
            b,
            c,
            d,
            e,
        ]);
    }
    let mut widths = [0; COLUMNS];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.width());
        }
    }
    // Names to the left, numbers to the right, two spaces between; no trailing spaces.
    let line = |cells: &[String; COLUMNS]| {
        let mut line = String::new();
        for (i, (cell, &width)) in cells.iter().zip(&widths).enumerate() {
            if i < 2 {
                line.push_str(&pad(cell, cell, width));
            } else {
                line.push_str(&format!("{cell:>width$}"));
            }
            if i + 1 < COLUMNS {
                line.push_str("  ");
            }
        }
        line
    };
    let mut lines = vec![style.strong(&line(&rows[0]))];
    lines.extend(rows[1..].iter().map(line));
    lines
}

/// Each bot's mean score a game against each other, as X and as O, numbered rows and columns,
/// and its mean against the others; columns that do not fit in [`WIDTH`] go on below.
/// `reports` are every ordered pair, row by row.
fn cross_table(reports: &[MatchReport], style: Style) -> Vec<String> {
    let n = (reports.len() as f64).sqrt().round() as usize;
    debug_assert_eq!(n * n, reports.len(), "every ordered pair");
    let report = |i: usize, j: usize| &reports[i * n + j];
    // No score where a bot answered differently asked one request at a time: its games'
    // chances are not known.
    let cell = |i: usize, j: usize| {
        let (there, back) = (report(i, j), report(j, i));
        let differ = there.answers_differently().is_some() || back.answers_differently().is_some();
        (!differ).then(|| both_ways(there, back))
    };
    let names: Vec<String> = (0..n)
        .map(|i| fit(&escape(&report(i, i).x), NAME_IN_TABLE))
        .collect();
    let number = n.to_string().len();
    let name_width = names.iter().map(|name| name.width()).max().unwrap_or(0);
    let label = number + 2 + name_width;
    let mean = |i: usize| {
        let known: Vec<f64> = (0..n)
            .filter(|&j| j != i)
            .filter_map(|j| cell(i, j))
            .collect();
        (!known.is_empty()).then(|| known.iter().sum::<f64>() / known.len() as f64)
    };
    // Green where the row's bot scores more than half, red less, yellow half.
    let paint = |value: f64, text: &str| {
        let hundredths = (value * 100.0).round() as i64;
        let value = match hundredths.cmp(&50) {
            std::cmp::Ordering::Greater => Value::Win,
            std::cmp::Ordering::Equal => Value::Draw,
            std::cmp::Ordering::Less => Value::Loss,
        };
        style.value(value, text)
    };
    let mut lines = vec![
        style.faint("Mean score a game of each row's bot against each column's, as X and as O"),
        style.faint("(win 1, draw 1/2, a forfeit 0); mean: against all the others"),
    ];
    let per_chunk = ((WIDTH - label - 6) / 6).max(1);
    let columns: Vec<usize> = (0..n).collect();
    let chunks: Vec<&[usize]> = columns.chunks(per_chunk).collect();
    for (c, chunk) in chunks.iter().enumerate() {
        let last = c + 1 == chunks.len();
        lines.push(String::new());
        let mut header = " ".repeat(label);
        for &j in *chunk {
            header.push_str(&format!("{:>6}", j + 1));
        }
        if last {
            header.push_str("  mean");
        }
        lines.push(style.strong(&header));
        for (i, name) in names.iter().enumerate() {
            let mut line = format!("{:>number$}  {}", i + 1, pad(name, name, name_width));
            for &j in *chunk {
                line.push_str("  ");
                line.push_str(&match cell(i, j) {
                    None => format!("{:>4}", "?"),
                    Some(value) if i == j => style.faint(&format!("{value:.2}")),
                    Some(value) => paint(value, &format!("{value:.2}")),
                });
            }
            if last {
                line.push_str("  ");
                line.push_str(&match mean(i) {
                    None => format!("{:>4}", "?"),
                    Some(value) => paint(value, &format!("{value:.2}")),
                });
            }
            lines.push(line);
        }
    }
    lines
}
