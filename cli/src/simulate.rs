//! `ttt simulate`: sampled games against a random opponent, beside the audit's exact odds.

use std::io::Write;

use clap::Args;
use serde::Serialize;
use ttt_oracle::audit::{AuditBudget, Difference, Recheck, odds_tableless};
use ttt_oracle::bots::{self, BotError, Published};
use ttt_oracle::text::{escape, fit, grouped, percent};
use ttt_oracle::{
    AuditOptions, Game, Player, Ratio, SplitMix64,
    simulate::{Rate, SimulateOptions, Tally, simulate_with_progress},
};

use super::audit::Sides;
use super::named::{ExternalArgs, Named};
use super::progress::Progress;
use super::{Failure, Format};

/// How many columns of the bot's name the heading shows.
const NAME_IN_HEADING: usize = 40;

/// Arguments of `ttt simulate`.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The bot: a built-in name, casual:P, epsilon:P or cmd:COMMAND (see `ttt bots`); or
    /// --cmd COMMAND instead.
    #[arg(value_name = "BOT", value_parser = super::values::BotValues, hide_possible_values = true)]
    bot: Option<String>,
    #[command(flatten)]
    external: ExternalArgs,
    /// How many games to play on each side.
    #[arg(long, value_name = "N", default_value_t = 50_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    games: u64,
    /// Seed the random choices of both players, to replay the same games (default: a seed
    /// from the clock, printed with the results).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Which side the bot plays (`--side` is accepted too, as `ttt audit` names it).
    #[arg(long = "as", alias = "side", value_enum, ignore_case = true, default_value_t = Sides::Both)]
    side: Sides,
    /// Output format.
    #[arg(short = 'f', long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
    /// The game: 3x3 (the default), or another m,n,k game the bot plays, such as 5x5 to 11x11
    /// for marcelo.
    #[arg(short = 'g', long, value_name = "G", default_value_t = Game::TIC_TAC_TOE, value_parser = super::values::GameValues, hide_possible_values = true)]
    game: Game,
    /// For a game other than 3x3: how many distinct states the audit that works out the exact
    /// odds may hold; beyond, the odds are not given.
    #[arg(long, value_name = "STATES", default_value_t = AuditBudget::DEFAULT.states as u32, value_parser = clap::value_parser!(u32).range(1..=1_000_000_000))]
    budget: u32,
}

/// One side's games, and what the audit says they should give.
struct SideResult {
    side: Player,
    tally: Tally,
    /// The exact odds, unless the audit outgrew its budget or the bot answered it otherwise
    /// than one request at a time.
    exact: Option<Chances>,
    /// What asking the bot again one request at a time after its audit found.
    recheck: Option<Box<Recheck>>,
    published: Option<Published>,
}

/// The exact chance of each end, in the order of [`ENDS`].
type Chances = [Ratio; 4];

/// The four ends, in the order of every report.
const ENDS: [&str; 4] = ["win", "draw", "loss", "forfeit"];

impl SideResult {
    /// The first answer that differed when the bot was asked again one request at a time.
    fn difference(&self) -> Option<&Difference> {
        self.recheck.as_ref()?.difference.as_ref()
    }

    fn answers_differently(&self) -> bool {
        self.difference().is_some()
    }

    /// The sampled rate of each end.
    fn rates(&self) -> [Rate; 4] {
        let t = &self.tally;
        [t.wins, t.draws, t.losses, t.forfeits].map(|count| Rate {
            count,
            games: t.games(),
        })
    }
}

/// Plays the games, works out the exact odds, and prints both.
pub fn run(args: &SimulateArgs) -> Result<(), Failure> {
    let names: Vec<String> = args.bot.iter().cloned().collect();
    let named = args.external.named(&names)?;
    let bot = match named.as_slice() {
        [bot] => bot,
        [] => {
            return Err(Failure::usage(
                "name the bot to simulate: a built-in one (`ttt bots` lists them) or --cmd \
                 COMMAND",
            ));
        }
        _ => {
            return Err(Failure::usage(format!(
                "ttt simulate plays one bot at a time, and {} were named",
                named.len()
            )));
        }
    };
    let seed = args
        .seed
        .unwrap_or_else(|| SplitMix64::from_entropy().next_u64());
    args.external
        .make(bot)?
        .plays(args.game)
        .map_err(|error| Failure::usage(error.message))?;
    // The author's figures are of games of tic-tac-toe.
    let published = bots::CATALOG
        .iter()
        .find(|info| bot.command.is_none() && info.name == bot.name)
        .filter(|_| args.game == Game::TIC_TAC_TOE)
        .map_or(&[][..], |info| info.published);
    if args.game != Game::TIC_TAC_TOE {
        super::budget_fits(args.budget, super::bytes_a_state(args.game), 1)?;
    }
    let mut results = Vec::new();
    for &side in args.side.players() {
        let (exact, recheck) = exact(args, bot, side)?;
        results.push(SideResult {
            side,
            exact,
            recheck,
            tally: sampled(args, bot, side, stream(seed, side))?,
            published: published.iter().find(|p| p.side == side).copied(),
        });
    }
    let printed = (|| {
        let mut out = super::stdout();
        match args.format {
            Format::Text => write!(
                out,
                "{}",
                text(&bot.name, args.game, args.games, seed, &results)
            )?,
            Format::Json => {
                let json = json(&bot.name, args.game, args.games, seed, &results);
                super::json_line(&mut out, &json)?;
            }
        }
        Ok(out.flush()?)
    })();
    // A reader that stops early changes nothing of the answer.
    Failure::reader_stopped(printed)?;
    // The audit's odds were of answers the bot does not give in a game (the notes say so).
    match results.iter().any(SideResult::answers_differently) {
        true => Err(Failure::quiet(1)),
        false => Ok(()),
    }
}

