//! The export of an m,n,k game other than tic-tac-toe: its records made one at a time from the
//! game's table, and the bincode layout that streams them.

use std::io::{self, Read, Write};

use serde::{Deserialize, Serialize};

use super::{
    EXPORT_VERSION, ExportFormat, ReadExportError, Row, csv_columns, csv_moves, push_field,
    push_number,
};
use crate::board::{Cells, Player, Status};
use crate::format::tic_tac_toe::BINCODE_CONFIG;
use crate::game::{Game, MAX_CELLS};
use crate::position::{Position, Reachable};
use crate::solve::Codes;
use crate::symmetry::Symmetry;
use crate::table::Table;
use crate::value::{MoveValue, Value, move_rank};

/// One position of an m,n,k game's export: the keys of tic-tac-toe's [`Record`](super::Record)
/// after a first key `game`, cells numbered 1..rows*columns.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{export, mnk_table};
///
/// let table = crate::table::of("2x2k2".parse()?)?;
/// let records: Vec<_> = export::mnk_records(table, false).collect();
/// assert_eq!(records.len(), 29);
/// assert_eq!(records[2].board.to_string(), ".X/..");
/// assert_eq!(records[2].canonical.to_string(), "X./..");
/// assert_eq!(records[2].symmetry.name(), "rotate270");
/// assert_eq!(export::mnk_records(table, true).count(), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "MnkRecordText")]
pub struct MnkRecord {
    /// The game.
    pub game: Game,
    /// The position.
    pub board: Position,
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
    #[serde(with = "wide::cells")]
    pub best: Cells,
    /// Every legal move, by cell, valued from the view of the player making it.
    #[serde(with = "wide::moves")]
    pub moves: Vec<MoveValue>,
    /// The canonical form of the board: of its images under the game's symmetries, the one
    /// with the smallest base-3 code.
    pub canonical: Position,
    /// The first of the game's symmetries, in the order of [`Symmetry::ALL`], that maps the
    /// board onto its canonical form.
    pub symmetry: Symmetry,
}

/// An [`MnkRecord`] as read, before its boards are read as boards of its game.
#[derive(Deserialize)]
struct MnkRecordText {
    game: Game,
    board: String,
    to_move: Player,
    ply: u8,
    status: Status,
    value: Value,
    remoteness: u8,
    #[serde(with = "wide::cells")]
    best: Cells,
    #[serde(with = "wide::moves")]
    moves: Vec<MoveValue>,
    canonical: String,
    symmetry: Symmetry,
}

impl TryFrom<MnkRecordText> for MnkRecord {
    type Error = String;

    fn try_from(text: MnkRecordText) -> Result<MnkRecord, String> {
        let game = text.game;
        let board = |text: &str| {
            Position::parse(game, text).map_err(|error| format!("board {text:?}: {error}"))
        };
        Ok(MnkRecord {
            game,
            board: board(&text.board)?,
            to_move: text.to_move,
            ply: text.ply,
            status: text.status,
            value: text.value,
            remoteness: text.remoteness,
            best: text.best,
            moves: text.moves,
            canonical: board(&text.canonical)?,
            symmetry: text.symmetry,
        })
    }
}

impl Row for MnkRecord {
    fn csv(&self, out: &mut Vec<u8>) -> io::Result<()> {
        // Byte by byte: the formatting machinery would cost more than making the record.
        let mut board = [0; 2 * MAX_CELLS];
        write!(out, "{}", self.game)?;
        push_field(out, self.board.text(&mut board));
        push_field(out, self.to_move.name());
        out.push(b',');
        push_number(out, self.ply.into());
        push_field(out, self.status.name());
        push_field(out, self.value.name());
        out.push(b',');
        push_number(out, self.remoteness.into());
        out.push(b',');
        for (i, cell) in self.best.iter().enumerate() {
            if i > 0 {
                out.push(b' ');
            }
            push_number(out, cell.number().into());
        }
        push_field(out, self.canonical.text(&mut board));
        push_field(out, self.symmetry.name());
        let moves = self
            .moves
            .iter()
            .map(|m| (m.cell.number().into(), m.value, m.remoteness));
        csv_moves(out, self.game.cells(), moves);
        Ok(())
    }
}

