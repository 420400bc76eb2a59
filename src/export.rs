//! The writers behind `ttt export`: the solved table as JSON Lines, JSON, CSV or bincode.
//!
//! Every format holds the same records, one per position, in one stable order: by ply, then
//! by the board's text (`.` < `O` < `X`) for tic-tac-toe, by base-3 code for the other m,n,k
//! games. Output is byte-identical from run to run. Tic-tac-toe's 5,478 [`Record`]s are made in
//! memory; the other games' [`MnkRecord`]s (9,722,011 for 4x4) are made and written one at a
//! time, in constant memory.

use std::fmt;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::board::{Board, Cells, Player, Status};
use crate::format::tic_tac_toe::BINCODE_CONFIG;
use crate::game::MAX_TABLE_CELLS;
use crate::oracle::Oracle;
use crate::position::Position;
use crate::symmetry::{Symmetry, canonicalize};
use crate::table::tic_tac_toe::Dense;
use crate::value::{MoveValue, Value};

mod mnk;

pub use mnk::{
    MNK_EXPORT_MAGIC, MnkBincodeReader, MnkRecord, MnkRecords, mnk_records, read_mnk_bincode,
    write_mnk,
};

/// One position of the exported table.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{export, table};
///
/// let records = export::records(table(), false);
/// assert_eq!(records.len(), 5478);
/// assert_eq!(records[0].board.to_string(), ".........");
/// assert_eq!(export::records(table(), true).len(), 765);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The position.
    pub board: Board,
    /// The side to move (on a finished board, whose turn it would be).
    pub to_move: Player,
    /// Marks on the board.
    pub ply: u8,
    /// Where the game stands.
    pub status: Status,
    /// Value for the side to move.
    pub value: Value,
    /// Plies to the end under perfect play.
    pub remoteness: u8,
    /// The optimal moves.
    pub best: Cells,
    /// Every legal move, by cell, valued from the view of the player making it.
    pub moves: Vec<MoveValue>,
    /// The canonical form of the board.
    pub canonical: Board,
    /// The symmetry that maps the board onto its canonical form.
    pub symmetry: Symmetry,
}

/// Every reachable position (or, with `canonical_only`, every canonical one), in export order.
pub fn records(table: &'static Dense, canonical_only: bool) -> Vec<Record> {
    Board::reachable()
        .into_iter()
        .filter_map(|board| {
            let (canonical, symmetry) = canonicalize(board);
            if canonical_only && canonical.board() != board {
                return None;
            }
            // The fields `ttt analyze --format json` shows, then where the board sits among
            // its symmetric images.
            let analysis = Oracle::of_dense(table).analyze(&Position::from_board(board));
            Some(Record {
                board,
                to_move: analysis.to_move,
                ply: board.ply() as u8,
                status: analysis.status,
                value: analysis.value,
                remoteness: analysis.remoteness,
                best: analysis.best,
                moves: analysis.moves,
                canonical: canonical.board(),
                symmetry,
            })
        })
        .collect()
}

/// The export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// One JSON object a line.
    Jsonl,
    /// One JSON array.
    Json,
    /// Flat columns with a header row.
    Csv,
    /// bincode behind a versioned header; read it back with [`read_bincode`].
    Bincode,
}

/// The first eight bytes of a bincode export.
pub const EXPORT_MAGIC: [u8; 8] = *b"TTTEXPRT";

/// The version of the bincode export layouts, tic-tac-toe's and the m,n,k games'; [`read_bincode`]
/// and [`read_mnk_bincode`] refuse any other.
pub const EXPORT_VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct BincodeExport {
    magic: [u8; 8],
    version: u32,
    records: Vec<Record>,
}

/// The CSV header: every column, in order.
pub fn csv_header() -> String {
    csv_columns(&[], 9)
}