/// The seed of `side`'s games: a stream of its own for each side, so that `--as o` replays
/// the O games of a run of both sides with the same seed.
fn stream(seed: u64, side: Player) -> u64 {
    match side {
        Player::X => seed,
        // Any fixed constant will do: the two sides' streams start far apart.
        Player::O => seed ^ 0x6a09_e667_f3bc_c909,
    }
}

/// How many columns of the bot's name a progress line shows.
const NAME_IN_PROGRESS: usize = 28;

/// The exact chances of each end against a uniformly random opponent, from an audit of a
/// fresh copy of the bot, with the audit's progress line on a terminal; and on tic-tac-toe,
/// what asking it again one request at a time found (no chances when an answer differed).
fn exact(
    args: &SimulateArgs,
    bot: &Named,
    side: Player,
) -> Result<(Option<Chances>, Option<Box<Recheck>>), Failure> {
    let mut fresh = args.external.make(bot)?;
    let label = format!("{} (exact odds)", fit(&escape(&bot.name), NAME_IN_PROGRESS));
    let progress = Progress::start(&label, &side.to_string());
    let mut counted = progress.count(fresh.as_mut());
    // The walk without a table asks one request at a time, in the order of a game.
    let odds = if args.game == Game::TIC_TAC_TOE {
        let options = AuditOptions::new(Game::TIC_TAC_TOE, side);
        ttt_oracle::audit(&mut counted, &options).map(|report| match report.solved() {
            Some(report) if report.verdict().answers_differently() => {
                (None, report.recheck.clone())
            }
            Some(report) => (Some(report.vs_random), report.recheck.clone()),
            None => (None, None),
        })
    } else {
        let budget = AuditBudget::of(args.budget as usize);
        odds_tableless(&mut counted, args.game, side, budget).map(|odds| (odds, None))
    };
    progress.finish();
    let odds = odds.map_err(|error| match error {
        ttt_oracle::AuditError::OverMemory(over) => Failure::memory(
            over,
            "raise --max-memory, or lower --budget (the states its exact odds hold)",
        ),
        ttt_oracle::AuditError::Bot(error) => Failure::protocol(during("its audit", error)),
        other => Failure::protocol(during(
            "its audit",
            ttt_oracle::bots::BotError {
                message: other.to_string(),
            },
        )),
    })?;
    let (odds, recheck) = odds;
    Ok((
        odds.map(|odds| [odds.win, odds.draw, odds.loss, odds.illegal]),
        recheck,
    ))
}

/// The sampled games, with a progress line on a terminal.
fn sampled(args: &SimulateArgs, bot: &Named, side: Player, seed: u64) -> Result<Tally, Failure> {
    let mut fresh = args.external.make(bot)?;
    let name = fit(&escape(&bot.name), NAME_IN_PROGRESS);
    let progress = Progress::start_games(&name, &side.to_string(), args.games);
    let options = SimulateOptions {
        game: args.game,
        side,
        games: args.games,
        seed,
    };
    let tally = simulate_with_progress(fresh.as_mut(), &options, &mut |played| {
        progress.played(played);
    });
    progress.finish();
    tally.map_err(|error| Failure::protocol(during("the games", error)))
}

/// `error`, saying in which part of the simulation it came.
fn during(part: &str, error: BotError) -> BotError {
    BotError {
        message: format!("{} (during {part})", error.message),
    }
}

/// How far a rate lies from its exact value, in standard errors, signed.
fn apart(rate: &Rate, exact: Ratio) -> String {
    match rate.standard_errors(exact.to_f64()) {
        Some(z) if z.abs() < 0.05 => "0.0 se".to_string(),
        Some(z) => format!("{z:+.1} se"),
        None => "impossible".to_string(),
    }
}