/// Every reachable position of the game of `table` (or, with `canonical_only`, every canonical
/// one), in export order: by ply, then by base-3 code (see [`Position::reachable`]). Each
/// record is made when asked for, so the whole game is never in memory.
pub fn mnk_records(table: &Table, canonical_only: bool) -> MnkRecords<'_> {
    let game = table.game();
    MnkRecords {
        table,
        boards: Position::reachable(game),
        codes: Codes::new(game),
        canonical_only,
    }
}

/// The iterator of [`mnk_records`].
pub struct MnkRecords<'a> {
    table: &'a Table,
    boards: Reachable,
    codes: Codes,
    canonical_only: bool,
}

impl Iterator for MnkRecords<'_> {
    type Item = MnkRecord;

    fn next(&mut self) -> Option<MnkRecord> {
        for board in self.boards.by_ref() {
            // A game with a table has at most 16 cells: its masks fit a `u64`.
            let (x, o) = (board.mask(Player::X), board.mask(Player::O));
            let (_, turn) = self.codes.canonical(x as u64, o as u64);
            // The identity is the first turn: a board is canonical when no other does better.
            if self.canonical_only && turn != 0 {
                continue;
            }
            let probe = self.table.probe(&board);
            // The optimal moves are those of the best rank, read off the moves rather than
            // asking the table again.
            let moves = self.table.analyze(&board);
            let rank = |m: &MoveValue| move_rank(m.value, m.remoteness);
            let top = moves.iter().map(rank).max();
            let best = moves.iter().filter(|m| Some(rank(m)) == top);
            return Some(MnkRecord {
                game: board.game(),
                board,
                to_move: board.to_move(),
                ply: board.ply() as u8,
                status: board.status(),
                value: probe.value,
                remoteness: probe.remoteness,
                best: best.map(|m| m.cell).collect(),
                moves,
                canonical: board.turned(turn),
                symmetry: board.geometry().turns()[turn],
            });
        }
        None
    }
}

/// The first eight bytes of an m,n,k game's bincode export.
pub const MNK_EXPORT_MAGIC: [u8; 8] = *b"TTTMNKEX";

/// Writes `records`, all of one game, in `format`, one at a time: the m,n,k counterpart of
/// [`write`](super::write). bincode is streamed: [`MNK_EXPORT_MAGIC`], the version (`u32`), the
/// game, then each record behind a byte 1, and a byte 0 after the last; read it back with
/// [`read_mnk_bincode`].
///
/// # Errors
///
/// Whatever `out` fails with.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{export::{self, ExportFormat}, mnk_table};
///
/// let game = "2x2k2".parse()?;
/// let mut csv = Vec::new();
/// export::write_mnk(&mut csv, ExportFormat::Csv, game, export::mnk_records(crate::table::of(game)?, true))?;
/// let text = String::from_utf8(csv)?;
/// assert_eq!(text.lines().count(), 1 + 6);
/// assert!(text.lines().nth(1).unwrap().starts_with("2x2,../..,X,0,in_progress,win,3,"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_mnk(
    out: &mut dyn Write,
    format: ExportFormat,
    game: Game,
    records: impl IntoIterator<Item = MnkRecord>,
) -> io::Result<()> {
    if format != ExportFormat::Bincode {
        return super::write_rows(out, format, &csv_columns(&["game"], game.cells()), records);
    }
    let mut bytes = Vec::new();
    encode(out, &mut bytes, (MNK_EXPORT_MAGIC, EXPORT_VERSION, game))?;
    for record in records {
        encode(out, &mut bytes, Some(record))?;
    }
    encode(out, &mut bytes, None::<MnkRecord>)?;
    out.flush()
}

/// Writes `value` in bincode, put together in `bytes` first so that it is written whole.
fn encode(out: &mut dyn Write, bytes: &mut Vec<u8>, value: impl Serialize) -> io::Result<()> {
    bytes.clear();
    bincode::serde::encode_into_std_write(value, bytes, BINCODE_CONFIG)
        .map_err(|error| io::Error::other(error.to_string()))?;
    out.write_all(bytes)
}

