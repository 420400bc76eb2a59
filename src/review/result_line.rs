//! The line that ends a game of `ttt play`, `result: o_wins moves: 5 3 9 1 4 2`: `ttt play`
//! writes it, and `ttt review` and the review of `ttt serve` read it back, so its form is
//! written down once, here.

use std::fmt;

use crate::board::{Cell, Outcome, Player, Status};
use crate::draw::cells;
use crate::game::Game;
use crate::history::History;
use crate::review::Review;
use crate::text::quote;

/// The game of the move list `text` on `game`, or what is wrong with it, in the words of
/// `ttt analyze --moves`.
pub fn parse_game(game: Game, text: &str) -> Result<History, ResultLineError> {
    History::parse(game, text)
        .map_err(|error| ResultLineError(format!("bad move list {}: {error}", quote(text))))
}

/// What is wrong with a result line or its move list, in the words `ttt` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultLineError(String);

impl fmt::Display for ResultLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ResultLineError {}

/// What starts a result line.
pub const PREFIX: &str = "result:";

/// The form of a result line, for error messages.
pub const FORM: &str = "result: STATUS moves: LIST";

/// How a game of `ttt play` ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// On the board: three in a row, or a full board.
    Board(Outcome),
    /// The bot broke the rules on its turn, and this player, its opponent, won.
    Forfeit(Player),
}

/// Every result, in the order error messages list them.
const RESULTS: [GameResult; 5] = [
    GameResult::Board(Outcome::Win(Player::X)),
    GameResult::Board(Outcome::Win(Player::O)),
    GameResult::Board(Outcome::Draw),
    GameResult::Forfeit(Player::X),
    GameResult::Forfeit(Player::O),
];

impl GameResult {
    /// `x_wins`, `o_wins`, `draw`, `x_wins_by_forfeit` or `o_wins_by_forfeit`.
    pub fn name(self) -> &'static str {
        match self {
            GameResult::Board(outcome) => Status::Finished(outcome).name(),
            GameResult::Forfeit(Player::X) => "x_wins_by_forfeit",
            GameResult::Forfeit(Player::O) => "o_wins_by_forfeit",
        }
    }
}

/// A review as `ttt review --format json` prints it: the review's keys, then who forfeited,
/// if the result line said a side did (the board alone cannot say it: the game stops in
/// progress).
#[derive(serde::Serialize)]
pub struct ReviewJson<'a> {
    #[serde(flatten)]
    review: &'a Review,
    forfeit: Option<Player>,
}

impl ReviewJson<'_> {
    /// The review of a game, which ended with `result` when its result line said so.
    pub fn new(review: &Review, result: Option<GameResult>) -> ReviewJson<'_> {
        let forfeit = match result {
            Some(GameResult::Forfeit(winner)) => Some(!winner),
            _ => None,
        };
        ReviewJson { review, forfeit }
    }
}

/// A result line to write: `result: STATUS moves: LIST`, `none` for no moves.
pub struct ResultLine<'a> {
    /// How the game ended.
    pub result: GameResult,
    /// Its moves, from the empty board.
    pub moves: &'a [Cell],
}

impl fmt::Display for ResultLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves = if self.moves.is_empty() {
            "none".to_string()
        } else {
            cells(self.moves)
        };
        write!(f, "{PREFIX} {} moves: {moves}", self.result.name())
    }
}

/// Whether `line` is meant as a result line (it may still be a bad one).
pub fn is_result_line(line: &str) -> bool {
    line.trim_start().starts_with(PREFIX)
}

/// Reads a result line of `game` back: the result it names and the game of its moves,
/// checked against each other. The error says what is wrong; a bad move list gets the error
/// `ttt analyze --game G --moves` gives it.
pub fn parse(line: &str, game: Game) -> Result<(GameResult, History), ResultLineError> {
    let bad =
        |why: String| ResultLineError(format!("bad result line {}: {why}", quote(line.trim())));
    let rest = line
        .trim()
        .strip_prefix(PREFIX)
        .ok_or_else(|| bad(format!("it does not start with \"{PREFIX}\"")))?
        .trim_start();
    let (name, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let names: Vec<&str> = RESULTS.iter().map(|r| r.name()).collect();
    let result = RESULTS
        .into_iter()
        .find(|r| r.name() == name)
        .ok_or_else(|| {
            bad(format!(
                "{} is not a result (one of {}, then moves: LIST)",
                quote(name),
                names.join(", ")
            ))
        })?;
    let list = rest
        .trim_start()
        .strip_prefix("moves:")
        .ok_or_else(|| {
            bad(format!(
                "no \"moves:\" after the result (expected \"{FORM}\")"
            ))
        })?
        .trim();
    let game = match list {
        "none" => History::empty(game),
        list => parse_game(game, list)?,
    };
    let board = game.position();
    let after = match game.moves() {
        [] => "after no moves".to_string(),
        moves => format!("after the moves {}", cells(moves)),
    };
    let mismatch = match (result, board.status()) {
        (GameResult::Board(outcome), Status::Finished(ended)) if outcome == ended => None,
        (GameResult::Board(_), Status::InProgress) => {
            Some(format!("{after} the game is unfinished"))
        }
        (GameResult::Forfeit(winner), Status::InProgress) if board.to_move() == !winner => None,
        (GameResult::Forfeit(winner), Status::InProgress) => Some(format!(
            "{} can forfeit only on its turn, and {after} it is {winner}'s turn",
            !winner
        )),
        (_, status) => Some(format!("{after} the game is over ({status})")),
    };
    match mismatch {
        None => Ok((result, game)),
        Some(why) => Err(bad(format!("it says {}, but {why}", result.name()))),
    }
}
