//! `ttt analyze` and `ttt best`: one position given on the command line, or batch mode (`-`),
//! where a program sends one position a line on standard input and reads each answer back.

use std::fmt::Write as _;
use std::io::{self, BufReader, BufWriter, Write};

use crate::quote::{QUOTE_LIMIT, quote};
use crate::{
    Analysis, Board, Cell, Game, History, Oracle, Player, Position, Status, Table, Value,
    parse_moves, table,
};
use clap::Args;
use serde::Serialize;

use super::draw::{Square, board_squares, cells, grid, side_by_side};
use super::lines::{Line, read_bounded_line};
use super::style::Style;
use super::{Failure, Format, PositionArgs};

/// Arguments of `ttt analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    position: PositionArgs,
}

/// The longest line batch mode reads, in bytes, not counting its newline. A board or a move
/// list takes a few bytes; a longer line is an error for that line, and is skipped to its end
/// without being kept, so that no input can fill the memory.
const LINE_LIMIT: usize = 4096;

/// How much of standard input batch mode reads at once. Answers are held back only while
/// whole lines are waiting in this buffer, so it bounds how late an answer can be.
const INPUT_BUFFER: usize = 64 * 1024;

/// How a position is written: a board, or the moves from the empty board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// `X...O....`
    Board,
    /// `5 1 9`
    Moves,
}

impl Notation {
    pub fn noun(self) -> &'static str {
        match self {
            Notation::Board => "board",
            Notation::Moves => "move list",
        }
    }

    /// Reads a position written this way. The error is one line that quotes at most the start
    /// of `text`; a move list given as a board gets a hint: `--moves LIST`, or in batch mode
    /// `--moves -`.
    pub fn parse(self, text: &str, batch: bool) -> Result<Board, String> {
        if self == Notation::Moves {
            return parse_game(text).map(|game| game.board());
        }
        text.parse::<Board>().map_err(|error| {
            let mut message = format!("bad {} {}: {error}", self.noun(), quote(text));
            if looks_like_moves(text) {
                if batch {
                    message.push_str(" (a move list? read them with --moves -)");
                } else {
                    let _ = write!(message, " (did you mean --moves {}?)", quote(text));
                }
            }
            message
        })
    }
}

/// Reads a move list into the game it plays. The error is one line that quotes at most the
/// start of `text`, the same wherever a move list is read (`analyze --moves`, `review`).
pub fn parse_game(text: &str) -> Result<History, String> {
    parse_moves(text)
        .and_then(|moves| History::from_moves(&moves))
        .map_err(|error| format!("bad {} {}: {error}", Notation::Moves.noun(), quote(text)))
}

/// Whether `text`, which is not a board, is a move list: cells 1 to 9 separated by spaces or
/// commas, short enough to be suggested whole.
fn looks_like_moves(text: &str) -> bool {
    text.chars().count() <= QUOTE_LIMIT
        && text.chars().any(|ch| ch.is_ascii_digit())
        && text
            .chars()
            .all(|ch| ch.is_ascii_digit() || ch == ' ' || ch == ',')
        && parse_moves(text).is_ok()
}

/// What a command asks of each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Query {
    /// `ttt analyze`: everything.
    Analyze,
    /// `ttt best`: the move to play.
    Best,
}

/// `ttt best --format json`: the move, and the value and remoteness it keeps for the side to
/// move.
#[derive(Debug, Serialize)]
struct BestMove {
    board: Board,
    to_move: Player,
    best: Cell,
    value: Value,
    remoteness: u8,
}

/// The answer to one position.
enum Answer {
    Analysis(Analysis),
    Best(BestMove),
    MnkAnalysis(Analysis),
    MnkBest(super::mnk::MnkBest),
}

/// Batch mode with `--format json`: a line that got no answer, and why, in the answer's place.
#[derive(Serialize)]
struct LineError<'a> {
    error: &'a str,
    line: u64,
}

/// Prints the analysis of one position, or of each line of standard input.
pub fn run(args: &AnalyzeArgs) -> Result<(), Failure> {
    answer(&args.position, Query::Analyze)
}

/// Prints the best move alone, for one position or each line of standard input.
pub fn best(args: &PositionArgs) -> Result<(), Failure> {
    answer(args, Query::Best)
}

fn answer(position: &PositionArgs, query: Query) -> Result<(), Failure> {
    let style = Style::for_stdout();
    let game = position.game;
    let table = if game == Game::TIC_TAC_TOE {
        None
    } else {
        Some(super::mnk::table_of(game)?)
    };
    if let Some(notation) = position.batch() {
        return batch(notation, query, position.format, style, table);
    }
    let (notation, text) = position.given();
    let answer = answer_text(notation, text, false, query, table).map_err(Failure::usage)?;
    let mut out = io::stdout().lock();
    write_answer(&mut out, &answer, position.format, style)?;
    Ok(())
}

