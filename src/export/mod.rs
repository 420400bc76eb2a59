//! The writers behind `ttt export`: the solved table of any game with a table, as JSON Lines,
//! JSON, CSV or bincode, and the reader of its bincode.
//!
//! Every format holds the same [`Record`]s, one per position, in one stable order: by ply,
//! then by the board's text (`.` < `O` < `X`) for tic-tac-toe, by base-3 code for the other
//! games. Output is byte-identical from run to run. Records are made and written one at a
//! time, so even 4x4's 9,722,011 positions are written in constant memory, and so are the
//! games of 17 to 25 cells whose table `ttt solve` cached, read from the mapped file.

mod bincode;
mod rows;

use std::io::{self, Write};
use std::sync::Arc;
use std::vec;

use serde::ser::{Serialize, Serializer};
use serde::{Deserialize, Deserializer};

use crate::board::{Board, Cells, Player, Status};
use crate::game::Game;
use crate::oracle::{Layout, Oracle};
use crate::position::Position;
use crate::reachable::Reachable;
use crate::solve::Codes;
use crate::symmetry::canonicalize;
use crate::table::disk::DiskTable;
use crate::table::{Table, TableError};
use crate::value::{MoveValue, Value, move_rank};

pub use self::bincode::{
    BincodeReader, EXPORT_MAGIC, EXPORT_VERSION, ReadExportError, STREAM_MAGIC, read_bincode,
};
pub use crate::symmetry::Symmetry;

/// One position of the exported table of any game: the keys of `ttt analyze --format json`,
/// then where the board sits among its symmetric images.
///
/// Serializes to the keys of `ttt export`: those below, in order, without `game` on
/// tic-tac-toe; cells are numbered from 1.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Game, export};
///
/// let records: Vec<_> = export::records(Game::TIC_TAC_TOE, false)?.collect();
/// assert_eq!(records.len(), 5478);
/// assert_eq!(records[0].board.to_string(), ".........");
/// assert_eq!(export::records(Game::TIC_TAC_TOE, true)?.count(), 765);
///
/// let records: Vec<_> = export::records("2x2k2".parse()?, false)?.collect();
/// assert_eq!(records.len(), 29);
/// assert_eq!(records[2].board.to_string(), ".X/..");
/// assert_eq!(records[2].canonical.to_string(), "X./..");
/// assert_eq!(records[2].symmetry.name(), "rotate270");
/// let json = serde_json::to_string(&records[2])?;
/// assert!(json.starts_with(r#"{"game":"2x2","board":".X/..","to_move":"O","#)); // k = 2, the shorter side
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
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
    pub best: Cells,
    /// Every legal move, by cell, valued from the view of the player making it.
    pub moves: Vec<MoveValue>,
    /// The canonical form of the board: of its images under the game's symmetries, the one
    /// with the smallest base-3 code.
    pub canonical: Position,
    /// The symmetry that maps the board onto its canonical form (for the other games the
    /// first, in the order of [`Symmetry::ALL`], that does).
    pub symmetry: Symmetry,
}

impl Serialize for Record {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.game.is_tic_tac_toe() {
            bincode::TicTacToeForm::of(self).serialize(serializer)
        } else {
            bincode::WideForm::of(self).serialize(serializer)
        }
    }
}

