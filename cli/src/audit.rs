//! `ttt audit`: its arguments, and the audits of the bots named, one side after the other or
//! both at once (`audit_jobs`); the report is `audit_report`'s, or `audit_large`'s for a board
//! with no table.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use ttt_oracle::audit::Report;
use ttt_oracle::audit::{AuditBudget, SideReport};
use ttt_oracle::bots::Bot;
use ttt_oracle::{AuditError, AuditOptions, Game, Player};

use super::audit_jobs::{Entry, audit_all};
use super::audit_report::{NAME_IN_TABLE, Stopped, print};
use super::jsonl::JsonLines;
use super::named::{ExternalArgs, Holds, Named};
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
    /// The players, X first.
    pub fn players(self) -> &'static [Player] {
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
    #[arg(value_name = "BOT", value_parser = super::values::BotValues, hide_possible_values = true)]
    bots: Vec<String>,
    #[command(flatten)]
    external: ExternalArgs,
    /// How many sides of a bot may be audited at once, each on its own thread and an external
    /// bot's by its own process (default: 2 where the machine has two cores or more); 1 audits
    /// X, then O.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=2))]
    jobs: Option<u8>,
    /// Which sides to audit.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Sides::Both)]
    side: Sides,
    /// The game: 3x3 (tic-tac-toe), MxN or MxNkK (see `ttt best --help`). Up to 16 cells,
    /// every move is judged by the game's table, solved first when none is embedded; 17 to 25
    /// cells, by the table `ttt solve --game G` cached, when it has; other boards (up to 128
    /// cells) are audited without a table (see --budget).
    #[arg(short = 'g', long, value_name = "GAME", default_value = "3x3", value_parser = super::values::GameValues, hide_possible_values = true)]
    game: Game,
    /// Output format.
    #[arg(short = 'f', long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
    /// Also write every distinct game the bots lose or forfeit to FILE, one JSON object a
    /// line, bots in order, X before O. "-" is standard output, which then holds the games
    /// alone: no report, and the exit code gives the verdict. FILE is written as `ttt export
    /// -o` writes (a regular file replaced atomically, and left as it was when anything fails).
    #[arg(long, value_name = "FILE")]
    losing_games: Option<PathBuf>,
    /// Also write every mistake of the bots (each move that lowered the value, or kept a win
    /// but not the fastest, once per position and move) to FILE, one JSON object a line, bots
    /// in order, X before O; written as --losing-games writes, "-" as there.
    #[arg(long, value_name = "FILE")]
    mistakes: Option<PathBuf>,
    /// After auditing an external bot on a game with a table, ask it again one request at a
    /// time, each written once the last is answered, by a fresh process, along its shortest
    /// loss and forfeit and N games drawn with a fixed seed; an answer that differs from the
    /// audit's is the verdict "answers differently" (exit 1). 0 asks nothing again.
    #[arg(long, value_name = "N", default_value_t = ttt_oracle::audit::RECHECK_GAMES as u32, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    recheck: u32,
    /// The seed of the games --recheck draws; by default a fresh one each audit, so that a bot
    /// cannot learn them from one audit to the next (the JSON gives the seed used).
    #[arg(long, value_name = "SEED")]
    recheck_seed: Option<u64>,
    #[command(flatten)]
    large: super::audit_large::LargeArgs,
}

/// Audits `bot` as `options` say, on a game that it plays and which has a table (both checked
/// before any audit).
fn audit(bot: &mut dyn Bot, options: &AuditOptions) -> Result<SideReport, AuditError> {
    match ttt_oracle::audit(bot, options)? {
        Report::Solved(report) => Ok(report),
        Report::Searched(_) => unreachable!("{} has a table", options.game),
    }
}

/// Refuses `--recheck N` or `--recheck-seed` given to `ttt audit` or `ttt match` (whose
/// `--recheck` is `recheck`) when none of `bots` is external: nothing would be asked again.
/// `done` says what none of them does there ("is audited").
pub(super) fn no_recheck_without_external(
    recheck: u32,
    bots: &[Named],
    done: &str,
) -> Result<(), Failure> {
    match recheck_given(recheck) {
        Some(option) if bots.iter().all(|bot| bot.command.is_none()) => {
            Err(Failure::usage(format!(
                "{option} is for re-asking external bots (--cmd) one request at a time, and none \
             {done} here: a built-in bot's answers come from this program"
            )))
        }
        _ => Ok(()),
    }
}