/// Reads a position of the game of `table` (tic-tac-toe when `None`) and looks it up; the error
/// is why there is no answer.
fn answer_text(
    notation: Notation,
    text: &str,
    batch: bool,
    query: Query,
    table: Option<&'static Table>,
) -> Result<Answer, String> {
    let Some(table) = table else {
        return notation
            .parse(text, batch)
            .and_then(|board| ask(query, board));
    };
    let board = super::mnk::parse(table.game(), notation, text)?;
    match query {
        Query::Analyze => Ok(Answer::MnkAnalysis(Oracle::of_table(table).analyze(&board))),
        Query::Best => super::mnk::best(table, board).map(Answer::MnkBest),
    }
}

/// Why a finished game has no best move.
pub fn no_move(board: &dyn std::fmt::Display, status: Status) -> String {
    format!("the game on {board} is over ({status}): there is no move to make")
}

/// Looks `board` up; the error is why there is no answer (`best` on a finished game).
fn ask(query: Query, board: Board) -> Result<Answer, String> {
    let table = table();
    match query {
        Query::Analyze => Ok(Answer::Analysis(
            Oracle::of_dense(table).analyze(&Position::from_board(board)),
        )),
        Query::Best => {
            let best = table
                .best_move(&board)
                .ok_or_else(|| no_move(&board, board.status()))?;
            let probe = table.probe(&board);
            Ok(Answer::Best(BestMove {
                board,
                to_move: board.to_move(),
                best,
                value: probe.value,
                remoteness: probe.remoteness,
            }))
        }
    }
}

fn write_answer(
    out: &mut impl Write,
    answer: &Answer,
    format: Format,
    style: Style,
) -> io::Result<()> {
    match (answer, format) {
        (Answer::Analysis(analysis), Format::Json) => {
            serde_json::to_writer(&mut *out, analysis)?;
            writeln!(out)
        }
        (Answer::Analysis(analysis), Format::Text) => {
            for line in text(analysis, style) {
                writeln!(out, "{line}")?;
            }
            Ok(())
        }
        (Answer::Best(best), Format::Json) => {
            serde_json::to_writer(&mut *out, best)?;
            writeln!(out)
        }
        (Answer::Best(best), Format::Text) => writeln!(out, "{}", best.best),
        (Answer::MnkAnalysis(analysis), Format::Json) => {
            serde_json::to_writer(&mut *out, analysis)?;
            writeln!(out)
        }
        (Answer::MnkAnalysis(analysis), Format::Text) => {
            for line in super::mnk::text(analysis, style) {
                writeln!(out, "{line}")?;
            }
            Ok(())
        }
        (Answer::MnkBest(best), Format::Json) => {
            serde_json::to_writer(&mut *out, best)?;
            writeln!(out)
        }
        (Answer::MnkBest(best), Format::Text) => writeln!(out, "{}", best.cell()),
    }
}

/// Batch mode: what each line holds, what is asked of it, and how answers are printed.
struct Batch {
    notation: Notation,
    query: Query,
    format: Format,
    style: Style,
    /// The table of the game, for games other than tic-tac-toe.
    table: Option<&'static Table>,
}

/// Lines read, and those that got an error instead of an answer.
#[derive(Debug, Default)]
struct Tally {
    lines: u64,
    bad: u64,
    /// The first bad line, counting from 1; 0 while there is none.
    first_bad: u64,
}

/// Why batch mode stopped before the end of its input.
#[derive(Debug)]
enum Stopped {
    Read(io::Error),
    Write(io::Error),
}

/// Batch mode on standard input and output. Exit code 2 when any line got an error, and
/// standard error says how many and where the first was.
fn batch(
    notation: Notation,
    query: Query,
    format: Format,
    style: Style,
    table: Option<&'static Table>,
) -> Result<(), Failure> {
    let batch = Batch {
        notation,
        query,
        format,
        style,
        table,
    };
    let mut input = BufReader::with_capacity(INPUT_BUFFER, io::stdin());
    let mut out = BufWriter::new(io::stdout().lock());
    let mut tally = Tally::default();
    match batch.run(&mut input, &mut out, &mut tally) {
        Ok(()) => {}
        // The reader went away: nothing more can be answered, so end quietly.
        Err(Stopped::Write(error)) if error.kind() == io::ErrorKind::BrokenPipe => {}
        Err(Stopped::Write(error)) => return Err(error.into()),
        Err(Stopped::Read(error)) => {
            // The reader's error says what it could not read; say after which line.
            let error = error
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<super::lines::ReadingInput>())
                .map_or_else(|| error.to_string(), |reading| reading.0.to_string());
            return Err(Failure::usage(format!(
                "cannot read standard input after line {}: {error}",
                tally.lines
            )));
        }
    }
    if tally.bad == 0 {
        return Ok(());
    }
    Err(Failure::usage(format!(
        "{} of {} {} got an error instead of an answer, the first at line {}",
        tally.bad,
        tally.lines,
        if tally.lines == 1 { "line" } else { "lines" },
        tally.first_bad
    )))
}

