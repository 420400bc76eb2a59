//! Asking ahead: every question of the walk by histories put to the bot before the walk, ply
//! by ply, for a bot that [asks ahead](Bot::asks_ahead).
//!
//! The walk by histories goes depth first, and each of its questions waits for the answer
//! before it: an external program would sit idle between them. But the questions of one ply
//! depend only on the answers of the plies before, so they are gathered a ply at a time and
//! given to [`Bot::prepare`] in batches; the walk that follows finds every answer ready.

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use super::Halt;
use super::rules::Rules;
use crate::board::{Player, Status};
use crate::bots::{Bot, Turn};
use crate::game::Game;
use crate::history::History;

/// How many questions [`Bot::prepare`] is given at once: enough to keep a bot busy, few enough
/// that a progress line moves on often.
pub(super) const BATCH: usize = 256;

/// Puts to `bot`, playing `side` of `game`, every question the walk by histories will ask, a
/// ply of the bot's at a time in the order of the walk's histories within the ply; or stops
/// with [`Halt::OverBudget`] before gathering a question past the `limit`th.
///
/// Only the bot's plies are held: the opponent's replies are followed at once to the bot's
/// next turn, so what is held stays within the limit (twice: one ply and the next).
pub(super) fn ask<R: Rules>(
    bot: &mut dyn Bot,
    game: Game,
    side: Player,
    limit: u64,
) -> Result<(), Halt> {
    let memoryless = bot.memoryless();
    let mut gathered = Gathered {
        side,
        limit,
        count: 0,
        next: Vec::new(),
        seen: memoryless.then(HashSet::default),
    };
    gathered.reach::<R>(History::empty(game))?;
    let mut histories = std::mem::take(&mut gathered.next);
    while !histories.is_empty() {
        for batch in histories.chunks(BATCH) {
            bot.prepare(batch)?;
            for game in batch {
                let empty = R::of(game).empty_cells();
                // A panic forfeits the game in the walk, which asks again and sees it.
                let Ok(choices) = catch_unwind(AssertUnwindSafe(|| bot.choose(game))) else {
                    continue;
                };
                for choice in choices? {
                    if let Turn::Mark(cell) = choice.turn {
                        if empty.contains(cell) {
                            let mut after = game.clone();
                            after.play_unchecked(cell);
                            gathered.reach::<R>(after)?;
                        }
                    }
                }
            }
        }
        histories = std::mem::take(&mut gathered.next);
        if let Some(seen) = &mut gathered.seen {
            seen.clear();
        }
    }
    Ok(())
}

/// The questions of the bot's next ply, gathered and counted.
struct Gathered {
    side: Player,
    limit: u64,
    /// The questions gathered so far, in every ply.
    count: u64,
    next: Vec<History>,
    /// For a memoryless bot, the boards of the next ply so far: it is asked about each board
    /// once (with the first history to reach it), and only the first history's turns follow,
    /// as the others reach the same boards after it. The limit does not apply: the boards are
    /// few.
    seen: Option<HashSet<u128>>,
}

impl Gathered {
    /// Gathers the bot's turns that follow `game`: `game` itself where the bot is to move,
    /// each reply of the opponent where it is the opponent, none where the game is over.
    fn reach<R: Rules>(&mut self, game: History) -> Result<(), Halt> {
        let board = R::of(&game);
        if board.status() != Status::InProgress {
            return Ok(());
        }
        if board.to_move() == self.side {
            return self.push::<R>(game);
        }
        for cell in board.empty_cells() {
            let mut after = game.clone();
            after.play_unchecked(cell);
            if R::of(&after).status() == Status::InProgress {
                self.push::<R>(after)?;
            }
        }
        Ok(())
    }

    fn push<R: Rules>(&mut self, game: History) -> Result<(), Halt> {
        crate::memory::check()?;
        match &mut self.seen {
            Some(seen) => {
                if !seen.insert(R::of(&game).key()) {
                    return Ok(());
                }
            }
            None if self.count == self.limit => return Err(Halt::OverBudget),
            None => self.count += 1,
        }
        if self.next.len() == self.next.capacity() {
            // Growing allocates the doubled list beside the old one: counted before, so that
            // a limit under it stops here rather than the allocation failing (an abort).
            let grown = self.next.capacity().max(4) * std::mem::size_of::<History>();
            crate::memory::room_for(grown as u64)?;
        }
        self.next.push(game);
        Ok(())
    }
}
