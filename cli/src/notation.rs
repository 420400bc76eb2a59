//! How a position is written on the command line, as a board or as the moves that reach it,
//! and how it is read, with a hint for a tic-tac-toe move list given as a board.

use std::fmt::Write as _;

use ttt_oracle::review::result_line;
use ttt_oracle::text::{QUOTE_LIMIT, quote};
use ttt_oracle::{Cell, Game, Position};

/// How a position is written: a board, or the moves from the empty board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// `X...O....`
    Board,
    /// `5 1 9`
    Moves,
}

impl Notation {
    pub fn noun(self) -> &'static str {
        match self {
            Notation::Board => "board",
            Notation::Moves => "move list",
        }
    }

    /// Reads a position of `game` written this way; the error is one line that quotes at most
    /// the start of `text`. A tic-tac-toe move list given as a board gets a hint: `--moves
    /// LIST`, or in batch mode `--moves -`.
    pub fn parse(self, game: Game, text: &str, batch: bool) -> Result<Position, String> {
        let parsed = match self {
            Notation::Moves => result_line::parse_game(game, text)
                .map(|game| game.position())
                .map_err(|error| error.to_string()),
            Notation::Board => Position::parse(game, text).map_err(|error| {
                let mut message = format!("bad {} {}: {error}", self.noun(), quote(text));
                let moves = (game == Game::TIC_TAC_TOE)
                    .then(|| as_moves(text))
                    .flatten();
                if let Some(moves) = moves {
                    if batch {
                        message.push_str(" (a move list? read them with --moves -)");
                    } else {
                        let _ = write!(message, " (did you mean --moves {}?)", quote(&moves));
                    }
                }
                message
            }),
        };
        parsed.map_err(|mut message| {
            // The empty board typed as empty text: say how it is written. (Batch mode's
            // errors, read by programs, stay as they are.)
            if self == Notation::Board && text.trim().is_empty() && !batch {
                message.push_str(" (for the empty board give no board, or --moves \"\")");
            }
            message
        })
    }
}

/// The move list `text`, which is not a board, looks like: `text` itself when it is one, or its
/// digits apart when they are distinct cells run together (`51`: `5 1`).
fn as_moves(text: &str) -> Option<String> {
    if looks_like_moves(text) {
        return Some(text.to_string());
    }
    let mut digits: Vec<u8> = text.bytes().collect();
    let cells = digits.len() >= 2 && digits.iter().all(|b| (b'1'..=b'9').contains(b));
    digits.sort_unstable();
    digits.dedup();
    let distinct = cells && digits.len() == text.len();
    distinct.then(|| text.chars().map(String::from).collect::<Vec<_>>().join(" "))
}

/// Whether `text` is a move list: cells 1 to 9 separated by spaces or commas, short enough to
/// be suggested whole.
fn looks_like_moves(text: &str) -> bool {
    text.chars().count() <= QUOTE_LIMIT
        && text.chars().any(|ch| ch.is_ascii_digit())
        && text
            .chars()
            .all(|ch| ch.is_ascii_digit() || ch == ' ' || ch == ',')
        // Read as a tic-tac-toe move list is: a cell 1..9 between every two commas and on both
        // sides of each, cells apart by spaces.
        && text.split(',').all(|item| {
            let mut cells = item.split_whitespace().peekable();
            cells.peek().is_some() && cells.all(|cell| cell.parse::<Cell>().is_ok())
        })
}
