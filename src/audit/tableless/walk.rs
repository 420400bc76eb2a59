//! The exhaustive walk: every reply of the opponent and every choice of the bot, each state
//! worked out once; and, once it has finished, a shortest line followed back down from the
//! start.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::budget::AuditBudget;
use super::memo::{Hashed, Key, Memo, NONE, Summary};
use crate::audit::{Forfeit, Halt, Odds, panic_message};
use crate::board::{Cell, Player};
use crate::bots::{Bot, Choice, DependsOn, Turn};
use crate::game::Game;
use crate::history::History;
use crate::ratio::Ratio;

/// Which shortest line is looked for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Loss,
    Forfeit,
}

/// How a position left after a move stands.
pub(super) enum After {
    /// The mover made a line.
    Won,
    /// The board is full.
    Drawn,
    Open,
}

pub(super) struct Walk<'a> {
    pub(super) bot: &'a mut dyn Bot,
    pub(super) side: Player,
    pub(super) game: Game,
    pub(super) budget: AuditBudget,
    pub(super) memo: Memo,
    /// Whether every probability so far fitted: the odds are exact, or not given.
    pub(super) exact: bool,
    /// The bot's answers, one vector per depth.
    pub(super) choices: Vec<Vec<Choice>>,
    /// For the searches: plies from each state known to hold no line of the kind searched.
    pub(super) clear: Hashed<u8>,
    /// Whether every question counts as a state: for a program, which is asked each once and
    /// whose every answer is kept (so that lines can be followed again), however the walk
    /// remembers what follows.
    counts_asks: bool,
    /// Whether the bot [blocks threats](Bot::blocks_threats), so that a loss needs a fork.
    pub(super) blocks: bool,
    /// States worked out by the walk or search under way (a state met again from the memo is
    /// not counted; a bot that depends on its history has each of its histories counted).
    pub(super) walked: usize,
}

