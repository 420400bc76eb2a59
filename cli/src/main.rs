//! `ttt`, the command line of ttt-oracle: one clap tree, one small function per subcommand,
//! each a client of the library's public API.

mod analysis_text;
mod analyze;
mod any_game;
mod audit;
mod audit_jobs;
mod audit_large;
mod audit_recheck;
mod audit_report;
mod bots;
mod export;
mod generate;
mod jsonl;
mod lines;
mod losing_games;
mod map;
mod matchup;
mod mistakes;
mod named;
mod notation;
mod play;
mod progress;
mod review;
mod serve;
mod simulate;
mod size;
mod solve;
mod stats;
mod style;
mod summary;
mod text;
mod usage;
mod values;
mod verify;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use ttt_oracle::Game;
use ttt_oracle::output::{Destination, WriteError};

use style::ColorChoice;

/// Tic-tac-toe and other m,n,k games, solved: perfect play in O(1), bot audits, the table for
/// export.
///
/// Cells are numbered 1..9 row-major (1 2 3 / 4 5 6 / 7 8 9). A board is 9 cells row-major:
/// X and O are marks; '.', '-', '_' or the cell's own digit are empty; '|', '/' and spaces are
/// ignored. No board at all is the empty board.
///
/// Other games of the m,n,k family (M rows, N columns, k in a row wins) with --game (-g) MxN
/// (k = the shorter side) or MxNkK: 3x4, 4x3, 4x4 and 4x4k3 are built in, any other of up to 16
/// cells is solved when first used; play, audit and simulate take larger boards too, up to 128
/// cells (such as 11x11).
#[derive(Debug, Parser)]
#[command(name = "ttt", max_term_width = 100)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
    /// When to colour the output: auto (on a terminal, unless NO_COLOR is set or TERM=dumb;
    /// CLICOLOR_FORCE forces it), always or never.
    #[arg(long, global = true, value_enum, ignore_case = true, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// The most memory the command may hold: bytes, or a number with K, M, G or T (powers of
    /// 1024), e.g. 512M or 2G. By default half the memory available (the least of the cgroup's
    /// room, MemAvailable and `ulimit -v`). Past it, the command stops with exit code 6.
    #[arg(long, global = true, value_name = "SIZE", value_parser = size::parse_size)]
    max_memory: Option<u64>,
    /// The folder of tables solved by `ttt solve`: by default $XDG_CACHE_HOME/ttt-oracle, or
    /// ~/.cache/ttt-oracle.
    #[arg(long, global = true, value_name = "DIR")]
    cache_dir: Option<std::path::PathBuf>,
}

/// The exit codes, the same for every command; shown at the end of every `--help`.
pub(crate) const EXIT_CODES: &str = concat!(
    "Exit codes: 0 success; ",
    "1 a negative answer (audit: a bot can lose, breaks the rules or answers differently; ",
    "verify: a difference); ",
    "2 bad usage or input; ",
    "3 an external bot broke the protocol; ",
    "4 a table is damaged (built into ttt, or cached by ttt solve); ",
    "5 output could not be written; ",
    "6 a memory limit was reached.",
);

/// `ttt best` given no flag (`ttt best BOARD`, a process a move for some game programs),
/// parsed with the tree of `best` alone: building the whole tree, every subcommand and flag,
/// was about half the instructions of the process. Anything else, or anything this tree
/// refuses, goes to the whole tree, which gives help, versions and errors as always; what is
/// parsed here is what the whole tree parses (a test compares them).
fn quick_best() -> Option<(Cli, clap::ArgMatches)> {
    let args: Vec<String> = std::env::args_os()
        .map(|arg| arg.into_string().ok())
        .collect::<Option<_>>()?;
    if args.get(1).map(String::as_str) != Some("best")
        || args[2..].iter().any(|arg| arg.starts_with('-'))
    {
        return None;
    }
    quick_best_from(&args)
}

