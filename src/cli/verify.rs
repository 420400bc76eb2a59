//! `ttt verify`.

use std::io::Write;

use crate::{Evaluation, Game, Table, Value, VerifyGameError, verify_bytes, verify_game};
use clap::Args;
use serde::Serialize;

use super::{Failure, Format};

/// Arguments of `ttt verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Output format.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
    /// The game whose embedded table to check: 3x3 (the default), 3x4, 4x3, 4x4 or 4x4k3.
    #[arg(long, value_name = "GAME", default_value = "3x3")]
    game: Game,
}

/// A position where the table and the fresh solve disagree, in JSON.
#[derive(Serialize)]
struct MismatchJson {
    board: String,
    table: Option<String>,
    fresh: Option<String>,
}

#[derive(Serialize)]
struct VerifyJson {
    ok: bool,
    compared: usize,
    table_checksum: String,
    fresh_checksum: String,
    mismatches: Vec<MismatchJson>,
}

fn show(evaluation: Option<Evaluation>) -> Option<String> {
    evaluation.map(|e| format!("{:?} in {}, best {}", e.value, e.remoteness, e.best))
}

/// Decodes the embedded bytes, re-solves the game and compares; fails (exit 1) when the bytes
/// are damaged or differ from a fresh solve.
pub fn run(args: &VerifyArgs) -> Result<(), Failure> {
    if args.game != Game::TIC_TAC_TOE {
        return run_game(args);
    }
    let verification = verify_bytes(Table::embedded_bytes()).map_err(|error| {
        Failure::negative(format!(
            "the embedded table is damaged: {error}; rebuild ttt"
        ))
    })?;
    let mismatches = verification
        .mismatches
        .iter()
        .map(|m| MismatchJson {
            board: m.board.board().to_string(),
            table: show(m.table),
            fresh: show(m.fresh),
        })
        .collect();
    report(
        args.format,
        Report {
            ok: verification.ok(),
            compared: verification.compared,
            table_checksum: verification.table_checksum,
            fresh_checksum: verification.fresh_checksum,
            mismatches,
        },
        "canonical positions",
        "the embedded table",
    )
}

/// What either check found, ready to print.
struct Report {
    ok: bool,
    compared: usize,
    table_checksum: u64,
    fresh_checksum: u64,
    mismatches: Vec<MismatchJson>,
}

/// Prints a check's result in `format`; fails (exit 1) when it found a difference. `compared`
/// names what was compared, `what` the table checked.
fn report(format: Format, found: Report, compared: &str, what: &str) -> Result<(), Failure> {
    let mut out = super::stdout();
    let differ = found.mismatches.len();
    let (table_checksum, fresh_checksum) = (
        format!("{:016x}", found.table_checksum),
        format!("{:016x}", found.fresh_checksum),
    );
    match format {
        Format::Json => {
            let json = VerifyJson {
                ok: found.ok,
                compared: found.compared,
                table_checksum,
                fresh_checksum,
                mismatches: found.mismatches,
            };
            serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Format::Text => {
            for mismatch in found.mismatches.iter().take(10) {
                writeln!(
                    out,
                    "mismatch at {}: table {}, fresh solve {}",
                    mismatch.board,
                    mismatch.table.as_deref().unwrap_or("nothing"),
                    mismatch.fresh.as_deref().unwrap_or("nothing")
                )?;
            }
            writeln!(
                out,
                "compared {} {compared}; table checksum {table_checksum}, fresh solve {fresh_checksum}",
                found.compared
            )?;
            if found.ok {
                writeln!(out, "ok: {what} equals a fresh solve")?;
            }
        }
    }
    if found.ok {
        Ok(())
    } else {
        Err(Failure::negative(format!(
            "{what} differs from a fresh solve ({differ} positions differ)"
        )))
    }
}

fn show_entry(entry: Option<(Value, u8, u64)>) -> Option<String> {
    entry.map(|(value, remoteness, best)| {
        let cells: Vec<String> = (0..64)
            .filter(|i| best >> i & 1 == 1)
            .map(|i| (i + 1).to_string())
            .collect();
        format!("{value:?} in {remoteness}, best {}", cells.join(" "))
    })
}

/// `ttt verify --game G`: the same check on another embedded game, reported the same way.
fn run_game(args: &VerifyArgs) -> Result<(), Failure> {
    let game = args.game;
    let verification = verify_game(game).map_err(|error| match error {
        VerifyGameError::NotEmbedded(_) => Failure::usage(error.to_string()),
        // As for tic-tac-toe's table: `verify` answers "damaged" with exit code 1, where
        // every other command stops with 4.
        VerifyGameError::Damaged(_) => {
            Failure::negative(format!("game {game}: {error}; rebuild ttt"))
        }
    })?;
    let mismatches = verification
        .mismatches
        .iter()
        .map(|m| MismatchJson {
            board: m.board.to_string(),
            table: show_entry(m.table),
            fresh: show_entry(m.fresh),
        })
        .collect();
    report(
        args.format,
        Report {
            ok: verification.ok(),
            compared: verification.compared,
            table_checksum: verification.table_checksum,
            fresh_checksum: verification.fresh_checksum,
            mismatches,
        },
        &format!("canonical positions in play of {game}"),
        &format!("the embedded table of {game}"),
    )
}
