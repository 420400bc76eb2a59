//! `ttt map`: the map of perfect play (`ttt_oracle::web::map`), as an SVG file or on standard output.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use ttt_oracle::Player;
use ttt_oracle::output::Destination;

use super::Failure;

/// Arguments of `ttt map`.
#[derive(Debug, Args)]
pub struct MapArgs {
    /// The side the perfect player takes: x (its map starts with its first move) or o (from
    /// each of X's openings).
    #[arg(long = "as", value_enum, ignore_case = true, default_value_t = Side::X)]
    side: Side,
    /// Write to FILE instead of standard output ("-" is standard output). A regular file is
    /// replaced atomically.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
}

/// A side, as `--as` takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Side {
    X,
    O,
}

/// Writes the map.
pub fn run(args: &MapArgs) -> Result<(), Failure> {
    let player = match args.side {
        Side::X => Player::X,
        Side::O => Player::O,
    };
    let svg = ttt_oracle::web::map::svg(player)
        .map_err(|error| Failure::with_code(4, error.to_string()))?;
    let destination = match &args.output {
        Some(path) => Destination::from_arg(path),
        None => Destination::Stdout,
    };
    destination
        .open()?
        .write(|out| out.write_all(svg.as_bytes()))?;
    Ok(())
}