/// `--recheck N` (N > 0) or `--recheck-seed`, when the command line gives one of them.
fn recheck_given(recheck: u32) -> Option<&'static str> {
    if super::given("recheck") && recheck > 0 {
        Some("--recheck")
    } else if super::given("recheck_seed") {
        Some("--recheck-seed")
    } else {
        None
    }
}

/// Audits every bot named, prints the report, and fails (exit 1, quietly: the report's last
/// line says why) if any side can lose, breaks the rules or answers differently when asked
/// again one request at a time.
pub fn run(args: &AuditArgs) -> Result<(), Failure> {
    if !args.game.has_table() && !super::any_game::cached(args.game)? {
        return run_large(args, args.game);
    }
    if args.bots.is_empty() && args.external.is_empty() {
        return Err(Failure::usage(
            "name at least one bot to audit: a built-in one (`ttt bots` lists them) or \
             --cmd COMMAND",
        ));
    }
    let bots = args.external.named(&args.bots)?;
    no_recheck_without_external(args.recheck, &bots, "is audited")?;
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
        usize::from,
    );
    let at_once = jobs > 1 && args.side == Sides::Both;
    let game = args.game;
    let mut named = Vec::new();
    for bot in &bots {
        named.push(Entry::new(&args.external, bot, game, at_once)?);
    }
    if game != Game::TIC_TAC_TOE && game.has_table() {
        // Solved before the audits, with a note on a terminal, rather than inside the first.
        super::any_game::oracle_of(game)?;
    }
    if let (Some(games), Some(mistakes)) = (&args.losing_games, &args.mistakes) {
        if super::jsonl::same_file(games, mistakes) {
            let what = match games.as_os_str() == "-" {
                true => "standard output (\"-\")".to_string(),
                false => ttt_oracle::text::quote(&games.display().to_string()),
            };
            return Err(Failure::usage(format!(
                "--losing-games and --mistakes cannot both write to {what}: one would replace \
                 the other; give them two files"
            )));
        }
    }
    // Opened before the audits, so that a FILE that cannot be written is refused at once.
    let losing = JsonLines::open(args.losing_games.as_deref())?;
    let mistakes = JsonLines::open(args.mistakes.as_deref())?;
    // Every mistake for the file; as many as the JSON lists, or the text draws, otherwise.
    let keep = match (&mistakes, args.format) {
        (Some(_), _) => usize::MAX,
        (None, Format::Json) => ttt_oracle::audit::Mistakes::LISTED,
        (None, _) => ttt_oracle::audit::Mistakes::DRAWN,
    };
    if game != Game::TIC_TAC_TOE {
        let walks = if at_once { 2 } else { 1 };
        super::budget_fits(args.large.budget, super::BYTES_A_HISTORY, walks)?;
    }
    // Every side audited before a protocol error stays proven: it is printed, then the error.
    let budget = AuditBudget::of(args.large.budget as usize);
    let sides = args.side.players();
    let estimated = refused_up_front(&mut named, game, sides);
    let audit = |bot: &mut dyn Bot, side| {
        // Made and passed before any audit began.
        let estimated = estimated.as_ref().is_ok_and(|&passed| passed);
        let options = AuditOptions {
            budget,
            mistakes: keep,
            recheck: args.recheck as usize,
            recheck_seed: args.recheck_seed,
            estimated,
            ..AuditOptions::new(game, side)
        };
        audit(bot, &options)
    };
    let (audits, stopped) = match estimated {
        Err(stopped) => (Vec::new(), Some(stopped)),
        Ok(_) => {
            let audited = audit_all(&mut named, sides, NAME_IN_TABLE, true, audit);
            let stopped = audited
                .stopped
                .map(|(error, holds, left)| Stopped::new(error, holds, left));
            (audited.audits, stopped)
        }
    };
    let to_stdout = losing.as_ref().is_some_and(JsonLines::to_stdout)
        || mistakes.as_ref().is_some_and(JsonLines::to_stdout);
    let printed = match to_stdout {
        // Standard output holds the games, or the mistakes, alone.
        true => Ok(()),
        false => print(game, &audits, stopped.as_ref(), args.format),
    };
    if let Some(stopped) = stopped {
        // The error is the answer even when the report could not be written.
        if let Err(failure) = Failure::reader_stopped(printed) {
            super::report(&failure);
        }
        return Err(stopped.failure);
    }
    // A reader that stops early (`| head`) changes nothing of the verdict.
    Failure::reader_stopped(printed)?;
    if let Some(mistakes) = mistakes {
        let sides = audits
            .iter()
            .flat_map(|a| a.sides.iter().map(move |side| (a.name.as_str(), side)));
        Failure::reader_stopped(super::mistakes::write(mistakes, game, sides))?;
    }
    if let Some(losing) = losing {
        let auditors = named.iter_mut().flat_map(|entry| entry.auditors(sides));
        let written = super::losing_games::write(losing, game, auditors.collect(), budget);
        Failure::reader_stopped(written)?;
    }
    let all_never_lose = audits
        .iter()
        .flat_map(|a| &a.sides)
        .all(SideReport::never_loses);
    if all_never_lose {
        Ok(())
    } else {
        Err(Failure::quiet(1))
    }
}

