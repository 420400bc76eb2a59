//! The exhaustive walk behind an audit.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::{Blunders, Forfeit, IllegalLine, LosingLine, SideReport, VsRandom};
use crate::board::{Outcome, Player, Status};
use crate::bots::{Bot, BotError, Turn};
use crate::game::Game;
use crate::ratio::Ratio;
use crate::solve::Value;
use crate::table::{Table, table};

/// Audits `bot` playing `side`: every legal reply of the opponent and every move the bot may
/// choose, to the end of every game.
///
/// # Errors
///
/// [`BotError`] when the bot cannot answer at all, or its answers cannot be trusted (an
/// external program that broke its protocol); a forbidden move or a panic only forfeits that
/// game.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Player, audit, bots};
///
/// let mut perfect = bots::builtin("perfect").unwrap();
/// let report = audit(perfect.as_mut(), Player::O)?;
/// assert!(report.never_loses());
///
/// let mut random = bots::builtin("random").unwrap();
/// let report = audit(random.as_mut(), Player::X)?;
/// assert!(!report.never_loses());
/// assert_eq!(report.shortest_loss.unwrap().moves.len(), 6);
/// # Ok::<(), ttt_oracle::bots::BotError>(())
/// ```
pub fn audit(bot: &mut dyn Bot, side: Player) -> Result<SideReport, BotError> {
    let mut walk = Walk {
        bot,
        side,
        table: table(),
        report: SideReport {
            side,
            decision_points: 0,
            games: 0,
            losing_games: 0,
            shortest_loss: None,
            blunders: Blunders::default(),
            slow_wins: 0,
            illegal_games: 0,
            shortest_illegal: None,
            vs_random: VsRandom {
                win: Ratio::ZERO,
                draw: Ratio::ZERO,
                loss: Ratio::ZERO,
                illegal: Ratio::ZERO,
            },
        },
    };
    walk.visit(&mut Game::new(), Ratio::ONE)?;
    // An external bot's last answers count only once it is known to have printed nothing
    // more than it was asked for.
    walk.bot.finish()?;
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
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic without a message".to_string());
                let message = format!(
                    "{message} (on board {}, moves {:?})",
                    game.board(),
                    game.moves()
                );
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
            let child = self.table.probe(&game.board());
            let (value, remoteness) = (-child.value, child.remoteness + 1);
            let blunders = &mut self.report.blunders;
            match (before.value, value) {
                (Value::Win, Value::Draw) => blunders.win_to_draw += 1,
                (Value::Win, Value::Loss) => blunders.win_to_loss += 1,
                (Value::Draw, Value::Loss) => blunders.draw_to_loss += 1,
                (Value::Win, Value::Win) if remoteness > before.remoteness => {
                    self.report.slow_wins += 1;
                }
                _ => {}
            }
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
