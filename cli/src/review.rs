//! `ttt review`: every move of a game judged against the table. The game is a move list, or
//! the result line that ends a game of `ttt play`, read from standard input.

use std::io::{self, BufReader, IsTerminal, Read, Write};

use clap::Args;
use ttt_oracle::{Game, History, Oracle, Review};

use super::lines::{Line, read_bounded_line};
use super::style;
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
            writeln!(out, "{}", review.text(result, style::for_stdout()))?;
        }
    }
    Ok(())
}

/// On a terminal, standard input would wait in silence: say what it waits for.
fn say_what_to_paste() -> io::Result<()> {
    let style = style::for_stderr();
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
