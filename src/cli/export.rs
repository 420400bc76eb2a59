//! `ttt export`.

use std::io::{self, BufWriter, IsTerminal};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use ttt_oracle::export::{self, ExportFormat};
use ttt_oracle::table;

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
    /// bincode behind a versioned header (see the README for reading it back).
    Bincode,
}

/// Arguments of `ttt export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    format: Format,
    /// Only the 765 canonical positions instead of all 5,478.
    #[arg(long)]
    canonical: bool,
    /// Write to FILE (atomically: a temporary file, then renamed) instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Writes the table.
pub fn run(args: &ExportArgs) -> Result<(), Failure> {
    let format = match args.format {
        Format::Jsonl => ExportFormat::Jsonl,
        Format::Json => ExportFormat::Json,
        Format::Csv => ExportFormat::Csv,
        Format::Bincode => ExportFormat::Bincode,
    };
    let records = export::records(table(), args.canonical);
    match &args.output {
        Some(path) => export::write_file(path, format, &records)
            .map_err(|error| Failure::usage(format!("cannot write {}: {error}", path.display()))),
        None => {
            if format == ExportFormat::Bincode && io::stdout().is_terminal() {
                return Err(Failure::usage(
                    "bincode is binary: write it with -o FILE or redirect standard output",
                ));
            }
            let mut out = BufWriter::new(io::stdout().lock());
            export::write(&mut out, format, &records)?;
            Ok(())
        }
    }
}