/// The CSV columns: `first` (what identifies the game, if anything), the record's fields, then
/// the value and the remoteness of playing each of `cells` cells.
fn csv_columns(first: &[&str], cells: usize) -> String {
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
    let mut by_cell = [None; MAX_TABLE_CELLS];
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

/// What a record needs to be written in every text format: serde for JSON, and its CSV row.
trait Row: Serialize {
    /// Writes the record's CSV row, without the line's end.
    fn csv(&self, out: &mut Vec<u8>) -> io::Result<()>;
}

impl Row for Record {
    fn csv(&self, out: &mut Vec<u8>) -> io::Result<()> {
        write!(
            out,
            "{},{},{},{},{},{},{},{},{}",
            self.board,
            self.to_move,
            self.ply,
            self.status,
            self.value,
            self.remoteness,
            self.best,
            self.canonical,
            self.symmetry,
        )?;
        let moves = self.moves.iter().map(|m| {
            let number = usize::from(m.cell.number());
            (number, m.value, m.remoteness)
        });
        csv_moves(out, 9, moves);
        Ok(())
    }
}

impl<R: Row> Row for &R {
    fn csv(&self, out: &mut Vec<u8>) -> io::Result<()> {
        (*self).csv(out)
    }
}

/// Writes `records` as JSON Lines, one JSON array or CSV under `header`, one record at a time:
/// each is put together in a buffer and written whole, so that nothing but the record being
/// written is held.
///
/// # Panics
///
/// For [`ExportFormat::Bincode`], whose layout each kind of record has its own writer for.
fn write_rows<R: Row>(
    out: &mut dyn Write,
    format: ExportFormat,
    header: &str,
    records: impl IntoIterator<Item = R>,
) -> io::Result<()> {
    match format {
        ExportFormat::Json => out.write_all(b"[")?,
        ExportFormat::Csv => writeln!(out, "{header}")?,
        ExportFormat::Jsonl => {}
        ExportFormat::Bincode => unreachable!("bincode is written by each record's own writer"),
    }
    let mut line = Vec::new();
    for (n, record) in records.into_iter().enumerate() {
        line.clear();
        match format {
            ExportFormat::Json if n > 0 => line.push(b','),
            _ => {}
        }
        match format {
            ExportFormat::Csv => record.csv(&mut line)?,
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

/// Writes `records` in `format`. To write them to a file, standard output or a device as
/// `ttt export -o` does, give this to [`Destination::write`](crate::output::Destination::write).
///
/// # Errors
///
/// Whatever `out` fails with.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{export::{self, ExportFormat}, table};
///
/// let records = export::records(table(), true);
/// let mut csv = Vec::new();
/// export::write(&mut csv, ExportFormat::Csv, &records)?;
/// let text = String::from_utf8(csv).unwrap();
/// assert_eq!(text.lines().count(), 1 + 765);
/// assert!(text.lines().nth(1).unwrap().starts_with(".........,X,0,in_progress,draw,9,"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write(out: &mut dyn Write, format: ExportFormat, records: &[Record]) -> io::Result<()> {
    if format != ExportFormat::Bincode {
        return write_rows(out, format, &csv_header(), records);
    }
    let file = BincodeExport {
        magic: EXPORT_MAGIC,
        version: EXPORT_VERSION,
        records: records.to_vec(),
    };
    let bytes = bincode::serde::encode_to_vec(&file, BINCODE_CONFIG)
        .map_err(|error| io::Error::other(error.to_string()))?;
    out.write_all(&bytes)?;
    out.flush()
}

/// Reads back what `ttt export --format bincode` wrote.
///
/// # Errors
///
/// [`ReadExportError`] when the bytes are not an export of this version.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{export::{self, ExportFormat}, table};
///
/// let records = export::records(table(), false);
/// let mut bytes = Vec::new();
/// export::write(&mut bytes, ExportFormat::Bincode, &records)?;
/// assert_eq!(export::read_bincode(&bytes)?, records);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_bincode(bytes: &[u8]) -> Result<Vec<Record>, ReadExportError> {
    let (file, read): (BincodeExport, usize) =
        bincode::serde::decode_from_slice(bytes, BINCODE_CONFIG)
            .map_err(|error| ReadExportError::Decode(error.to_string()))?;
    if file.magic != EXPORT_MAGIC {
        return Err(ReadExportError::Magic);
    }
    if file.version != EXPORT_VERSION {
        return Err(ReadExportError::Version(file.version));
    }
    if read != bytes.len() {
        return Err(ReadExportError::Trailing(bytes.len() - read));
    }
    Ok(file.records)
}

/// Why bytes are not a bincode export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadExportError {
    /// bincode could not read the records.
    Decode(String),
    /// The bytes do not start with [`EXPORT_MAGIC`].
    Magic,
    /// A layout version this build cannot read.
    Version(u32),
    /// Bytes left over after the records.
    Trailing(usize),
}

impl fmt::Display for ReadExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadExportError::Decode(error) => write!(f, "not a ttt export: {error}"),
            ReadExportError::Magic => write!(f, "not a ttt export: wrong magic"),
            ReadExportError::Version(v) => {
                write!(f, "export version {v}; this build reads {EXPORT_VERSION}")
            }
            ReadExportError::Trailing(n) => write!(f, "{n} stray bytes after the records"),
        }
    }
}

impl std::error::Error for ReadExportError {}
