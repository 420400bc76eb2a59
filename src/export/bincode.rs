//! The bincode layouts of an export, and the forms records take in them.
//!
//! Tic-tac-toe's export is one value: [`EXPORT_MAGIC`], the version (`u32`), then every record
//! (cells as `u8`). Every other game's is streamed: [`STREAM_MAGIC`], the version, the game,
//! then each record behind a byte 1 (cells as `u64`), and a byte 0 after the last. Both use
//! fixed-width integers, little-endian.

use std::io::{self, Read, Write};
use std::{fmt, vec};

use bincode::config::{Configuration, Fixint, Limit, LittleEndian};
use serde::{Deserialize, Serialize};

use super::Record;
use crate::board::{Cells, Player, Status};
use crate::game::Game;
use crate::position::Position;
use crate::symmetry::Symmetry;
use crate::value::{MoveValue, Value};

/// bincode's settings for an export: little-endian, fixed-width integers, and at most 16 MiB
/// for anything read whole.
const BINCODE_CONFIG: Configuration<LittleEndian, Fixint, Limit<16_777_216>> =
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_limit::<16_777_216>();

/// The first eight bytes of tic-tac-toe's bincode export.
pub const EXPORT_MAGIC: [u8; 8] = *b"TTTEXPRT";

/// The first eight bytes of the streamed bincode export of every other game.
pub const STREAM_MAGIC: [u8; 8] = *b"TTTMNKEX";

/// The version of both bincode layouts; [`read_bincode`] refuses any other.
pub const EXPORT_VERSION: u32 = 1;

/// The most bytes tic-tac-toe's export, read whole, may take: its records take about 1 MB.
const WHOLE_LIMIT: u64 = 16 << 20;

/// A tic-tac-toe record as its export writes it: boards as 9-character text, no game.
#[derive(Serialize, Deserialize)]
pub(super) struct TicTacToeForm {
    #[serde(deserialize_with = "tic_tac_toe_board")]
    board: Position,
    to_move: Player,
    ply: u8,
    status: Status,
    value: Value,
    remoteness: u8,
    best: Cells,
    moves: Vec<MoveValue>,
    #[serde(deserialize_with = "tic_tac_toe_board")]
    canonical: Position,
    symmetry: Symmetry,
}

/// A board of tic-tac-toe, read back from its text.
fn tic_tac_toe_board<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Position, D::Error> {
    let text = String::deserialize(deserializer)?;
    Position::parse(Game::TIC_TAC_TOE, &text)
        .map_err(|error| serde::de::Error::custom(format!("board {text:?}: {error}")))
}

impl TicTacToeForm {
    pub(super) fn of(record: &Record) -> TicTacToeForm {
        TicTacToeForm {
            board: record.board,
            to_move: record.to_move,
            ply: record.ply,
            status: record.status,
            value: record.value,
            remoteness: record.remoteness,
            best: record.best,
            moves: record.moves.clone(),
            canonical: record.canonical,
            symmetry: record.symmetry,
        }
    }

    fn record(self) -> Record {
        Record {
            game: Game::TIC_TAC_TOE,
            board: self.board,
            to_move: self.to_move,
            ply: self.ply,
            status: self.status,
            value: self.value,
            remoteness: self.remoteness,
            best: self.best,
            moves: self.moves,
            canonical: self.canonical,
            symmetry: self.symmetry,
        }
    }
}

/// A record of any other game as its export writes it: the game first, cells as `usize`.
#[derive(Serialize)]
pub(super) struct WideForm<'a> {
    game: Game,
    board: Position,
    to_move: Player,
    ply: u8,
    status: Status,
    value: Value,
    remoteness: u8,
    #[serde(with = "wide::cells")]
    best: Cells,
    #[serde(serialize_with = "wide::moves::serialize")]
    moves: &'a [MoveValue],
    canonical: Position,
    symmetry: Symmetry,
}