/// The report for people: a table a side, with the author's published rates where there are
/// some.
fn text(name: &str, game: Game, games: u64, seed: u64, results: &[SideResult]) -> String {
    let name = fit(&escape(name), NAME_IN_HEADING);
    // The counts' column holds the largest count, the number of games.
    let width = grouped(games).len().max(7);
    let mut out = String::new();
    let mut authors = None;
    let mut impossible = false;
    let mut unknown = false;
    for (i, result) in results.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let noun = if games == 1 { "game" } else { "games" };
        let on = if game == Game::TIC_TAC_TOE {
            String::new()
        } else {
            format!(" on {game}")
        };
        out.push_str(&format!(
            "{name} as {}{on}: {} {noun} against a uniformly random opponent\n",
            result.side,
            grouped(games)
        ));
        let mut heading = format!(
            "         {:>width$}     rate    95% interval        exact       apart",
            "games"
        );
        if result.published.is_some() {
            heading.push_str("  author's     apart");
        }
        out.push_str(&heading);
        out.push('\n');
        for (i, rate) in result.rates().into_iter().enumerate() {
            let exact = result.exact.map(|exact| exact[i]);
            let (low, high) = rate.interval();
            let distance = exact.map_or("-".to_string(), |exact| apart(&rate, exact));
            impossible |= exact.is_some_and(|exact| rate.standard_errors(exact.to_f64()).is_none());
            unknown |= exact.is_none() && !result.answers_differently();
            let mut row = format!(
                "  {:<7} {:>width$} {:>8}  {:>7} to {:>7}  {:>7}  {:>10}",
                ENDS[i],
                grouped(rate.count),
                percent(rate.value()),
                percent(low),
                percent(high),
                exact.map_or("-".to_string(), |exact| percent(exact.to_f64())),
                distance,
            );
            if let Some(p) = &result.published {
                authors = Some(p.games);
                // The author counted no forfeits: the listing lets every turn stand.
                let count = [Some(p.wins), Some(p.draws), Some(p.losses), None][i];
                let (theirs, apart) = count.map_or(("-".to_string(), "-".to_string()), |count| {
                    let rate = Rate {
                        count,
                        games: p.games,
                    };
                    let exact = exact.expect("tic-tac-toe's odds come from its table");
                    (percent(rate.value()), apart(&rate, exact))
                });
                row.push_str(&format!("  {theirs:>8}  {apart:>8}"));
            }
            out.push_str(row.trim_end());
            out.push('\n');
        }
    }
    let mut notes = vec![
        format!("seed {seed}: --seed {seed} plays the same games"),
        "exact: the audit's odds against random".to_string(),
        "apart: the distance from them, in standard errors of that many games".to_string(),
    ];
    if unknown {
        notes.push(
            "-: no exact odds, as the audit outgrew its budget of states (--budget raises it)"
                .to_string(),
        );
    }
    for result in results {
        if let Some(difference) = result.difference() {
            let cells = ttt_oracle::draw::cells;
            let after = match difference.moves.as_slice() {
                [] => "at the start".to_string(),
                moves => format!("after {}", cells(moves)),
            };
            notes.push(format!(
                "-: as {}, no exact odds: asked one request at a time, the bot answers otherwise \
                 than in its audit:\n   {after}, alone it {}; in its audit it {}",
                result.side,
                difference.alone_text(),
                difference.recorded_text()
            ));
        }
    }
    if impossible {
        notes.push(
            "impossible: a result the audit gives no chance at all happened (a bot whose \
             answers change from one run to the next?)"
                .to_string(),
        );
    }
    if let Some(games) = authors {
        notes.push(format!(
            "author's: the rates the bot's author published from {} games (no forfeits: -)",
            grouped(games)
        ));
    }
    out.push('\n');
    out.push_str(&notes.join("\n"));
    out.push('\n');
    out
}

#[derive(Serialize)]
struct SimulationJson<'a> {
    bot: &'a str,
    opponent: &'static str,
    games: u64,
    seed: u64,
    sides: Vec<SideJson>,
    game: String,
}

#[derive(Serialize)]
struct SideJson {
    side: Player,
    games: u64,
    win: EndJson,
    draw: EndJson,
    loss: EndJson,
    forfeit: EndJson,
    published: Option<Published>,
    recheck: Option<Box<Recheck>>,
}

#[derive(Serialize)]
struct EndJson {
    count: u64,
    rate: f64,
    low: f64,
    high: f64,
    exact: Option<f64>,
    exact_fraction: Option<String>,
    standard_errors: Option<f64>,
}

fn json<'a>(
    name: &'a str,
    game: Game,
    games: u64,
    seed: u64,
    results: &[SideResult],
) -> SimulationJson<'a> {
    let sides = results
        .iter()
        .map(|result| {
            let rates = result.rates();
            let [win, draw, loss, forfeit] = std::array::from_fn(|i| {
                let (rate, exact) = (rates[i], result.exact.map(|exact| exact[i]));
                let (low, high) = rate.interval();
                EndJson {
                    count: rate.count,
                    rate: rate.value(),
                    low,
                    high,
                    exact: exact.map(Ratio::to_f64),
                    exact_fraction: exact.map(|exact| exact.to_string()),
                    standard_errors: exact.and_then(|exact| rate.standard_errors(exact.to_f64())),
                }
            });
            SideJson {
                side: result.side,
                games: result.tally.games(),
                win,
                draw,
                loss,
                forfeit,
                published: result.published,
                recheck: result.recheck.clone(),
            }
        })
        .collect();
    SimulationJson {
        bot: name,
        opponent: "random",
        games,
        seed,
        sides,
        game: game.to_string(),
    }
}
