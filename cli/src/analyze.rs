//! `ttt analyze` and `ttt best`: one position given on the command line, or batch mode (`-`),
//! where a program sends one position a line on standard input and reads each answer back.

use std::io::{self, BufRead, BufReader, BufWriter, Write};

use clap::Args;
use serde::Serialize;
use ttt_oracle::{Analysis, BatchBest, Cell, Game, Oracle, Player, Position, Value};

use super::analysis_text::text;
use super::any_game::oracle_of;
use super::lines::{Line, read_bounded_line};
use super::style;
use super::{Failure, Format, PositionArgs};
use ttt_oracle::draw::Style;

// `PositionArgs` names the notation from here.
pub(super) use super::notation::Notation;

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

/// What a command asks of each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Query {
    /// `ttt analyze`: everything.
    Analyze,
    /// `ttt best`: the move to play.
    Best,
}

/// `ttt best --format json`: the move, and the value and remoteness it keeps for the side to
/// move; the first key, `game`, is left out for tic-tac-toe.
#[derive(Debug, Serialize)]
struct BestMove {
    #[serde(skip_serializing_if = "Game::is_tic_tac_toe")]
    game: Game,
    board: Position,
    to_move: Player,
    best: Cell,
    value: Value,
    remoteness: u8,
}

/// The answer to one position.
enum Answer {
    Analysis(Analysis),
    Best(BestMove),
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
    let style = style::for_stdout();
    let oracle = oracle_of(position.game)?;
    if let Some(notation) = position.batch() {
        let fast = (query == Query::Best && notation == Notation::Board)
            .then(|| BatchBest::new(&oracle, position.format == Format::Json))
            .flatten();
        let batch = Batch {
            notation,
            query,
            format: position.format,
            style,
            oracle,
            fast,
        };
        return batch.answer_all();
    }
    let (notation, text) = position.given();
    let answer = answer_text(notation, text, false, query, &oracle).map_err(Failure::usage)?;
    let mut out = super::stdout();
    write_answer(&mut out, &answer, position.format, style)?;
    Ok(())
}

/// Reads a position of the oracle's game and looks it up; the error is why there is no answer
/// (a position that cannot be read, or `best` on a finished game).
fn answer_text(
    notation: Notation,
    text: &str,
    batch: bool,
    query: Query,
    oracle: &Oracle,
) -> Result<Answer, String> {
    let position = notation.parse(oracle.game(), text, batch)?;
    match query {
        Query::Analyze => Ok(Answer::Analysis(oracle.analyze(&position))),
        Query::Best => best_move(oracle, position).map(Answer::Best),
    }
}

/// The best move on `position`; the error says why there is none.
fn best_move(oracle: &Oracle, position: Position) -> Result<BestMove, String> {
    let best = oracle
        .best_move(&position)
        .ok_or_else(|| no_move(&position))?;
    let probe = oracle.probe(&position);
    Ok(BestMove {
        game: position.game(),
        board: position,
        to_move: position.to_move(),
        best,
        value: probe.value,
        remoteness: probe.remoteness,
    })
}

/// Why a finished game has no best move.
fn no_move(position: &Position) -> String {
    let status = position.status();
    format!("the game on {position} is over ({status}): there is no move to make")
}

fn write_answer(
    out: &mut impl Write,
    answer: &Answer,
    format: Format,
    style: Style,
) -> io::Result<()> {
    match (answer, format) {
        (Answer::Analysis(analysis), Format::Json) => super::json_line(&mut *out, analysis),
        (Answer::Analysis(analysis), Format::Text) => {
            for line in text(analysis, style) {
                writeln!(out, "{line}")?;
            }
            Ok(())
        }
        (Answer::Best(best), Format::Json) => super::json_line(&mut *out, best),
        (Answer::Best(best), Format::Text) => writeln!(out, "{}", best.best),
    }
}

/// Batch mode: what each line holds, what is asked of it, and how answers are printed.
struct Batch {
    notation: Notation,
    query: Query,
    format: Format,
    style: Style,
    /// The game's table.
    oracle: Oracle,
    /// `ttt best -` on boards: the lines it reads, answered without the general path.
    fast: Option<BatchBest>,
}

/// Lines read, and those that got an error instead of an answer.
#[derive(Debug, Default)]
struct LineCount {
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

impl Batch {
    /// Batch mode on standard input and output. Exit code 2 when any line got an error, and
    /// standard error says how many and where the first was.
    fn answer_all(&self) -> Result<(), Failure> {
        let mut input = BufReader::with_capacity(INPUT_BUFFER, io::stdin());
        let mut out = BufWriter::with_capacity(INPUT_BUFFER, super::stdout());
        let mut tally = LineCount::default();
        match self.run(&mut input, &mut out, &mut tally) {
            Ok(()) => {}
            // A reader that stops early changes nothing of the answer (bad lines stay exit 2);
            // output lost otherwise is exit 5.
            Err(Stopped::Write(error)) => Failure::reader_stopped(Err(error.into()))?,
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

    /// Answers every line of `input` on `out`, in order, until the input ends.
    fn run<R: io::Read>(
        &self,
        input: &mut BufReader<R>,
        out: &mut impl Write,
        tally: &mut LineCount,
    ) -> Result<(), Stopped> {
        let mut answers = Vec::new();
        loop {
            // Answers are buffered only while the next line is already here: before anything
            // can wait for input, every answer so far goes out, since a client may be waiting
            // for one before it writes its next line.
            if !input.buffer().contains(&b'\n') {
                out.flush().map_err(Stopped::Write)?;
            }
            if let Some(fast) = &self.fast {
                answers.clear();
                let (used, lines) = fast.answer_lines(input.buffer(), &mut answers);
                if lines > 0 {
                    tally.lines += lines;
                    input.consume(used);
                    out.write_all(&answers).map_err(Stopped::Write)?;
                    continue;
                }
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
                Line::Text(text) => {
                    answer_text(self.notation, &text, true, self.query, &self.oracle)
                }
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
                super::json_line(&mut *out, &error)?;
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
    format!(
        "bad {} {}: a line has at most {LINE_LIMIT} bytes",
        notation.noun(),
        ttt_oracle::text::quote_head(head, Some(length))
    )
}