impl WideForm<'_> {
    pub(super) fn of(record: &Record) -> WideForm<'_> {
        WideForm {
            game: record.game,
            board: record.board,
            to_move: record.to_move,
            ply: record.ply,
            status: record.status,
            value: record.value,
            remoteness: record.remoteness,
            best: record.best,
            moves: &record.moves,
            canonical: record.canonical,
            symmetry: record.symmetry,
        }
    }
}

/// A record as read back, before its boards are read as boards of its game: with `G` a
/// [`Game`], the form of the streamed layout; with `G` an `Option<Game>`, the form of JSON,
/// where a record without `game` is tic-tac-toe's.
#[derive(Deserialize)]
pub(super) struct TextForm<G> {
    game: G,
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

impl<G: Into<Option<Game>>> TextForm<G> {
    /// The record, its boards read as boards of its game.
    pub(super) fn record(self) -> Result<Record, String> {
        let game = self.game.into().unwrap_or(Game::TIC_TAC_TOE);
        let board = |text: &str| {
            Position::parse(game, text).map_err(|error| format!("board {text:?}: {error}"))
        };
        Ok(Record {
            game,
            board: board(&self.board)?,
            to_move: self.to_move,
            ply: self.ply,
            status: self.status,
            value: self.value,
            remoteness: self.remoteness,
            best: self.best,
            moves: self.moves,
            canonical: board(&self.canonical)?,
            symmetry: self.symmetry,
        })
    }
}

/// Tic-tac-toe's export, whole.
#[derive(Serialize)]
struct Whole {
    magic: [u8; 8],
    version: u32,
    records: Vec<TicTacToeForm>,
}

/// Writes `records`, all of `game`, in its game's bincode layout; the first error of
/// `records` stops it.
pub(super) fn write(
    out: &mut dyn Write,
    game: Game,
    records: impl IntoIterator<Item = io::Result<Record>>,
) -> io::Result<()> {
    if game.is_tic_tac_toe() {
        let records = records
            .into_iter()
            .map(|r| r.map(|r| TicTacToeForm::of(&r)))
            .collect::<io::Result<_>>()?;
        let whole = Whole {
            magic: EXPORT_MAGIC,
            version: EXPORT_VERSION,
            records,
        };
        let bytes = bincode::serde::encode_to_vec(&whole, BINCODE_CONFIG)
            .map_err(|error| io::Error::other(error.to_string()))?;
        out.write_all(&bytes)?;
        return out.flush();
    }
    let mut bytes = Vec::new();
    encode(out, &mut bytes, (STREAM_MAGIC, EXPORT_VERSION, game))?;
    for record in records {
        encode(out, &mut bytes, Some(WideForm::of(&record?)))?;
    }
    encode(out, &mut bytes, None::<WideForm>)?;
    out.flush()
}

/// Writes `value` in bincode, put together in `bytes` first so that it is written whole.
fn encode(out: &mut dyn Write, bytes: &mut Vec<u8>, value: impl Serialize) -> io::Result<()> {
    bytes.clear();
    bincode::serde::encode_into_std_write(value, bytes, BINCODE_CONFIG)
        .map_err(|error| io::Error::other(error.to_string()))?;
    out.write_all(bytes)
}

/// Starts reading what `ttt export --format bincode` wrote, for any game: the header now,
/// then the records one at a time as the reader is iterated (tic-tac-toe's, at most 16 MB,
/// are read whole first). Give it a buffered reader ([`std::io::BufReader`]): bincode reads a
/// few bytes at a time.
///
/// # Errors
///
/// [`ReadExportError`] when the header is not an export of this version.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Game, export::{self, ExportFormat}};
///
/// for game in [Game::TIC_TAC_TOE, "2x2k2".parse()?] {
///     let mut bytes = Vec::new();
///     export::write(&mut bytes, ExportFormat::Bincode, game, export::records(game, false)?)?;
///     let reader = export::read_bincode(bytes.as_slice())?;
///     assert_eq!(reader.game(), game);
///     let records: Vec<_> = reader.collect::<Result<_, _>>()?;
///     assert_eq!(records, export::records(game, false)?.collect::<Vec<_>>());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_bincode<R: Read>(mut reader: R) -> Result<BincodeReader<R>, ReadExportError> {
    let magic: [u8; 8] = decode(&mut reader)?;
    if magic != EXPORT_MAGIC && magic != STREAM_MAGIC {
        return Err(ReadExportError::Magic);
    }
    let version: u32 = decode(&mut reader)?;
    if version != EXPORT_VERSION {
        return Err(ReadExportError::Version(version));
    }
    if magic == EXPORT_MAGIC {
        let mut bytes = Vec::new();
        (&mut reader)
            .take(WHOLE_LIMIT + 1)
            .read_to_end(&mut bytes)
            .map_err(|error| ReadExportError::Decode(error.to_string()))?;
        let (records, read): (Vec<TicTacToeForm>, usize) =
            bincode::serde::decode_from_slice(&bytes, BINCODE_CONFIG)
                .map_err(|error| ReadExportError::Decode(error.to_string()))?;
        if read != bytes.len() {
            return Err(ReadExportError::Trailing(bytes.len() - read));
        }
        let records: Vec<Record> = records.into_iter().map(TicTacToeForm::record).collect();
        return Ok(BincodeReader {
            game: Game::TIC_TAC_TOE,
            source: Source::Whole(records.into_iter()),
        });
    }
    let game = decode(&mut reader)?;
    Ok(BincodeReader {
        game,
        source: Source::Stream {
            reader,
            done: false,
        },
    })
}

