//! The last line of every audit, with a table or without: one bot (`marcelo can lose as O and
//! breaks the rules`) or several (`3 of 10 bots can lose: random, smartbot, marcelo (as O)`),
//! in one form whatever searched the games.

use unicode_width::UnicodeWidthStr;

use ttt_oracle::Player;
use ttt_oracle::text::escape;

use super::text::{first_of, fit};

/// The widest the line may be.
const WIDTH: usize = 100;

/// How many columns of a bot's name the line shows when it names one bot.
const NAME_ALONE: usize = 28;

/// How many columns of a bot's name the line shows in a list of several.
pub(super) const NAME_IN_LIST: usize = 24;

/// What an audit found of one side: whether it can lose and whether it breaks the rules, each
/// `None` while not settled (an audit without a table that stopped at its budget).
#[derive(Clone, Copy, Debug)]
pub struct Found {
    pub side: Player,
    pub loses: Option<bool>,
    pub breaks_rules: Option<bool>,
}

/// One bot and what the audit found of each side it audited.
pub struct Audited<'a> {
    pub name: &'a str,
    pub sides: Vec<Found>,
}

/// The three things the line can say of a bot, in the order it says them.
#[derive(Clone, Copy)]
enum Claim {
    CanLose,
    BreaksRules,
    NotSettled,
}

impl Claim {
    const ALL: [Claim; 3] = [Claim::CanLose, Claim::BreaksRules, Claim::NotSettled];

    fn holds(self, found: &Found) -> bool {
        match self {
            Claim::CanLose => found.loses == Some(true),
            Claim::BreaksRules => found.breaks_rules == Some(true),
            Claim::NotSettled => found.loses.is_none() || found.breaks_rules.is_none(),
        }
    }

    /// The verb for one bot or for several.
    fn verb(self, several: bool) -> &'static str {
        match (self, several) {
            (Claim::CanLose, _) => "can lose",
            (Claim::BreaksRules, false) => "breaks the rules",
            (Claim::BreaksRules, true) => "break the rules",
            (Claim::NotSettled, false) => "is not settled",
            (Claim::NotSettled, true) => "are not settled",
        }
    }
}

/// The sides of `bot` on which `claim` holds: `None` when on none, `Some(None)` when on every
/// side audited, `Some(Some(side))` when on that one alone.
fn sides_where(bot: &Audited<'_>, claim: Claim) -> Option<Option<Player>> {
    let sides: Vec<Player> = bot
        .sides
        .iter()
        .filter(|found| claim.holds(found))
        .map(|found| found.side)
        .collect();
    match sides.as_slice() {
        [] => None,
        [side] if bot.sides.len() > 1 => Some(Some(*side)),
        _ => Some(None),
    }
}