impl Batch {
    /// Answers every line of `input` on `out`, in order, until the input ends.
    fn run<R: io::Read>(
        &self,
        input: &mut BufReader<R>,
        out: &mut impl Write,
        tally: &mut Tally,
    ) -> Result<(), Stopped> {
        loop {
            // Answers are buffered only while the next line is already here: before anything
            // can wait for input, every answer so far goes out, since a client may be waiting
            // for one before it writes its next line.
            if !input.buffer().contains(&b'\n') {
                out.flush().map_err(Stopped::Write)?;
            }
            let line = match read_bounded_line(input, LINE_LIMIT) {
                Ok(Some(line)) => line,
                Ok(None) => return out.flush().map_err(Stopped::Write),
                Err(error) => {
                    let _ = out.flush();
                    return Err(Stopped::Read(error));
                }
            };
            tally.lines += 1;
            let result = match line {
                Line::Text(text) => answer_text(self.notation, &text, true, self.query, self.table),
                Line::TooLong { head, length } => Err(too_long(self.notation, &head, length)),
            };
            if result.is_err() {
                tally.bad += 1;
                if tally.first_bad == 0 {
                    tally.first_bad = tally.lines;
                }
            }
            self.write(out, tally.lines, &result)
                .map_err(Stopped::Write)?;
        }
    }

    /// Writes the answer to line `number`, or its error in the answer's place.
    fn write(
        &self,
        out: &mut impl Write,
        number: u64,
        result: &Result<Answer, String>,
    ) -> io::Result<()> {
        match (result, self.format) {
            (Ok(answer), format) => write_answer(out, answer, format, self.style)?,
            (Err(message), Format::Json) => {
                let error = LineError {
                    error: message,
                    line: number,
                };
                serde_json::to_writer(&mut *out, &error)?;
                writeln!(out)?;
            }
            (Err(message), Format::Text) => {
                let label = self.style.error("error:");
                writeln!(out, "{label} line {number}: {message}")?;
            }
        }
        if self.query == Query::Analyze && self.format == Format::Text {
            // A text analysis is a block of lines: a blank line ends each answer.
            writeln!(out)?;
        }
        Ok(())
    }
}

/// The error for a line longer than [`LINE_LIMIT`]: its start, quoted, and its length.
fn too_long(notation: Notation, head: &[u8], length: u64) -> String {
    let start: String = String::from_utf8_lossy(head)
        .chars()
        .take(QUOTE_LIMIT)
        .collect();
    let mut quoted = quote(&start);
    quoted.pop();
    format!(
        "bad {} {quoted}…\" ({length} bytes): a line has at most {LINE_LIMIT} bytes",
        notation.noun()
    )
}

/// `W3`, `D7`, `L2`: a value and the plies to the end, as people read a move's outcome.
pub fn outcome_label(value: Value, remoteness: u8) -> String {
    let letter = match value {
        Value::Win => 'W',
        Value::Draw => 'D',
        Value::Loss => 'L',
    };
    format!("{letter}{remoteness}")
}

/// What each empty cell leads to for the side to move: `W3` (a win in 3 plies), `D7`, `L2`,
/// with `*` on the optimal moves; occupied cells show their mark.
pub fn outcome_squares(analysis: &Analysis, style: Style) -> [Square; 9] {
    Cell::ALL.map(
        |cell| match analysis.moves.iter().find(|m| m.cell == cell) {
            Some(m) => {
                let star = if analysis.best.contains(cell) {
                    "*"
                } else {
                    ""
                };
                let label = format!("{}{star}", outcome_label(m.value, m.remoteness));
                Square::new(label.clone(), style.value(m.value, &label))
            }
            None => {
                let mark = analysis
                    .board
                    .at(cell.index())
                    .map(|p| p.to_string())
                    .unwrap_or_default();
                Square::new(mark.clone(), style.faint(&mark))
            }
        },
    )
}

/// The board beside a map of where each empty cell leads, then a summary.
fn text(analysis: &Analysis, style: Style) -> Vec<String> {
    let board = analysis.board.tic_tac_toe();
    let left = grid(&board_squares(board, style));
    let mover = analysis.to_move;
    let mut lines = Vec::new();
    let right = match analysis.status {
        Status::InProgress => grid(&outcome_squares(analysis, style)),
        Status::Finished(_) => Vec::new(),
    };
    let summary = Summary {
        value: analysis.value,
        remoteness: analysis.remoteness,
        mover,
        best: analysis.best.to_string(),
        line: cells(&analysis.line),
        winner: board.winner(),
    };
    lines.extend(layout(left, right, &summary, style));
    lines
}

