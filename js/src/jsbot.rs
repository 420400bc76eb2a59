//! A JavaScript function as a bot: the crate's `Bot`, asking the glue synchronously through the
//! imported `ask`.
//!
//! The glue calls the function, checks the shape of what it returned and hands back either a
//! cell (the return value of `ask`) or, through `ttt_answer`, a JSON answer: several cells,
//! cells with their chances, or why there is no answer (it threw, returned a non-answer, or
//! took longer than its timeout). What it returned is read as an external bot's reply is (and
//! as the Python package reads a Python function's): a taken cell is a move the audit judges
//! (a forfeit); anything that is no answer at all stops the audit with an error naming the bot
//! and the request, as a program that breaks the protocol does.

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::Value as Json;
use ttt_oracle::bots::{Bot, BotError, Choice, Turn, parse_probability};
use ttt_oracle::{Cell, Cells, Game, History, Position, Ratio};

#[cfg(target_family = "wasm")]
#[link(wasm_import_module = "ttt")]
unsafe extern "C" {
    /// Calls the function `bot` of the glue with the board (`len` bytes at `board`) and the
    /// mark to move (`'X'` or `'O'`): the cell it returned, or 0 once its answer is handed
    /// over through `ttt_answer`.
    fn ask(bot: u32, board: *const u8, len: usize, mark: u32) -> i32;
}

/// Where no glue exists (a build for the host, for the workspace's lints), no function can
/// answer.
#[cfg(not(target_family = "wasm"))]
unsafe fn ask(_bot: u32, _board: *const u8, _len: usize, _mark: u32) -> i32 {
    0
}

thread_local! {
    /// The answer `ttt_answer` took, for the `ask` that is returning.
    pub(crate) static ANSWER: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
}

/// A request as an external bot reads it: the board, row-major without separators, the mark to
/// move, then every move so far.
pub(crate) fn request(game: &History) -> String {
    let position = game.position();
    let mut line = format!(
        "{} {}",
        position.to_string().replace('/', ""),
        position.to_move()
    );
    for cell in game.moves() {
        line.push_str(&format!(" {cell}"));
    }
    line
}

/// A JavaScript function `f(board, toMove)` as a bot.
pub(crate) struct JsBot {
    /// The glue's number for the function.
    id: u32,
    name: String,
    stateless: bool,
    /// The milliseconds a call may take, for the message of one that took longer.
    timeout_ms: f64,
    /// Whether this is the instance asked again one request at a time after the audit.
    again: bool,
    /// Every answer given, by request (by board for a stateless bot): asked again, the bot
    /// gives what it gave, so that the re-ask after an audit compares fresh answers with the
    /// ones the audit judged, not with a second call.
    answers: HashMap<Asked, Vec<Choice>>,
}

/// What an answer is kept by: the moves so far, or the board alone for a stateless bot. Not
/// the request's text, which the audit would write for each of the thousands of histories it
/// asks about, most of them answered from here.
#[derive(PartialEq, Eq, Hash)]
enum Asked {
    Moves(Vec<Cell>),
    Board(Position),
}

impl JsBot {
    pub(crate) fn new(id: u32, name: String, stateless: bool, timeout_ms: f64) -> JsBot {
        JsBot {
            id,
            name,
            stateless,
            timeout_ms,
            again: false,
            answers: HashMap::new(),
        }
    }

    fn fail(&self, game: &History, message: String) -> BotError {
        let when = match self.again {
            true => " when asked again one request at a time, after its audit",
            false => "",
        };
        BotError {
            message: format!(
                "JavaScript bot {:?} failed{when} on request {:?}: {message}",
                self.name,
                request(game)
            ),
        }
    }

