//! A review for people, as `ttt review` prints it: a line about the game, a row a ply, a
//! legend and a summary, then each mistake drawn beside what each move there leads to;
//! coloured by a [`Style`] or not.

use std::fmt;

use super::result_line::GameResult;
use crate::board::{Outcome, Player, Status};
use crate::draw::{Style, board_squares, cells, outcome_label, outcome_squares, pair_within};
use crate::oracle::Oracle;
use crate::position::Position;
use crate::review::{MoveVerdict, PlyReview, Review};
use crate::value::Value;

impl Review {
    /// The review as `ttt review` prints it, a line each (no newline after the last): the
    /// game's moves and how it ended (`result`, read from the line that ends a game of
    /// `ttt play`, tells a forfeit, which the moves alone cannot), a row a ply, a legend, a
    /// summary of the mistakes, then each mistake in words, its board drawn beside what every
    /// move there leads to (from the game's table, as [`Oracle::of`] holds it; left out if it
    /// can no longer be had); coloured as `style` says.
    ///
    /// Its [`Display`](fmt::Display) is this text without colour and without a result line.
    ///
    /// # Examples
    ///
    /// ```
    /// use ttt_oracle::{Game, History, Review, draw::Style};
    ///
    /// let review = Review::new(&History::parse(Game::TIC_TAC_TOE, "5 1 9 2")?)?;
    /// println!("{review}");
    /// let text = format!("{review}");
    /// assert!(text.starts_with("Game: 5 1 9 2, unfinished (X to move).\n"));
    /// assert!(text.contains("\nply  player  cell  before  after  verdict       best\n"));
    /// assert_eq!(review.text(None, Style::PLAIN), text);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn text(&self, result: Option<GameResult>, style: Style) -> String {
        lines(self, result, style).join("\n")
    }
}

/// The text of [`Review::text`], without colour and without a result line: see there.
impl fmt::Display for Review {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(None, Style::PLAIN))
    }
}

/// `text`, left-aligned in `width` columns, coloured as `value`.
fn painted(style: Style, value: Value, text: &str, width: usize) -> String {
    style.value(value, &format!("{text:<width$}"))
}

/// The colour of a verdict: red for a mistake, yellow for a win made slower or a loss made
/// faster, none for a best move.
fn paint_verdict(style: Style, verdict: MoveVerdict, width: usize) -> String {
    let text = format!("{:<width$}", verdict.to_string());
    match verdict {
        MoveVerdict::Best => text,
        v if v.is_mistake() => style.value(Value::Loss, &text),
        _ => style.value(Value::Draw, &text),
    }
}

/// A line about the game, a row a ply, a legend and a summary; then each mistake drawn.
fn lines(review: &Review, result: Option<GameResult>, style: Style) -> Vec<String> {
    let moves = match review.moves.as_slice() {
        [] => "no moves".to_string(),
        moves => cells(moves),
    };
    let end = match (review.status, result) {
        (Status::Finished(Outcome::Win(winner)), _) => format!("{winner} won"),
        (Status::Finished(Outcome::Draw), _) => "a draw".to_string(),
        (Status::InProgress, Some(GameResult::Forfeit(winner))) => {
            format!("then {} forfeited: {winner} won by forfeit", !winner)
        }
        (Status::InProgress, _) => {
            format!(
                "unfinished ({} to move)",
                Player::at_ply(review.moves.len())
            )
        }
    };
    let mut lines = vec![format!("Game: {moves}, {end}.")];
    if review.plies.is_empty() {
        lines.push("Nothing to review: no move was played.".to_string());
        return lines;
    }
    lines.push(String::new());
    lines.extend(plies_table(review, style));
    lines.push(String::new());
    let mistakes: Vec<&PlyReview> = review
        .plies
        .iter()
        .filter(|ply| ply.verdict.is_mistake())
        .collect();
    lines.push(style.strong(&summary(&mistakes)));
    let oracle = Oracle::of(review.game).ok();
    for ply in mistakes {
        lines.push(String::new());
        lines.push(about_mistake(ply, style));
        if let Some(oracle) = &oracle {
            lines.extend(mistake(oracle, ply, review, style));
        }
    }
    lines
}

/// A row a ply, under a header, then a legend.
fn plies_table(review: &Review, style: Style) -> Vec<String> {
    let mut lines = vec![style.strong("ply  player  cell  before  after  verdict       best")];
    for ply in &review.plies {
        lines.push(format!(
            "{:>3}  {:<6}  {:<4}  {}  {}  {}  {}",
            ply.ply,
            ply.player.to_string(),
            ply.cell.to_string(),
            painted(
                style,
                ply.value_before,
                &outcome_label(ply.value_before, ply.remoteness_before),
                6
            ),
            painted(
                style,
                ply.value,
                &outcome_label(ply.value, ply.remoteness),
                5
            ),
            paint_verdict(style, ply.verdict, 12),
            ply.best
        ));
    }
    lines.push(
        style.faint("before: the position, for the player to move; after: their move, for them."),
    );
    lines
        .push(style.faint("W win, D draw, L loss, then plies to the end; a best move keeps both."));
    lines
}

/// `No mistakes: ...`, `1 mistake, a move that lowered the value: ply 5.`, or
/// `2 mistakes, moves that lowered the value: plies 3 and 5.`
fn summary(mistakes: &[&PlyReview]) -> String {
    let plies: Vec<String> = mistakes.iter().map(|ply| ply.ply.to_string()).collect();
    match plies.as_slice() {
        [] => "No mistakes: no move lowered the value.".to_string(),
        [one] => format!("1 mistake, a move that lowered the value: ply {one}."),
        [most @ .., last] => format!(
            "{} mistakes, moves that lowered the value: plies {} and {last}.",
            plies.len(),
            most.join(", ")
        ),
    }
}

/// A mistake in words: `Ply 5: X played 4, draw to loss (L2). Best: 2 (D5).`
fn about_mistake(ply: &PlyReview, style: Style) -> String {
    let before = outcome_label(ply.value_before, ply.remoteness_before);
    format!(
        "Ply {}: {} played {}, {} ({}). Best: {} ({}).",
        ply.ply,
        ply.player,
        ply.cell,
        paint_verdict(style, ply.verdict, 0),
        style.value(ply.value, &outcome_label(ply.value, ply.remoteness)),
        ply.best,
        style.value(ply.value_before, &before),
    )
}

/// The board before a mistake beside what each move there leads to: side by side when they
/// fit in 100 columns, else one under the other.
fn mistake(oracle: &Oracle, ply: &PlyReview, review: &Review, style: Style) -> Vec<String> {
    let board = review.moves[..ply.ply - 1]
        .iter()
        .fold(Position::empty(review.game), |board, &cell| {
            board.play(cell).expect("a reviewed game replays")
        });
    let analysis = oracle.analyze(&board);
    pair_within(
        &board_squares(&board, style),
        &outcome_squares(&analysis, style),
        review.game.columns(),
        5,
        100,
    )
}
