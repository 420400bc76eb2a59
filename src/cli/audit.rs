//! `ttt audit`.

use std::io::{self, Write};
use std::time::Duration;

use clap::{Args, ValueEnum};
use serde::Serialize;
use ttt_oracle::bots::{self, Bot, BotError, Published};
use ttt_oracle::quote::escape;
use ttt_oracle::{Board, Cell, Player, Ratio, SideReport, audit};

use super::draw::{Square, grid, side_by_side};
use super::style::Style;
use super::{Failure, Format};

/// Which sides to audit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sides {
    /// The bot as X, moving first.
    X,
    /// The bot as O, moving second.
    O,
    /// Both, X first.
    Both,
}

impl Sides {
    fn players(self) -> &'static [Player] {
        match self {
            Sides::X => &[Player::X],
            Sides::O => &[Player::O],
            Sides::Both => &Player::BOTH,
        }
    }
}

/// Arguments of `ttt audit`.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Bots to audit: built-in names, casual:P or epsilon:P (see `ttt bots`).
    #[arg(value_name = "BOT", required_unless_present = "cmd")]
    bots: Vec<String>,
    /// An external bot to audit, run as `sh -c COMMAND` and spoken to over the line protocol
    /// (see the README). May be given several times.
    #[arg(long, value_name = "COMMAND")]
    cmd: Vec<String>,
    /// A name for each --cmd bot, in order (default: the command itself).
    #[arg(long, value_name = "NAME")]
    name: Vec<String>,
    /// How long an external bot may take to read a request and reply, in milliseconds.
    #[arg(long, value_name = "N", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    timeout_ms: u64,
    /// How much longer than --timeout-ms an external bot may take to start and give its first
    /// reply, in milliseconds (it is started afresh for each side).
    #[arg(long, value_name = "N", default_value_t = 5000, value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    startup_ms: u64,
    /// Which sides to audit.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Sides::Both)]
    side: Sides,
    /// Output format.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
}

/// One bot's audit.
#[derive(Serialize)]
struct BotAudit {
    bot: String,
    sides: Vec<SideReport>,
    #[serde(skip)]
    published: &'static [Published],
}

#[derive(Serialize)]
struct AuditJson<'a> {
    bots: &'a [BotAudit],
    /// The protocol error that stopped the audit, if one did.
    error: Option<&'a str>,
}

