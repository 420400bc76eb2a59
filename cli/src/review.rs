//! `ttt review`: every move of a game judged against the table. The game is a move list, or
//! the result line that ends a game of `ttt play`, read from standard input.

use std::io::{self, BufReader, IsTerminal, Read, Write};

use clap::Args;
use ttt_oracle::{
    Game, History, Oracle, Outcome, Position, Review, Status, Value,
    review::{MoveVerdict, PlyReview},
};

use super::any_game::outcome_label;
use super::draw::{cells, pair_within};
use super::lines::{Line, read_bounded_line};
use super::style::Style;
use super::{Failure, Format, any_game};
use ttt_oracle::review::result_line::{self, FORM, GameResult, ReviewJson};

/// Arguments of `ttt review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The game's moves from the empty board, X first: cells 1..9 separated by spaces or
    /// commas, e.g. "5 3 9 1 4 2". Without it, the line "result: STATUS moves: LIST" that ends
    /// a game of ttt play is read from standard input (a whole transcript will do).
    #[arg(short = 'm', long, value_name = "LIST", allow_hyphen_values = true)]
    moves: Option<String>,
    /// Output format: text, or json for one compact JSON document.
    #[arg(short = 'f', long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    format: Format,
    /// The game: 3x3 (tic-tac-toe), MxN (M rows, N columns, k = the shorter side) or MxNkK,
    /// up to 25 cells (a review needs the game's table: past 16 cells, the one `ttt solve
    /// --game G` cached), cells numbered 1..M*N row by row.
    #[arg(short = 'g', long, value_name = "GAME", default_value = "3x3", value_parser = super::values::GameValues, hide_possible_values = true)]
    game: Game,
}

/// The longest line read from standard input, in bytes, not counting its newline. A result
/// line takes a few dozen; a longer line is read to its end without being kept.
const LINE_LIMIT: usize = 4096;

/// The most of standard input read, in bytes: a transcript of `ttt play` takes a few
/// kilobytes, so anything longer is not one, and endless input ends with an error.
const INPUT_LIMIT: u64 = 1 << 20;

/// Prints the review of the game given, as a move list or on standard input.
pub fn run(args: &ReviewArgs) -> Result<(), Failure> {
    let game_played = args.game;
    if game_played.cells() > Game::MAX_TIER_CELLS {
        return Err(Failure::usage(format!(
            "ttt review judges moves against the game's solved table, and {game_played} has {} cells; \
             tables stop at {} (past {}, made by `ttt solve`)",
            game_played.cells(),
            Game::MAX_TIER_CELLS,
            Game::MAX_TABLE_CELLS
        )));
    }
    // Tic-tac-toe's dense table, or the front door to any other game's: embedded, solved
    // when used, or cached by `ttt solve` (an error says how to make one when there is none).
    let oracle = if game_played.has_table() {
        any_game::oracle_of(game_played)?
    } else {
        Oracle::of(game_played)?
    };
    let (game, result) = match &args.moves {
        Some(list) => (
            result_line::parse_game(game_played, list)
                .map_err(|error| Failure::usage(error.to_string()))?,
            None,
        ),
        None => {
            let stdin = io::stdin();
            if stdin.is_terminal() {
                // A hint only: standard error failing stops nothing.
                let _ = say_what_to_paste();
            }
            let (result, game) = read_result(stdin.lock(), game_played)?;
            (game, Some(result))
        }
    };
    let review = Review::with_oracle(&oracle, &game);
    let mut out = super::stdout();
    match args.format {
        Format::Json => {
            let json = ReviewJson::new(&review, result);
            super::json_line(&mut out, &json)?;
        }
        Format::Text => {
            for line in text(&review, &game, result, &oracle, Style::for_stdout()) {
                writeln!(out, "{line}")?;
            }
        }
    }
    Ok(())
}

/// On a terminal, standard input would wait in silence: say what it waits for.
fn say_what_to_paste() -> io::Result<()> {
    let style = Style::for_stderr();
    let mut stderr = io::stderr();
    let first = format!("Paste the last line of a game of ttt play (\"{FORM}\"),");
    writeln!(stderr, "{}", style.faint(&first))?;
    let second = "then press Ctrl-D; or give the moves with ttt review --moves LIST.";
    writeln!(stderr, "{}", style.faint(second))
}

/// The result line in `input` (which may be a whole transcript of `ttt play`), read back. An
/// error when there is none, or more than one, or it is garbled, or the input is longer than
/// [`INPUT_LIMIT`]. The moves are cells of `game_played`.
fn read_result(input: impl Read, game_played: Game) -> Result<(GameResult, History), Failure> {
    let mut reader = BufReader::new(input.take(INPUT_LIMIT + 1));
    let mut found: Option<(u64, String)> = None;
    let mut number = 0;
    loop {
        let line = read_bounded_line(&mut reader, LINE_LIMIT)?;
        // Once more than the limit has come in, the input is too long, whatever is left of
        // it: the line just read may be cut short, so it is not judged.
        if reader.get_ref().limit() == 0 {
            return Err(Failure::usage(format!(
                "standard input is longer than {INPUT_LIMIT} bytes: a game of ttt play takes a \
                 few thousand; give the line \"{FORM}\", or the moves with --moves"
            )));
        }
        let Some(line) = line else { break };
        number += 1;
        let text = match line {
            Line::Text(text) => text,
            Line::TooLong { head, length }
                if result_line::is_result_line(&String::from_utf8_lossy(&head)) =>
            {
                return Err(Failure::usage(format!(
                    "line {number}: a result line of {length} bytes; one is at most \
                     {LINE_LIMIT} (\"{FORM}\")"
                )));
            }
            Line::TooLong { .. } => continue,
        };
        if !result_line::is_result_line(&text) {
            continue;
        }
        if let Some((first, _)) = found {
            return Err(Failure::usage(format!(
                "more than one result line on standard input (lines {first} and {number}): \
                 give one game, or its moves with --moves"
            )));
        }
        found = Some((number, text));
    }
    let (number, text) = found.ok_or_else(|| {
        Failure::usage(format!(
            "no result line on standard input: expected \"{FORM}\", the last line of a game \
             of ttt play (or give the moves with --moves)"
        ))
    })?;
    result_line::parse(&text, game_played)
        .map_err(|error| Failure::usage(format!("line {number}: {error}")))
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

/// A line about the game, a row a ply, a legend and a summary; then each mistake drawn, with
/// what each move leads to from `oracle`.
fn text(
    review: &Review,
    game: &History,
    result: Option<GameResult>,
    oracle: &Oracle,
    style: Style,
) -> Vec<String> {
    let board = game.position();
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
        (Status::InProgress, _) => format!("unfinished ({} to move)", board.to_move()),
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
    for ply in mistakes {
        lines.push(String::new());
        lines.extend(mistake(oracle, ply, &review.moves, style));
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

/// A mistake in words, then the board before it beside what each move there leads to: side
/// by side when they fit in 100 columns, else one under the other.
fn mistake(
    oracle: &Oracle,
    ply: &PlyReview,
    moves: &[ttt_oracle::Cell],
    style: Style,
) -> Vec<String> {
    let mut lines = vec![about_mistake(ply, style)];
    let board = moves[..ply.ply - 1]
        .iter()
        .fold(Position::empty(oracle.game()), |board, &cell| {
            board.play(cell).expect("a reviewed game replays")
        });
    let analysis = oracle.analyze(&board);
    lines.extend(pair_within(
        &any_game::board_squares(&board, style),
        &any_game::outcome_squares(&analysis, style),
        oracle.game().columns(),
        5,
        100,
    ));
    lines
}
