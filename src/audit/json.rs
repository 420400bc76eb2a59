//! The JSON of an audit, as `ttt audit --format json` prints it and `docs/commands.md`
//! documents it: one document for every bot audited, whatever reads it (the command line, the
//! Python package's `to_dict()`). A side of a game with a table is its [`SideReport`]'s JSON;
//! a side searched without a table has the same keys in the same order, `null` for the figures
//! that need a table, and three more.

use serde::Serialize;

use super::tableless::{Shortest, TablelessReport};
use super::verdict::Verdict;
use crate::board::{Cell, Player};
use crate::game::Game;

/// The whole document: the game (left out for tic-tac-toe, whose report is as it was before
/// other games), each bot with the sides it audited, and the error that stopped the audits.
///
/// # Examples
///
/// ```
/// use ttt_oracle::audit::{AuditJson, Report};
/// use ttt_oracle::{AuditOptions, Game, audit, bots};
///
/// let mut perfect = bots::from_spec("perfect")?;
/// let Report::Solved(side) = audit(perfect.as_mut(), &AuditOptions::default())? else {
///     unreachable!("tic-tac-toe has a table")
/// };
/// let sides = [side];
/// let json = AuditJson::new(Game::TIC_TAC_TOE, vec![("perfect", &sides[..])], None);
/// let text = serde_json::to_string(&json)?;
/// assert!(text.starts_with(r#"{"bots":[{"bot":"perfect","sides":[{"side":"X","never_loses":true"#));
/// assert!(text.ends_with(r#""error":null}"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Serialize)]
pub struct AuditJson<'a, R: Serialize> {
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<String>,
    bots: Vec<BotJson<'a, R>>,
    error: Option<&'a str>,
}

/// One bot in [`AuditJson`]: its name and its sides.
#[derive(Serialize)]
struct BotJson<'a, R: Serialize> {
    bot: &'a str,
    sides: &'a [R],
}

impl<'a, R: Serialize> AuditJson<'a, R> {
    /// The document for `bots` (each a name and the reports of its sides, a
    /// [`SideReport`](super::SideReport) or a [`TablelessReport`] each) audited on `game`, and
    /// the message of the error that stopped the audits, if one did.
    pub fn new(game: Game, bots: Vec<(&'a str, &'a [R])>, error: Option<&'a str>) -> Self {
        AuditJson {
            game: (game != Game::TIC_TAC_TOE).then(|| game.to_string()),
            bots: bots
                .into_iter()
                .map(|(bot, sides)| BotJson { bot, sides })
                .collect(),
            error,
        }
    }
}

/// A side searched without a table: the keys of a side with a table, in their order.
#[derive(Serialize)]
struct TablelessJson<'a> {
    side: Player,
    never_loses: bool,
    verdict: Option<Verdict>,
    decision_points: Option<u64>,
    games: Option<u64>,
    losing_games: Option<u64>,
    shortest_loss: Option<&'a [Cell]>,
    blunders: Option<()>,
    slow_wins: Option<()>,
    illegal_games: Option<u64>,
    shortest_illegal: Option<&'a [Cell]>,
    vs_random: Option<super::Odds>,
    vs_perfect: Option<()>,
    worst_case: Option<()>,
    loss_searched_plies: Option<usize>,
    illegal_searched_plies: Option<usize>,
    states: usize,
}

/// A shortest line as JSON: its cells, or `null`; and, when the search ran out of budget,
/// how many plies it covered.
fn shortest_json<T>(
    shortest: &Shortest<T>,
    moves: impl Fn(&T) -> &[Cell],
) -> (Option<&[Cell]>, Option<usize>) {
    match shortest {
        Shortest::Line(line) => (Some(moves(line)), None),
        Shortest::Never => (None, None),
        Shortest::Unsettled { plies } => (None, Some(*plies)),
    }
}

/// The JSON shape documented in `docs/commands.md`, for boards without a table.
impl Serialize for TablelessReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (shortest_loss, loss_searched_plies) = shortest_json(&self.shortest_loss, |l| &l.moves);
        let (shortest_illegal, illegal_searched_plies) =
            shortest_json(&self.shortest_illegal, |l| &l.moves);
        let counts = self.counts;
        TablelessJson {
            side: self.side,
            never_loses: self.verdict() == Some(Verdict::NeverLoses),
            verdict: self.verdict(),
            decision_points: counts.map(|c| c.decision_points),
            games: counts.map(|c| c.games),
            losing_games: counts.map(|c| c.losing_games),
            shortest_loss,
            blunders: None,
            slow_wins: None,
            illegal_games: counts.map(|c| c.illegal_games),
            shortest_illegal,
            vs_random: self.vs_random,
            vs_perfect: None,
            worst_case: None,
            loss_searched_plies,
            illegal_searched_plies,
            states: self.states,
        }
        .serialize(serializer)
    }
}
