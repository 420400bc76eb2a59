//! `ttt-mpi`: the tiered solve of a game across the ranks `mpirun` starts, as docs/scale.md
//! lays it out. Each rank writes its slice of each tier, raw entries, to
//! `OUT/tier-TT.rank-R`; the slices of a tier in rank order are the tier. Rank 0 prints, per
//! tier, the entries, the bytes the ranks received from each other and the slowest rank's time.
//!
//! `mpirun -np 2 ttt-mpi --game 4x4k3 --out DIR`; `--piece BYTES` bounds a message of the
//! exchange (1 GiB unless told).

mod distributed;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use distributed::{AcrossError, PIECE, TierSlice, solve_across};
use mpi::collective::SystemOperation;
use mpi::traits::{Communicator, CommunicatorCollectives};
use ttt_oracle::Game;
use ttt_oracle::text::grouped;

const USAGE: &str = "usage: mpirun -np P ttt-mpi --game G --out DIR [--piece BYTES]";

/// What the command line asks for.
struct Args {
    game: Game,
    out: PathBuf,
    /// The bytes a message of the exchange holds at most.
    piece: usize,
}

fn parse(args: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut game, mut out, mut piece) = (None, None, PIECE);
    let mut args = args;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--game" => {
                let text = value("--game")?;
                let parsed = text
                    .parse::<Game>()
                    .map_err(|error| format!("--game {text}: {error}"))?;
                game = Some(parsed);
            }
            "--out" => out = Some(PathBuf::from(value("--out")?)),
            "--piece" => {
                let text = value("--piece")?;
                piece = text
                    .parse::<usize>()
                    .ok()
                    .filter(|&bytes| bytes > 0)
                    .ok_or_else(|| format!("--piece {text}: not a positive whole number"))?;
            }
            other => return Err(format!("unexpected argument '{other}'")),
        }
    }
    Ok(Args {
        game: game.ok_or("--game is required")?,
        out: out.ok_or("--out is required")?,
        piece,
    })
}

fn main() -> ExitCode {
    let Some(universe) = mpi::initialize() else {
        eprintln!("ttt-mpi: MPI was initialised already");
        return ExitCode::FAILURE;
    };
    let world = universe.world();
    let rank = world.rank();
    let args = match parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(error) => {
            // Every rank read the same arguments: one says so.
            if rank == 0 {
                eprintln!("ttt-mpi: {error}\n{USAGE}");
            }
            return ExitCode::from(2);
        }
    };
    if let Err(error) = fs::create_dir_all(&args.out) {
        let out = args.out.display();
        eprintln!("ttt-mpi: rank {rank}: cannot create {out}: {error}");
        world.abort(1);
    }
    if rank == 0 {
        let (game, ranks) = (args.game, world.size());
        let noun = if ranks == 1 { "rank" } else { "ranks" };
        println!("game {game} on {ranks} {noun}: {} tiers", game.cells() + 1);
    }
    let start = Instant::now();
    let (mut exchanged, mut entries) = (0u64, 0u64);
    let each = |slice: TierSlice<'_>| -> Result<(), String> {
        let path = args.out.join(format!("tier-{:02}.rank-{rank}", slice.tier));
        write(&path, slice.entries)?;
        let (mut received, mut count, mut seconds) = (0u64, 0u64, 0f64);
        world.all_reduce_into(&slice.received, &mut received, SystemOperation::sum());
        let own = slice.entries.len() as u64;
        world.all_reduce_into(&own, &mut count, SystemOperation::sum());
        let own = slice.elapsed.as_secs_f64();
        world.all_reduce_into(&own, &mut seconds, SystemOperation::max());
        exchanged += received;
        entries += count;
        if rank == 0 {
            println!(
                "  tier {:>2}: {:>13} entries, {:>13} bytes received, {seconds:.2} s",
                slice.tier,
                grouped(count),
                grouped(received)
            );
        }
        Ok(())
    };
    match solve_across(args.game, &world, args.piece, each) {
        Ok(()) => {}
        Err(AcrossError::Each(error)) => {
            eprintln!("ttt-mpi: rank {rank}: {error}");
            // The other ranks may wait for this one at the next exchange: stop them all.
            world.abort(1);
        }
        Err(error) => {
            // A game or piece refused up front, on every rank alike: one says so.
            if rank == 0 {
                eprintln!("ttt-mpi: {error}");
            }
            return ExitCode::from(2);
        }
    }
    if rank == 0 {
        println!(
            "{} entries in {:.2} s; {} bytes exchanged in all",
            grouped(entries),
            start.elapsed().as_secs_f64(),
            grouped(exchanged)
        );
    }
    ExitCode::SUCCESS
}

fn write(path: &Path, entries: &[u8]) -> Result<(), String> {
    fs::write(path, entries).map_err(|error| format!("cannot write {}: {error}", path.display()))
}
