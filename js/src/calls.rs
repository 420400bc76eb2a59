//! The calls that take and give JSON: a request `{"op": ..., ...}` from the glue, answered with
//! the crate's own JSON forms, those the command line prints with `--format json`, written
//! as text straight from the crate's types, so that their keys keep the command line's order.

use serde::Serialize;
use serde_json::{Value as Json, json};
use ttt_oracle::audit::{AuditJson, MistakeLine, Mistakes, Report, SideReport, Verdict};
use ttt_oracle::bots::{self, Bot, FunctionBot, Listing};
use ttt_oracle::matchup::MatchOptions;
use ttt_oracle::{AuditError, AuditOptions, Game, History, Oracle, Player, Review};

use crate::jsbot::JsFunction;
use crate::{Failure, position_of};

/// The answer to `request`, as JSON text.
pub(crate) fn answer(request: &Json) -> Result<String, Failure> {
    match text(request, "op")? {
        "game" => {
            let game = game(request)?;
            to_text(&json!({"name": game.to_string(), "cells": game.cells()}))
        }
        "best_move" => {
            let (oracle, position) = oracle_and_position(request)?;
            to_text(&oracle.best_move(&position).map(|cell| cell.number()))
        }
        "best_moves" => {
            let (oracle, position) = oracle_and_position(request)?;
            let cells: Vec<u8> = oracle
                .best_moves(&position)
                .iter()
                .map(|c| c.number())
                .collect();
            to_text(&cells)
        }
        "analyze" => {
            let (oracle, position) = oracle_and_position(request)?;
            to_text(&oracle.analyze(&position))
        }
        "review" => {
            let history =
                History::parse(game(request)?, text(request, "moves")?).map_err(Failure::value)?;
            let review = to_text(&Review::new(&history).map_err(Failure::value)?)?;
            // `ttt review` names a side that forfeited when its result line says so; a move
            // list cannot, so the key is always null here, as the command prints it for one.
            let body = review.strip_suffix('}').unwrap_or(&review);
            Ok(format!("{body},\"forfeit\":null}}"))
        }
        "bots" => to_text(&Listing::new(false)),
        "audit" => audit(request),
        "match" => play_match(request),
        "respond" => respond(request),
        op => Err(Failure::value(format!("no call is named {op:?}"))),
    }
}

/// What `ttt serve` answers to a request (`method`, `target`, `body`), made in this module,
/// as `{"status", "type", "body"}`, the body as text: the page written as static files asks
/// it every question it would ask the server (src/web/page/worker.js).
fn respond(request: &Json) -> Result<String, Failure> {
    let (method, target, body) = (
        text(request, "method")?,
        text(request, "target")?,
        text(request, "body")?,
    );
    let response = ttt_oracle::with_solve_progress(crate::tell_solving, || {
        ttt_oracle::web::respond(method, target, body.as_bytes())
    });
    to_text(&json!({
        "status": response.status,
        "type": response.content_type,
        "body": String::from_utf8_lossy(&response.body),
    }))
}

fn to_text(value: &impl Serialize) -> Result<String, Failure> {
    serde_json::to_string(value).map_err(Failure::value)
}

fn text<'a>(request: &'a Json, key: &str) -> Result<&'a str, Failure> {
    request[key]
        .as_str()
        .ok_or_else(|| Failure::value(format!("the request has no text {key:?}")))
}

fn game(request: &Json) -> Result<Game, Failure> {
    text(request, "game")?.parse().map_err(Failure::value)
}

fn oracle_and_position(request: &Json) -> Result<(Oracle, ttt_oracle::Position), Failure> {
    let game = game(request)?;
    let oracle = Oracle::of(game).map_err(Failure::value)?;
    let position = position_of(game, text(request, "position")?)?;
    Ok((oracle, position))
}

/// A bot of the request: `{"spec": "casual:0.3"}`, a built-in one, or `{"js": ID, "name",
/// "stateless", "timeout_ms"}`, a function the glue holds.
fn bot_of(bot: &Json) -> Result<Box<dyn Bot>, Failure> {
    if let Some(spec) = bot["spec"].as_str() {
        return Ok(bots::from_spec(spec).map_err(Failure::value)?);
    }
    let id = bot["js"]
        .as_u64()
        .and_then(|id| u32::try_from(id).ok())
        .ok_or_else(|| Failure::value(format!("{bot} is no bot")))?;
    Ok(Box::new(FunctionBot::new(
        bot["name"].as_str().unwrap_or("javascript bot").to_string(),
        JsFunction::new(id, bot["timeout_ms"].as_f64().unwrap_or(2000.0)),
        bot["stateless"] == Json::Bool(true),
    )))
}

