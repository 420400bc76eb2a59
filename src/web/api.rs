//! The JSON API of `ttt serve`, documented in `docs/web.md`: each endpoint answers with the
//! keys of the matching command's `--format json` (`analyze`, `review`, `bots`), and `move`
//! with a bot's move. Parameters come as a query string (GET) or a JSON object (POST).

use serde::Serialize;

use super::params::Params;
use super::{Refusal, Response, tables};
use crate::board::{Cell, Player, Status};
use crate::bots::{self, Listing, Turn};
use crate::game::{Game, MAX_TABLE_CELLS};
use crate::history::History;
use crate::position::Position;
use crate::review::Review;
use crate::review::result_line::{self, ReviewJson};
use crate::rng::SplitMix64;
use crate::text::quote;

/// The answer of endpoint `name` (the path after `/api/`) to `method` with `query` and `body`.
pub fn answer(method: &str, name: &str, query: &str, body: &[u8]) -> Response {
    let params = match method {
        "GET" | "HEAD" => Params::from_query(query),
        "POST" if !query.is_empty() => Err("a POST takes its parameters in its body".to_string()),
        "POST" => Params::from_json(body),
        _ => {
            let message = format!("{method} is not allowed on the API: use GET or POST");
            return Response::error(405, &message);
        }
    };
    let json = params
        .map_err(|message| (400, message))
        .and_then(|params| match name {
            "games" => to_json(&games(params.only(&[]).map_err(bad)?)),
            "bots" => {
                params.only(&[]).map_err(bad)?;
                to_json(&Listing::new(false))
            }
            "analyze" => analyze(&params.only(&["game", "moves", "board"]).map_err(bad)?),
            "review" => review(&params.only(&["game", "moves", "text"]).map_err(bad)?),
            "move" => bot_move(
                &params
                    .only(&["game", "moves", "opponent", "seed"])
                    .map_err(bad)?,
            ),
            _ => Err((
                404,
                format!(
                    "no endpoint {}: there are games, bots, analyze, review and move",
                    quote(&format!("/api/{name}"))
                ),
            )),
        });
    match json {
        Ok(body) => Response::json(200, body),
        Err((status, message)) => Response::error(status, &message),
    }
}

fn bad(message: String) -> Refusal {
    (400, message)
}

fn to_json(value: &impl Serialize) -> Result<Vec<u8>, Refusal> {
    serde_json::to_vec(value).map_err(|error| (500, error.to_string()))
}

/// `/api/games`: the games with a table built in, and how large a game may be.
#[derive(Serialize)]
struct Games {
    games: Vec<Game>,
    max_cells: usize,
}

fn games(_: Params) -> Games {
    let mut games = vec![Game::TIC_TAC_TOE];
    games.extend(Game::EMBEDDED);
    Games {
        games,
        max_cells: MAX_TABLE_CELLS,
    }
}

/// The `game` parameter (tic-tac-toe when absent), which must have a table.
fn game(params: &Params) -> Result<Game, Refusal> {
    let game: Game = match params.get("game") {
        None => Game::TIC_TAC_TOE,
        Some(text) => text
            .parse()
            .map_err(|error| bad(format!("game {}: {error}", quote(text))))?,
    };
    if !game.has_table() {
        return Err(bad(format!(
            "{game} has {} cells: the web plays games of at most {MAX_TABLE_CELLS}",
            game.cells()
        )));
    }
    Ok(game)
}

/// The game of the `moves` parameter (none when absent) on `game`.
fn history(game: Game, params: &Params) -> Result<History, Refusal> {
    result_line::parse_game(game, params.get("moves").unwrap_or(""))
        .map_err(|error| bad(error.to_string()))
}

