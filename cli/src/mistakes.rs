//! `ttt audit --mistakes FILE`: every mistake of an audit, one JSON object a line, written
//! where and as `ttt export -o` writes (the first few are drawn in the text report, by
//! `SideReport::text`).

use serde::Serialize;
use ttt_oracle::audit::{MistakeJson, SideReport};
use ttt_oracle::{Game, Player};

use super::Failure;
use super::jsonl::JsonLines;

/// A line of the file: the keys documented in `docs/commands.md`.
#[derive(Serialize)]
struct Line<'a> {
    /// The game, for any but tic-tac-toe (as in `--losing-games`).
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<String>,
    bot: &'a str,
    side: Player,
    #[serde(flatten)]
    mistake: MistakeJson<'a>,
}

/// Writes every mistake of each side of each bot to `file` (opened before the audits), in
/// order, and puts the file in place; output that fails (exit 5, a reader that closes standard
/// output's pipe too) leaves a file being replaced as it was.
pub(super) fn write<'a>(
    file: JsonLines,
    game: Game,
    sides: impl Iterator<Item = (&'a str, &'a SideReport)>,
) -> Result<(), Failure> {
    let name_of_game = (game != Game::TIC_TAC_TOE).then(|| game.to_string());
    file.output.write(|out| {
        for (bot, report) in sides {
            for mistake in &report.mistakes.list {
                let line = Line {
                    game: name_of_game.clone(),
                    bot,
                    side: report.side,
                    mistake: MistakeJson::new(game, mistake),
                };
                super::json_line(&mut *out, &line)?;
            }
        }
        Ok(())
    })?;
    Ok(())
}