/// The seed of the games asked again: the glue draws one when the caller gives none, as the
/// command line draws one from the clock (which this target has not).
fn seed(request: &Json) -> Result<u64, Failure> {
    text(request, "recheck_seed")?
        .parse()
        .map_err(|_| Failure::value("recheckSeed is not an integer from 0 to 2^64 - 1"))
}

/// What an audit or a match that could not run to its end raises: a bot that could not answer
/// (or does not play the game) is a `BotError`, anything else an `AuditFailed`.
fn failure(error: AuditError) -> Failure {
    match error {
        AuditError::Bot(error) | AuditError::Refused(error) => Failure::bot(error),
        other => Failure::audit(other),
    }
}

/// Audits the request's bot on its sides of its game: `{"report"}`, what `ttt audit --format
/// json` prints, with each side's verdict (null when a search without a table did not settle
/// it) and mistakes, as lines of `ttt audit --mistakes FILE` (null without a table).
fn audit(request: &Json) -> Result<String, Failure> {
    let game = game(request)?;
    let sides = match text(request, "side")?.to_ascii_lowercase().as_str() {
        "x" => vec![Player::X],
        "o" => vec![Player::O],
        "both" => vec![Player::X, Player::O],
        side => {
            return Err(Failure::value(format!(
                "side {side:?} is not a side; expected \"x\", \"o\" or \"both\""
            )));
        }
    };
    let mut bot = bot_of(&request["bot"])?;
    let name = match request["name"].as_str() {
        Some(name) => name.to_string(),
        None => bot.name().to_string(),
    };
    let recheck_seed = Some(seed(request)?);
    let mistakes = match request["all_mistakes"] == Json::Bool(true) {
        true => usize::MAX,
        false => Mistakes::LISTED,
    };
    let mut reports = Vec::new();
    for side in sides {
        let options = AuditOptions {
            mistakes,
            recheck_seed,
            ..AuditOptions::new(game, side)
        };
        reports.push(ttt_oracle::audit(&mut *bot, &options).map_err(failure)?);
    }
    let report = match reports.first() {
        Some(Report::Searched(_)) => {
            let sides: Vec<_> = reports
                .iter()
                .filter_map(Report::searched)
                .cloned()
                .collect();
            to_text(&AuditJson::new(game, vec![(&name, &sides[..])], None))
        }
        _ => {
            let sides: Vec<_> = reports.iter().filter_map(Report::solved).cloned().collect();
            to_text(&AuditJson::new(game, vec![(&name, &sides[..])], None))
        }
    }?;
    let verdicts: Vec<Option<String>> = reports
        .iter()
        .map(|report| report.verdict().as_ref().map(Verdict::to_string))
        .collect();
    let mistakes = reports
        .iter()
        .map(|report| match report.solved() {
            Some(side) => mistake_lines(game, &name, side).map(|lines| format!("[{lines}]")),
            None => Ok("null".to_string()),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(format!(
        "{{\"report\":{report},\"verdicts\":{},\"mistakes\":[{}]}}",
        to_text(&verdicts)?,
        mistakes.join(",")
    ))
}

/// The mistakes `side` lists, each as a line of `ttt audit --mistakes FILE` (the game, for
/// other games only, the bot and the side, then the mistake's keys), joined by commas.
fn mistake_lines(game: Game, bot: &str, side: &SideReport) -> Result<String, Failure> {
    let lines = MistakeLine::all(game, bot, side)
        .map(|line| to_text(&line))
        .collect::<Result<Vec<_>, Failure>>()?;
    Ok(lines.join(","))
}

/// Plays the request's `x` against its `o` through every game: the report of `ttt match X O
/// --format json` for one pairing, and the side whose function answered differently when
/// asked again, or null.
fn play_match(request: &Json) -> Result<String, Failure> {
    let options = MatchOptions {
        game: game(request)?,
        recheck_seed: Some(seed(request)?),
        ..MatchOptions::default()
    };
    let mut x = bot_of(&request["x"])?;
    let mut o = bot_of(&request["o"])?;
    let report = ttt_oracle::matchup(&mut *x, &mut *o, &options).map_err(failure)?;
    let differs = report.answers_differently().map(|side| side.to_string());
    Ok(format!(
        "{{\"report\":{},\"answers_differently\":{}}}",
        to_text(&report)?,
        to_text(&differs)?
    ))
}