/// Audits every bot named, prints the report, and fails (exit 1) if any side can lose.
pub fn run(args: &AuditArgs) -> Result<(), Failure> {
    let mut named: Vec<(Box<dyn Bot + Send>, &'static [Published])> = Vec::new();
    for name in &args.bots {
        let bot = bots::from_spec(name).map_err(|error| Failure::usage(error.message))?;
        let published = bots::CATALOG
            .iter()
            .find(|info| info.name == name)
            .map_or(&[][..], |info| info.published);
        named.push((bot, published));
    }
    if args.name.len() > args.cmd.len() {
        return Err(Failure::usage(format!(
            "{} --name for {} --cmd: give one name per external bot, in order",
            args.name.len(),
            args.cmd.len()
        )));
    }
    for (i, command) in args.cmd.iter().enumerate() {
        if command.trim().is_empty() {
            return Err(Failure::usage(
                "--cmd needs a command, e.g. --cmd \"python3 bot.py\"",
            ));
        }
        let name = args.name.get(i).unwrap_or(command);
        let timeout = Duration::from_millis(args.timeout_ms);
        let bot = bots::External::new(name.clone(), command.clone(), timeout)
            .with_startup(Duration::from_millis(args.startup_ms));
        named.push((Box::new(bot), &[]));
    }
    // Every side audited before a protocol error stays proven: it is printed, then the error.
    let mut audits = Vec::new();
    let mut stopped: Option<(BotError, Vec<String>)> = None;
    for (mut bot, published) in named {
        let name = bot.name().to_string();
        let mut sides = Vec::new();
        if stopped.is_none() {
            for &side in args.side.players() {
                match audit(bot.as_mut(), side) {
                    Ok(report) => sides.push(report),
                    Err(error) => {
                        stopped = Some((error, Vec::new()));
                        break;
                    }
                }
            }
        }
        if let Some((_, left)) = &mut stopped {
            let done = sides.len();
            left.extend(
                args.side.players()[done..]
                    .iter()
                    .map(|side| format!("{} as {side}", escape(&name))),
            );
        }
        if !sides.is_empty() {
            audits.push(BotAudit {
                bot: name,
                sides,
                published,
            });
        }
    }
    let mut out = super::stdout();
    match args.format {
        Format::Json => {
            let error = stopped.as_ref().map(|(error, _)| error.message.as_str());
            let json = AuditJson {
                bots: &audits,
                error,
            };
            serde_json::to_writer(&mut out, &json).map_err(io::Error::from)?;
            writeln!(out)?;
        }
        Format::Text => {
            let style = Style::for_stdout();
            if !audits.is_empty() {
                for line in text(&audits, style) {
                    writeln!(out, "{line}")?;
                }
                writeln!(out)?;
            }
            if let Some((_, left)) = &stopped {
                writeln!(
                    out,
                    "{}",
                    style.strong(&format!(
                        "Not audited, after a protocol error (below): {}.",
                        left.join(", ")
                    ))
                )?;
            }
        }
    }
    if let Some((error, _)) = stopped {
        return Err(Failure::protocol(error));
    }
    let losers: Vec<String> = audits
        .iter()
        .flat_map(|a| {
            a.sides
                .iter()
                .filter(|s| !s.never_loses())
                .map(move |s| format!("{} as {}", escape(&a.bot), s.side))
        })
        .collect();
    if losers.is_empty() {
        Ok(())
    } else {
        Err(Failure::negative(format!(
            "can lose: {}",
            losers.join(", ")
        )))
    }
}

fn percent(r: Ratio) -> String {
    format!("{:.2}%", r.to_f64() * 100.0)
}

fn cells(moves: &[Cell]) -> String {
    moves
        .iter()
        .map(Cell::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn text(audits: &[BotAudit], style: Style) -> Vec<String> {
    let mut lines = Vec::new();
    let names: Vec<String> = audits.iter().map(|a| escape(&a.bot)).collect();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(3)
        .max(3);
    lines.push(style.strong(&format!(
        "{:width$}  side  {:11}  {:>7}  {:>8}  {:>20}  {:>6}  {:>7}  {}",
        "bot",
        "verdict",
        "lost",
        "shortest",
        "blunders W>D W>L D>L",
        "slow",
        "illegal",
        "vs random:  win     draw    loss    illegal"
    )));
    for (a, name) in audits.iter().zip(&names) {
        for s in &a.sides {
            let verdict = if s.never_loses() {
                style.value(ttt_oracle::Value::Win, &format!("{:11}", "never loses"))
            } else {
                style.value(ttt_oracle::Value::Loss, &format!("{:11}", "CAN LOSE"))
            };
            let shortest = s
                .shortest_loss
                .as_ref()
                .map(|l| format!("{} plies", l.moves.len()))
                .unwrap_or_else(|| "-".to_string());
            let v = &s.vs_random;
            lines.push(format!(
                "{:width$}  {:4}  {verdict}  {:>7}  {:>8}  {:>8} {:>5} {:>5}  {:>6}  {:>7}  {:>15} {:>7} {:>7} {:>7}",
                name,
                s.side.to_string(),
                s.losing_games,
                shortest,
                s.blunders.win_to_draw,
                s.blunders.win_to_loss,
                s.blunders.draw_to_loss,
                s.slow_wins,
                s.illegal_games,
                percent(v.win),
                percent(v.draw),
                percent(v.loss),
                percent(v.illegal),
            ));
        }
    }
    lines.push(String::new());
    lines.push(style.faint(
        "lost: distinct games lost on the board; blunders: moves that lowered the value (win>draw, win>loss, draw>loss); \
         slow: wins kept but not the fastest; illegal: games forfeited by a forbidden move; \
         vs random: exact odds against an opponent moving uniformly at random.",
    ));
    for (a, name) in audits.iter().zip(&names) {
        for s in &a.sides {
            lines.push(String::new());
            lines.push(style.strong(&format!("{name} as {}", s.side)));
            let v = &s.vs_random;
            lines.push(format!(
                "  vs random, exact: win {}  draw {}  loss {}  illegal {}",
                v.win, v.draw, v.loss, v.illegal
            ));
            if let Some(p) = a.published.iter().find(|p| p.side == s.side) {
                let share = |n: u64| format!("{:.2}%", n as f64 * 100.0 / p.games as f64);
                lines.push(format!(
                    "  published, {} games vs {}: win {}  draw {}  loss {} (exact here: win {}  draw {}  loss {}  illegal {})",
                    p.games,
                    p.opponent,
                    share(p.wins),
                    share(p.draws),
                    share(p.losses),
                    percent(v.win),
                    percent(v.draw),
                    percent(v.loss),
                    percent(v.illegal)
                ));
            }
            lines.push(format!(
                "  {} decision points, {} games explored",
                s.decision_points, s.games
            ));
            match &s.shortest_loss {
                Some(line) => {
                    lines.push(format!(
                        "  shortest loss: {}   (replay: ttt analyze --moves \"{}\")",
                        cells(&line.moves),
                        cells(&line.moves)
                    ));
                    lines.extend(draw_game(&line.moves, line.mistake, style));
                }
                None => lines.push("  never loses on the board".to_string()),
            }
            if let Some(line) = &s.shortest_illegal {
                lines.push(format!(
                    "  shortest forfeit: after {} the bot {}",
                    if line.moves.is_empty() {
                        "no moves".to_string()
                    } else {
                        cells(&line.moves)
                    },
                    line.what
                ));
            }
        }
    }
    lines
}

/// The game as a row of boards, one a move; `!` marks the bot's losing mistake.
fn draw_game(moves: &[Cell], mistake: Option<usize>, style: Style) -> Vec<String> {
    let mut board = Board::EMPTY;
    let mut rows: Vec<Vec<String>> = Vec::new();
    for (i, &cell) in moves.iter().enumerate() {
        let mover = board.to_move();
        board = board.play(cell).expect("a reported game replays");
        let squares: [Square; 9] = Cell::ALL.map(|c| match board.get(c) {
            Some(p) if c == cell => Square::new(p.to_string(), style.strong(&p.to_string())),
            Some(p) => Square::new(p.to_string(), p.to_string()),
            None => Square::new(".", style.faint(".")),
        });
        let mark = if Some(i) == mistake { " !" } else { "  " };
        let title = format!("{}. {mover} {cell}{mark}", i + 1);
        let mut block = vec![format!("{title:11}")];
        block.extend(grid(&squares).into_iter().map(|l| format!("{l:11}")));
        rows.push(block);
    }
    let mut lines = Vec::new();
    for chunk in rows.chunks(6) {
        let mut joined = chunk[0].clone();
        for block in &chunk[1..] {
            joined = side_by_side(&joined, block, 2);
        }
        lines.extend(joined.into_iter().map(|l| format!("    {l}")));
    }
    if mistake.is_some() {
        lines.push("    (! marks the bot's losing mistake)".to_string());
    }
    lines
}
