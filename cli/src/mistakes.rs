//! `ttt audit --mistakes FILE`: every mistake of an audit, one JSON object a line, written
//! where and as `ttt export -o` writes (the first few are drawn in the text report, by
//! `SideReport::text`).

use ttt_oracle::Game;
use ttt_oracle::audit::{MistakeLine, SideReport};

use super::Failure;
use super::jsonl::JsonLines;

/// Writes every mistake of each side of each bot to `file` (opened before the audits), in
/// order, and puts the file in place; output that fails (exit 5, a reader that closes standard
/// output's pipe too) leaves a file being replaced as it was.
pub(super) fn write<'a>(
    file: JsonLines,
    game: Game,
    sides: impl Iterator<Item = (&'a str, &'a SideReport)>,
) -> Result<(), Failure> {
    file.output.write(|out| {
        for (bot, report) in sides {
            for line in MistakeLine::all(game, bot, report) {
                super::json_line(&mut *out, &line)?;
            }
        }
        Ok(())
    })?;
    Ok(())
}
