//! Best moves in bulk, as `ttt best -` answers boards: a line that holds a board written as
//! `ttt` writes it (`X.O......`, `XX../O.../..../....`), legal and in play, is read, looked up
//! and answered in place, with nothing allocated. Every other line (a board spelled another way,
//! a finished game, an error) is left to the caller's general path; the command line's tests
//! check that both paths write the same bytes for every board.

use std::sync::Arc;

use crate::oracle::Layout as OracleLayout;
use crate::table::Table;
use crate::table::tic_tac_toe::Dense;
use crate::{Game, Oracle, Player, Value};

/// Lines the input buffer must hold before the fast path unpacks a table still read in place:
/// a program piping boards in bulk, rather than one asking a move at a time.
const BULK: usize = 1000;

/// Best moves for lines of boards of one game, read and answered at full speed: the text answer
/// is the move's number, the JSON one `ttt best --format json`'s object.
///
/// ```
/// use ttt_oracle::{BatchBest, Game, Oracle};
///
/// let batch = BatchBest::new(&Oracle::of(Game::TIC_TAC_TOE)?, false).expect("a fast path");
/// let mut out = Vec::new();
/// assert_eq!(batch.answer_lines(b"X........\nXO.......\nX O\n", &mut out), (20, 2));
/// assert_eq!(out, b"5\n4\n"); // the third line is left to the caller
/// # Ok::<(), ttt_oracle::TableError>(())
/// ```
pub struct BatchBest {
    layout: Layout,
    json: bool,
    /// What a JSON answer starts with, up to the board's text.
    head: String,
    /// The length of a board's text: its cells and the slashes between its rows.
    length: usize,
    /// The game's columns, for where its slashes stand.
    columns: usize,
}

impl std::fmt::Debug for BatchBest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BatchBest({}, json: {})", self.layout.game(), self.json)
    }
}

/// The table the answers come from.
enum Layout {
    /// Tic-tac-toe's dense table, indexed by base-3 code.
    TicTacToe(&'static Dense),
    /// Any other game's table, answering once it is unpacked.
    Any(Arc<Table>),
}

impl Layout {
    /// The game whose table this is.
    fn game(&self) -> Game {
        match self {
            Layout::TicTacToe(_) => Game::TIC_TAC_TOE,
            Layout::Any(table) => table.game(),
        }
    }
}

/// The digit of each byte in a board's base-3 code: `.` 0, `X` 1, `O` 2, anything else 3.
const DIGITS: [u8; 256] = {
    let mut digits = [3u8; 256];
    digits[b'.' as usize] = 0;
    digits[b'X' as usize] = 1;
    digits[b'O' as usize] = 2;
    digits
};

/// The top bit of every byte of a word.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// 8 bytes as a word, the first the lowest.
#[inline]
fn word(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes.try_into().expect("8 bytes"))
}

/// The top bit of each byte of `word` equal to `byte`, and no other bit.
#[inline]
fn equal(word: u64, byte: u8) -> u64 {
    let differ = word ^ u64::from_le_bytes([byte; 8]);
    // A byte's low 7 bits plus 0x7f carry into its top bit when any is set; no byte carries
    // into the next.
    !(((differ & !HIGH) + !HIGH) | differ) & HIGH
}

