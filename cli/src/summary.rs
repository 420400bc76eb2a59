//! The last line of every audit, with a table or without: one bot (`marcelo can lose as O and
//! breaks the rules`) or several (`3 of 10 bots can lose: random, smartbot, marcelo (as O)`),
//! in one form whatever searched the games.

use unicode_width::UnicodeWidthStr;

use ttt_oracle::Player;
use ttt_oracle::text::escape;

use super::audit_jobs::BotAudit;
use super::text::first_of;
use ttt_oracle::text::fit;

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
struct Audited<'a> {
    name: &'a str,
    sides: Vec<Found>,
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

/// The line on `audits`, `found` telling what was found on each side.
pub fn of<R>(audits: &[BotAudit<R>], found: impl Fn(&R) -> Found) -> String {
    let audited: Vec<Audited<'_>> = audits
        .iter()
        .map(|audit| Audited {
            name: &audit.name,
            sides: audit.sides.iter().map(&found).collect(),
        })
        .collect();
    summary(&audited)
}

/// The line: which bots never lose, or which can lose, break the rules or are not settled (a
/// bot named without a side did so on every side audited). Names are cut to fit, and a list
/// too long for the line names its first bots and counts the rest.
fn summary(bots: &[Audited<'_>]) -> String {
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
