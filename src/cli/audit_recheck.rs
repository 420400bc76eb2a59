//! What asking an external bot again one request at a time found, in the text report of
//! `ttt audit`: the same answers, or the position where one differed, drawn, with both answers.

use crate::audit::{Difference, Recheck};
use crate::{Cell, Game, History, SideReport};

use super::draw::{Square, cells, grid_of};
use super::style::Style;

/// The lines on the re-ask of side `s`, under its heading; none when it was not asked again.
pub(super) fn lines(s: &SideReport, style: Style) -> Vec<String> {
    let Some(Recheck {
        games,
        requests,
        difference,
    }) = s.recheck.as_deref()
    else {
        return Vec::new();
    };
    let asked = format!(
        "  asked again one at a time ({requests} request{}, {games} game{}):",
        plural(*requests),
        plural(*games)
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
    let game = match s.game {
        Game::TIC_TAC_TOE => String::new(),
        game => format!(" --game {game}"),
    };
    lines.push(format!(
        "    replay: ttt analyze{game} --moves \"{}\"",
        cells(moves)
    ));
    lines
}

/// The position after `moves`, each empty cell shown by its number.
fn board(game: Game, moves: &[Cell], style: Style) -> Vec<String> {
    let position = History::replay(game, moves).position();
    let squares: Vec<Square> = (0..game.cells())
        .map(|c| match position.at(c) {
            Some(p) => Square::new(p.to_string(), style.strong(&p.to_string())),
            None => {
                let number = (c + 1).to_string();
                Square::new(number.clone(), style.faint(&number))
            }
        })
        .collect();
    grid_of(&squares, game.columns())
}

/// An answer in words: its cells, "any of" several.
fn answer(answer: &[Cell]) -> String {
    match answer {
        [cell] => format!("plays {cell}"),
        cells_ => format!("any of {}", cells(cells_)),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
