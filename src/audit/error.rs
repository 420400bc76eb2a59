//! Why an audit or a match stops: the errors of [`audit`](crate::audit()) and
//! [`matchup`](crate::matchup()), and why a walk halts before its end.

use std::fmt;

use crate::bots::{Bot, BotError};
use crate::game::{Game, MAX_TABLE_CELLS};
use crate::memory::OverMemory;
use crate::table::TableError;
use crate::text::counted;
use crate::text::quote;
use crate::tiers::MAX_TIER_CELLS;

/// A walk by histories that would ask more questions than its budget allows: every history
/// (the moves that reach a bot's turn) is asked on its own when a bot does not say it answers
/// from the board alone, and the larger games hold billions of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverBudget {
    /// The bots that do not say they are [memoryless](Bot::memoryless), why every history
    /// was to be asked on its own.
    pub bots: Vec<String>,
    /// The game.
    pub game: Game,
    /// The most histories the walk could ask about.
    pub limit: u64,
    /// Whether the bots answer from the board alone, and the histories were walked because
    /// the walk by boards could not keep the exact chances in 128 bits (a game past 20 cells
    /// can pass that): then `bots` names them all.
    pub too_fine: bool,
}

/// "\"first.py\" would be asked about more than 1000 histories of 4x4 (the budget): as it does
/// not say ...": who, where, the limit and why.
impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.bots.iter().map(|name| quote(name)).collect();
        let (names, does) = match names.as_slice() {
            [one] => (one.clone(), "it does not say it answers"),
            _ => (names.join(" and "), "they do not say they answer"),
        };
        let histories = counted(self.limit, "history", "histories");
        let game = self.game;
        write!(
            f,
            "{names} would be asked about more than {histories} of {game} (the budget): "
        )?;
        match self.too_fine {
            true => write!(
                f,
                "the walk by boards could not keep the exact chances in 128 bits, so each \
                 history (the moves that reach a bot's turn) is asked on its own"
            ),
            false => write!(
                f,
                "as {does} from the board alone, each history (the moves that reach a bot's \
                 turn) is asked on its own"
            ),
        }
    }
}

impl std::error::Error for OverBudget {}

/// Why a walk stopped before its end.
pub(crate) enum Halt {
    /// The bot could not answer, or its answers cannot be trusted.
    Bot(BotError),
    /// More histories (or, without a table, states) than the budget.
    OverBudget,
    /// More memory than the limit.
    OverMemory(OverMemory),
}

impl From<OverMemory> for Halt {
    fn from(over: OverMemory) -> Halt {
        Halt::OverMemory(over)
    }
}

impl From<BotError> for Halt {
    fn from(error: BotError) -> Halt {
        Halt::Bot(error)
    }
}

impl Halt {
    /// The error for an audit of `bot` on `game` within `limit` histories.
    pub(super) fn into_error(self, bot: &dyn Bot, game: Game, limit: u64) -> AuditError {
        match self {
            Halt::Bot(error) => AuditError::Bot(error),
            Halt::OverMemory(over) => AuditError::OverMemory(over),
            Halt::OverBudget => AuditError::OverBudget(OverBudget {
                bots: vec![bot.name().to_string()],
                game,
                limit,
                too_fine: bot.memoryless(),
            }),
        }
    }
}

/// Why a bot was not audited on a game, or a match has no result.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{AuditError, bots::BotError};
///
/// let error = AuditError::from(BotError { message: "external bot \"b\" broke the protocol".into() });
/// assert_eq!(error.to_string(), "external bot \"b\" broke the protocol");
/// assert!(AuditError::Overflow.to_string().contains("128 bits"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuditError {
    /// A bot does not play the game: its refusal, naming both.
    Refused(BotError),
    /// The game has no table to judge the bot's moves by, or the one `ttt solve` cached for it
    /// is damaged.
    NoTable(TableError),
    /// A match on a game with no table: more than 16 cells and none cached by `ttt solve` (at
    /// most 25). A match walks only games small enough to solve: the games one can walk to
    /// their end are far smaller anyway.
    TooLarge(Game),
    /// A bot could not answer, or its answers cannot be trusted.
    Bot(BotError),
    /// A match's exact odds, or its count of games, need numbers wider than 128 bits: a bot's
    /// probabilities are far finer than the built-in styles' (whose denominators stop at
    /// 1,000, and which never get there), or a bot offers one move a great many times over.
    Overflow,
    /// A bot would be asked about more histories than the budget allows.
    OverBudget(OverBudget),
    /// The walk would hold more memory than the [limit](crate::memory::set_limit).
    OverMemory(OverMemory),
    /// The walk would clearly hold more memory than the limit, as estimated before it
    /// started (on a game past 16 cells, of a bot that answers from the board alone): the
    /// audit was not begun.
    WouldPassMemory(Box<super::Estimate>),
}

impl fmt::Display for AuditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuditError::Refused(error) | AuditError::Bot(error) => error.fmt(f),
            AuditError::NoTable(error) => error.fmt(f),
            AuditError::TooLarge(game) if game.cells() <= MAX_TIER_CELLS => write!(
                f,
                "game {game} has {} cells and no table solved yet; an exact match walks games \
                 with a table: make one with `ttt solve --game {game}`",
                game.cells()
            ),
            AuditError::TooLarge(game) => write!(
                f,
                "game {game} has {} cells; an exact match walks games of at most \
                 {MAX_TABLE_CELLS} cells, or {MAX_TIER_CELLS} once `ttt solve` has cached their \
                 table",
                game.cells()
            ),
            AuditError::Overflow => f.write_str(
                "the exact odds need numbers wider than 128 bits: a bot's probabilities are \
                 too fine (give it coarser ones)",
            ),
            AuditError::OverBudget(over) => over.fmt(f),
            AuditError::OverMemory(over) => over.fmt(f),
            AuditError::WouldPassMemory(estimate) => estimate.fmt(f),
        }
    }
}

impl std::error::Error for AuditError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AuditError::Refused(error) | AuditError::Bot(error) => Some(error),
            AuditError::NoTable(error) => Some(error),
            AuditError::OverBudget(over) => Some(over),
            AuditError::OverMemory(over) => Some(over),
            AuditError::TooLarge(_) | AuditError::Overflow | AuditError::WouldPassMemory(_) => None,
        }
    }
}

impl From<BotError> for AuditError {
    fn from(error: BotError) -> AuditError {
        AuditError::Bot(error)
    }
}

impl From<OverMemory> for AuditError {
    fn from(over: OverMemory) -> AuditError {
        AuditError::OverMemory(over)
    }
}

impl From<super::exact::Overflow> for AuditError {
    fn from(_: super::exact::Overflow) -> AuditError {
        AuditError::Overflow
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn over_budget_says_why_histories_were_walked() {
        let over = |too_fine| OverBudget {
            bots: vec!["cmd:first.py".to_string()],
            game: "5x5k4".parse().unwrap(),
            limit: 1000,
            too_fine,
        };
        let remembers = over(false).to_string();
        assert!(remembers.contains("as it does not say it answers from the board alone"));
        let fine = over(true).to_string();
        assert!(
            fine.contains("could not keep the exact chances in 128 bits"),
            "{fine}"
        );
        assert!(!fine.contains("does not say"), "{fine}");
    }
}
