//! `ttt export`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use ttt_oracle::Game;
use ttt_oracle::export::{self, ExportFormat};
use ttt_oracle::output::Destination;
use ttt_oracle::text::quote;

use super::Failure;

/// The formats `--format` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// JSON Lines: one object a line.
    Jsonl,
    /// One JSON array.
    Json,
    /// Comma-separated, with a header row.
    Csv,
    /// bincode behind a versioned header (see `ttt man` or docs/commands.md for reading it back).
    Bincode,
}

/// Arguments of `ttt export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Output format. Without it, the extension of -o FILE decides (.jsonl, .json, .csv, .bin
    /// or .bincode); otherwise JSON Lines.
    #[arg(short = 'f', long, value_enum, ignore_case = true)]
    format: Option<Format>,
    /// Only the canonical positions (765 of tic-tac-toe's 5,478).
    #[arg(long)]
    canonical: bool,
    /// The game: 3x3 (tic-tac-toe), MxN or MxNkK (see `ttt best --help`); past 16 cells, the
    /// table `ttt solve` cached. Other games than 3x3 have a `game` key or column and are
    /// written as they are made: 4x4 is 9,722,011 positions.
    #[arg(short = 'g', long, value_name = "GAME", default_value = "3x3", value_parser = super::values::GameValues, hide_possible_values = true)]
    game: Game,
    /// Write to FILE instead of standard output ("-" is standard output). A regular file is
    /// replaced atomically, keeping its permissions; a symbolic link's target is replaced; a
    /// device, a FIFO or /dev/stdout is written in place.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
}

/// The format a file's extension names, JSON Lines when it names none.
fn from_extension(path: Option<&std::path::Path>) -> Format {
    let extension = path
        .and_then(|path| path.extension())
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("json") => Format::Json,
        Some("csv") => Format::Csv,
        Some("bin" | "bincode") => Format::Bincode,
        _ => Format::Jsonl,
    }
}

/// Writes the table.
pub fn run(args: &ExportArgs) -> Result<(), Failure> {
    let format = match args
        .format
        .unwrap_or_else(|| from_extension(args.output.as_deref()))
    {
        Format::Jsonl => ExportFormat::Jsonl,
        Format::Json => ExportFormat::Json,
        Format::Csv => ExportFormat::Csv,
        Format::Bincode => ExportFormat::Bincode,
    };
    let destination = match &args.output {
        Some(path) => Destination::from_arg(path),
        None => Destination::Stdout,
    };
    // The game's table first: a game too large for one is refused before any file is made.
    // A game past 16 cells reads the table `ttt solve` cached, checked as it is opened.
    if args.game != Game::TIC_TAC_TOE && args.game.has_table() {
        super::any_game::oracle_of(args.game)?;
    }
    let records = export::records(args.game, args.canonical)?;
    let output = destination.open()?;
    if format == ExportFormat::Bincode && output.is_terminal() {
        return Err(Failure::usage(match &destination {
            Destination::Stdout => {
                "bincode is binary: write it with -o FILE or redirect standard output".to_string()
            }
            Destination::Path(path) => format!(
                "bincode is binary: not writing it to the terminal {}",
                quote(&path.display().to_string())
            ),
        }));
    }
    // Checked at each record: past the memory limit the export stops, and its file is not
    // put in place (any error drops it; the limit is the one reported).
    let over = std::cell::Cell::new(None);
    let within = records.map_while(|record| match ttt_oracle::memory::check() {
        Ok(()) => Some(record),
        Err(limit) => {
            over.set(Some(limit));
            None
        }
    });
    let written = output.write(|out| {
        export::write(out, format, args.game, within)?;
        match over.get() {
            Some(_) => Err(std::io::Error::other("over the memory limit")),
            None => Ok(()),
        }
    });
    if let Some(limit) = over.get() {
        return Err(Failure::memory(
            limit,
            "raise --max-memory; nothing was written",
        ));
    }
    written?;
    Ok(())
}