impl<'a> Walk<'a> {
    pub(super) fn new(
        bot: &'a mut dyn Bot,
        game: Game,
        side: Player,
        budget: AuditBudget,
    ) -> Walk<'a> {
        let counts_asks = bot.asks_ahead();
        let blocks = bot.blocks_threats();
        Walk {
            bot,
            side,
            game,
            budget,
            memo: Memo::default(),
            exact: true,
            choices: vec![Vec::new(); game.cells() + 1],
            clear: Hashed::default(),
            counts_asks,
            blocks,
            walked: 0,
        }
    }

    /// The odds of the games `summary` holds, when every probability fitted.
    pub(super) fn odds(&self, summary: &Summary) -> Option<Odds> {
        let [win, draw, loss] = summary.odds;
        let ended = win.checked_add(draw)?.checked_add(loss)?;
        self.exact.then_some(Odds {
            win,
            draw,
            loss,
            illegal: ended.complement(),
        })
    }

    pub(super) fn root(&mut self, game: &mut History) -> Result<Summary, Halt> {
        if self.side == Player::X {
            self.bot_node(game)
        } else {
            self.opponent_node(game)
        }
    }

    /// How the game stands after a move on `cell`.
    pub(super) fn after(&self, game: &History, cell: Cell) -> After {
        let position = game.position();
        let mover = !position.to_move();
        let geometry = position.geometry();
        if geometry.makes_line(position.mask(mover), cell.index()) {
            After::Won
        } else if position.empty_mask() == 0 {
            After::Drawn
        } else {
            After::Open
        }
    }

    /// The state memoised at a bot's turn, or `None` for a bot that depends on its history.
    pub(super) fn key(&self, game: &History) -> Option<Key> {
        let position = game.position();
        match self.bot.depends_on(game) {
            DependsOn::History => None,
            depends => Some((position.mask(Player::X), position.mask(Player::O), depends)),
        }
    }

    /// The bot's answer at `game`, in the vector of its depth, or the forfeit of a panic.
    pub(super) fn ask(&mut self, game: &History) -> Result<Result<Vec<Choice>, Forfeit>, Halt> {
        if self.counts_asks {
            self.expand()?;
        }
        let depth = game.moves().len();
        let mut choices = std::mem::take(&mut self.choices[depth]);
        choices.clear();
        match catch_unwind(AssertUnwindSafe(|| {
            self.bot.choose_into(game, &mut choices)
        })) {
            Ok(answer) => answer?,
            Err(payload) => return Ok(Err(Forfeit::Panic(panic_message(payload, game)))),
        }
        if choices.is_empty() {
            self.choices[depth] = choices;
            return Ok(Err(Forfeit::Turn(Turn::Nothing)));
        }
        Ok(Ok(choices))
    }

    /// `share` of `child`'s odds added to `total`'s; `exact` turns false where a term outgrew
    /// 128 bits, and the odds are not given.
    fn add_odds(&mut self, total: &mut [Ratio; 3], child: &[Ratio; 3], share: Ratio) {
        if !self.exact {
            return;
        }
        for (sum, &part) in total.iter_mut().zip(child) {
            if part == Ratio::ZERO {
                continue;
            }
            let term = if share == Ratio::ONE {
                Some(part)
            } else {
                share.checked_mul(part)
            };
            match term.and_then(|p| sum.checked_add(p)) {
                Some(next) => *sum = next,
                None => {
                    self.exact = false;
                    return;
                }
            }
        }
    }

    /// `child`, one ply below, added to `total` with probability `share`.
    fn merge(&mut self, total: &mut Summary, child: &Summary, share: Ratio) -> Result<(), Halt> {
        let add = |a: u64, b: u64| a.checked_add(b).ok_or(Halt::OverBudget);
        total.decision_points = add(total.decision_points, child.decision_points)?;
        total.games = add(total.games, child.games)?;
        total.losses = add(total.losses, child.losses)?;
        total.forfeits = add(total.forfeits, child.forfeits)?;
        let deeper = |n: u8| if n == NONE { NONE } else { n + 1 };
        total.loss_in = total.loss_in.min(deeper(child.loss_in));
        total.forfeit_in = total.forfeit_in.min(deeper(child.forfeit_in));
        let mut odds = total.odds;
        self.add_odds(&mut odds, &child.odds, share);
        total.odds = odds;
        Ok(())
    }

    fn bot_node(&mut self, game: &mut History) -> Result<Summary, Halt> {
        // The bot is asked first: where each of its choices ends the game (a win, a draw or a
        // forfeit, as most turns of a rule bot on a large board do), the answer is the
        // summary, cheaper than a look in the memo.
        let choices = match self.ask(game)? {
            Ok(choices) => choices,
            Err(_) => {
                let mut summary = Summary {
                    decision_points: 1,
                    ..Summary::ZERO
                };
                Walk::merge_forfeit(&mut summary);
                return Ok(summary);
            }
        };
        let empty = game.position().empty_mask();
        let legal =
            |turn: &Turn| matches!(turn, Turn::Mark(cell) if empty >> cell.index() & 1 == 1);
        let ends = choices.iter().all(|choice| {
            !legal(&choice.turn) || {
                let Turn::Mark(cell) = choice.turn else {
                    unreachable!("a legal turn is a mark")
                };
                game.play_unchecked(cell);
                let ends = !matches!(self.after(game, cell), After::Open);
                game.undo();
                ends
            }
        });
        let key = if ends { None } else { self.key(game) };
        if let Some(summary) = key.and_then(|key| self.memo.get(&key)) {
            self.choices[game.moves().len()] = choices;
            return Ok(summary);
        }
        if !ends {
            if let Err(stop) = self.expand_state() {
                self.choices[game.moves().len()] = choices;
                return Err(stop);
            }
        }
        let mut summary = Summary {
            decision_points: 1,
            ..Summary::ZERO
        };
        let mut outcome = Ok(());
        for choice in &choices {
            match choice.turn {
                Turn::Mark(cell) if legal(&choice.turn) => {
                    game.play_unchecked(cell);
                    let child = match self.after(game, cell) {
                        After::Won => Ok(Summary::end(0)),
                        After::Drawn => Ok(Summary::end(1)),
                        After::Open => self.opponent_node(game),
                    };
                    game.undo();
                    outcome = child
                        .and_then(|child| self.merge(&mut summary, &child, choice.probability));
                    if outcome.is_err() {
                        break;
                    }
                }
                _ => Walk::merge_forfeit(&mut summary),
            }
        }
        self.choices[game.moves().len()] = choices;
        outcome?;
        Ok(self.remember(key, summary))
    }

    /// A forfeit at this very turn: a game that ends without another ply (its odds are what
    /// the others leave).
    fn merge_forfeit(total: &mut Summary) {
        total.games += 1;
        total.forfeits += 1;
        total.forfeit_in = 0;
    }

    /// [`Walk::ask`] once the walk has finished, within no budget: following a line it found.
    fn ask_again(&mut self, game: &History) -> Result<Result<Vec<Choice>, Forfeit>, Halt> {
        match self.ask(game) {
            Err(Halt::OverBudget) => unreachable!("a line is followed within no budget"),
            asked => asked,
        }
    }

    /// One more state worked out, within the budget, unless [`Walk::ask`] counted it.
    pub(super) fn expand_state(&mut self) -> Result<(), Halt> {
        if self.counts_asks {
            Ok(())
        } else {
            self.expand()
        }
    }

    /// One more state worked out, within the budget.
    fn expand(&mut self) -> Result<(), Halt> {
        if self.walked >= self.budget.states {
            return Err(Halt::OverBudget);
        }
        crate::memory::check()?;
        self.walked += 1;
        Ok(())
    }

    fn remember(&mut self, key: Option<Key>, summary: Summary) -> Summary {
        if let Some(key) = key {
            self.memo.insert(key, summary);
        }
        summary
    }

    fn opponent_node(&mut self, game: &mut History) -> Result<Summary, Halt> {
        let replies = game.legal_moves();
        let mut summary = Summary::ZERO;
        // The replies are equally likely: their odds are added up, then shared once.
        for cell in replies {
            game.play_unchecked(cell);
            let child = match self.after(game, cell) {
                After::Won => Ok(Summary::end(2)),
                After::Drawn => Ok(Summary::end(1)),
                After::Open => self.bot_node(game),
            };
            game.undo();
            self.merge(&mut summary, &child?, Ratio::ONE)?;
        }
        let share = Ratio::new(1, replies.len() as u128);
        let mut odds = [Ratio::ZERO; 3];
        let sums = summary.odds;
        self.add_odds(&mut odds, &sums, share);
        summary.odds = odds;
        Ok(summary)
    }

    /// What a position holds, once the exhaustive walk has finished: from the memo where it
    /// can, walking again where it cannot (a bot that depends on its history).
    fn summary(&mut self, game: &mut History) -> Result<Summary, Halt> {
        let bot_to_move = game.position().to_move() == self.side;
        let walked = if bot_to_move {
            self.bot_node(game)
        } else {
            self.opponent_node(game)
        };
        match walked {
            // Every state was remembered by the walk that finished: none is new.
            Err(Halt::OverBudget) => unreachable!("a finished walk meets no new state"),
            walked => walked,
        }
    }

    /// The first line of `kind` in the walk's order among those of `plies` plies, followed
    /// down from the start; `None` when `plies` says there is none.
    pub(super) fn line(
        &mut self,
        game: &mut History,
        kind: Kind,
        plies: u8,
    ) -> Result<Option<Vec<Cell>>, Halt> {
        if plies == NONE {
            return Ok(None);
        }
        let of = |summary: &Summary| match kind {
            Kind::Loss => summary.loss_in,
            Kind::Forfeit => summary.forfeit_in,
        };
        let start = game.moves().len();
        let mut left = plies;
        while left > 0 {
            // The first move whose position is one ply closer to the end of the line.
            let bot_to_move = game.position().to_move() == self.side;
            let moves: Vec<Cell> = if bot_to_move {
                let choices = self.ask_again(game)?.unwrap_or_default();
                choices
                    .iter()
                    .filter_map(|choice| match choice.turn {
                        Turn::Mark(cell) if game.legal_moves().contains(cell) => Some(cell),
                        _ => None,
                    })
                    .collect()
            } else {
                game.legal_moves().iter().collect()
            };
            let mut next = None;
            for cell in moves {
                game.play_unchecked(cell);
                let child = match self.after(game, cell) {
                    After::Won if !bot_to_move => Summary::end(2),
                    After::Won => Summary::end(0),
                    After::Drawn => Summary::end(1),
                    After::Open => self.summary(game)?,
                };
                if of(&child) == left - 1 {
                    next = Some(cell);
                    break;
                }
                game.undo();
            }
            if next.is_none() {
                unreachable!("a line of {left} plies is left, and one move starts it");
            }
            left -= 1;
        }
        let moves = game.moves().to_vec();
        while game.moves().len() > start {
            game.undo();
        }
        Ok(Some(moves))
    }

    /// What the bot did at the end of a forfeit whose moves before its turn are `moves`.
    pub(super) fn forfeit_at(&mut self, moves: &[Cell]) -> Result<Forfeit, Halt> {
        let game = History::replay(self.game, moves);
        match self.ask_again(&game)? {
            Err(forfeit) => Ok(forfeit),
            Ok(choices) => {
                let legal = game.legal_moves();
                let turn = choices
                    .iter()
                    .map(|choice| &choice.turn)
                    .find(|turn| !matches!(turn, Turn::Mark(cell) if legal.contains(*cell)))
                    .expect("a forfeit's turn is among the bot's choices")
                    .clone();
                Ok(Forfeit::Turn(turn))
            }
        }
    }
}