/// [`quick_best`] on the arguments given, program name first.
fn quick_best_from(args: &[String]) -> Option<(Cli, clap::ArgMatches)> {
    let best = PositionArgs::augment_args(clap::Command::new("best"));
    let matches = clap::Command::new("ttt")
        .subcommand(best)
        .try_get_matches_from(args)
        .ok()?;
    let (_, sub) = matches.subcommand()?;
    let cli = Cli {
        command: Command::Best(PositionArgs::from_arg_matches(sub).ok()?),
        color: ColorChoice::Auto,
        max_memory: None,
        cache_dir: None,
    };
    Some((cli, matches))
}

/// The clap tree as `ttt` runs it: colour as settled, the exit codes under every help, and the
/// version with the embedded table's checksum.
pub(crate) fn clap_command() -> clap::Command {
    let embedded = ttt_oracle::Oracle::of(Game::TIC_TAC_TOE).map(|oracle| oracle.checksum());
    let version = match embedded {
        Ok(Some((format, checksum))) => format!(
            "{} (table format {format}, checksum {checksum:016x})",
            env!("CARGO_PKG_VERSION"),
        ),
        Ok(None) | Err(_) => format!(
            "{} (the embedded table is damaged)",
            env!("CARGO_PKG_VERSION")
        ),
    };
    let mut command = Cli::command()
        .version(version)
        .color(style::clap_choice())
        .after_help(EXIT_CODES)
        // `--recheck -1` is a bad value to explain, not an unknown flag.
        .allow_negative_numbers(true);
    // One pass over the subcommands: `mut_subcommand` by name moves the whole tree once a
    // subcommand, a sixth of the instructions of `ttt best BOARD` before.
    command = command.mut_subcommands(|sub| {
        // `--help` shows `after_long_help` instead of `after_help`: the codes go under both.
        let long = sub
            .get_after_long_help()
            .map(|text| format!("{text}\n\n{EXIT_CODES}"));
        let short = match sub.get_after_help() {
            Some(text) => format!("{text}\n\n{EXIT_CODES}"),
            None => EXIT_CODES.to_string(),
        };
        let sub = sub.after_help(short).allow_negative_numbers(true);
        match long {
            Some(long) => sub.after_long_help(long),
            None => sub,
        }
    });
    command
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show a position's value and what every legal move leads to.
    Analyze(analyze::AnalyzeArgs),
    /// Print the best move for a position: one cell, nothing else.
    Best(PositionArgs),
    /// Audit bots against the table: every game they can face, on each side.
    ///
    /// Exit code 0 when every audited side of every bot never loses, 1 when any can lose,
    /// breaks the rules or answers differently when asked again one request at a time.
    Audit(audit::AuditArgs),
    /// Play bots against each other over every choice of both: the exact odds of each end.
    ///
    /// `ttt match A B` plays A as X against B as O, then B as X against A as O; with --all,
    /// every ordered pair of the bots named, each against itself too.
    Match(matchup::MatchArgs),
    /// Play a bot against a uniformly random opponent many times, and set the rates beside the
    /// exact odds of its audit.
    Simulate(simulate::SimulateArgs),
    /// List the built-in bots and where each was published.
    Bots(bots::BotsArgs),
    /// Export the solved table: every position with its value, remoteness and moves.
    Export(export::ExportArgs),
    /// Play a game in the terminal against the table or any bot (type `help` in the game).
    Play(play::PlayArgs),
    /// Judge every move of a game against the table: a row a ply, then each mistake drawn.
    ///
    /// Exit code 0 whenever the review is printed, mistakes or not.
    Review(review::ReviewArgs),
    /// Serve a web page to play, analyse and review games, and its JSON API, on 127.0.0.1.
    ///
    /// Ctrl-C stops it. The API is described in docs/web.md.
    Serve(serve::ServeArgs),
    /// Draw the map of perfect play as SVG: the perfect move on each board, every reply of
    /// the opponent a smaller board inside it, to the end of every game (after xkcd 832).
    Map(map::MapArgs),
    /// Count positions, outcomes, values, games and game-tree nodes.
    Stats(stats::StatsArgs),
    /// Solve a game of 17 to 25 cells into the cache folder, where every --game command
    /// finds it: tier by tier on every core, going on where a stopped solve left off.
    Solve(solve::SolveArgs),
    /// Solve the game again from scratch and compare it with the embedded table.
    Verify(verify::VerifyArgs),
    /// Print a completion script for a shell (its help says where to put it).
    Completions(generate::CompletionsArgs),
    /// Print the man page, ttt(1): every command, the exit codes, JSON keys and the bot
    /// protocol (its help says where to put it).
    #[command(after_help = generate::WHERE_THE_PAGE_GOES)]
    Man,
}