/// On a game of 17 to 25 cells (a table `ttt solve` cached), every side of every bot
/// estimated before any audit begins: the first too large for memory stops them all, in
/// seconds rather than after another side's minutes. `Ok(true)` when every estimate was made
/// and passed, so that the audits need not make them again.
fn refused_up_front(named: &mut [Entry], game: Game, sides: &[Player]) -> Result<bool, Stopped> {
    if game.has_table() {
        return Ok(false);
    }
    let mut all_passed = true;
    for entry in named.iter_mut() {
        for &side in sides {
            let options = AuditOptions::new(game, side);
            match ttt_oracle::audit::estimate(entry.bot.as_mut(), &options) {
                Ok(()) => {}
                Err(error @ AuditError::WouldPassMemory(_)) => {
                    let holds = Holds::of(entry.bot.as_ref());
                    let left = named.iter().flat_map(|entry| entry.sides_named(sides));
                    return Err(Stopped::new(error, holds, left.collect()));
                }
                // Anything else is met again, and reported, by the audit itself.
                Err(_) => all_passed = false,
            }
        }
    }
    Ok(all_passed)
}

/// Why `game`, which has no table here, has none: how to make one, or that tables stop.
fn no_table(game: Game) -> String {
    match game.cells() <= Game::MAX_TIER_CELLS {
        true => format!("{game} has no table solved yet: make one with `ttt solve --game {game}`"),
        false => format!(
            "{game} has {} cells: tables stop at {}, or {} solved by `ttt solve`",
            game.cells(),
            Game::MAX_TABLE_CELLS,
            Game::MAX_TIER_CELLS
        ),
    }
}

/// `ttt audit --game G` for a game with no table, audited without one.
fn run_large(args: &AuditArgs, game: ttt_oracle::Game) -> Result<(), Failure> {
    if args.losing_games.is_some() {
        return Err(Failure::usage(format!(
            "--losing-games lists the games of an audit judged by a table, and {}",
            no_table(game)
        )));
    }
    if args.mistakes.is_some() {
        return Err(Failure::usage(format!(
            "--mistakes needs a table to judge each move by, and {}",
            no_table(game)
        )));
    }
    if let Some(option) = recheck_given(args.recheck) {
        return Err(Failure::usage(format!(
            "{option} is for re-asking an external bot along games judged by a table, and {}",
            no_table(game)
        )));
    }
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
        usize::from,
    );
    super::audit_large::run(super::audit_large::Request {
        bots: &args.bots,
        external: &args.external,
        sides: args.side.players(),
        format: args.format,
        jobs,
        game,
        budget: args.large.budget,
    })
}
