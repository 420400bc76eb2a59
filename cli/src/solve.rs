//! `ttt solve`: a game past 16 cells solved into the cache folder, with a progress line on a
//! terminal.

use std::io::Write;
use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use clap::Args;

use super::Failure;
use super::progress::TiersProgress;
use ttt_oracle::Game;
use ttt_oracle::cache::{Plan, SolveError, solve_into};
use ttt_oracle::memory::Size;

/// `ttt solve`'s arguments.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The game: MxN or MxNkK of 17 to 25 cells, e.g. 4x5k4 or 5x4k4.
    #[arg(short = 'g', long, value_name = "GAME", value_parser = super::values::GameValues, hide_possible_values = true)]
    game: Game,
    /// Threads to solve with, at most one per core (more is lowered to that, with a note); by
    /// default one per core.
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<NonZeroUsize>,
    /// Print what the solve would hold (memory, disk, each tier's size) and the time it should
    /// take here, timed on a sample of every tier (a second or so), and solve nothing.
    #[arg(long)]
    plan: bool,
}

/// Solves the game, or says what it would take.
pub fn run(args: &SolveArgs) -> Result<(), Failure> {
    let game = args.game;
    let dir = ttt_oracle::cache::cache_dir().ok_or_else(|| {
        Failure::usage("no cache folder: set XDG_CACHE_HOME or HOME, or give --cache-dir")
    })?;
    let mut out = super::stdout();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads(args.threads))
        .build()
        .map_err(|error| Failure::usage(format!("cannot start the threads: {error}")))?;
    if args.plan {
        let plan = Plan::of(game);
        writeln!(out, "game {game}: {} tiers", plan.tiers.len())?;
        for (t, size) in plan.tiers.iter().enumerate() {
            let noun = if *size == 1 { "position" } else { "positions" };
            let count = ttt_oracle::text::grouped(*size);
            writeln!(out, "  tier {t:>2}: {count:>19} {noun}")?;
        }
        writeln!(
            out,
            "table {}, memory at the peak {}, disk at the peak {}",
            Size(plan.table_bytes),
            Size(plan.memory_bytes),
            Size(plan.disk_bytes)
        )?;
        // Only a game the solve takes can be laid out to time it.
        if game.cells() > Game::MAX_TABLE_CELLS && game.cells() <= Game::MAX_TIER_CELLS {
            out.flush()?;
            let estimate = pool.install(|| plan.estimate(ESTIMATE_BUDGET));
            let noun = if estimate.threads == 1 {
                "thread"
            } else {
                "threads"
            };
            writeln!(
                out,
                "time about {} on {} {noun}: estimated from {} positions of every tier solved \
                 here\n  in {:.1} s on {:.2} processors (the share of the machine the threads \
                 had then), and scaled",
                about(estimate.total()),
                estimate.threads,
                ttt_oracle::text::grouped(estimate.sampled),
                estimate.took.as_secs_f64(),
                estimate.processors,
            )?;
        }
        return Ok(());
    }
    let progress = TiersProgress::start(game, "solving {game}");
    let start = Instant::now();
    let waiting = |lock: &std::path::Path| {
        progress.note(&format!(
            "another ttt solve --game {game} is writing into {} (it holds {}); waiting for it \
             to end",
            dir.display(),
            lock.display()
        ));
    };
    let solved = pool.install(|| solve_into(&dir, game, &|step| progress.step(step), &waiting));
    drop(progress);
    let solved = solved.map_err(|error| match error {
        SolveError::NotForThisGame(_)
        | SolveError::OverMemory { .. }
        | SolveError::OverDisk { .. }
        | SolveError::Unreadable(_) => Failure::usage(error.to_string()),
        SolveError::Write(error) => Failure::output(error.to_string()),
        SolveError::Folder(..) => Failure::output(error.to_string()),
    })?;
    let path = solved.path.display();
    if solved.already {
        writeln!(
            out,
            "game {game}: solved already, {} at {path}",
            Size(solved.bytes)
        )?;
        return Ok(());
    }
    let resumed = match solved.resumed_at {
        Some(tier) => format!(", going on from tier {tier}"),
        None => String::new(),
    };
    writeln!(
        out,
        "game {game}: solved in {:.1} s{resumed}, {} at {path}",
        start.elapsed().as_secs_f64(),
        Size(solved.bytes)
    )?;
    Ok(())
}

/// The threads to solve with: `--threads`, at most one per core, since the solve keeps every
/// thread busy and more would only take turns (a larger number is lowered, with a note); 0,
/// rayon's default, is one per core.
fn threads(asked: Option<NonZeroUsize>) -> usize {
    let Some(asked) = asked else {
        return 0;
    };
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    if asked.get() <= cores {
        return asked.get();
    }
    let noun = if cores == 1 { "core" } else { "cores" };
    eprintln!("note: --threads {asked} is more than the {cores} {noun} here; solving with {cores}");
    cores
}

/// What `--plan` aims to spend timing samples of the tiers, after laying the game out (about
/// one and a half times this in all, see `Plan::estimate`).
const ESTIMATE_BUDGET: Duration = Duration::from_millis(400);

/// A duration estimated, to two figures: "8.5 s", "42 s", "3 min 20 s", "2 h 05 min".
fn about(estimate: Duration) -> String {
    let seconds = estimate.as_secs_f64();
    match seconds {
        ..10.0 => format!("{seconds:.1} s"),
        ..60.0 => format!("{seconds:.0} s"),
        ..600.0 => {
            let seconds = (seconds / 10.0).round() as u64 * 10;
            format!("{} min {:02} s", seconds / 60, seconds % 60)
        }
        ..3600.0 => format!("{:.0} min", seconds / 60.0),
        _ => {
            let minutes = (seconds / 300.0).round() as u64 * 5;
            format!("{} h {:02} min", minutes / 60, minutes % 60)
        }
    }
}
