//! Your own bot, audited: a rule bot written against the library's [`Bot`] trait, then checked
//! against the solved table on both sides of tic-tac-toe.
//!
//!   cargo run --release --example rule_bot
//!
//! The bot wins when it can, blocks when it must, takes a fork when one is there, and else the
//! centre, then the first empty cell: the rules most hand-written bots start from. The audit
//! says whether it can lose and shows a shortest game that beats it, with a command that steps
//! through it. `cargo test` runs the tests at its end.

use std::process::ExitCode;

use ttt_oracle::audit::{SideReport, Verdict};
use ttt_oracle::bots::{Bot, BotError, Choice};
use ttt_oracle::{AuditError, AuditOptions, Cell, Game, History, Player, audit};

/// Win, block, fork, centre, first empty cell.
struct WinBlockFork;

impl Bot for WinBlockFork {
    fn name(&self) -> &str {
        "win-block-fork"
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        let position = game.position();
        let (me, them) = (position.to_move(), !position.to_move());
        let centre = Cell::from_number(5).filter(|&cell| position.get(cell).is_none());
        let cell = position
            .winning_cells(me)
            .first()
            .or_else(|| position.winning_cells(them).first())
            .or_else(|| position.fork_cells(me).first())
            .or(centre)
            .or_else(|| position.empty_cells().first());
        // One certain move; a randomised bot would list each choice with its probability.
        Ok(Choice::only(cell))
    }

    /// The rules read the board alone, so the audit may ask once per board rather than once
    /// per game that reaches it: the same report, far fewer questions.
    fn memoryless(&self) -> bool {
        true
    }
}

/// The audit of both sides: tic-tac-toe has a table, so each report is the table's judgement.
fn audit_both_sides() -> Result<Vec<SideReport>, AuditError> {
    [Player::X, Player::O]
        .into_iter()
        .map(|side| {
            let report = audit(
                &mut WinBlockFork,
                &AuditOptions::new(Game::TIC_TAC_TOE, side),
            )?;
            Ok(report.solved().expect("tic-tac-toe has a table").clone())
        })
        .collect()
}

fn main() -> ExitCode {
    let reports = match audit_both_sides() {
        Ok(reports) => reports,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    for report in &reports {
        println!(
            "{} as {}: {} ({} games explored)",
            WinBlockFork.name(),
            report.side,
            report.verdict(),
            report.games,
        );
        if let Some(loss) = &report.shortest_loss {
            let moves: Vec<String> = loss.moves.iter().map(Cell::to_string).collect();
            println!(
                "  shortest loss: ttt review --moves \"{}\"",
                moves.join(" ")
            );
        }
    }
    if reports
        .iter()
        .all(|report| report.verdict() == Verdict::NeverLoses)
    {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

// `cargo test` runs these (the example is declared with `test = true` in Cargo.toml).
#[cfg(test)]
mod tests {
    use super::*;
    use ttt_oracle::{Review, Status};

    #[test]
    fn the_rules_lose_on_both_sides_and_the_review_shows_the_mistake() {
        let reports = audit_both_sides().unwrap();
        for report in &reports {
            assert_eq!(report.verdict(), Verdict::CanLose, "{:?}", report.side);
            // The shortest loss, reviewed: the bot's own mistake is in it, and the game ends
            // with the opponent's line.
            let loss = report.shortest_loss.as_ref().unwrap();
            let moves: Vec<String> = loss.moves.iter().map(Cell::to_string).collect();
            let game = History::parse(Game::TIC_TAC_TOE, &moves.join(" ")).unwrap();
            let review = Review::new(&game).unwrap();
            assert_eq!(
                review.status,
                Status::Finished(ttt_oracle::Outcome::Win(!report.side))
            );
            let mistake = &review.plies[loss.mistake.unwrap()];
            assert_eq!(mistake.player, report.side);
            assert!(mistake.verdict.is_mistake(), "{mistake:?}");
        }
    }

    #[test]
    fn it_wins_blocks_and_forks_first() {
        let mut bot = WinBlockFork;
        let move_in = |bot: &mut WinBlockFork, moves: &str| {
            let game = History::parse(Game::TIC_TAC_TOE, moves).unwrap();
            match bot.choose(&game).unwrap().as_slice() {
                [choice] => choice.turn.clone(),
                other => panic!("{other:?}"),
            }
        };
        let mark = |n| ttt_oracle::bots::Turn::Mark(Cell::from_number(n).unwrap());
        // X wins at 3 rather than block O's 4 5 (6).
        assert_eq!(move_in(&mut bot, "1 4 2 5"), mark(3));
        // O blocks X's 1 2 at 3.
        assert_eq!(move_in(&mut bot, "1 5 2"), mark(3));
        // X, on 1 and 6, forks at 4 (1-4-7 and 4-5-6) with nothing to win or block, rather
        // than take the centre.
        assert_eq!(move_in(&mut bot, "1 2 6 3"), mark(4));
    }
}
