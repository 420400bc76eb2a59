//! The games a bot loses or forfeits, one at a time: the walk by histories, which keeps no
//! count and no game, only hands each lost one on.
//!
//! The order is the history walk's (depth first: the opponent's replies by cell, the bot's
//! choices in the order it gives them), so the first of the shortest games of each kind is
//! the audit's shortest loss or forfeit, and the number of games is the audit's
//! `losing_games + illegal_games`. The games are never gathered: `random` alone loses 77,904
//! as X.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

use super::rules::{Cached, Rules};
use super::{
    AuditError, AuditOptions, Forfeit, Halt, IllegalLine, LosingLine, OverBudget, panic_message,
};
use crate::board::{Board, Cell, Outcome, Player, Status};
use crate::bots::{Bot, BotError, Choice, Turn};
use crate::game::Game;
use crate::history::History;
use crate::memory::OverMemory;
use crate::oracle::{Layout, Oracle};
use crate::position::Position;

/// A game the bot did not win or draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LostGame {
    /// Lost on the board: every move (the last one completes the opponent's line), and the
    /// bot's losing mistake.
    Loss(LosingLine),
    /// Forfeited: the moves before the bot's turn, and what it did instead of a legal move.
    Forfeit(IllegalLine),
}

impl LostGame {
    /// The moves of the game: all of them for a loss, those before the forfeit for a forfeit.
    pub fn moves(&self) -> &[Cell] {
        match self {
            LostGame::Loss(line) => &line.moves,
            LostGame::Forfeit(line) => &line.moves,
        }
    }
}

/// Hands `sink` every distinct game `bot` loses on the board or forfeits, playing
/// `options.side` of `options.game`: the games an [`audit`](crate::audit()) counts, one by
/// one, in the order the walk meets them. A bot that is not [memoryless](Bot::memoryless) is
/// asked about at most `options.budget.states` histories on a game other than tic-tac-toe.
///
/// # Errors
///
/// Whatever `sink` returns, which stops the walk; and, before any game,
/// [`AuditError::Refused`] when the bot does not play the game, [`AuditError::NoTable`] when
/// the game has no table, [`AuditError::OverBudget`] when the bot would be asked about more
/// histories than the budget, [`AuditError::Bot`] when it cannot answer.
///
/// # Examples
///
/// ```
/// use ttt_oracle::audit::{LostGame, losing_games};
/// use ttt_oracle::{AuditError, AuditOptions, Player, bots};
///
/// // marcelo never loses a game on the board as X, but forfeits 10.
/// let mut marcelo = bots::from_spec("marcelo")?;
/// let (mut losses, mut forfeits) = (0, Vec::new());
/// losing_games(marcelo.as_mut(), &AuditOptions::default(), |game| {
///     match game {
///         LostGame::Loss(_) => losses += 1,
///         LostGame::Forfeit(line) => forfeits.push(line),
///     }
///     Ok::<(), AuditError>(())
/// })?;
/// assert_eq!((losses, forfeits.len()), (0, 10));
/// // In the walk's order, the first: after 5 1 3 7 4 6 it marked 9 and 8.
/// let cells: Vec<u8> = forfeits[0].moves.iter().map(|cell| cell.number()).collect();
/// assert_eq!(cells, [5, 1, 3, 7, 4, 6]);
/// assert_eq!(forfeits[0].what.to_string(), "marked 2 cells in one turn: 9 8");
///
/// // An error of the sink stops the walk: here at the first game smartbot loses as O.
/// let mut smartbot = bots::from_spec("smartbot")?;
/// let options = AuditOptions { side: Player::O, ..AuditOptions::default() };
/// let first = losing_games(smartbot.as_mut(), &options, |game| {
///     let moves: Vec<String> = game.moves().iter().map(|cell| cell.to_string()).collect();
///     Err::<(), Box<dyn std::error::Error>>(moves.join(" ").into())
/// });
/// assert_eq!(first.unwrap_err().to_string(), "1 5 6 2 8 3 7 9 4");
///
/// // Another game: random's shortest loss on 2x3 with 2 in a row.
/// let mut random = bots::from_spec("random")?;
/// let mut shortest = usize::MAX;
/// let options = AuditOptions { game: "2x3k2".parse()?, ..AuditOptions::default() };
/// losing_games(random.as_mut(), &options, |game| {
///     shortest = shortest.min(game.moves().len());
///     Ok::<(), AuditError>(())
/// })?;
/// assert_eq!(shortest, 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn losing_games<E: From<AuditError>>(
    bot: &mut dyn Bot,
    options: &AuditOptions,
    sink: impl FnMut(LostGame) -> Result<(), E>,
) -> Result<(), E> {
    let AuditOptions {
        game, side, budget, ..
    } = *options;
    bot.plays(game).map_err(AuditError::Refused)?;
    let limit = budget.states as u64;
    let name = bot.name().to_string();
    let error = |error: Stop<E>| match error {
        Stop::Bot(error) => AuditError::Bot(error).into(),
        Stop::OverBudget => AuditError::OverBudget(OverBudget {
            bots: vec![name],
            game,
            limit,
            too_fine: false,
        })
        .into(),
        Stop::OverMemory(over) => AuditError::OverMemory(over).into(),
        Stop::Sink(error) => error,
    };
    match Oracle::of(game).map_err(AuditError::NoTable)?.layout() {
        Layout::TicTacToe(dense) => walk::<Board, E>(bot, game, dense, side, u64::MAX, sink),
        Layout::Disk(table) => walk::<Cached, E>(bot, game, table, side, limit, sink),
        Layout::Any(table) => walk::<Position, E>(bot, game, table, side, limit, sink),
    }
    .map_err(error)
}