/// Starts reading what `ttt export --game G --format bincode` wrote, for a game other than
/// tic-tac-toe: the header now, then the records one at a time as the reader is iterated. Give
/// it a buffered reader ([`std::io::BufReader`]): bincode reads a few bytes at a time.
///
/// # Errors
///
/// [`ReadExportError`] when the header is not an m,n,k export of this version.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{export::{self, ExportFormat}, mnk_table};
///
/// let game = "2x2k2".parse()?;
/// let mut bytes = Vec::new();
/// export::write_mnk(&mut bytes, ExportFormat::Bincode, game, export::mnk_records(crate::table::of(game)?, false))?;
/// let reader = export::read_mnk_bincode(bytes.as_slice())?;
/// assert_eq!(reader.game(), game);
/// let records: Vec<_> = reader.collect::<Result<_, _>>()?;
/// assert_eq!(records, export::mnk_records(crate::table::of(game)?, false).collect::<Vec<_>>());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_mnk_bincode<R: Read>(mut reader: R) -> Result<MnkBincodeReader<R>, ReadExportError> {
    let magic: [u8; 8] = decode(&mut reader)?;
    if magic != MNK_EXPORT_MAGIC {
        return Err(ReadExportError::Magic);
    }
    let version: u32 = decode(&mut reader)?;
    if version != EXPORT_VERSION {
        return Err(ReadExportError::Version(version));
    }
    let game = decode(&mut reader)?;
    Ok(MnkBincodeReader {
        reader,
        game,
        done: false,
    })
}

/// Reads one value of a bincode export.
fn decode<T: serde::de::DeserializeOwned>(reader: &mut impl Read) -> Result<T, ReadExportError> {
    bincode::serde::decode_from_std_read(reader, BINCODE_CONFIG)
        .map_err(|error| ReadExportError::Decode(error.to_string()))
}

/// The records of an m,n,k bincode export, read one at a time (see [`read_mnk_bincode`]).
/// Reading stops at the first error, which is the last item.
#[derive(Debug)]
pub struct MnkBincodeReader<R> {
    reader: R,
    game: Game,
    done: bool,
}

impl<R> MnkBincodeReader<R> {
    /// The game the header names.
    pub fn game(&self) -> Game {
        self.game
    }
}

impl<R: Read> MnkBincodeReader<R> {
    fn read(&mut self) -> Result<Option<MnkRecord>, ReadExportError> {
        match decode::<Option<MnkRecord>>(&mut self.reader)? {
            Some(record) if record.game != self.game => Err(ReadExportError::Decode(format!(
                "a record of game {} in an export of game {}",
                record.game, self.game
            ))),
            Some(record) => Ok(Some(record)),
            None => {
                let trailing = io::copy(&mut self.reader, &mut io::sink())
                    .map_err(|error| ReadExportError::Decode(error.to_string()))?;
                match trailing {
                    0 => Ok(None),
                    n => Err(ReadExportError::Trailing(n as usize)),
                }
            }
        }
    }
}

impl<R: Read> Iterator for MnkBincodeReader<R> {
    type Item = Result<MnkRecord, ReadExportError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let read = self.read();
        self.done = !matches!(read, Ok(Some(_)));
        read.transpose()
    }
}

/// The serde forms of cells in these records: numbers as `usize`, eight bytes each in bincode,
/// as the format has always written them (tic-tac-toe's records write one byte).
mod wide {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::board::Cell;
    use crate::value::{MoveValue, Value};

    fn cell(number: usize) -> Result<Cell, String> {
        number
            .checked_sub(1)
            .and_then(Cell::new)
            .ok_or_else(|| format!("{number} is not a cell"))
    }

    pub mod cells {
        use super::*;
        use crate::board::Cells;

        pub fn serialize<S: Serializer>(cells: &Cells, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(cells.iter().map(|cell| usize::from(cell.number())))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Cells, D::Error> {
            Vec::<usize>::deserialize(deserializer)?
                .into_iter()
                .map(|number| cell(number).map_err(serde::de::Error::custom))
                .collect()
        }
    }

    #[derive(Serialize, Deserialize)]
    struct Wide {
        cell: usize,
        value: Value,
        remoteness: u8,
    }

    pub mod moves {
        use super::*;

        pub fn serialize<S: Serializer>(
            moves: &[MoveValue],
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(moves.iter().map(|m| Wide {
                cell: m.cell.number().into(),
                value: m.value,
                remoteness: m.remoteness,
            }))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Vec<MoveValue>, D::Error> {
            Vec::<Wide>::deserialize(deserializer)?
                .into_iter()
                .map(|m| {
                    Ok(MoveValue {
                        cell: cell(m.cell).map_err(serde::de::Error::custom)?,
                        value: m.value,
                        remoteness: m.remoteness,
                    })
                })
                .collect()
        }
    }
}