/// The top bits of the bytes of `flags` as the low 8 bits of a number, the first byte's
/// lowest.
#[inline]
fn gather(flags: u64) -> u64 {
    ((flags >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

impl BatchBest {
    /// Answers for `oracle`'s game, as JSON objects when `json`; `None` for a game whose table
    /// has no fast path (one `ttt solve` cached, past 16 cells).
    pub fn new(oracle: &Oracle, json: bool) -> Option<BatchBest> {
        let layout = match oracle.layout() {
            OracleLayout::TicTacToe(dense) => Layout::TicTacToe(dense),
            OracleLayout::Any(table) => Layout::Any(Arc::clone(table)),
            OracleLayout::Disk(_) => return None,
        };
        let game = layout.game();
        let slashes = if game == Game::TIC_TAC_TOE {
            0
        } else {
            game.rows() - 1
        };
        let head = if game == Game::TIC_TAC_TOE {
            "{\"board\":\"".to_string()
        } else {
            format!("{{\"game\":\"{game}\",\"board\":\"")
        };
        Some(BatchBest {
            layout,
            json,
            head,
            length: game.cells() + slashes,
            columns: game.columns(),
        })
    }

    /// Answers the whole lines at the start of `input` that the fast path reads, appending the
    /// answers to `out`; returns how many bytes of `input` and how many lines it answered. It
    /// stops at the first line it leaves to the general path, or at a line not yet whole.
    pub fn answer_lines(&self, input: &[u8], out: &mut Vec<u8>) -> (usize, u64) {
        // JSON gives values too, read from the unpacked table; text only best moves, which 4x4
        // answers at once from its embedded half bytes.
        if let Layout::Any(table) = &self.layout
            && !(table.is_unpacked() || !self.json && table.answers_at_once())
        {
            if input.len() < BULK * (self.length + 1) {
                return (0, 0);
            }
            table.unpack();
        }
        let dense = match &self.layout {
            Layout::TicTacToe(dense) => dense,
            Layout::Any(table) => return self.answer_any(table, input, out),
        };
        let (mut used, mut lines) = (0, 0);
        while let Some(line) = input.get(used..used + self.length + 1) {
            let (board, newline) = line.split_at(self.length);
            if newline != b"\n" || !self.answer(dense, board, out) {
                break;
            }
            used += line.len();
            lines += 1;
        }
        (used, lines)
    }

    /// [`answer_lines`](BatchBest::answer_lines) on a game other than tic-tac-toe, a few lines
    /// at a time: their codes first, then their moves, whose reads, each likely a miss of the
    /// caches in 4x4's 21.5 MB, are then under way together rather than one after the other.
    fn answer_any(&self, table: &Table, input: &[u8], out: &mut Vec<u8>) -> (usize, u64) {
        const CHUNK: usize = 32;
        let (mut used, mut lines) = (0, 0);
        loop {
            let mut found = [(0u64, 0u64, 0usize); CHUNK];
            let mut count = 0;
            let mut at = used;
            while count < CHUNK {
                let Some(line) = input.get(at..at + self.length + 1) else {
                    break;
                };
                let (board, newline) = line.split_at(self.length);
                let Some((x, o)) = (newline == b"\n").then(|| self.marks(board)).flatten() else {
                    break;
                };
                let Some(code) = table.quick_code(x, o) else {
                    break;
                };
                found[count] = (x, o, code);
                count += 1;
                at += line.len();
            }
            let mut best = [0u8; CHUNK];
            for (best, &(_, _, code)) in best.iter_mut().zip(&found[..count]) {
                *best = table.best_move_at(code).number();
            }
            for (i, &(x, o, _)) in found[..count].iter().enumerate() {
                let start = used + i * (self.length + 1);
                let board = &input[start..start + self.length];
                self.write(board, out, best[i], || table.value_in_play(x, o));
            }
            used = at;
            lines += count as u64;
            if count < CHUNK {
                return (used, lines);
            }
        }
    }

    /// The marks of X and of O on `board`, written with a slash between rows; `None` for
    /// anything else.
    #[inline]
    fn marks(&self, board: &[u8]) -> Option<(u64, u64)> {
        if self.columns <= 8 && board.len() >= 8 {
            return self.marks_by_rows(board);
        }
        self.marks_by_bytes(board)
    }

    /// [`marks`](BatchBest::marks) a byte at a time.
    fn marks_by_bytes(&self, board: &[u8]) -> Option<(u64, u64)> {
        let (mut x, mut o, mut bad) = (0u64, 0u64, false);
        let mut cell = 0;
        // A row and the slash after it; the last row has none (the length was checked).
        for row in board.chunks(self.columns + 1) {
            let (marks, slash) = row.split_at(self.columns.min(row.len()));
            bad |= slash.first().is_some_and(|&byte| byte != b'/');
            for &byte in marks {
                let digit = DIGITS[usize::from(byte)];
                x |= u64::from(digit == 1) << cell;
                o |= u64::from(digit == 2) << cell;
                bad |= digit > 2;
                cell += 1;
            }
        }
        (!bad).then_some((x, o))
    }

    /// [`marks`](BatchBest::marks) for rows of at most 8 cells on a board of at least 8 bytes:
    /// each row read as one word, its bytes compared all at once.
    #[inline]
    fn marks_by_rows(&self, board: &[u8]) -> Option<(u64, u64)> {
        let columns = self.columns;
        // A flag (the top bit) in each byte of the row's cells.
        let in_row = HIGH >> (8 * (8 - columns));
        let (mut x, mut o, mut bad) = (0u64, 0u64, 0u64);
        for (row, start) in (0..board.len()).step_by(columns + 1).enumerate() {
            let end = start + columns;
            // The row's bytes in the low bytes of a word, read forwards where 8 bytes remain
            // and backwards from its end otherwise.
            let word = match board.get(start..start + 8) {
                Some(bytes) => word(bytes) & (u64::MAX >> (8 * (8 - columns))),
                None => word(&board[end - 8..end]) >> (8 * (8 - columns)),
            };
            let (is_x, is_o) = (equal(word, b'X') & in_row, equal(word, b'O') & in_row);
            bad |= in_row & !(is_x | is_o | equal(word, b'.'));
            x |= gather(is_x) << (row * columns);
            o |= gather(is_o) << (row * columns);
            bad |= u64::from(board.get(end).is_some_and(|&byte| byte != b'/'));
        }
        (bad == 0).then_some((x, o))
    }

    /// Appends the answer to `board`, the text of a line of tic-tac-toe; false, with nothing
    /// appended, when the line is for the general path.
    #[inline]
    fn answer(&self, dense: &Dense, board: &[u8], out: &mut Vec<u8>) -> bool {
        let mut code = 0usize;
        let mut power = 1usize;
        for &byte in board {
            let digit = DIGITS[usize::from(byte)];
            if digit > 2 {
                return false;
            }
            code += usize::from(digit) * power;
            power *= 3;
        }
        let Some(evaluation) = dense.evaluate_code(code) else {
            return false;
        };
        let Some(best) = evaluation.best.first() else {
            return false;
        };
        self.write(board, out, best.number(), || {
            (evaluation.value, evaluation.remoteness)
        });
        true
    }

    /// Appends the answer: the move's number, or in JSON the board, the side to move, the move
    /// and what `probe` gives, the value and remoteness.
    #[inline]
    fn write(
        &self,
        board: &[u8],
        out: &mut Vec<u8>,
        best: u8,
        probe: impl FnOnce() -> (Value, u8),
    ) {
        if !self.json {
            push_number(out, best);
            out.push(b'\n');
            return;
        }
        let xs = board.iter().filter(|&&byte| byte == b'X').count();
        let os = board.iter().filter(|&&byte| byte == b'O').count();
        let to_move = if xs == os { Player::X } else { Player::O };
        let (value, remoteness) = probe();
        out.extend_from_slice(self.head.as_bytes());
        out.extend_from_slice(board);
        out.extend_from_slice(b"\",\"to_move\":\"");
        out.extend_from_slice(to_move.name().as_bytes());
        out.extend_from_slice(b"\",\"best\":");
        push_number(out, best);
        out.extend_from_slice(b",\"value\":\"");
        out.extend_from_slice(value.name().as_bytes());
        out.extend_from_slice(b"\",\"remoteness\":");
        push_number(out, remoteness);
        out.extend_from_slice(b"}\n");
    }
}

/// Appends `n` in decimal.
#[inline]
fn push_number(out: &mut Vec<u8>, n: u8) {
    if n >= 100 {
        out.push(b'0' + n / 100);
    }
    if n >= 10 {
        out.push(b'0' + n / 10 % 10);
    }
    out.push(b'0' + n % 10);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A game whose rows the fast path reads as words, and a text of its board's length, most
    /// of its bytes what a board holds, its slashes in place or not.
    fn game_and_text() -> impl Strategy<Value = (Game, Vec<u8>)> {
        let games = ["4x4", "3x4", "4x3", "2x8", "8x2", "3x5", "2x4"];
        (prop::sample::select(games.to_vec()), any::<bool>()).prop_flat_map(|(game, slashes)| {
            let game: Game = game.parse().unwrap();
            let byte = prop_oneof![
                8 => prop::sample::select(b"XO./".to_vec()),
                1 => any::<u8>(),
            ];
            let length = game.cells() + game.rows() - 1;
            prop::collection::vec(byte, length).prop_map(move |mut board| {
                if slashes {
                    for row in 1..game.rows() {
                        board[row * (game.columns() + 1) - 1] = b'/';
                    }
                }
                (game, board)
            })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        /// Rows read a word at a time give what a byte at a time gives, on every layout they
        /// read: rows of 2 to 8 cells, the last read forwards or backwards.
        #[test]
        fn rows_read_as_words_read_as_bytes((game, board) in game_and_text()) {
            let fast = BatchBest {
                layout: Layout::Any(crate::table::of(game).unwrap()),
                json: false,
                head: String::new(),
                length: board.len(),
                columns: game.columns(),
            };
            prop_assert_eq!(
                fast.marks_by_rows(&board),
                fast.marks_by_bytes(&board),
                "{:?}",
                String::from_utf8_lossy(&board)
            );
        }
    }
}