/// The line: which bots never lose, or which can lose, break the rules or are not settled (a
/// bot named without a side did so on every side audited). Names are cut to fit, and a list
/// too long for the line names its first bots and counts the rest.
pub fn summary(bots: &[Audited<'_>]) -> String {
    if let [bot] = bots {
        return alone(bot);
    }
    let n = bots.len();
    let lists: Vec<(Claim, Vec<String>)> = Claim::ALL
        .iter()
        .map(|&claim| {
            let names = bots
                .iter()
                .filter_map(|bot| {
                    let name = fit(&escape(bot.name), NAME_IN_LIST);
                    sides_where(bot, claim).map(|side| match side {
                        Some(side) => format!("{name} (as {side})"),
                        None => name,
                    })
                })
                .collect();
            (claim, names)
        })
        .filter(|(_, names): &(Claim, Vec<String>)| !names.is_empty())
        .collect();
    if lists.is_empty() {
        return match n {
            2 => "both bots never lose".to_string(),
            _ => format!("all {n} bots never lose"),
        };
    }
    // The first list says "k of n bots", the others name their bots first:
    // "3 of 10 bots can lose: random, smartbot, marcelo (as O); marcelo breaks the rules".
    let line = |keep: &[usize]| {
        let parts: Vec<String> = lists
            .iter()
            .zip(keep)
            .enumerate()
            .map(|(i, ((claim, names), &keep))| {
                let k = names.len();
                let verb = claim.verb(k > 1);
                match (i, first_of(names, keep)) {
                    (0, Some(names)) => format!("{k} of {n} bots {verb}: {names}"),
                    (0, None) => format!("{k} of {n} bots {verb}"),
                    (_, Some(names)) => format!("{names} {verb}"),
                    (_, None) => format!("{k} {verb}"),
                }
            })
            .collect();
        parts.join("; ")
    };
    let mut keep: Vec<usize> = lists.iter().map(|(_, names)| names.len()).collect();
    // The longest list gives way first, a name at a time; on a tie the later one, as losing
    // matters most.
    while line(&keep).width() > WIDTH {
        let Some(longest) = (0..keep.len())
            .filter(|&i| keep[i] > 0)
            .max_by_key(|&i| keep[i])
        else {
            break;
        };
        keep[longest] -= 1;
    }
    line(&keep)
}

/// The line on a single bot: "perfect never loses", "marcelo can lose as O and breaks the
/// rules".
fn alone(bot: &Audited<'_>) -> String {
    let name = fit(&escape(bot.name), NAME_ALONE);
    let parts: Vec<String> = Claim::ALL
        .iter()
        .filter_map(|&claim| {
            sides_where(bot, claim).map(|side| match side {
                Some(side) => format!("{} as {side}", claim.verb(false)),
                None => claim.verb(false).to_string(),
            })
        })
        .collect();
    match parts.as_slice() {
        [] => format!("{name} never loses"),
        [one] => format!("{name} {one}"),
        [first @ .., last] => format!("{name} {} and {last}", first.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(side: Player, loses: Option<bool>, breaks_rules: Option<bool>) -> Found {
        Found {
            side,
            loses,
            breaks_rules,
        }
    }

    fn both(x: (Option<bool>, Option<bool>), o: (Option<bool>, Option<bool>)) -> Vec<Found> {
        vec![found(Player::X, x.0, x.1), found(Player::O, o.0, o.1)]
    }

    const NEVER: (Option<bool>, Option<bool>) = (Some(false), Some(false));
    const LOSES: (Option<bool>, Option<bool>) = (Some(true), Some(false));
    const CHEATS: (Option<bool>, Option<bool>) = (Some(false), Some(true));
    const OPEN: (Option<bool>, Option<bool>) = (None, Some(false));

    #[test]
    fn one_bot_is_named_with_what_holds_and_on_which_side() {
        let line = |sides| {
            summary(&[Audited {
                name: "marcelo",
                sides,
            }])
        };
        assert_eq!(line(both(NEVER, NEVER)), "marcelo never loses");
        assert_eq!(
            line(both(CHEATS, (Some(true), Some(true)))),
            "marcelo can lose as O and breaks the rules"
        );
        assert_eq!(
            line(both(LOSES, OPEN)),
            "marcelo can lose as X and is not settled as O"
        );
        assert_eq!(
            line(both((Some(true), Some(true)), OPEN)),
            "marcelo can lose as X, breaks the rules as X and is not settled as O"
        );
    }

    #[test]
    fn several_bots_are_counted_then_named_as_far_as_the_line_allows() {
        let bot = |name, sides| Audited { name, sides };
        let line = summary(&[
            bot("perfect", both(NEVER, NEVER)),
            bot("random", both(LOSES, LOSES)),
            bot("marcelo", both(CHEATS, (Some(true), Some(true)))),
        ]);
        assert_eq!(
            line,
            "2 of 3 bots can lose: random, marcelo (as O); marcelo breaks the rules"
        );
        assert_eq!(
            summary(&[bot("a", both(NEVER, NEVER)), bot("b", both(NEVER, NEVER))]),
            "both bots never lose"
        );
        assert_eq!(
            summary(&[bot("a", both(CHEATS, NEVER)), bot("b", both(OPEN, NEVER))]),
            "1 of 2 bots breaks the rules: a (as X); b (as X) is not settled"
        );
        let names: Vec<String> = (0..12)
            .map(|i| format!("a-bot-with-a-very-long-name-{i:02}"))
            .collect();
        let many: Vec<Audited> = names
            .iter()
            .enumerate()
            .map(|(i, name)| bot(name, both(if i < 8 { LOSES } else { CHEATS }, NEVER)))
            .collect();
        let line = summary(&many);
        assert!(line.width() <= WIDTH, "{line}");
        assert_eq!(
            line,
            "8 of 12 bots can lose: a-bot-with-…long-name-00 (as X) and 7 more; 4 break the rules"
        );
    }
}
