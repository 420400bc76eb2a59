//! A bot that is a function of the caller's language, called in-process: the Python package's
//! and the JavaScript package's. The binding asks its function once ([`Ask`]); [`FunctionBot`]
//! makes that a [`Bot`] as an external program is one: each request asked once, its answer
//! kept, and the function asked again after its audit, one request at a time.

use std::collections::HashMap;

use super::protocol::request;
use super::{Bot, BotError, Choice};
use crate::board::Cell;
use crate::game::Game;
use crate::history::History;
use crate::position::Position;

/// How a binding asks its function about one position.
pub trait Ask {
    /// The function's language, for messages: `"Python"`, `"JavaScript"`.
    const LANGUAGE: &'static str;

    /// The function's choices in `game`, or why it gave none: [`Asking::fail`] makes the
    /// error, naming the bot and the request.
    fn ask(&mut self, game: &History, asking: &Asking<'_>) -> Result<Vec<Choice>, BotError>;

    /// The same function, for the bot asked again after its audit.
    fn again(&self) -> Self;
}

/// Who is asked, for the errors of [`Ask::ask`].
pub struct Asking<'a> {
    language: &'static str,
    name: &'a str,
    again: bool,
}

impl Asking<'_> {
    /// The error of a function that gave no answer to `game`: `message`, after the bot's
    /// language and name and the request, as the line protocol writes it.
    pub fn fail(&self, game: &History, message: impl std::fmt::Display) -> BotError {
        let when = match self.again {
            true => " when asked again one request at a time, after its audit",
            false => "",
        };
        BotError {
            message: format!(
                "{} bot {:?} failed{when} on request {:?}: {message}",
                self.language,
                self.name,
                request(game)
            ),
        }
    }
}

/// What an answer is kept by: the moves so far, or the board alone for a stateless bot. Not
/// the request's text, which an audit would write for each of the thousands of histories it
/// asks about, most of them answered from here.
#[derive(PartialEq, Eq, Hash)]
enum Asked {
    Moves(Vec<Cell>),
    Board(Position),
}

/// A function as a bot, of every game: told the board and the side to move.
pub struct FunctionBot<A> {
    name: String,
    function: A,
    stateless: bool,
    /// Whether this is the bot asked again one request at a time after its audit.
    again: bool,
    /// Every answer given, by request (by board for a stateless bot): asked again, the bot
    /// gives what it gave, so that the re-ask after an audit compares fresh answers with the
    /// ones the audit judged, not with a second call.
    answers: HashMap<Asked, Vec<Choice>>,
}

impl<A: Ask> FunctionBot<A> {
    /// The bot `name`, asking `function`; `stateless` when its caller declares that it answers
    /// from the board alone (the audit checks it).
    pub fn new(name: String, function: A, stateless: bool) -> FunctionBot<A> {
        FunctionBot {
            name,
            function,
            stateless,
            again: false,
            answers: HashMap::new(),
        }
    }
}

impl<A: Ask + 'static> Bot for FunctionBot<A> {
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
        let asking = Asking {
            language: A::LANGUAGE,
            name: &self.name,
            again: self.again,
        };
        let answer = self.function.ask(game, &asking)?;
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
        Some(Box::new(FunctionBot {
            name: self.name.clone(),
            function: self.function.again(),
            stateless: false,
            again: true,
            answers: HashMap::new(),
        }))
    }
}