/// Reads a record back from a self-describing format (JSON) as `ttt export` wrote it: a
/// record without `game` is tic-tac-toe's. Bincode exports are read with [`read_bincode`].
impl<'de> Deserialize<'de> for Record {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Record, D::Error> {
        if !deserializer.is_human_readable() {
            return Err(serde::de::Error::custom(
                "a bincode export is read with export::read_bincode",
            ));
        }
        bincode::TextForm::<Option<Game>>::deserialize(deserializer)?
            .record()
            .map_err(serde::de::Error::custom)
    }
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

/// Every reachable position of `game` (or, with `canonical_only`, every canonical one), in
/// export order, each record made when asked for.
///
/// # Errors
///
/// [`TableError`] when the game has no table (none embedded, none cached by `ttt solve` for
/// a game past 16 cells, or too large for either), or its table is damaged.
pub fn records(game: Game, canonical_only: bool) -> Result<Records, TableError> {
    let oracle = Oracle::of(game)?;
    let walk = match oracle.layout() {
        Layout::TicTacToe(_) => Walk::TicTacToe(Board::reachable().into_iter(), oracle.clone()),
        Layout::Disk(table) => Walk::Disk(table, Position::reachable(game)),
        Layout::Any(table) => Walk::Table(
            Arc::clone(table),
            Position::reachable(game),
            Box::new(Codes::new(game)),
        ),
    };
    Ok(Records {
        walk,
        canonical_only,
    })
}

/// The iterator of [`records`].
pub struct Records {
    walk: Walk,
    canonical_only: bool,
}

/// How [`Records`] walks its game.
enum Walk {
    /// Tic-tac-toe's 5,478 boards, in the order of their text.
    TicTacToe(vec::IntoIter<Board>, Oracle),
    /// Any other game, by base-3 code.
    Table(Arc<Table>, Reachable, Box<Codes>),
    /// A game past 16 cells, from the table `ttt solve` cached, by base-3 code.
    Disk(&'static DiskTable, Reachable),
}

impl Iterator for Records {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        match &mut self.walk {
            Walk::TicTacToe(boards, oracle) => boards.by_ref().find_map(|board| {
                let (canonical, symmetry) = canonicalize(board);
                if self.canonical_only && canonical != board {
                    return None;
                }
                let position = Position::from_board(board);
                let probe = oracle.probe(&position);
                Some(Record {
                    game: Game::TIC_TAC_TOE,
                    board: position,
                    to_move: board.to_move(),
                    ply: board.ply() as u8,
                    status: board.status(),
                    value: probe.value,
                    remoteness: probe.remoteness,
                    best: oracle.best_moves(&position),
                    moves: oracle.moves(&position),
                    canonical: Position::from_board(canonical),
                    symmetry,
                })
            }),
            Walk::Table(table, boards, codes) => {
                for board in boards.by_ref() {
                    // A game with a table has at most 16 cells: its masks fit a `u64`.
                    let (x, o) = (board.mask(Player::X), board.mask(Player::O));
                    let (_, turn) = codes.canonical(x as u64, o as u64);
                    // The identity is the first turn: a board is canonical when no other does
                    // better.
                    if self.canonical_only && turn != 0 {
                        continue;
                    }
                    let probe = table.probe(&board);
                    return Some(record(board, probe, table.analyze(&board), turn));
                }
                None
            }
            Walk::Disk(table, boards) => {
                for board in boards.by_ref() {
                    let turn = canonical_turn(&board);
                    if self.canonical_only && turn != 0 {
                        continue;
                    }
                    let probe = table.probe(&board);
                    return Some(record(board, probe, table.analyze(&board), turn));
                }
                None
            }
        }
    }
}

/// The record of `board` of a game other than tic-tac-toe, its moves valued, canonical
/// under the `turn`-th of its geometry's turns.
fn record(
    board: Position,
    probe: crate::value::Probe,
    moves: Vec<MoveValue>,
    turn: usize,
) -> Record {
    // The optimal moves are those of the best rank, read off the moves rather than asking the
    // table again.
    let rank = |m: &MoveValue| move_rank(m.value, m.remoteness);
    let top = moves.iter().map(rank).max();
    let best = moves
        .iter()
        .filter(|m| Some(rank(m)) == top)
        .map(|m| m.cell)
        .collect();
    Record {
        game: board.game(),
        board,
        to_move: board.to_move(),
        ply: board.ply() as u8,
        status: board.status(),
        value: probe.value,
        remoteness: probe.remoteness,
        best,
        moves,
        canonical: board.turned(turn),
        symmetry: board.geometry().turns()[turn],
    }
}

/// The first of the geometry's turns that gives `board` its smallest base-3 code, on a board
/// of up to 40 cells (the code fits a `u64`): what [`Codes::canonical`] finds for a game of at
/// most 16 cells.
fn canonical_turn(board: &Position) -> usize {
    let code = |turned: Position| {
        let (x, o) = (turned.mask(Player::X), turned.mask(Player::O));
        (0..board.game().cells()).rev().fold(0u64, |code, cell| {
            code * 3 + (x >> cell & 1) as u64 + 2 * (o >> cell & 1) as u64
        })
    };
    (0..board.geometry().turns().len())
        .min_by_key(|&t| code(board.turned(t)))
        .unwrap_or(0)
}

/// The CSV header of `game`'s export: every column, in order.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Game, export};
///
/// assert!(export::csv_header(Game::TIC_TAC_TOE).starts_with("board,to_move,ply,"));
/// assert!(export::csv_header("4x4".parse()?).starts_with("game,board,"));
/// # Ok::<(), ttt_oracle::GameError>(())
/// ```
pub fn csv_header(game: Game) -> String {
    if game.is_tic_tac_toe() {
        rows::csv_columns(&[], 9)
    } else {
        rows::csv_columns(&["game"], game.cells())
    }
}

/// Writes `records`, all of `game`, in `format`, one at a time. bincode is written in its
/// game's layout (see [`read_bincode`]). To write them to a file, standard output or a device
/// as `ttt export -o` does, the command line hands this its atomic writer.
///
/// # Errors
///
/// Whatever `out` fails with; [`io::ErrorKind::InvalidInput`] for a record of another game
/// than `game`, before it is written.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Game, export::{self, ExportFormat}};
///
/// let game = Game::TIC_TAC_TOE;
/// let mut csv = Vec::new();
/// export::write(&mut csv, ExportFormat::Csv, game, export::records(game, true)?)?;
/// let text = String::from_utf8(csv)?;
/// assert_eq!(text.lines().count(), 1 + 765);
/// assert!(text.lines().nth(1).unwrap().starts_with(".........,X,0,in_progress,draw,9,"));
///
/// let game = "2x2k2".parse()?;
/// let mut csv = Vec::new();
/// export::write(&mut csv, ExportFormat::Csv, game, export::records(game, true)?)?;
/// let text = String::from_utf8(csv)?;
/// assert_eq!(text.lines().count(), 1 + 6);
/// assert!(text.lines().nth(1).unwrap().starts_with("2x2,../..,X,0,in_progress,win,3,"));
///
/// // A record of another game is refused.
/// let wrong = export::write(&mut Vec::new(), ExportFormat::Csv, game, export::records(Game::TIC_TAC_TOE, true)?);
/// assert_eq!(wrong.unwrap_err().kind(), std::io::ErrorKind::InvalidInput);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write(
    out: &mut dyn Write,
    format: ExportFormat,
    game: Game,
    records: impl IntoIterator<Item = Record>,
) -> io::Result<()> {
    let records = records.into_iter().map(|record| {
        if record.game == game {
            Ok(record)
        } else {
            Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "a record of game {} in an export of game {game}",
                    record.game
                ),
            ))
        }
    });
    if format == ExportFormat::Bincode {
        return bincode::write(out, game, records);
    }
    rows::write_rows(out, format, &csv_header(game), records)
}