/// A position, given as a board or as the moves that led to it (neither: the empty board), or
/// `-` for one a line from standard input; and how to print the answer.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("position").args(["board", "moves"])))]
pub(crate) struct PositionArgs {
    /// The board: 9 cells row-major, e.g. "X...O...." or "X2X4O6O8X"; with no board and no
    /// --moves, the empty board. "-" reads one board a line from standard input and answers
    /// each line at once (batch mode, for programs).
    board: Option<String>,
    /// The moves from the empty board instead, X first: cells 1..9 separated by spaces or
    /// commas, e.g. "5 1 9". "-" reads one move list a line from standard input.
    #[arg(short = 'm', long, value_name = "LIST", allow_hyphen_values = true)]
    moves: Option<String>,
    /// Output format: text, or json for one compact JSON document a line.
    #[arg(short = 'f', long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
    /// The game: 3x3 (tic-tac-toe), MxN (M rows, N columns, k = the shorter side) or MxNkK,
    /// up to 16 cells. 3x4, 4x3, 4x4 and 4x4k3 are embedded; others are solved first. Games
    /// of 17 to 25 cells once `ttt solve --game G` has cached their table.
    #[arg(short = 'g', long, value_name = "GAME", default_value = "3x3", value_parser = values::GameValues, hide_possible_values = true)]
    game: Game,
}

impl PositionArgs {
    /// How the position is written and the text given; `-` asks for batch mode.
    fn given(&self) -> (analyze::Notation, &str) {
        match (&self.board, &self.moves) {
            (Some(text), _) => (analyze::Notation::Board, text),
            (None, Some(list)) => (analyze::Notation::Moves, list),
            // No position: the empty board, the game before its first move.
            (None, None) => (analyze::Notation::Moves, ""),
        }
    }

    /// `Some(notation)` in batch mode (the board or the move list is `-`): one position a line
    /// from standard input, each written that way.
    fn batch(&self) -> Option<analyze::Notation> {
        match self.given() {
            (notation, "-") => Some(notation),
            _ => None,
        }
    }
}

/// How a command prints its answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people: aligned, coloured on a terminal.
    #[default]
    Text,
    /// For programs: one JSON document, keys documented in `ttt man`.
    Json,
}

/// Why a command stopped: the message for standard error and the exit code.
#[derive(Debug)]
pub(crate) struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    pub fn with_code(code: u8, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }

    /// Bad input from the user: exit code 2.
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure::with_code(2, message)
    }

    /// A check that came out negative: exit code 1.
    pub fn negative(message: impl Into<String>) -> Failure {
        Failure::with_code(1, message)
    }

    /// A reader that closed the pipe before the end (`ttt export | head -1`): it chose to stop,
    /// so the command stops without a word, and its exit code is its own answer (0, or the
    /// verdict of an audit or a verify, which go on to give it: see [`Failure::reader_stopped`]).
    /// Output lost against the user's will (a full disk, the file size limit, a closed or
    /// failing descriptor) stays exit code 5.
    fn reader_gone() -> Failure {
        Failure::quiet(0)
    }

    /// Whether this is [`Failure::reader_gone`].
    pub fn is_reader_gone(&self) -> bool {
        self.code == 0
    }

    /// `written`, the output of a command that gives an answer after it (an audit's verdict):
    /// `Ok` when the reader stopped early, so that the answer is still given.
    pub fn reader_stopped(written: Result<(), Failure>) -> Result<(), Failure> {
        match written {
            Err(failure) if failure.is_reader_gone() => Ok(()),
            written => written,
        }
    }

    /// An answer already printed in full, given by the exit code alone: no error line.
    pub fn quiet(code: u8) -> Failure {
        Failure::with_code(code, "")
    }

    /// What went wrong, for standard error.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Output that could not be written, wherever it went: exit code 5.
    pub fn output(message: impl Into<String>) -> Failure {
        Failure::with_code(5, message)
    }

    /// An external bot that broke the protocol: exit code 3.
    pub fn protocol(error: ttt_oracle::bots::BotError) -> Failure {
        Failure::with_code(3, error.message)
    }

    /// A walk, solve or export that would hold more than the memory limit: exit code 6, with
    /// the limit, where it comes from, and `change`, what to change to stay within it.
    pub fn memory(over: ttt_oracle::memory::OverMemory, change: &str) -> Failure {
        Failure::with_code(
            6,
            format!(
                "stopped before passing the memory limit, {} ({}): {change}",
                ttt_oracle::memory::Size(over.limit),
                memory_whence()
            ),
        )
    }

    /// An audit or a match over the memory limit: [`Failure::memory`], with what bounds the
    /// memory of the bot's walk.
    pub fn audit_memory(over: ttt_oracle::memory::OverMemory, holds: named::Holds) -> Failure {
        Failure::memory(over, holds.memory_advice())
    }

    /// An audit not begun, as its walk was estimated to pass the memory limit: exit code 6,
    /// with the estimate and a limit that would do.
    pub fn memory_estimate(estimate: &ttt_oracle::audit::Estimate) -> Failure {
        Failure::with_code(
            6,
            format!(
                "{estimate} ({}): not begun; --max-memory {} would do, if the machine has that \
                 much",
                memory_whence(),
                size::round_up(estimate.enough())
            ),
        )
    }

    /// The table built into this binary is damaged: exit code 4, whatever the command.
    pub fn damaged(error: &str) -> Failure {
        Failure::with_code(
            4,
            format!("the embedded table is damaged: {error}; rebuild ttt"),
        )
    }
}

