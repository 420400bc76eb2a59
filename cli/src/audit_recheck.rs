//! What asking an external bot again one request at a time found, in the last line of
//! `ttt audit`'s text report: the bots that answered differently named first (each side's
//! details say where, by `SideReport::text`).

use unicode_width::UnicodeWidthStr;

use ttt_oracle::Player;
use ttt_oracle::audit::SideReport;
use ttt_oracle::text::{escape, fit};

use super::summary::NAME_IN_LIST;

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