/// `/api/analyze`: `ttt analyze --format json` of a position given by `moves` or `board`.
fn analyze(params: &Params) -> Result<Vec<u8>, Refusal> {
    let game = game(params)?;
    let position = match (params.get("board"), params.get("moves")) {
        (Some(_), Some(_)) => return Err(bad("give moves or board, not both".to_string())),
        (Some(board), None) => Position::parse(game, board)
            .map_err(|error| bad(format!("board {}: {error}", quote(board))))?,
        (None, _) => history(game, params)?.position(),
    };
    to_json(&tables::answering(game, |oracle| {
        oracle.analyze(&position)
    })?)
}

/// `/api/review`: `ttt review --format json` of a game given by `moves`, or by `text`, a
/// result line of `ttt play` (a whole transcript will do) or a move list.
fn review(params: &Params) -> Result<Vec<u8>, Refusal> {
    let game = game(params)?;
    let (played, result) = match (params.get("text"), params.get("moves")) {
        (Some(_), Some(_)) => return Err(bad("give moves or text, not both".to_string())),
        (Some(text), None) => pasted(game, text)?,
        (None, _) => (history(game, params)?, None),
    };
    let review = tables::answering(game, |oracle| Review::with_oracle(oracle, &played))?;
    to_json(&ReviewJson::new(&review, result))
}

/// The game in pasted text: its one result line, or else the whole text as a move list.
fn pasted(game: Game, text: &str) -> Result<(History, Option<result_line::GameResult>), Refusal> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, line)| result_line::is_result_line(line));
    match (lines.next(), lines.next()) {
        (None, _) => result_line::parse_game(game, text.trim())
            .map(|played| (played, None))
            .map_err(|error| {
                bad(format!(
                    "no result line (\"{}\"), and not a move list: {error}",
                    result_line::FORM
                ))
            }),
        (Some((line, _)), Some((next, _))) => Err(bad(format!(
            "more than one result line (lines {} and {}): paste one game",
            line + 1,
            next + 1
        ))),
        (Some((_, line)), None) => result_line::parse(line, game)
            .map(|(result, played)| (played, Some(result)))
            .map_err(|error| bad(error.to_string())),
    }
}

/// `/api/move`: the move of a built-in bot or style (`opponent`, `perfect` by default) in the
/// game of `moves`, its random choices drawn from `seed` (0 by default).
#[derive(Serialize)]
struct BotMove {
    #[serde(skip_serializing_if = "Game::is_tic_tac_toe")]
    game: Game,
    board: Position,
    to_move: Player,
    opponent: String,
    cell: Cell,
}

fn bot_move(params: &Params) -> Result<Vec<u8>, Refusal> {
    let game = game(params)?;
    let played = history(game, params)?;
    let position = played.position();
    if position.status() != Status::InProgress {
        let status = position.status();
        return Err(bad(format!("the game is over ({status}): no move to make")));
    }
    let spec = params.get("opponent").unwrap_or("perfect");
    if spec
        .trim_start()
        .get(..3)
        .is_some_and(|word| word.eq_ignore_ascii_case("cmd"))
    {
        return Err((
            403,
            format!(
                "opponent {}: the web plays built-in bots and styles only, never a program",
                quote(spec)
            ),
        ));
    }
    let mut bot = bots::from_spec(spec).map_err(|error| bad(error.to_string()))?;
    bot.plays(game).map_err(|error| bad(error.to_string()))?;
    let seed = match params.get("seed") {
        None => 0,
        Some(text) => text
            .parse()
            .map_err(|_| bad(format!("seed {}: not a number 0..2^64", quote(text))))?,
    };
    // The table-backed bots ask the cache's table, solved first if need be.
    let picked = tables::answering(game, |oracle| {
        bots::solved::playing_on(oracle.clone(), || {
            bot.pick(&played, &mut SplitMix64::new(seed))
        })
    })?;
    let cell = match picked {
        Ok(Turn::Mark(cell)) if position.legal_moves().contains(cell) => cell,
        Ok(turn) => return Err((500, format!("{} {turn}", bot.name()))),
        Err(error) => return Err((500, error.to_string())),
    };
    to_json(&BotMove {
        game,
        board: position,
        to_move: position.to_move(),
        opponent: bot.name().to_string(),
        cell,
    })
}