/// Whether a write failed because its reader went away: a closed pipe, or a socket its peer
/// closed (a TCP reader that stops early resets the connection).
fn reader_went_away(kind: io::ErrorKind) -> bool {
    matches!(
        kind,
        io::ErrorKind::BrokenPipe | io::ErrorKind::ConnectionReset
    )
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Failure {
        // Input that cannot be read (`ttt play < /`) is bad input, not failed output.
        if let Some(reading) = error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<lines::ReadingInput>())
        {
            return Failure::usage(reading.to_string());
        }
        // Every other I/O error a command returns is from writing its answer, and a command
        // writes its answer to standard output (files go through `WriteError`).
        if reader_went_away(error.kind()) {
            return Failure::reader_gone();
        }
        Failure::output(format!("cannot write standard output: {error}"))
    }
}

/// Whether the memory limit was given with `--max-memory` rather than worked out.
static MEMORY_GIVEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Sets the limit every command keeps to: `--max-memory`, or by default
/// [`DEFAULT_SHARE`](ttt_oracle::memory::DEFAULT_SHARE) of the memory available.
fn limit_memory(given: Option<u64>) {
    MEMORY_GIVEN.store(given.is_some(), std::sync::atomic::Ordering::Relaxed);
    ttt_oracle::memory::fit_address_space();
    ttt_oracle::memory::set_limit(given.or_else(ttt_oracle::memory::default_limit));
}

/// The options of the subcommand that the command line gave, rather than left at their
/// defaults (by their clap ids: `budget`, `recheck`...).
static GIVEN: once_cell::sync::OnceCell<Vec<String>> = once_cell::sync::OnceCell::new();

/// Whether the command line gave the option `id` rather than left it at its default.
pub(crate) fn given(id: &str) -> bool {
    GIVEN
        .get()
        .is_some_and(|ids| ids.iter().any(|given| given == id))
}

/// What a walk holds for each history of a bot asked about each on its own, in an audit's
/// lists and a match's (554 MB and 691 MB measured at most for 4,000,000; see
/// docs/performance.md).
pub(crate) const BYTES_A_HISTORY: (u64, &str) = (170, "history");

/// What a walk without a table holds for each state, or a search for each question, on
/// `game`: some 220 bytes on 5x5, 1 KB on 11x11 (see `AuditBudget`).
pub(crate) fn bytes_a_state(game: Game) -> (u64, &'static str) {
    (8 * game.cells() as u64 + 20, "state")
}

