//! What an audit proved about one side: never loses, can lose on the board, breaks the rules,
//! or both; or that the bot answers differently when asked one request at a time.

use std::fmt;

use crate::draw::Style;
use crate::value::Value;

/// What an audit proved about one side: whether the bot can lose on the board, and whether it
/// breaks the rules (and so forfeits), each apart from the other.
///
/// A bot that never loses on the board but sometimes marks two cells in one turn is not one
/// that can lose: it [breaks the rules](Verdict::BreaksRules), and the words say so.
///
/// # Examples
///
/// ```
/// use ttt_oracle::audit::Verdict;
/// use ttt_oracle::{AuditOptions, Game, Player, audit, bots};
///
/// let mut smartbot = bots::from_spec("smartbot")?;
/// let options = AuditOptions::new(Game::TIC_TAC_TOE, Player::O);
/// let verdict = audit(smartbot.as_mut(), &options)?.verdict().unwrap();
/// assert_eq!(verdict, Verdict::CanLose);
/// assert_eq!(verdict.to_string(), "can lose");
/// assert_eq!(verdict.as_str(), "can_lose");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// No game lost on the board and none forfeited.
    NeverLoses,
    /// Some game lost on the board, none forfeited.
    CanLose,
    /// No game lost on the board, but some forfeited by a forbidden move or a panic.
    BreaksRules,
    /// Both: some game lost on the board and some forfeited.
    CanLoseAndBreaksRules,
    /// Asked again one request at a time after its audit, as in a game, the bot gave another
    /// answer than the audit recorded ([`Recheck`](super::Recheck)): the audit described a
    /// bot it does not play as, whatever it counted.
    AnswersDifferently,
}

impl Verdict {
    /// `text` coloured as this verdict's result: green for a bot that never loses, red for one
    /// that can lose or answers differently, yellow for one that only breaks the rules (it
    /// never lost a game it played by them).
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{audit::Verdict, draw::Style};
    ///
    /// let verdict = Verdict::CanLose;
    /// assert_eq!(verdict.paint(Style::PLAIN, "can lose"), "can lose");
    /// assert_eq!(verdict.paint(Style::COLOURED, "X"), "\x1b[31mX\x1b[0m");
    /// ```
    pub fn paint(self, style: Style, text: &str) -> String {
        let value = match self {
            Verdict::NeverLoses => Value::Win,
            Verdict::BreaksRules => Value::Draw,
            Verdict::CanLose | Verdict::CanLoseAndBreaksRules | Verdict::AnswersDifferently => {
                Value::Loss
            }
        };
        style.value(value, text)
    }

    /// The verdict for a side that lost `losing_games` on the board and forfeited
    /// `illegal_games`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::audit::Verdict;
    ///
    /// assert_eq!(Verdict::from_counts(0, 0), Verdict::NeverLoses);
    /// assert_eq!(Verdict::from_counts(12, 0), Verdict::CanLose);
    /// assert_eq!(Verdict::from_counts(0, 10), Verdict::BreaksRules);
    /// assert_eq!(Verdict::from_counts(12, 45), Verdict::CanLoseAndBreaksRules);
    /// ```
    pub fn from_counts(losing_games: u64, illegal_games: u64) -> Verdict {
        match (losing_games > 0, illegal_games > 0) {
            (false, false) => Verdict::NeverLoses,
            (true, false) => Verdict::CanLose,
            (false, true) => Verdict::BreaksRules,
            (true, true) => Verdict::CanLoseAndBreaksRules,
        }
    }

    /// Whether some game is lost on the board.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::audit::Verdict;
    ///
    /// assert!(Verdict::CanLoseAndBreaksRules.can_lose());
    /// assert!(!Verdict::BreaksRules.can_lose());
    /// ```
    pub fn can_lose(self) -> bool {
        matches!(self, Verdict::CanLose | Verdict::CanLoseAndBreaksRules)
    }

    /// Whether some game is forfeited by breaking the rules.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::audit::Verdict;
    ///
    /// assert!(Verdict::BreaksRules.breaks_rules());
    /// assert!(!Verdict::CanLose.breaks_rules());
    /// ```
    pub fn breaks_rules(self) -> bool {
        matches!(self, Verdict::BreaksRules | Verdict::CanLoseAndBreaksRules)
    }

    /// Whether the bot answered differently when asked one request at a time.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::audit::Verdict;
    ///
    /// assert!(Verdict::AnswersDifferently.answers_differently());
    /// assert!(!Verdict::AnswersDifferently.can_lose());
    /// ```
    pub fn answers_differently(self) -> bool {
        self == Verdict::AnswersDifferently
    }

    /// The stable name used in JSON: `never_loses`, `can_lose`, `breaks_rules`,
    /// `can_lose_and_breaks_rules` or `answers_differently`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::audit::Verdict;
    ///
    /// assert_eq!(Verdict::BreaksRules.as_str(), "breaks_rules");
    /// assert_eq!(serde_json::to_string(&Verdict::CanLose)?, "\"can_lose\"");
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::NeverLoses => "never_loses",
            Verdict::CanLose => "can_lose",
            Verdict::BreaksRules => "breaks_rules",
            Verdict::CanLoseAndBreaksRules => "can_lose_and_breaks_rules",
            Verdict::AnswersDifferently => "answers_differently",
        }
    }
}

/// The verdict in words for people: "never loses", "can lose", "breaks the rules",
/// "can lose, breaks the rules", or "answers differently" (when asked one request at a time,
/// which a report says in full beside it).
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::NeverLoses => "never loses",
            Verdict::CanLose => "can lose",
            Verdict::BreaksRules => "breaks the rules",
            Verdict::CanLoseAndBreaksRules => "can lose, breaks the rules",
            Verdict::AnswersDifferently => "answers differently",
        })
    }
}
