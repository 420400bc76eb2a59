//! The mistakes an audit found, one by one: each move of the bot that lowered the value (a
//! blunder) or kept a win but not the fastest (a slow win), listed once per position and move
//! however many histories reach it, with how many games pass through it.
//!
//! The walks note each mistake as they judge the move (`collector`); the report lists them
//! blunders first, then slow wins, each kind earliest first (fewest moves before it), then
//! the most games through it, then by the moves that reach it and the move played, so that
//! both walks list the same mistakes in the same order. Only the first
//! [`AuditOptions::mistakes`](super::AuditOptions::mistakes) are listed in full; all are counted.

use std::fmt;

use serde::Serialize;

use crate::board::Cell;
use crate::review::MoveVerdict;
use crate::value::MoveValue;

/// What a mistake gave away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MistakeKind {
    /// A won position turned into a draw.
    WinToDraw,
    /// A won position turned into a loss.
    WinToLoss,
    /// A drawn position turned into a loss.
    DrawToLoss,
    /// Still a win, but not the fastest.
    SlowWin,
}

impl MistakeKind {
    /// The mistake a move judged `verdict` is, if it is one (a fast loss is none: the game
    /// was lost already).
    pub(super) fn of(verdict: MoveVerdict) -> Option<MistakeKind> {
        match verdict {
            MoveVerdict::WinToDraw => Some(MistakeKind::WinToDraw),
            MoveVerdict::WinToLoss => Some(MistakeKind::WinToLoss),
            MoveVerdict::DrawToLoss => Some(MistakeKind::DrawToLoss),
            MoveVerdict::SlowWin => Some(MistakeKind::SlowWin),
            MoveVerdict::Best | MoveVerdict::FastLoss => None,
        }
    }

    /// Whether the move lowered the value: every kind but [`MistakeKind::SlowWin`].
    pub fn is_blunder(self) -> bool {
        self != MistakeKind::SlowWin
    }
}

/// In the report's words: `win>draw`, `win>loss`, `draw>loss`, `slow win`.
impl fmt::Display for MistakeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MistakeKind::WinToDraw => "win>draw",
            MistakeKind::WinToLoss => "win>loss",
            MistakeKind::DrawToLoss => "draw>loss",
            MistakeKind::SlowWin => "slow win",
        })
    }
}

/// A move of the bot that gave value away, or a win's speed, at one position.
///
/// # Examples
///
/// ```
/// use ttt_oracle::audit::{MistakeKind, Mistakes};
/// use ttt_oracle::{AuditOptions, Value, audit, bots};
///
/// // marcelo as X lets a won game go to a draw: one position, which two histories reach.
/// let mut marcelo = bots::from_spec("marcelo")?;
/// let options = AuditOptions { mistakes: Mistakes::LISTED, ..AuditOptions::default() };
/// let report = audit(marcelo.as_mut(), &options)?;
/// let report = report.solved().unwrap();
/// assert_eq!((report.blunders.win_to_draw, report.mistakes.total), (2, 1));
/// let first = &report.mistakes.list[0];
/// assert_eq!((first.kind, first.histories), (MistakeKind::WinToDraw, 2));
/// assert_eq!((first.played.value, first.best[0].value), (Value::Draw, Value::Win));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    /// The moves from the empty board to the position, X first: the first history reaching it
    /// in the order the auditor walks them.
    pub moves: Vec<Cell>,
    /// The move the bot played, and what it is worth to the bot.
    pub played: MoveValue,
    /// Every optimal move there (the fastest win, the slowest loss, or every drawing move),
    /// by cell.
    pub best: Vec<MoveValue>,
    /// What the move gave away.
    pub kind: MistakeKind,
    /// How many histories reach the position: the report's counts of blunders and slow wins
    /// add these up.
    pub histories: u64,
    /// How many of the games explored play this move at this position.
    pub games: u64,
}

/// The mistakes of one side: how many, and the first of them in full.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mistakes {
    /// Distinct mistakes found, each position and move once.
    pub total: u64,
    /// The first mistakes, as many as the audit's options asked for (none by default):
    /// blunders before slow wins, each kind earliest first (fewest moves before it), then the
    /// most games through it, then by the moves and the move played.
    pub list: Vec<Mistake>,
}

impl Mistakes {
    /// The most a side's JSON lists (`ttt audit --format json`).
    pub const LISTED: usize = 100;

    /// The most a side's text draws ([`SideReport::text`](super::SideReport::text)).
    pub const DRAWN: usize = 3;
}
