//! `ttt verify`.

use std::io::Write;

use clap::Args;
use serde::Serialize;
use ttt_oracle::{Cells, Game, Oracle, TableError, Value};

use super::progress::TiersProgress;
use super::{Failure, Format};

/// Arguments of `ttt verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Output format.
    #[arg(short = 'f', long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
    /// The game whose embedded table to check: 3x3 (the default), 3x4, 4x3, 4x4 or 4x4k3.
    #[arg(short = 'g', long, value_name = "GAME", default_value = "3x3", value_parser = super::values::GameValues, hide_possible_values = true)]
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

/// An entry as people and programs read it: `Win in 3, best 1 5`.
fn show(entry: Option<(Value, u8, Cells)>) -> Option<String> {
    // A cached table stores no moves: its entries say value and remoteness only.
    entry.map(|(value, remoteness, best)| match best.is_empty() {
        true => format!("{value:?} in {remoteness}"),
        false => format!("{value:?} in {remoteness}, best {best}"),
    })
}

pub fn run(args: &VerifyArgs) -> Result<(), Failure> {
    let game = args.game;
    let checked = if game.has_table() && !game.is_embedded() {
        Err(TableError::NotEmbedded { game })
    } else if game.has_table() {
        Oracle::of(game).and_then(|oracle| oracle.verify())
    } else {
        // A table `ttt solve` cached, checked in a minute or more: a progress line on a
        // terminal.
        let progress = TiersProgress::start(game, "reading the table of {game}");
        Oracle::of(game).and_then(|oracle| oracle.verify_with_progress(&|s| progress.step(s)))
    };
    // Damage is the answer here, with exit code 1, where every other command stops with 4.
    let found = checked.map_err(|error| match error {
        TableError::Damaged { detail, .. } => Failure::negative(format!(
            "game {game}: the embedded table is damaged: {detail}; rebuild ttt"
        )),
        TableError::DamagedFile { .. } => Failure::negative(error.to_string()),
        other => Failure::from(other),
    })?;
    let mismatches = found
        .mismatches
        .iter()
        .map(|m| MismatchJson {
            board: m.position.to_string(),
            table: show(m.table),
            fresh: show(m.fresh),
        })
        .collect();
    let (compared, what) = if game.cells() > Game::MAX_TABLE_CELLS {
        (
            "positions".to_string(),
            format!("every tier of the cached table of {game} matches its checksum and"),
        )
    } else if found.first_moves {
        (
            format!("canonical positions in play of {game}"),
            format!("the embedded table of {game} (with its best move on every board)"),
        )
    } else {
        (
            format!("canonical positions in play of {game}"),
            format!("the embedded table of {game}"),
        )
    };
    // Printed in the format asked for; a difference fails (exit 1).
    let ok = found.is_ok();
    let mut out = super::stdout();
    let differ = ttt_oracle::text::counted(found.differing, "position differs", "positions differ");
    let (table_checksum, fresh_checksum) = (
        format!("{:016x}", found.table_checksum),
        format!("{:016x}", found.fresh_checksum),
    );
    // Written, then the answer: a reader that stops early changes neither.
    let printed = (|| -> Result<(), Failure> {
        match args.format {
            Format::Json => {
                let json = VerifyJson {
                    ok,
                    compared: found.compared,
                    table_checksum,
                    fresh_checksum,
                    mismatches,
                };
                super::json_line(&mut out, &json)?;
            }
            Format::Text => {
                for mismatch in mismatches.iter().take(10) {
                    writeln!(
                        out,
                        "mismatch at {}: table {}, fresh solve {}",
                        mismatch.board,
                        mismatch.table.as_deref().unwrap_or("nothing"),
                        mismatch.fresh.as_deref().unwrap_or("nothing")
                    )?;
                }
                // Two lines, so that each fits 100 columns whatever the game.
                writeln!(
                    out,
                    "compared {} {compared}\nchecksums: table {table_checksum}, fresh solve \
                     {fresh_checksum}",
                    ttt_oracle::text::grouped(found.compared)
                )?;
                if ok {
                    writeln!(out, "ok: {what} equals a fresh solve")?;
                }
            }
        }
        Ok(())
    })();
    Failure::reader_stopped(printed)?;
    if ok {
        Ok(())
    } else {
        Err(Failure::negative(format!(
            "{what} differs from a fresh solve ({differ})"
        )))
    }
}
