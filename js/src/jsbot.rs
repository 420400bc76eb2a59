//! A JavaScript function as a bot: the function the crate's `FunctionBot` asks, through the
//! glue, synchronously, by the imported `ask`.
//!
//! The glue calls the function, checks the shape of what it returned and hands back either a
//! cell (the return value of `ask`) or, through `ttt_answer`, a JSON answer: several cells,
//! cells with their chances, or why there is no answer (it threw, returned a non-answer, or
//! took longer than its timeout). What it returned is read as an external bot's reply is (and
//! as the Python package reads a Python function's): a taken cell is a move the audit judges
//! (a forfeit); anything that is no answer at all stops the audit with an error naming the bot
//! and the request, as a program that breaks the protocol does.

use std::cell::RefCell;

use serde_json::Value as Json;
use ttt_oracle::bots::{Ask, Asking, BotError, Choice, Turn, parse_probability};
use ttt_oracle::{Cell, Cells, Game, History, Ratio};

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

/// A JavaScript function `f(board, toMove)`, as the glue holds it: the bot is
/// `FunctionBot<JsFunction>`, which keeps its answers and names it in errors.
pub(crate) struct JsFunction {
    /// The glue's number for the function.
    id: u32,
    /// The milliseconds a call may take, for the message of one that took longer.
    timeout_ms: f64,
}

impl JsFunction {
    pub(crate) fn new(id: u32, timeout_ms: f64) -> JsFunction {
        JsFunction { id, timeout_ms }
    }
}

impl Ask for JsFunction {
    const LANGUAGE: &'static str = "JavaScript";

    fn ask(&mut self, game: &History, asking: &Asking<'_>) -> Result<Vec<Choice>, BotError> {
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
                .ok_or_else(|| asking.fail(game, format!("the glue returned cell {cell}")))?;
            return Ok(vec![Choice::certain(Turn::Mark(cell))]);
        }
        let answer = ANSWER
            .with_borrow_mut(Option::take)
            .ok_or_else(|| asking.fail(game, "the glue gave no answer"))?;
        let answer: Json = serde_json::from_slice(&answer)
            .map_err(|error| asking.fail(game, format!("the glue's answer: {error}")))?;
        choices(game.game(), &answer, self.timeout_ms).map_err(|message| asking.fail(game, message))
    }

    fn again(&self) -> JsFunction {
        JsFunction { ..*self }
    }
}

/// What the glue's `answer` says, in `game`: the choices, or why there are none.
fn choices(game: Game, answer: &Json, timeout_ms: f64) -> Result<Vec<Choice>, String> {
    if answer["late"] == Json::Bool(true) {
        let threw = match answer["threw"].as_str() {
            Some(thrown) => format!(", and then it threw {thrown}"),
            None => String::new(),
        };
        return Err(format!(
            "no answer within {timeout_ms} ms (a JavaScript function cannot be interrupted: one \
             that takes longer is seen late once it returns){threw}"
        ));
    }
    if let Some(thrown) = answer["threw"].as_str() {
        return Err(format!("it threw {thrown}"));
    }
    if let Some(broken) = answer["broken"].as_str() {
        return Err(broken.to_string());
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