/// Reads one value of a bincode export.
fn decode<T: serde::de::DeserializeOwned>(reader: &mut impl Read) -> Result<T, ReadExportError> {
    bincode::serde::decode_from_std_read(reader, BINCODE_CONFIG)
        .map_err(|error| ReadExportError::Decode(error.to_string()))
}

/// The records of a bincode export, read one at a time (see [`read_bincode`]). Reading stops
/// at the first error, which is the last item.
#[derive(Debug)]
pub struct BincodeReader<R> {
    game: Game,
    source: Source<R>,
}

/// Where the records come from.
#[derive(Debug)]
enum Source<R> {
    /// Tic-tac-toe's, read whole.
    Whole(vec::IntoIter<Record>),
    /// Any other game's, streamed.
    Stream { reader: R, done: bool },
}

impl<R> BincodeReader<R> {
    /// The game the header names.
    pub fn game(&self) -> Game {
        self.game
    }
}

impl<R: Read> BincodeReader<R> {
    fn read(reader: &mut R, game: Game) -> Result<Option<Record>, ReadExportError> {
        match decode::<Option<TextForm<Game>>>(reader)? {
            Some(form) if form.game != game => Err(ReadExportError::Decode(format!(
                "a record of game {} in an export of game {game}",
                form.game
            ))),
            Some(form) => form.record().map(Some).map_err(ReadExportError::Decode),
            None => {
                let trailing = io::copy(reader, &mut io::sink())
                    .map_err(|error| ReadExportError::Decode(error.to_string()))?;
                match trailing {
                    0 => Ok(None),
                    n => Err(ReadExportError::Trailing(n as usize)),
                }
            }
        }
    }
}

impl<R: Read> Iterator for BincodeReader<R> {
    type Item = Result<Record, ReadExportError>;

    fn next(&mut self) -> Option<Self::Item> {
        let game = self.game;
        match &mut self.source {
            Source::Whole(records) => records.next().map(Ok),
            Source::Stream { done: true, .. } => None,
            Source::Stream { reader, done } => {
                let read = BincodeReader::read(reader, game);
                *done = !matches!(read, Ok(Some(_)));
                read.transpose()
            }
        }
    }
}

/// Why bytes are not a bincode export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadExportError {
    /// bincode could not read the records.
    Decode(String),
    /// The bytes do not start with [`EXPORT_MAGIC`] or [`STREAM_MAGIC`].
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
