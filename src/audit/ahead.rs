//! Asking ahead: every question of the walk by histories put to the bot before the walk, ply
//! by ply, for a bot that [asks ahead](Bot::asks_ahead).
//!
//! The walk by histories goes depth first, and each of its questions waits for the answer
//! before it: an external program would sit idle between them. But the questions of one ply
//! depend only on the answers of the plies before, so they are gathered a ply at a time and
//! given to [`Bot::prepare`] in batches; the walk that follows finds every answer ready.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::rules::Rules;
use crate::board::{Player, Status};
use crate::bots::{Bot, BotError, Turn};
use crate::game::Game;
use crate::mnk::game::Mnk;

/// How many questions [`Bot::prepare`] is given at once: enough to keep a bot busy, few enough
/// that a progress line moves on often.
pub(super) const BATCH: usize = 256;

/// Puts to `bot`, playing `side` of `game`, every question the walk by histories will ask, a
/// ply at a time in the order of the walk's histories within the ply.
pub(super) fn ask<R: Rules>(bot: &mut dyn Bot, game: Mnk, side: Player) -> Result<(), BotError> {
    let mut histories = vec![Game::empty(game)];
    while !histories.is_empty() {
        let mut next = Vec::new();
        for batch in histories.chunks(BATCH) {
            let bots_turn = R::of(&batch[0]).to_move() == side;
            if bots_turn {
                bot.prepare(batch)?;
            }
            for game in batch {
                let empty = R::of(game).empty_cells();
                let moves = if bots_turn {
                    // A panic forfeits the game in the walk, which asks again and sees it.
                    let Ok(choices) = catch_unwind(AssertUnwindSafe(|| bot.choose(game))) else {
                        continue;
                    };
                    choices?
                        .into_iter()
                        .filter_map(|choice| match choice.turn {
                            Turn::Mark(cell) if empty.contains(cell) => Some(cell),
                            _ => None,
                        })
                        .collect()
                } else {
                    empty.into_iter().collect::<Vec<_>>()
                };
                for cell in moves {
                    let mut after = game.clone();
                    after.play_unchecked(cell);
                    if R::of(&after).status() == Status::InProgress {
                        next.push(after);
                    }
                }
            }
        }
        histories = next;
    }
    Ok(())
}
