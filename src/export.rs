//! The writers behind `ttt export`: the solved table as JSON Lines, JSON, CSV or bincode.
//!
//! Every format holds the same records, one per position, in one stable order: by ply, then
//! by the board's text (`.` < `O` < `X`). Output is byte-identical from run to run.

use std::fmt;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::analysis::Analysis;
use crate::board::{Board, Cell, Cells, Player, Status};
use crate::format::BINCODE_CONFIG;
use crate::solve::Value;
use crate::symmetry::{Symmetry, canonicalize};
use crate::table::{MoveAnalysis, Table};

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
    pub moves: Vec<MoveAnalysis>,
    /// The canonical form of the board.
    pub canonical: Board,
    /// The symmetry that maps the board onto its canonical form.
    pub symmetry: Symmetry,
}

/// Every reachable position (or, with `canonical_only`, every canonical one), in export order.
pub fn records(table: &Table, canonical_only: bool) -> Vec<Record> {
    Board::reachable()
        .into_iter()
        .filter_map(|board| {
            let (canonical, symmetry) = canonicalize(board);
            if canonical_only && canonical.board() != board {
                return None;
            }
            // The fields `ttt analyze --format json` shows, then where the board sits among
            // its symmetric images.
            let analysis = Analysis::new(table, board);
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

/// The version of the bincode export layout; [`read_bincode`] refuses any other.
pub const EXPORT_VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct BincodeExport {
    magic: [u8; 8],
    version: u32,
    records: Vec<Record>,
}

/// The CSV header: every column, in order.
pub fn csv_header() -> String {
    let mut columns: Vec<String> = [
        "board",
        "to_move",
        "ply",
        "status",
        "value",
        "remoteness",
        "best",
        "canonical",
        "symmetry",
    ]
    .map(String::from)
    .to_vec();
    columns.extend((1..=9).map(|n| format!("value_{n}")));
    columns.extend((1..=9).map(|n| format!("remoteness_{n}")));
    columns.join(",")
}

fn csv_row(record: &Record) -> String {
    let mut fields = vec![
        record.board.to_string(),
        record.to_move.to_string(),
        record.ply.to_string(),
        record.status.to_string(),
        record.value.to_string(),
        record.remoteness.to_string(),
        record.best.to_string(),
        record.canonical.to_string(),
        record.symmetry.to_string(),
    ];
    let by_cell = |cell: Cell| record.moves.iter().find(|m| m.cell == cell);
    fields.extend(Cell::ALL.map(|c| by_cell(c).map(|m| m.value.to_string()).unwrap_or_default()));
    fields.extend(Cell::ALL.map(|c| {
        by_cell(c)
            .map(|m| m.remoteness.to_string())
            .unwrap_or_default()
    }));
    fields.join(",")
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
    match format {
        ExportFormat::Jsonl => {
            for record in records {
                serde_json::to_writer(&mut *out, record)?;
                out.write_all(b"\n")?;
            }
        }
        ExportFormat::Json => {
            serde_json::to_writer(&mut *out, records)?;
            out.write_all(b"\n")?;
        }
        ExportFormat::Csv => {
            writeln!(out, "{}", csv_header())?;
            for record in records {
                writeln!(out, "{}", csv_row(record))?;
            }
        }
        ExportFormat::Bincode => {
            let file = BincodeExport {
                magic: EXPORT_MAGIC,
                version: EXPORT_VERSION,
                records: records.to_vec(),
            };
            let bytes = bincode::serde::encode_to_vec(&file, BINCODE_CONFIG)
                .map_err(|error| io::Error::other(error.to_string()))?;
            out.write_all(&bytes)?;
        }
    }
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
