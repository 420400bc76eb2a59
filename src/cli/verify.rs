//! `ttt verify`.

use std::io::Write;

use ttt_oracle::{Table, verify_bytes};

use super::Failure;

/// Decodes the embedded bytes, re-solves the game and compares; fails (exit 1) when the bytes
/// are damaged or differ from a fresh solve.
pub fn run() -> Result<(), Failure> {
    let verification = verify_bytes(Table::embedded_bytes()).map_err(|error| {
        Failure::negative(format!(
            "the embedded table is damaged: {error}; rebuild ttt"
        ))
    })?;
    let mut out = super::stdout();
    for mismatch in verification.mismatches.iter().take(10) {
        writeln!(
            out,
            "mismatch at {}: table {:?}, fresh solve {:?}",
            mismatch.board.board(),
            mismatch.table,
            mismatch.fresh
        )?;
    }
    writeln!(
        out,
        "compared {} canonical positions; table checksum {:016x}, fresh solve {:016x}",
        verification.compared, verification.table_checksum, verification.fresh_checksum
    )?;
    if verification.ok() {
        writeln!(out, "ok: the embedded table equals a fresh solve")?;
        Ok(())
    } else {
        Err(Failure::negative(format!(
            "the embedded table differs from a fresh solve ({} positions differ)",
            verification.mismatches.len()
        )))
    }
}
