//! The walk by histories: every game, the bot asked at each of its turns in each game.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::{Forfeit, IllegalLine, LosingLine, SideReport, panic_message};
use crate::board::{Outcome, Player, Status};
use crate::bots::{Bot, BotError, Turn};
use crate::game::Game;
use crate::ratio::Ratio;
use crate::table::{Table, table};

/// Audits `bot` playing `side` by walking every history, depth first: the opponent's replies
/// in the order of their cells, the bot's choices in the order it gives them. Works for any
/// bot, whatever it remembers.
pub(super) fn audit(bot: &mut dyn Bot, side: Player) -> Result<SideReport, BotError> {
    let mut walk = Walk {
        bot,
        side,
        table: table(),
        report: SideReport::empty(side),
    };
    walk.visit(&mut Game::new(), Ratio::ONE)?;
    Ok(walk.report)
}

struct Walk<'a> {
    bot: &'a mut dyn Bot,
    side: Player,
    table: &'a Table,
    report: SideReport,
}

impl Walk<'_> {
    /// Explores every game from `game`, which comes back unchanged.
    fn visit(&mut self, game: &mut Game, chance: Ratio) -> Result<(), BotError> {
        let board = game.board();
        match board.status() {
            Status::Finished(outcome) => {
                self.finish(game, outcome, chance);
                Ok(())
            }
            Status::InProgress if board.to_move() == self.side => self.bot_turn(game, chance),
            Status::InProgress => {
                let replies = board.legal_moves();
                let each = chance * Ratio::new(1, replies.len() as u128);
                for cell in replies {
                    game.play_unchecked(cell);
                    let explored = self.visit(game, each);
                    game.undo();
                    explored?;
                }
                Ok(())
            }
        }
    }

    fn bot_turn(&mut self, game: &mut Game, chance: Ratio) -> Result<(), BotError> {
        self.report.decision_points += 1;
        let choices = match catch_unwind(AssertUnwindSafe(|| self.bot.choose(&*game))) {
            Ok(answer) => answer?,
            Err(payload) => {
                let message = panic_message(payload, game);
                self.forfeit(game, Forfeit::Panic(message), chance);
                return Ok(());
            }
        };
        if choices.is_empty() {
            self.forfeit(game, Forfeit::Turn(Turn::Nothing), chance);
        }
        let board = game.board();
        let before = self.table.evaluate(&board);
        for choice in choices {
            let p = chance * choice.probability;
            let cell = match choice.turn {
                Turn::Mark(cell) if board.get(cell).is_none() => cell,
                turn => {
                    self.forfeit(game, Forfeit::Turn(turn), p);
                    continue;
                }
            };
            game.play_unchecked(cell);
            let after = self.table.probe(&game.board());
            self.report.judge_move(before, after, 1);
            let explored = self.visit(game, p);
            game.undo();
            explored?;
        }
        Ok(())
    }

    fn forfeit(&mut self, game: &Game, what: Forfeit, chance: Ratio) {
        self.report.games += 1;
        self.report.illegal_games += 1;
        self.report.vs_random.illegal += chance;
        let shorter = self
            .report
            .shortest_illegal
            .as_ref()
            .is_none_or(|line| game.moves().len() < line.moves.len());
        if shorter {
            self.report.shortest_illegal = Some(IllegalLine {
                moves: game.moves().to_vec(),
                what,
            });
        }
    }

    fn finish(&mut self, game: &Game, outcome: Outcome, chance: Ratio) {
        self.report.games += 1;
        let odds = &mut self.report.vs_random;
        match outcome {
            Outcome::Draw => odds.draw += chance,
            Outcome::Win(winner) if winner == self.side => odds.win += chance,
            Outcome::Win(_) => {
                odds.loss += chance;
                self.report.losing_games += 1;
                let shorter = self
                    .report
                    .shortest_loss
                    .as_ref()
                    .is_none_or(|line| game.moves().len() < line.moves.len());
                if shorter {
                    self.report.shortest_loss =
                        Some(LosingLine::new(game.moves().to_vec(), self.side));
                }
            }
        }
    }
}
