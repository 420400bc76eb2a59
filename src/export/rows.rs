//! The text formats of an export: JSON Lines, one JSON array, and CSV, a record at a time.

use std::io::{self, Write};

use super::{ExportFormat, Record};
use crate::game::MAX_CELLS;
use crate::tiers::MAX_TIER_CELLS;
use crate::value::Value;

/// The CSV columns: `first` (what identifies the game, if anything), the record's fields, then
/// the value and the remoteness of playing each of `cells` cells.
pub(super) fn csv_columns(first: &[&str], cells: usize) -> String {
    let fields = [
        "board",
        "to_move",
        "ply",
        "status",
        "value",
        "remoteness",
        "best",
        "canonical",
        "symmetry",
    ];
    let mut columns: Vec<String> = first.iter().chain(&fields).map(|c| c.to_string()).collect();
    columns.extend((1..=cells).map(|n| format!("value_{n}")));
    columns.extend((1..=cells).map(|n| format!("remoteness_{n}")));
    columns.join(",")
}

/// Appends the CSV columns of each cell's move, `value_1..` then `remoteness_1..`, each after
/// a comma; empty for a cell with no move. `moves` gives (cell number, value, remoteness).
fn csv_moves(out: &mut Vec<u8>, cells: usize, moves: impl Iterator<Item = (usize, Value, u8)>) {
    // A game with a table, embedded or cached, has at most as many cells as a tiered solve.
    let mut by_cell = [None; MAX_TIER_CELLS];
    for (number, value, remoteness) in moves {
        by_cell[number - 1] = Some((value, remoteness));
    }
    let by_cell = &by_cell[..cells];
    for m in by_cell {
        push_field(out, m.map_or("", |(value, _)| value.name()));
    }
    for m in by_cell {
        out.push(b',');
        if let Some((_, remoteness)) = m {
            push_number(out, usize::from(*remoteness));
        }
    }
}

/// Appends a comma, then `text`, to a CSV row.
fn push_field(out: &mut Vec<u8>, text: &str) {
    out.push(b',');
    out.extend_from_slice(text.as_bytes());
}

/// Appends `n` in decimal.
fn push_number(out: &mut Vec<u8>, n: usize) {
    if n >= 10 {
        push_number(out, n / 10);
    }
    out.push(b'0' + (n % 10) as u8);
}

/// Appends the CSV row of `record`, without the line's end.
fn csv(record: &Record, out: &mut Vec<u8>) -> io::Result<()> {
    // Byte by byte: the formatting machinery would cost more than making the record. The
    // first column, the game, is left out for tic-tac-toe.
    let mut board = [0; 2 * MAX_CELLS];
    if !record.game.is_tic_tac_toe() {
        write!(out, "{},", record.game)?;
    }
    out.extend_from_slice(record.board.text(&mut board).as_bytes());
    push_field(out, record.to_move.name());
    out.push(b',');
    push_number(out, record.ply.into());
    push_field(out, record.status.name());
    push_field(out, record.value.name());
    out.push(b',');
    push_number(out, record.remoteness.into());
    out.push(b',');
    for (i, cell) in record.best.iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        push_number(out, cell.number().into());
    }
    push_field(out, record.canonical.text(&mut board));
    push_field(out, record.symmetry.name());
    let moves = record
        .moves
        .iter()
        .map(|m| (usize::from(m.cell.number()), m.value, m.remoteness));
    csv_moves(out, record.game.cells(), moves);
    Ok(())
}

/// Writes `records` as JSON Lines, one JSON array or CSV under `header` (the first error of
/// `records` stops it), one record at a time:
/// each is put together in a buffer and written whole, so that nothing but the record being
/// written is held.
///
/// # Panics
///
/// For [`ExportFormat::Bincode`], which has a writer of its own.
pub(super) fn write_rows(
    out: &mut dyn Write,
    format: ExportFormat,
    header: &str,
    records: impl IntoIterator<Item = io::Result<Record>>,
) -> io::Result<()> {
    match format {
        ExportFormat::Json => out.write_all(b"[")?,
        ExportFormat::Csv => writeln!(out, "{header}")?,
        ExportFormat::Jsonl => {}
        ExportFormat::Bincode => unreachable!("bincode has a writer of its own"),
    }
    let mut line = Vec::new();
    for (n, record) in records.into_iter().enumerate() {
        let record = record?;
        line.clear();
        match format {
            ExportFormat::Json if n > 0 => line.push(b','),
            _ => {}
        }
        match format {
            ExportFormat::Csv => csv(&record, &mut line)?,
            _ => serde_json::to_writer(&mut line, &record)?,
        }
        if format != ExportFormat::Json {
            line.push(b'\n');
        }
        out.write_all(&line)?;
    }
    if format == ExportFormat::Json {
        out.write_all(b"]\n")?;
    }
    out.flush()
}
