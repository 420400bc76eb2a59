//! What asking an external bot again one request at a time found, in the text report of
//! `ttt audit`: the same answers, or the position where one differed, drawn, with both answers.

use unicode_width::UnicodeWidthStr;

use ttt_oracle::audit::SideReport;
use ttt_oracle::audit::{Difference, Recheck};
use ttt_oracle::text::counted;
use ttt_oracle::text::escape;
use ttt_oracle::{Cell, Game, Player};

use super::draw::{cells, grid_of, replay};
use super::style::Style;
use super::summary::NAME_IN_LIST;
use super::text::fit;

/// The lines on the re-ask of side `s`, under its heading; none when it was not asked again.
pub(super) fn lines(s: &SideReport, style: Style) -> Vec<String> {
    let Some(Recheck {
        games,
        requests,
        seed,
        difference,
    }) = s.recheck.as_deref()
    else {
        return Vec::new();
    };
    let asked = format!(
        "  asked again one at a time ({}, {}):",
        counted(*requests, "request", "requests"),
        counted(*games, "game", "games")
    );
    let Some(difference) = difference else {
        return vec![format!("{asked} the same answers")];
    };
    let Difference {
        moves,
        recorded,
        alone,
    } = difference;
    let after = if moves.is_empty() {
        "at the start:".to_string()
    } else {
        format!("after {}:", cells(moves))
    };
    let mut lines = vec![
        format!("{asked} it answered differently"),
        format!("    {after}"),
    ];
    let drawn = board(s.game, moves, style);
    lines.extend(
        drawn
            .iter()
            .map(|l| format!("    {l}").trim_end().to_string()),
    );
    lines.push(format!("    in the audit:   {}", answer(recorded)));
    lines.push(format!("    one at a time:  {}", answer(alone)));
    lines.push(format!("    {}", replay("analyze", s.game, moves)));
    lines.push(format!(
        "    games drawn with seed {seed}: --recheck-seed {seed} asks them again"
    ));
    lines
}

/// The last line of the report on `bots` (each name and its sides), whose line is otherwise
/// `verdicts`: the bots that answered differently when asked one at a time named first, as
/// the rest describes answers they do not give in a game; then `verdicts`, when some side
/// can lose or breaks the rules.
pub(super) fn first(bots: &[(&str, &[SideReport])], verdicts: String) -> String {
    let differ: Vec<(String, Vec<Player>)> = bots
        .iter()
        .map(|(name, sides)| {
            let differ = sides.iter().filter(|s| s.verdict().answers_differently());
            let name = fit(&escape(name), NAME_IN_LIST);
            (name, differ.map(|s| s.side).collect::<Vec<_>>())
        })
        .filter(|(_, sides)| !sides.is_empty())
        .collect();
    let words = "when asked one at a time";
    let one_bot = bots.len() == 1;
    let differ = match differ.as_slice() {
        [] => return verdicts,
        [(name, sides)] => match sides.as_slice() {
            [side] if one_bot && bots[0].1.len() > 1 => {
                format!("{name} answers differently {words} as {side}")
            }
            [side] if !one_bot => format!("{name} (as {side}) answers differently {words}"),
            _ => format!("{name} answers differently {words}"),
        },
        several => format!(
            "{} of {} bots answer differently {words}",
            several.len(),
            bots.len()
        ),
    };
    let verdict = bots
        .iter()
        .flat_map(|(_, sides)| sides.iter())
        .map(SideReport::verdict);
    if !verdict.clone().any(|v| v.can_lose() || v.breaks_rules()) {
        return differ;
    }
    let both = format!("{differ}; {verdicts}");
    if both.width() <= 100 {
        both
    } else {
        format!("{differ}; others can lose or break the rules (above)")
    }
}

/// The position after `moves`, each empty cell shown by its number.
fn board(game: Game, moves: &[Cell], style: Style) -> Vec<String> {
    let position = super::any_game::replayed(game, moves).position();
    grid_of(
        &super::any_game::board_squares(&position, style),
        game.columns(),
    )
}

/// An answer in words: its cells, "any of" several.
fn answer(answer: &[Cell]) -> String {
    match answer {
        [cell] => format!("plays {cell}"),
        cells_ => format!("any of {}", cells(cells_)),
    }
}
