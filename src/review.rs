//! History review: every move of a game judged against the table, as `ttt review` shows it;
//! `text` writes it for people.

pub mod result_line;
mod text;

use std::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::board::{Cell, Cells, Player, Status};
use crate::history::History;
use crate::table::TableError;
use crate::value::Value;
use crate::value::{MoveValue, Probe};
use crate::{Game, Oracle, Position};

/// How a move compares with the best the position allowed, for the player making it.
///
/// A move either keeps the position's value and its remoteness ([`Best`](MoveVerdict::Best)),
/// lowers the value (a mistake), or keeps the value but not the remoteness: a win made slower,
/// a loss made faster.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Game, Oracle, Position, review::MoveVerdict};
///
/// // X wins at once on 3; 6 only draws; 7, 8 and 9 let O win on 6.
/// let oracle = Oracle::of(Game::TIC_TAC_TOE)?;
/// let position = Position::parse(Game::TIC_TAC_TOE, "XX.OO....")?;
/// let before = oracle.probe(&position);
/// let verdicts: Vec<_> = oracle
///     .moves(&position)
///     .into_iter()
///     .map(|m| (m.cell.number(), MoveVerdict::judge(before, m).as_str()))
///     .collect();
/// assert_eq!(
///     verdicts,
///     [(3, "best"), (6, "win_to_draw"), (7, "win_to_loss"), (8, "win_to_loss"), (9, "win_to_loss")]
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveVerdict {
    /// One of the optimal moves: the value kept, and the fastest win or the slowest loss.
    Best,
    /// A won position turned into a draw.
    WinToDraw,
    /// A won position turned into a loss.
    WinToLoss,
    /// A drawn position turned into a loss.
    DrawToLoss,
    /// Still a win, but not the fastest.
    SlowWin,
    /// Still a loss, but not the slowest.
    FastLoss,
}

impl MoveVerdict {
    /// The verdict on a move, from the position's value and remoteness for the player to move
    /// (`before`) and the move's, from the same player's view (as [`Oracle::moves`](crate::Oracle::moves) gives
    /// it).
    pub fn judge(before: Probe, made: MoveValue) -> MoveVerdict {
        MoveVerdict::of(
            (before.value, before.remoteness),
            (made.value, made.remoteness),
        )
    }

    /// [`of`](MoveVerdict::of) a move to a position `after`, probed for the opponent, who moves
    /// there.
    #[inline]
    pub(crate) fn leading_to(before: (Value, u8), after: Probe) -> MoveVerdict {
        MoveVerdict::of(before, (-after.value, after.remoteness + 1))
    }

    /// The verdict on a move from the value and remoteness before it and the move's, both
    /// for the player making it: the rule the auditor counts blunders and slow wins by too.
    #[inline]
    pub(crate) fn of(before: (Value, u8), made: (Value, u8)) -> MoveVerdict {
        match (before.0, made.0) {
            (Value::Win, Value::Draw) => MoveVerdict::WinToDraw,
            (Value::Win, Value::Loss) => MoveVerdict::WinToLoss,
            (Value::Draw, Value::Loss) => MoveVerdict::DrawToLoss,
            (Value::Win, Value::Win) if made.1 > before.1 => MoveVerdict::SlowWin,
            (Value::Loss, Value::Loss) if made.1 < before.1 => MoveVerdict::FastLoss,
            // A move cannot raise the value or beat the remoteness: what is left keeps both.
            _ => MoveVerdict::Best,
        }
    }

    /// Whether the move lowered the value: `win_to_draw`, `win_to_loss` or `draw_to_loss`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::review::MoveVerdict;
    ///
    /// assert!(MoveVerdict::DrawToLoss.is_mistake());
    /// assert!(!MoveVerdict::SlowWin.is_mistake());
    /// ```
    pub fn is_mistake(self) -> bool {
        matches!(
            self,
            MoveVerdict::WinToDraw | MoveVerdict::WinToLoss | MoveVerdict::DrawToLoss
        )
    }

    /// The stable name used in JSON: `best`, `win_to_draw`, `win_to_loss`, `draw_to_loss`,
    /// `slow_win` or `fast_loss`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::review::MoveVerdict;
    ///
    /// assert_eq!(MoveVerdict::SlowWin.as_str(), "slow_win");
    /// assert_eq!(serde_json::to_string(&MoveVerdict::SlowWin)?, "\"slow_win\"");
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            MoveVerdict::Best => "best",
            MoveVerdict::WinToDraw => "win_to_draw",
            MoveVerdict::WinToLoss => "win_to_loss",
            MoveVerdict::DrawToLoss => "draw_to_loss",
            MoveVerdict::SlowWin => "slow_win",
            MoveVerdict::FastLoss => "fast_loss",
        }
    }
}

/// The verdict in words for people: `best`, `win to draw`, ..., `fast loss`.
impl fmt::Display for MoveVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.as_str().replace('_', " "))
    }
}

