//! A side's mistakes for people (the first few of an audit's report, each drawn with a command
//! that replays it), and `ttt audit --mistakes FILE`: every one, one JSON object a line,
//! written where and as `ttt export -o` writes.

use serde::Serialize;
use ttt_oracle::audit::SideReport;
use ttt_oracle::audit::{Mistake, MistakeJson, Mistakes};
use ttt_oracle::{Game, Player, Value};

use super::Failure;
use super::draw::{cells, grid_of, replay, side_by_side};
use super::jsonl::JsonLines;
use super::style::Style;
use super::text::{plies, shown_width};
use ttt_oracle::text::{counted, grouped};

/// How many mistakes a side's details draw.
pub(super) const IN_TEXT: usize = 3;

/// The widest a line may be.
const WIDTH: usize = 100;

/// The mistakes of a side, under its details: how many, then the first [`IN_TEXT`] drawn. No
/// line when it made none.
pub(super) fn text(report: &SideReport, style: Style) -> Vec<String> {
    let Mistakes { total, list } = &report.mistakes;
    if *total == 0 {
        return Vec::new();
    }
    let shown = list.len().min(IN_TEXT);
    let total_text = grouped(total);
    let heading = if *total as usize == shown {
        format!("  mistakes: {total_text} (by position and move):")
    } else {
        format!(
            "  mistakes: {total_text} by position and move; the first {shown} (--mistakes FILE: all):"
        )
    };
    let mut lines = vec![heading];
    for (i, mistake) in list.iter().take(IN_TEXT).enumerate() {
        lines.extend(one(report.game, report.side, i + 1, mistake, style));
    }
    lines
}

/// `value in N plies`, as people read what a move leads to.
fn worth(value: Value, remoteness: u8) -> String {
    format!("{} in {}", value.name(), plies(remoteness.into()))
}

/// One mistake: what it was and where, the board before it, the move played and the best ones,
/// and the command that shows every move there.
fn one(game: Game, side: Player, n: usize, mistake: &Mistake, style: Style) -> Vec<String> {
    let position = super::any_game::replayed(game, &mistake.moves);
    let after = match mistake.moves.len() {
        0 => "on the empty board".to_string(),
        _ => format!("after {}", cells(&mistake.moves)),
    };
    let kind = style.value(mistake.played.value, &mistake.kind.to_string());
    let mut lines = vec![format!("    {n}. {kind} {after}")];
    let board = position.position();
    let grid = grid_of(
        &super::any_game::board_squares(&board, style),
        game.columns(),
    );
    let played = &mistake.played;
    let best = &mistake.best;
    let best_cells: Vec<String> = best.iter().map(|m| m.cell.to_string()).collect();
    let mut words = vec![
        format!(
            "{side} played {}: {}",
            played.cell,
            style.value(played.value, &worth(played.value, played.remoteness))
        ),
        match best.first() {
            Some(first) => format!(
                "best {}: {}",
                best_cells.join(" "),
                style.value(first.value, &worth(first.value, first.remoteness))
            ),
            None => "no move is best: the game is over".to_string(),
        },
        format!(
            "met in {}, {} after the move",
            counted(mistake.histories, "history", "histories"),
            counted(mistake.games, "game", "games"),
        ),
    ];
    // The game up to the mistake and the mistake itself, which the review then judges.
    let mut game_to_it = mistake.moves.clone();
    game_to_it.push(played.cell);
    let replay = replay("review", game, &game_to_it);
    // The words beside the board when they fit, under it otherwise; the replay under it.
    let indent = "       ";
    let grid_width = grid.first().map_or(0, |l| shown_width(l));
    let widest = words.iter().map(|w| shown_width(w)).max().unwrap_or(0);
    if indent.len() + grid_width + 4 + widest <= WIDTH {
        words.resize(grid.len().max(words.len()), String::new());
        let mut grid = grid;
        grid.resize(words.len(), " ".repeat(grid_width));
        lines.extend(
            side_by_side(&grid, &words, 4)
                .into_iter()
                .map(|l| format!("{indent}{l}").trim_end().to_string()),
        );
    } else {
        lines.extend(grid.into_iter().map(|l| format!("{indent}{l}")));
        lines.extend(words.into_iter().map(|w| format!("{indent}{w}")));
    }
    lines.push(format!("{indent}{replay}"));
    lines
}

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