/// What the lines under an analysis's grids say.
pub struct Summary {
    /// The value for the side to move.
    pub value: Value,
    /// Plies to the end.
    pub remoteness: u8,
    /// The side to move.
    pub mover: Player,
    /// The optimal moves, as people read them.
    pub best: String,
    /// The perfect line, as people read it.
    pub line: String,
    /// Who won, on a finished board.
    pub winner: Option<Player>,
}

/// An analysis for people: the board beside the map of where each move leads (`right`, empty
/// for a finished game), then the value, the optimal moves, the perfect line and the key; or
/// the board and how the game ended.
pub fn layout(
    left: Vec<String>,
    right: Vec<String>,
    summary: &Summary,
    style: Style,
) -> Vec<String> {
    let mover = summary.mover;
    let mut lines = Vec::new();
    if right.is_empty() {
        lines.extend(left);
        lines.push(String::new());
        let result = match summary.winner {
            Some(winner) => format!("Game over: {winner} won."),
            None => "Game over: a draw.".to_string(),
        };
        lines.push(style.strong(&result));
        return lines;
    }
    lines.extend(side_by_side(&left, &right, 5));
    let plies = super::text::plies(usize::from(summary.remoteness));
    let said = match summary.value {
        Value::Win => format!("{mover} to move wins in {plies}"),
        Value::Draw => format!("{mover} to move draws ({plies} to a full board)"),
        Value::Loss => format!("{mover} to move loses in {plies}"),
    };
    lines.push(String::new());
    lines.push(format!(
        "{}. Best: {}.",
        style.value(summary.value, &said),
        summary.best
    ));
    lines.push(format!("Perfect play: {}", summary.line));
    lines.push(style.faint(&format!(
        "Right: what each move leads to for {mover}: W win, D draw, L loss, plies to the end; * best."
    )));
    lines
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    /// What batch mode writes for `input`, and its tally.
    fn run_batch(notation: Notation, query: Query, format: Format, input: &str) -> (String, Tally) {
        let batch = Batch {
            notation,
            query,
            format,
            style: Style::plain(),
            table: None,
        };
        let mut input = BufReader::new(Cursor::new(input.as_bytes().to_vec()));
        let mut out = Vec::new();
        let mut tally = Tally::default();
        batch.run(&mut input, &mut out, &mut tally).unwrap();
        (String::from_utf8(out).unwrap(), tally)
    }

    #[test]
    fn batch_answers_every_line_in_its_place() {
        let (out, tally) = run_batch(
            Notation::Moves,
            Query::Best,
            Format::Text,
            "5 1 9\n\n1 1\n1 4 2 5 3\n5",
        );
        assert_eq!(
            out,
            "3\n1\nerror: line 3: bad move list \"1 1\": move 2: cell 1 is already taken by X\n\
             error: line 4: the game on XXXOO.... is over (x_wins): there is no move to make\n1\n"
        );
        assert_eq!((tally.lines, tally.bad, tally.first_bad), (5, 2, 3));
    }

    #[test]
    fn a_long_line_is_quoted_short_with_its_length() {
        let input = format!("{}\nX........\n", "X".repeat(100_000));
        let (out, tally) = run_batch(Notation::Board, Query::Best, Format::Json, &input);
        assert_eq!(
            out,
            format!(
                "{{\"error\":\"bad board \\\"{}…\\\" (100000 bytes): a line has at most 4096 bytes\",\"line\":1}}\n\
                 {{\"board\":\"X........\",\"to_move\":\"O\",\"best\":5,\"value\":\"draw\",\"remoteness\":8}}\n",
                "X".repeat(60)
            )
        );
        assert_eq!((tally.lines, tally.bad), (2, 1));
    }

    #[test]
    fn only_move_lists_are_suggested_as_moves() {
        for text in ["5 1 9", "5,1,9", "5", "1 1"] {
            assert!(looks_like_moves(text), "{text}");
        }
        for text in ["", " ", "X.Z", "5 10", "5 1 9 x", "519", "5\t1"] {
            assert!(!looks_like_moves(text), "{text}");
        }
    }

    #[test]
    fn text_marks_every_empty_cell() {
        let board: Board = "XO..X....".parse().unwrap();
        let analysis = Oracle::of_dense(table()).analyze(&Position::from_board(board));
        let lines = text(&analysis, Style::plain());
        let joined = lines.join("\n");
        assert_eq!(joined.matches('L').count(), 6 + 1, "{joined}");
        assert!(joined.contains("L4*"), "{joined}");
    }
}