/// Refuses (exit 2) a `--budget` given on the command line whose walks cannot fit in the
/// memory limit, `at_once` walks holding `bytes_each` bytes for each `unit` of the budget, and
/// says the largest that fits. A budget left at its default is not refused: the walks then
/// stop at the limit, if they reach it, with exit code 6.
pub(crate) fn budget_fits(
    budget: u32,
    (bytes_each, unit): (u64, &str),
    at_once: u64,
) -> Result<(), Failure> {
    let (Some(limit), true) = (ttt_oracle::memory::limit(), given("budget")) else {
        return Ok(());
    };
    // The limit alone, not less what is held at the start (a few megabytes, within what the
    // figures leave): the largest budget that fits is then the same on every run.
    let each = bytes_each * at_once;
    if u64::from(budget) * each <= limit {
        return Ok(());
    }
    let sides = match at_once {
        1 => String::new(),
        n => format!(", on each of {n} sides audited at once"),
    };
    Err(Failure::usage(format!(
        "--budget {budget} does not fit in the memory limit, {} ({}): a walk holds about \
         {bytes_each} bytes a {unit}{sides}; the largest budget that fits is {}",
        ttt_oracle::memory::Size(limit),
        memory_whence(),
        ttt_oracle::text::grouped(limit / each)
    )))
}

/// Where the memory limit comes from, as an error message says it.
fn memory_whence() -> &'static str {
    match MEMORY_GIVEN.load(std::sync::atomic::Ordering::Relaxed) {
        true => "--max-memory",
        false => "half the memory available; --max-memory sets another",
    }
}

/// Standard output, for a command's whole output: see [`ttt_oracle::output::StandardOutput`].
pub(crate) use ttt_oracle::output::StandardOutput as Stdout;

/// Standard output, locked; a write fails when it was closed as `ttt` started.
pub(crate) fn stdout() -> Stdout {
    ttt_oracle::output::standard_output()
}

/// Writes `value` to `out` as one line of JSON.
pub(crate) fn json_line(mut out: impl Write, value: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut out, value)?;
    writeln!(out)
}

/// A game with no table: bad usage (too large, or nothing embedded to check); a damaged
/// embedded table stops with exit code 4.
impl From<ttt_oracle::TableError> for Failure {
    fn from(error: ttt_oracle::TableError) -> Failure {
        match error {
            ttt_oracle::TableError::Damaged { .. } => {
                Failure::with_code(4, format!("{error}; rebuild ttt"))
            }
            ttt_oracle::TableError::DamagedFile { .. } | ttt_oracle::TableError::InUse { .. } => {
                Failure::with_code(4, error.to_string())
            }
            ttt_oracle::TableError::OverMemory { game, needs, over } => Failure::memory(
                over,
                &format!(
                    "solving game {game} holds about {}; raise --max-memory",
                    ttt_oracle::memory::Size(needs)
                ),
            ),
            _ => Failure::usage(error.to_string()),
        }
    }
}

impl From<WriteError> for Failure {
    fn from(error: WriteError) -> Failure {
        // An `-o` path that cannot be opened (a missing directory, a directory) is bad input,
        // exit code 2; output that cannot be written, wherever it goes and whenever it fails
        // (a full disk even as the file is created), is exit code 5.
        if !error.when_opening() && reader_went_away(error.io_error().kind()) {
            return Failure::reader_gone();
        }
        let opening_a_path = matches!(error.destination(), Destination::Path(_))
            && error.when_opening()
            && !ttt_oracle::output::is_full_or_broken(error.io_error());
        if opening_a_path {
            Failure::usage(error.to_string())
        } else {
            Failure::output(error.to_string())
        }
    }
}

/// Every allocation counted, so that commands keep to their memory limit (`--max-memory`).
#[global_allocator]
static ALLOCATOR: ttt_oracle::memory::Counting = ttt_oracle::memory::Counting;