    /// Asks the function once.
    fn ask(&self, game: &History) -> Result<Vec<Choice>, BotError> {
        let position = game.position();
        let board = position.to_string().replace('/', "");
        let mark = u32::from(position.to_move().to_string().as_bytes()[0]);
        ANSWER.with_borrow_mut(|answer| *answer = None);
        // SAFETY: the glue reads `board` during the call and keeps nothing of it.
        let cell = unsafe { ask(self.id, board.as_ptr(), board.len(), mark) };
        if cell > 0 {
            let cell = (cell as usize)
                .checked_sub(1)
                .and_then(Cell::new)
                .filter(|cell| cell.index() < game.game().cells())
                .ok_or_else(|| self.fail(game, format!("the glue returned cell {cell}")))?;
            return Ok(vec![Choice::certain(Turn::Mark(cell))]);
        }
        let answer = ANSWER
            .with_borrow_mut(Option::take)
            .ok_or_else(|| self.fail(game, "the glue gave no answer".to_string()))?;
        let answer: Json = serde_json::from_slice(&answer)
            .map_err(|error| self.fail(game, format!("the glue's answer: {error}")))?;
        choices(game.game(), &answer, self.timeout_ms).map_err(|message| self.fail(game, message))
    }
}

/// What the glue's `answer` says, in `game`: the choices, or why there are none.
fn choices(game: Game, answer: &Json, timeout_ms: f64) -> Result<Vec<Choice>, String> {
    if let Some(thrown) = answer["threw"].as_str() {
        return Err(format!("it threw {thrown}"));
    }
    if let Some(broken) = answer["broken"].as_str() {
        return Err(broken.to_string());
    }
    if answer["late"] == Json::Bool(true) {
        return Err(format!(
            "no answer within {timeout_ms} ms (a JavaScript function cannot be interrupted: one \
             that takes longer is seen late once it returns)"
        ));
    }
    let cell = |number: &Json| {
        number
            .as_u64()
            .and_then(|n| usize::try_from(n).ok()?.checked_sub(1))
            .filter(|&index| index < game.cells())
            .and_then(Cell::new)
            .ok_or_else(|| format!("the glue passed {number}, not a cell"))
    };
    if let Some(cells) = answer["cells"].as_array() {
        let p = Ratio::new(1, cells.len().max(1) as u128);
        return cells
            .iter()
            .map(|number| {
                Ok(Choice {
                    turn: Turn::Mark(cell(number)?),
                    probability: p,
                })
            })
            .collect();
    }
    let Some(odds) = answer["odds"].as_array() else {
        return Err(format!("the glue's answer {answer} means nothing"));
    };
    let mut choices = Vec::new();
    let mut total = Ratio::ZERO;
    let mut named = Cells::EMPTY;
    for pair in odds {
        let cell = cell(&pair[0])?;
        if named.contains(cell) {
            return Err(format!(
                "cell {} is named twice; name each cell once",
                cell.number()
            ));
        }
        named.insert(cell);
        let text = pair[1].as_str().unwrap_or_default();
        let p = parse_probability(text).map_err(|error| {
            format!(
                "the probability of cell {} is {}: {error}",
                cell.number(),
                pair[2].as_str().unwrap_or(text)
            )
        })?;
        if p == Ratio::ZERO {
            continue;
        }
        total += p;
        choices.push(Choice {
            turn: Turn::Mark(cell),
            probability: p,
        });
    }
    if total != Ratio::ONE {
        return Err(format!("its probabilities add up to {total}, not 1"));
    }
    Ok(choices)
}

impl Bot for JsBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        let key = match self.stateless {
            true => Asked::Board(game.position()),
            false => Asked::Moves(game.moves().to_vec()),
        };
        if let Some(answer) = self.answers.get(&key) {
            return Ok(answer.clone());
        }
        let answer = self.ask(game)?;
        self.answers.insert(key, answer.clone());
        Ok(answer)
    }

    /// Every game: the function is told the board and the side to move.
    fn plays(&self, _game: Game) -> Result<(), BotError> {
        Ok(())
    }

    fn memoryless(&self) -> bool {
        self.stateless
    }

    /// Asked again after its audit, along games drawn at random, one turn at a time with the
    /// moves of the game, the function must answer as the audit recorded: the check of an
    /// external bot (`ttt audit --cmd`), which catches a bot declared stateless that is not,
    /// and one that answers differently once it has been asked enough (it can count its
    /// calls). A few hundred calls.
    fn one_at_a_time(&self) -> Option<Box<dyn Bot>> {
        Some(Box::new(JsBot {
            again: true,
            stateless: false,
            answers: HashMap::new(),
            name: self.name.clone(),
            ..*self
        }))
    }
}
