//! The line protocol's lines (`docs/protocol.md`): the request for a game, the environment that
//! names the game, and the reading of a reply. External programs speak it ([`super::external`]);
//! a function bot of the Python or JavaScript package is named by its request line when it
//! fails ([`super::function`]).

use crate::Game;
use crate::board::{Cell, Cells};
use crate::bots::bot::BotError;
use crate::history::History;
use crate::text::quote;

/// The longest reply line, in bytes before the newline; a longer one breaks the protocol, and
/// no more than this is ever held of a bot's output.
pub const MAX_REPLY: usize = 4096;

/// The request line for `game`: board, mark, moves.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{History, bots::external::request};
///
/// let game = History::parse(ttt_oracle::Game::TIC_TAC_TOE, "1 5")?;
/// assert_eq!(request(&game), "X...O.... X 1 5");
/// assert_eq!(request(&History::new()), "......... X");
/// # Ok::<(), ttt_oracle::PositionError>(())
/// ```
pub fn request(game: &History) -> String {
    let mut line = format!("{} {}", board_text(game), game.position().to_move());
    for cell in game.moves() {
        line.push(' ');
        line.push_str(&cell.to_string());
    }
    line
}

/// The board of a request: rows * columns characters, no separators.
pub(super) fn board_text(game: &History) -> String {
    if game.is_tic_tac_toe() {
        game.board().to_string()
    } else {
        game.position().to_string().replace('/', "")
    }
}

/// The environment that tells an external bot its game.
///
/// # Examples
///
/// ```
/// use ttt_oracle::bots::external::environment;
///
/// let env = environment("4x4k3".parse()?);
/// assert_eq!(env[0], ("TTT_GAME", "4x4k3".to_string()));
/// assert_eq!(env[3], ("TTT_K", "3".to_string()));
/// # Ok::<(), ttt_oracle::GameError>(())
/// ```
pub fn environment(game: Game) -> [(&'static str, String); 4] {
    [
        ("TTT_GAME", game.to_string()),
        ("TTT_ROWS", game.rows().to_string()),
        ("TTT_COLUMNS", game.columns().to_string()),
        ("TTT_K", game.k().to_string()),
    ]
}

/// Reads a tic-tac-toe reply: one or more cells `1`..`9` (each exactly one digit) separated by
/// spaces (ASCII spaces, nothing else); repeated cells count once.
///
/// # Errors
///
/// A [`BotError`] saying what was wrong and what was expected, when the reply is anything else.
///
/// # Examples
///
/// ```
/// use ttt_oracle::bots::external::parse_reply;
///
/// assert_eq!(parse_reply(" 5  1 5 ").unwrap().len(), 2);
/// assert!(parse_reply("05").is_err());
/// assert!(parse_reply("+5").is_err());
/// assert!(parse_reply("").is_err());
/// ```
pub fn parse_reply(reply: &str) -> Result<Vec<Cell>, BotError> {
    parse_reply_in(Game::TIC_TAC_TOE, reply)
}

/// Reads a reply in `game`: one or more cells `1`..rows * columns, written in decimal with no
/// sign or leading zero, separated by spaces (ASCII spaces, nothing else); repeated cells count
/// once.
///
/// # Errors
///
/// A [`BotError`] saying what was wrong and what was expected, when the reply is anything else.
///
/// # Examples
///
/// ```
/// use ttt_oracle::bots::external::parse_reply_in;
///
/// let game = "4x4".parse()?;
/// assert_eq!(parse_reply_in(game, "16 1").unwrap().len(), 2);
/// assert!(parse_reply_in(game, "17").is_err());
/// assert!(parse_reply_in(game, "016").is_err());
/// # Ok::<(), ttt_oracle::GameError>(())
/// ```
pub fn parse_reply_in(game: Game, reply: &str) -> Result<Vec<Cell>, BotError> {
    let count = game.cells();
    let expected = format!("one or more cells 1..{count} separated by spaces");
    let tokens: Vec<&str> = reply.split(' ').filter(|t| !t.is_empty()).collect();
    if tokens.is_empty() {
        return Err(BotError {
            message: format!("an empty line; expected {expected}"),
        });
    }
    let mut seen = Cells::EMPTY;
    let mut cells = Vec::new();
    for token in tokens {
        let cell = cell_of(token, count).ok_or_else(|| BotError {
            message: format!("{} is not a cell; expected {expected}", quote(token)),
        })?;
        if !seen.contains(cell) {
            seen.insert(cell);
            cells.push(cell);
        }
    }
    Ok(cells)
}

/// The cell written `token` on a board of `count` cells: decimal digits, no leading zero.
fn cell_of(token: &str, count: usize) -> Option<Cell> {
    if token.is_empty() || token.len() > 3 || token.starts_with('0') {
        return None;
    }
    if !token.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number: usize = token.parse().ok()?;
    if number > count {
        return None;
    }
    Cell::new(number - 1)
}