/// Runs `ttt` with the process's arguments.
fn main() -> ExitCode {
    ttt_oracle::shutdown::ignore_file_size_signal();
    // The colour is settled before clap parses, so that its help and errors follow it too.
    style::init(style::scan(std::env::args_os()).unwrap_or_default());
    let quick = quick_best();
    // `ttt best BOARD` answers from tic-tac-toe's embedded arrays: it starts no bot, writes no
    // file, reads no input and holds a fixed few kilobytes, so the default action of a signal
    // ends it as cleanly, and no limit is worked out (a thread that waits for signals and the
    // reading of /proc for the limit were a fifth of its time above `true`).
    let starts_nothing = quick.is_some();
    let parsed = match quick {
        Some(parsed) => Ok(parsed),
        None => clap_command()
            .try_get_matches()
            .and_then(|matches| Ok((Cli::from_arg_matches(&matches)?, matches))),
    };
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => {
            return usage::clap_error(&usage::with_moves_hint(error, std::env::args_os()));
        }
    };
    let given: Vec<String> = matches.subcommand().map_or_else(Vec::new, |(_, sub)| {
        sub.ids()
            .filter(|id| sub.value_source(id.as_str()) == Some(ValueSource::CommandLine))
            .map(|id| id.to_string())
            .collect()
    });
    let _ = GIVEN.set(given);
    if !starts_nothing {
        limit_memory(cli.max_memory);
    }
    if let Some(dir) = &cli.cache_dir {
        ttt_oracle::cache::set_cache_dir(dir.clone());
    }
    // Bots are stopped on every way out: here for signals; by their Drop on a normal end, an
    // error or a panic.
    let handled = if starts_nothing {
        Ok(())
    } else {
        ttt_oracle::shutdown::install()
    };
    if let Err(error) = handled {
        let _ = writeln!(
            io::stderr(),
            "error: cannot set up signal handling: {error}"
        );
        return ExitCode::from(1);
    }
    let outcome = std::panic::catch_unwind(|| run(cli));
    ttt_oracle::shutdown::cleanup();
    // A signal that came while the work was ending ends the program by that signal, as it
    // would have a moment earlier: the signal thread is on its way.
    while ttt_oracle::shutdown::stopping() {
        std::thread::park();
    }
    match outcome {
        Ok(code) => code,
        // The panic's message is already on standard error.
        Err(_) => ExitCode::from(101),
    }
}

fn run(cli: Cli) -> ExitCode {
    // A damaged table stops every command that needs it here, with one line, rather than in a
    // panic halfway; `verify` reports the damage as its answer, and `bots` needs no table.
    let needs_table = !matches!(
        cli.command,
        Command::Verify(_) | Command::Bots(_) | Command::Completions(_) | Command::Man
    );
    let result = match ttt_oracle::Oracle::of(Game::TIC_TAC_TOE) {
        Err(ttt_oracle::TableError::Damaged { detail, .. }) if needs_table => {
            Err(Failure::damaged(&detail))
        }
        _ => command(cli),
    };
    // What standard output still holds (a last line without its newline) is written here,
    // where a failure can be reported, rather than by the runtime at exit, which drops it.
    // Output that did not all arrive outranks a negative answer (the answer did not arrive
    // either), not a broken bot or a damaged table, whose message is still given.
    let result = match result {
        // Failed already, and said so: the rest would fail again.
        result if ttt_oracle::output::standard_output_failed() => result,
        result => match (result, stdout().flush().map_err(Failure::from)) {
            (result, Ok(())) => result,
            // The reader stopped: the answer stands.
            (result, Err(flushed)) if flushed.is_reader_gone() => result,
            (Ok(()), Err(flushed)) => Err(flushed),
            (Err(failure), Err(flushed)) if failure.code == 1 => Err(flushed),
            (Err(failure), Err(flushed)) => {
                report(&flushed);
                Err(failure)
            }
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            report(&failure);
            ExitCode::from(failure.code)
        }
    }
}

/// Writes the failure's message on standard error, if it has one.
fn report(failure: &Failure) {
    if !failure.message.is_empty() {
        let label = style::for_stderr().error("error:");
        let _ = writeln!(io::stderr(), "{label} {}", failure.message);
    }
}

fn command(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Analyze(args) => analyze::run(&args),
        Command::Best(args) => analyze::best(&args),
        Command::Audit(args) => audit::run(&args),
        Command::Match(args) => matchup::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Bots(args) => bots::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Review(args) => review::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Map(args) => map::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Completions(args) => generate::completions(&args),
        Command::Man => generate::man(),
    }
}