/// One move of a reviewed game: who made it, where, and what it was worth.
///
/// Serializes as `{"ply", "player", "cell", "value_before", "remoteness_before", "value",
/// "remoteness", "best", "verdict"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PlyReview {
    /// Which move of the game, from 1.
    pub ply: usize,
    /// Who made it.
    pub player: Player,
    /// The cell played.
    pub cell: Cell,
    /// The position's value before the move, for the player making it.
    pub value_before: Value,
    /// Plies from before the move to the end of the game, under perfect play.
    pub remoteness_before: u8,
    /// What the move is worth to the player making it.
    pub value: Value,
    /// Plies from before the move to the end of the game, under perfect play after it.
    pub remoteness: u8,
    /// The optimal moves in the position before it.
    pub best: Cells,
    /// How the move compares with them.
    pub verdict: MoveVerdict,
}

/// A game with every move judged against the table.
///
/// Serializes to exactly the keys of `ttt review --format json`: `{"moves", "status", "plies",
/// "mistakes"}`, after a first key `"game"` on games other than tic-tac-toe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    /// The game played.
    pub game: Game,
    /// The moves of the game, X first.
    pub moves: Vec<Cell>,
    /// Where the game stands after them.
    pub status: Status,
    /// Each move, judged.
    pub plies: Vec<PlyReview>,
}

/// Judges every move of `game` against `oracle`, its game's table (embedded, solved in this
/// process, or cached by `ttt solve`): the value before each move, what the move leads to (the
/// value after it, from the mover's side, and one more ply), and the best moves.
fn judge(oracle: &Oracle, game: &History) -> Review {
    let mut board = Position::empty(game.game());
    let plies = game
        .moves()
        .iter()
        .enumerate()
        .map(|(index, &cell)| {
            let mover = board.to_move();
            let before = oracle.probe(&board);
            let after = board.play_unchecked(cell.index());
            let made = oracle.probe(&after);
            // Both values for the mover.
            let (before, made) = (
                (before.value, before.remoteness),
                (-made.value, made.remoteness + 1),
            );
            let ply = PlyReview {
                ply: index + 1,
                player: mover,
                cell,
                value_before: before.0,
                remoteness_before: before.1,
                value: made.0,
                remoteness: made.1,
                best: oracle.best_moves(&board),
                verdict: MoveVerdict::of(before, made),
            };
            board = after;
            ply
        })
        .collect();
    Review {
        game: game.game(),
        moves: game.moves().to_vec(),
        status: board.status(),
        plies,
    }
}

impl Review {
    /// Judges every move of `game`, complete or not, against its game's table: any game of
    /// at most 16 cells, or of 17 to 25 whose table `ttt solve` cached.
    ///
    /// # Errors
    ///
    /// [`TableError`] when the game has no table (more than 25 cells, or none cached yet), or
    /// its table is damaged.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, History, Review, review::MoveVerdict};
    ///
    /// // X's fifth move, 4, leaves O's line 1-2-3 open: a drawn game thrown away.
    /// let review = Review::new(&History::parse(Game::TIC_TAC_TOE, "5 3 9 1 4 2")?)?;
    /// assert_eq!(review.plies[4].verdict, MoveVerdict::DrawToLoss);
    /// assert_eq!(review.plies[4].best.to_string(), "2");
    /// assert_eq!(review.mistakes(), 1);
    ///
    /// // On 3x4, X wins in 7 plies from the empty board, but in 9 after the corner 1; then O's
    /// // 5 loses faster than 6 would.
    /// let review = Review::new(&History::parse("3x4".parse()?, "1 5")?)?;
    /// assert_eq!(review.plies[0].verdict, MoveVerdict::SlowWin);
    /// assert_eq!(review.plies[1].verdict, MoveVerdict::FastLoss);
    /// let json = serde_json::to_string(&review)?;
    /// assert!(json.starts_with(r#"{"game":"3x4","moves":[1,5],"status":"in_progress","#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(game: &History) -> Result<Review, TableError> {
        Ok(Review::with_oracle(&Oracle::of(game.game())?, game))
    }

    /// Judges every move of `game` against `oracle`, its game's table.
    ///
    /// # Panics
    ///
    /// If `oracle` is the table of another game.
    pub fn with_oracle(oracle: &Oracle, game: &History) -> Review {
        if oracle.game() != game.game() {
            crate::game::wrong_game(game.game(), oracle.game());
        }
        judge(oracle, game)
    }

    /// How many moves lowered the value (see [`MoveVerdict::is_mistake`]).
    pub fn mistakes(&self) -> usize {
        self.plies
            .iter()
            .filter(|ply| ply.verdict.is_mistake())
            .count()
    }
}

/// The JSON shape documented in `docs/commands.md`.
impl Serialize for Review {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let other_game = self.game != Game::TIC_TAC_TOE;
        let mut s = serializer.serialize_struct("Review", 4 + usize::from(other_game))?;
        if other_game {
            s.serialize_field("game", &self.game)?;
        }
        s.serialize_field("moves", &self.moves)?;
        s.serialize_field("status", &self.status)?;
        s.serialize_field("plies", &self.plies)?;
        s.serialize_field("mistakes", &self.mistakes())?;
        s.end()
    }
}
