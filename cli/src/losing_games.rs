//! `ttt audit --losing-games FILE`: every game the audited bots lose or forfeit, one JSON
//! object a line, written where and as `ttt export -o` writes.

use std::io::{self, Write};

use serde::Serialize;
use ttt_oracle::audit::{AuditBudget, LostGame};
use ttt_oracle::bots::Bot;
use ttt_oracle::{AuditError, Cell, Game, Player};

use super::Failure;
use super::audit_report::Stopped;
use super::jsonl::JsonLines;
use super::named::Holds;

/// A line of the file: the keys documented in `docs/commands.md`.
#[derive(Serialize)]
struct Line<'a> {
    /// The game, for any but tic-tac-toe (whose lines are as they were before other games).
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<String>,
    bot: &'a str,
    side: Player,
    moves: &'a [Cell],
    /// `"loss"` or `"forfeit"`.
    end: &'static str,
    /// For a forfeit, what the bot did, in the words of the report's shortest forfeit.
    #[serde(skip_serializing_if = "Option::is_none")]
    turn: Option<String>,
}

/// Why writing the games stopped: the audit, with the failure to end with, or the output.
enum Stop {
    Audit(Failure),
    Write(io::Error),
}

/// Why the walk of one bot's games stopped: its own error, or the output's.
enum Walked {
    Audit(AuditError),
    Write(io::Error),
}

impl From<AuditError> for Walked {
    fn from(error: AuditError) -> Walked {
        Walked::Audit(error)
    }
}

impl Stop {
    /// Why the walk of the games of a bot that `holds` what it says stopped.
    fn of(walked: Walked, holds: Holds) -> Stop {
        let error = match walked {
            Walked::Audit(error) => error,
            Walked::Write(error) => return Stop::Write(error),
        };
        match error {
            // The audit found the table before the games are written.
            AuditError::NoTable(error) => Stop::Write(io::Error::other(error.to_string())),
            // As after the audit (not over the budget after an audit within the same budget,
            // which asked the same questions).
            other => Stop::Audit(Stopped::new(other, holds, Vec::new()).failure),
        }
    }
}

/// Writes the games of each bot on each of its sides to `file` (opened before the audits), in
/// order, and puts the file in place. A bot that breaks the protocol (exit 3) or output that
/// fails (exit 5, a reader that closes standard output's pipe too) leaves a file being
/// replaced as it was.
pub fn write(
    file: JsonLines,
    game: Game,
    auditors: Vec<(&mut dyn Bot, &[Player])>,
    budget: AuditBudget,
) -> Result<(), Failure> {
    let mut broke = None;
    let written = file
        .output
        .write(|out| match write_all(out, game, auditors, budget) {
            Ok(()) => Ok(()),
            Err(Stop::Write(error)) => Err(error),
            // Any error will do to drop the temporary file: the audit's is the one reported.
            Err(Stop::Audit(failure)) => {
                broke = Some(failure);
                Err(io::Error::other("the audit stopped"))
            }
        });
    if let Some(failure) = broke {
        return Err(failure);
    }
    Ok(written?)
}

fn write_all(
    out: &mut dyn Write,
    game: Game,
    auditors: Vec<(&mut dyn Bot, &[Player])>,
    budget: AuditBudget,
) -> Result<(), Stop> {
    let name_of_game = (game != Game::TIC_TAC_TOE).then(|| game.to_string());
    for (bot, sides) in auditors {
        let name = bot.name().to_string();
        let holds = Holds::of(bot);
        for &side in sides {
            let options = ttt_oracle::AuditOptions {
                budget,
                ..ttt_oracle::AuditOptions::new(game, side)
            };
            ttt_oracle::audit::losing_games(bot, &options, |lost| {
                write_line(out, name_of_game.as_deref(), &name, side, &lost).map_err(Walked::Write)
            })
            .map_err(|walked| Stop::of(walked, holds))?;
        }
    }
    Ok(())
}

fn write_line(
    out: &mut dyn Write,
    name_of_game: Option<&str>,
    bot: &str,
    side: Player,
    game: &LostGame,
) -> io::Result<()> {
    let (end, turn) = match game {
        LostGame::Loss(_) => ("loss", None),
        LostGame::Forfeit(line) => ("forfeit", Some(line.what.to_string())),
    };
    let line = Line {
        game: name_of_game.map(str::to_string),
        bot,
        side,
        moves: game.moves(),
        end,
        turn,
    };
    super::json_line(&mut *out, &line)
}
