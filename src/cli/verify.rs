//! `ttt verify`.

use std::io::Write;

use clap::Args;
use serde::Serialize;
use ttt_oracle::{Evaluation, Table, verify_bytes};

use super::{Failure, Format};

/// Arguments of `ttt verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Output format.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
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
    let verification = verify_bytes(Table::embedded_bytes()).map_err(|error| {
        Failure::negative(format!(
            "the embedded table is damaged: {error}; rebuild ttt"
        ))
    })?;
    let mut out = super::stdout();
    let differ = verification.mismatches.len();
    match args.format {
        Format::Json => {
            let json = VerifyJson {
                ok: verification.ok(),
                compared: verification.compared,
                table_checksum: format!("{:016x}", verification.table_checksum),
                fresh_checksum: format!("{:016x}", verification.fresh_checksum),
                mismatches: verification
                    .mismatches
                    .iter()
                    .map(|m| MismatchJson {
                        board: m.board.board().to_string(),
                        table: show(m.table),
                        fresh: show(m.fresh),
                    })
                    .collect(),
            };
            serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Format::Text => {
            for mismatch in verification.mismatches.iter().take(10) {
                writeln!(
                    out,
                    "mismatch at {}: table {}, fresh solve {}",
                    mismatch.board.board(),
                    show(mismatch.table).as_deref().unwrap_or("nothing"),
                    show(mismatch.fresh).as_deref().unwrap_or("nothing")
                )?;
            }
            writeln!(
                out,
                "compared {} canonical positions; table checksum {:016x}, fresh solve {:016x}",
                verification.compared, verification.table_checksum, verification.fresh_checksum
            )?;
            if verification.ok() {
                writeln!(out, "ok: the embedded table equals a fresh solve")?;
            }
        }
    }
    if verification.ok() {
        Ok(())
    } else {
        Err(Failure::negative(format!(
            "the embedded table differs from a fresh solve ({differ} positions differ)"
        )))
    }
}
