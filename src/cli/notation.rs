//! How a position is written on the command line, as a board or as the moves that reach it,
//! and how it is read: on tic-tac-toe with hints for a move list given as a board, on any other
//! game by its own rules.

use std::fmt::Write as _;

use crate::quote::{QUOTE_LIMIT, quote};
use crate::{Board, Game, History, Position, parse_moves};

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
    /// the start of `text`. On tic-tac-toe, read as [`parse_tic_tac_toe`](Self::parse_tic_tac_toe)
    /// reads it.
    pub fn parse(self, game: Game, text: &str, batch: bool) -> Result<Position, String> {
        let parsed = if game == Game::TIC_TAC_TOE {
            self.parse_tic_tac_toe(text, batch)
                .map(Position::from_board)
        } else {
            match self {
                Notation::Board => Position::parse(game, text).map_err(|error| error.to_string()),
                Notation::Moves => Position::from_move_list(game, text)
                    .map(|(board, _)| board)
                    .map_err(|error| error.to_string()),
            }
            .map_err(|error| format!("bad {} {}: {error}", self.noun(), quote(text)))
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

    /// Reads a position of tic-tac-toe written this way. The error is one line that quotes at
    /// most the start of `text`; a move list given as a board gets a hint: `--moves LIST`, or in
    /// batch mode `--moves -`.
    fn parse_tic_tac_toe(self, text: &str, batch: bool) -> Result<Board, String> {
        if self == Notation::Moves {
            return parse_game(text).map(|game| game.board());
        }
        text.parse::<Board>().map_err(|error| {
            let mut message = format!("bad {} {}: {error}", self.noun(), quote(text));
            if looks_like_moves(text) {
                if batch {
                    message.push_str(" (a move list? read them with --moves -)");
                } else {
                    let _ = write!(message, " (did you mean --moves {}?)", quote(text));
                }
            }
            message
        })
    }
}

/// Reads a move list into the game it plays. The error is one line that quotes at most the
/// start of `text`, the same wherever a move list is read (`analyze --moves`, `review`).
pub fn parse_game(text: &str) -> Result<History, String> {
    crate::result_line::parse_game(Game::TIC_TAC_TOE, text)
}

/// Whether `text`, which is not a board, is a move list: cells 1 to 9 separated by spaces or
/// commas, short enough to be suggested whole.
fn looks_like_moves(text: &str) -> bool {
    text.chars().count() <= QUOTE_LIMIT
        && text.chars().any(|ch| ch.is_ascii_digit())
        && text
            .chars()
            .all(|ch| ch.is_ascii_digit() || ch == ' ' || ch == ',')
        && parse_moves(text).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_move_lists_are_suggested_as_moves() {
        for text in ["5 1 9", "5,1,9", "5", "1 1"] {
            assert!(looks_like_moves(text), "{text}");
        }
        for text in ["", " ", "X.Z", "5 10", "5 1 9 x", "519", "5\t1"] {
            assert!(!looks_like_moves(text), "{text}");
        }
    }
}