/// The walk of [`losing_games`] on any board, asking a bot that is not memoryless about at
/// most `limit` histories.
fn walk<R: Rules, E>(
    bot: &mut dyn Bot,
    game: Game,
    table: &R::Table,
    side: Player,
    limit: u64,
    sink: impl FnMut(LostGame) -> Result<(), E>,
) -> Result<(), Stop<E>> {
    let walked = if bot.asks_ahead() {
        super::ahead::ask::<R>(bot, game, side, limit).map_err(Stop::from)
    } else {
        Ok(())
    };
    let walked = walked.and_then(|()| {
        let answers = bot.memoryless().then(HashMap::new);
        let mut walk = Walk::<R, _> {
            bot: &mut *bot,
            game,
            table,
            side,
            sink,
            answers,
            limit,
            asked: 0,
        };
        walk.visit(&mut History::empty(game))
    });
    match walked {
        Ok(()) => bot.finish().map_err(Stop::Bot),
        Err(stop @ (Stop::Sink(_) | Stop::OverBudget | Stop::OverMemory(_))) => {
            let _ = bot.finish();
            Err(stop)
        }
        Err(error) => Err(error),
    }
}

/// Why the walk stopped before the end.
enum Stop<E> {
    Bot(BotError),
    /// More histories than the limit.
    OverBudget,
    /// More memory than the limit.
    OverMemory(OverMemory),
    Sink(E),
}

impl<E> From<Halt> for Stop<E> {
    fn from(halt: Halt) -> Stop<E> {
        match halt {
            Halt::Bot(error) => Stop::Bot(error),
            Halt::OverBudget => Stop::OverBudget,
            Halt::OverMemory(over) => Stop::OverMemory(over),
        }
    }
}

struct Walk<'a, R: Rules, F> {
    bot: &'a mut dyn Bot,
    game: Game,
    table: &'a R::Table,
    side: Player,
    sink: F,
    /// A memoryless bot's answers, by board, once asked; `None` for any other bot.
    answers: Option<HashMap<u128, Rc<[Choice]>>>,
    /// The most histories a bot that is not memoryless may be asked about.
    limit: u64,
    /// How many it was asked about.
    asked: u64,
}

impl<R: Rules, E, F: FnMut(LostGame) -> Result<(), E>> Walk<'_, R, F> {
    /// Hands on every lost game from `game`, which comes back unchanged.
    fn visit(&mut self, game: &mut History) -> Result<(), Stop<E>> {
        let board = R::of(game);
        match board.status() {
            Status::Finished(Outcome::Win(winner)) if winner != self.side => {
                let moves = game.moves().to_vec();
                let line = LosingLine::new::<R>(moves, self.side, self.game, self.table);
                (self.sink)(LostGame::Loss(line)).map_err(Stop::Sink)
            }
            Status::Finished(_) => Ok(()),
            Status::InProgress if board.to_move() == self.side => self.bot_turn(game),
            Status::InProgress => {
                for cell in board.empty_cells() {
                    game.play_unchecked(cell);
                    let visited = self.visit(game);
                    game.undo();
                    visited?;
                }
                Ok(())
            }
        }
    }

    fn bot_turn(&mut self, game: &mut History) -> Result<(), Stop<E>> {
        let choices = match self.choices(game)? {
            Ok(choices) => choices,
            Err(message) => return self.forfeit(game, Forfeit::Panic(message)),
        };
        if choices.is_empty() {
            self.forfeit(game, Forfeit::Turn(Turn::Nothing))?;
        }
        let empty = R::of(game).empty_cells();
        for choice in choices.iter() {
            match choice.turn {
                Turn::Mark(cell) if empty.contains(cell) => {
                    game.play_unchecked(cell);
                    let visited = self.visit(game);
                    game.undo();
                    visited?;
                }
                ref turn => self.forfeit(game, Forfeit::Turn(turn.clone()))?,
            }
        }
        Ok(())
    }

    /// What the bot may do at `game`, remembered by board for a memoryless bot; or the message
    /// of its panic.
    fn choices(&mut self, game: &History) -> Result<Result<Rc<[Choice]>, String>, Stop<E>> {
        let code = R::of(game).key();
        if let Some(known) = self.answers.as_ref().and_then(|answers| answers.get(&code)) {
            return Ok(Ok(Rc::clone(known)));
        }
        if self.answers.is_none() {
            if self.asked == self.limit {
                return Err(Stop::OverBudget);
            }
            self.asked += 1;
        }
        crate::memory::check().map_err(Stop::OverMemory)?;
        let choices: Rc<[Choice]> = match catch_unwind(AssertUnwindSafe(|| self.bot.choose(game))) {
            Ok(answer) => answer.map_err(Stop::Bot)?.into(),
            Err(payload) => return Ok(Err(panic_message(payload, game))),
        };
        if let Some(answers) = &mut self.answers {
            answers.insert(code, Rc::clone(&choices));
        }
        Ok(Ok(choices))
    }

    fn forfeit(&mut self, game: &History, what: Forfeit) -> Result<(), Stop<E>> {
        let line = IllegalLine {
            moves: game.moves().to_vec(),
            what,
        };
        (self.sink)(LostGame::Forfeit(line)).map_err(Stop::Sink)
    }
}
