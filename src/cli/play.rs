//! `ttt play`: a game in the terminal against any bot or style.

use std::io::{self, BufRead, IsTerminal, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};

use clap::{Args, ValueEnum};
use ttt_oracle::bots::{self, Bot, Turn};
use ttt_oracle::quote::{QUOTE_LIMIT, escape, quote};
use ttt_oracle::{
    Analysis, Board, Cell, Game, ParseCellError, Player, SplitMix64, Table, try_table,
};

use super::Failure;
use super::analyze::outcome_squares;
use super::draw::{board_squares, grid, side_by_side};
use super::style::Style;

/// The side the human takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SideChoice {
    /// X, moving first.
    X,
    /// O, moving second.
    O,
    /// Either, by a coin toss (reproducible with --seed).
    Random,
}

/// Arguments of `ttt play`.
#[derive(Debug, Args)]
// `--help` only: main sets `after_help` (the exit codes) on every subcommand, and clap shows
// `after_long_help` instead of it under `--help`, so the exit codes are repeated here.
#[command(after_long_help = after_long_help())]
pub struct PlayArgs {
    /// The side you play.
    #[arg(long = "as", value_enum, ignore_case = true, default_value_t = SideChoice::X)]
    side: SideChoice,
    /// The opponent: perfect, tricky, casual:P, epsilon:P, random, or any built-in bot
    /// (`ttt bots` lists them).
    #[arg(long, default_value = "perfect", value_name = "STYLE")]
    opponent: String,
    /// Show, every turn, what each empty cell leads to.
    #[arg(long)]
    hints: bool,
    /// Seed the opponent's random choices, to replay a game exactly.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
}

/// The commands typed at the prompt, one a line, for `help` in the game and for `--help`.
const COMMANDS: &str = concat!(
    "  1-9   mark that cell: 1 2 3 / 4 5 6 / 7 8 9\n",
    "  hint  show what each empty cell leads to, for this turn (or h, ?)\n",
    "  undo  take back your last move and the reply (or u)\n",
    "  help  list these commands\n",
    "  quit  end the game (or q, exit); so does the end of input (Ctrl-D)",
);

/// What `ttt play --help` shows after the options.
fn after_long_help() -> String {
    format!(
        "In the game, type at the prompt:\n{COMMANDS}\n\n{}",
        super::EXIT_CODES
    )
}

/// The longest input line `ttt play` reads, in bytes, not counting the newline that ends it.
/// A move or a command takes a few bytes; a longer line is refused with one line of output,
/// and skipped to its end without being kept, so that piping a huge file in cannot fill the
/// memory or the screen.
const LINE_LIMIT: usize = 256;

/// One line of input.
enum Input {
    /// A line of at most [`LINE_LIMIT`] bytes, without its newline; bytes that are not UTF-8
    /// read as replacement characters, and then fail as a move like any other garbage.
    Line(String),
    /// A longer line, read to its end and dropped.
    TooLong {
        /// Its first bytes, at most `LINE_LIMIT + 1`, as text.
        head: String,
        /// Its length in bytes, newline not counted.
        length: u64,
    },
}

/// How a game ended.
enum Ending {
    /// Played to the end (or won by forfeit).
    Finished,
    /// The human typed `quit`.
    Quit,
    /// Standard input ended.
    InputEnded,
}

struct Session<'a> {
    /// Checked before the first move, so that no bot can stumble on a damaged table mid-game.
    table: &'static Table,
    bot: Box<dyn Bot + Send>,
    /// Echo what was typed, so a transcript of piped input reads like a terminal session.
    echo: bool,
    rng: SplitMix64,
    input: Box<dyn BufRead + 'a>,
    out: io::StdoutLock<'a>,
    style: Style,
    hints: bool,
}

/// Plays games until the human stops (one game when input is not a terminal).
pub fn run(args: &PlayArgs) -> Result<(), Failure> {
    let bot = bots::from_spec(&args.opponent).map_err(|error| Failure::usage(error.message))?;
    // `perfect` and the styles read the table inside `choose`: were it damaged, they would
    // panic there and the game would be scored as a forfeit.
    let table = try_table().map_err(|error| Failure::damaged(&error))?;
    let interactive = io::stdin().is_terminal();
    let mut session = Session {
        table,
        bot,
        echo: !interactive,
        rng: args
            .seed
            .map_or_else(SplitMix64::from_entropy, SplitMix64::new),
        input: Box::new(io::stdin().lock()),
        out: io::stdout().lock(),
        style: Style::for_stdout(),
        hints: args.hints,
    };
    loop {
        let human = match args.side {
            SideChoice::X => Player::X,
            SideChoice::O => Player::O,
            SideChoice::Random if session.rng.next_u64() & 1 == 0 => Player::X,
            SideChoice::Random => Player::O,
        };
        match session.game(human)? {
            Ending::Finished if interactive => {
                write!(session.out, "Play again? [y/N] ")?;
                session.out.flush()?;
                match session.read_line()? {
                    Some(Input::Line(answer)) if matches!(answer.trim(), "y" | "Y" | "yes") => {
                        continue;
                    }
                    _ => return Ok(()),
                }
            }
            _ => return Ok(()),
        }
    }
}

impl Session<'_> {
    /// The next line of input, or `None` at its end. When input is piped, what was read is
    /// echoed with its control characters escaped, and only the start of a line too long.
    fn read_line(&mut self) -> io::Result<Option<Input>> {
        let input = read_bounded_line(&mut self.input, LINE_LIMIT)?;
        if self.echo {
            match &input {
                Some(Input::Line(line)) => writeln!(self.out, "{}", escape(line.trim_end()))?,
                Some(Input::TooLong { head, length }) => {
                    let start: String = head.chars().take(QUOTE_LIMIT).collect();
                    writeln!(self.out, "{}… ({length} bytes)", escape(&start))?;
                }
                None => {}
            }
        }
        Ok(input)
    }

    fn show(&mut self, board: Board, hints: bool) -> io::Result<()> {
        let left = grid(&board_squares(board, self.style));
        let lines = if hints && !board.is_over() {
            let analysis = Analysis::new(self.table, board);
            let right = grid(&outcome_squares(&analysis, self.style));
            side_by_side(&left, &right, 5)
        } else {
            left
        };
        writeln!(self.out)?;
        for line in lines {
            writeln!(self.out, "  {line}")?;
        }
        if hints && !board.is_over() {
            writeln!(
                self.out,
                "{}",
                self.style
                    .faint("  right: W win, D draw, L loss for you, then plies to the end; * best")
            )?;
        }
        writeln!(self.out)
    }

    fn game(&mut self, human: Player) -> Result<Ending, Failure> {
        let mut game = Game::new();
        writeln!(
            self.out,
            "You are {human}, against {}. Type a cell 1-9 (1 2 3 / 4 5 6 / 7 8 9), or hint, undo, help, quit.",
            escape(self.bot.name())
        )?;
        let mut shown = false;
        loop {
            let board = game.board();
            if let Some(winner) = board.winner() {
                self.show(board, false)?;
                let who = if winner == human {
                    "You win"
                } else {
                    "You lose"
                };
                writeln!(self.out, "{who}: {winner} made three in a row.")?;
                self.result(&game, board.status().name())?;
                return Ok(Ending::Finished);
            }
            if board.is_over() {
                self.show(board, false)?;
                writeln!(self.out, "A draw.")?;
                self.result(&game, "draw")?;
                return Ok(Ending::Finished);
            }
            if board.to_move() != human {
                if let Some(ending) = self.bot_move(&mut game, human)? {
                    return Ok(ending);
                }
                shown = false;
                continue;
            }
            if !shown {
                self.show(board, self.hints)?;
                shown = true;
            }
            write!(self.out, "{human} to move: ")?;
            self.out.flush()?;
            let line = match self.read_line()? {
                Some(Input::Line(line)) => line,
                Some(Input::TooLong { length, .. }) => {
                    writeln!(
                        self.out,
                        "That line is {length} bytes; ttt play reads at most {LINE_LIMIT}. Type a cell 1-9, or help."
                    )?;
                    continue;
                }
                None => {
                    writeln!(self.out)?;
                    writeln!(self.out, "Input ended; game abandoned {}.", so_far(&game))?;
                    return Ok(Ending::InputEnded);
                }
            };
            let typed = line.trim();
            match typed.to_ascii_lowercase().as_str() {
                "quit" | "q" | "exit" => {
                    writeln!(self.out, "You quit {}.", so_far(&game))?;
                    return Ok(Ending::Quit);
                }
                "hint" | "h" | "?" => self.show(board, true)?,
                "help" => writeln!(self.out, "Commands:\n{COMMANDS}")?,
                "undo" | "u" => {
                    if undo_pair(&mut game, human) {
                        writeln!(self.out, "Took back your last move and the reply.")?;
                        shown = false;
                    } else {
                        writeln!(self.out, "Nothing to undo yet.")?;
                    }
                }
                "" => writeln!(self.out, "Type a cell 1-9, or hint, undo, help, quit.")?,
                _ => match typed.parse::<Cell>() {
                    Ok(cell) => match game.play(cell) {
                        Ok(()) => {}
                        Err(error) => writeln!(self.out, "{error}; pick an empty cell.")?,
                    },
                    Err(error @ (ParseCellError::OutOfRange | ParseCellError::Signed)) => {
                        writeln!(self.out, "{} is not a cell: {error}.", quote(typed))?;
                    }
                    Err(_) => writeln!(
                        self.out,
                        "{} is not a move: type a cell 1-9, or hint, undo, help, quit.",
                        quote(typed)
                    )?,
                },
            }
        }
    }

    /// The bot's turn. `Some` when the game ends because the bot broke the rules.
    fn bot_move(&mut self, game: &mut Game, human: Player) -> Result<Option<Ending>, Failure> {
        // A bot's name can be any text (an external bot is named by its command).
        let name = escape(self.bot.name());
        let answer = catch_unwind(AssertUnwindSafe(|| self.bot.choose(game)));
        let choices = match answer {
            Ok(Ok(choices)) => choices,
            Ok(Err(error)) => {
                return Err(Failure::protocol(error));
            }
            Err(_) => {
                writeln!(self.out, "{name} crashed, so you win by forfeit.")?;
                self.forfeit(game, human)?;
                return Ok(Some(Ending::Finished));
            }
        };
        let turn = bots::sample(&choices, &mut self.rng)
            .cloned()
            .unwrap_or(Turn::Nothing);
        match turn {
            Turn::Mark(cell) if game.play(cell).is_ok() => {
                writeln!(self.out, "{name} ({}) plays {cell}.", !human)?;
                Ok(None)
            }
            Turn::Mark(cell) => {
                writeln!(
                    self.out,
                    "{name} played {cell}, which is taken: you win by forfeit."
                )?;
                self.forfeit(game, human)?;
                Ok(Some(Ending::Finished))
            }
            other => {
                writeln!(
                    self.out,
                    "{name} {other}, which the rules forbid: you win by forfeit."
                )?;
                self.forfeit(game, human)?;
                Ok(Some(Ending::Finished))
            }
        }
    }

    fn forfeit(&mut self, game: &Game, human: Player) -> io::Result<()> {
        let status = match human {
            Player::X => "x_wins",
            Player::O => "o_wins",
        };
        self.result(game, status)
    }

    fn result(&mut self, game: &Game, status: &str) -> io::Result<()> {
        writeln!(self.out, "result: {status} moves: {}", moves(game))
    }
}

/// Reads one line of at most `limit` bytes, not counting its newline, keeping at most
/// `limit + 1` bytes of it however long it is: a longer line is consumed to its end, chunk by
/// chunk, and reported as [`Input::TooLong`]. `None` at the end of input.
fn read_bounded_line(input: &mut dyn BufRead, limit: usize) -> io::Result<Option<Input>> {
    let mut kept = Vec::new();
    let mut length: u64 = 0;
    let mut ended_by_newline = false;
    while !ended_by_newline {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            break;
        }
        let (content, used) = match available.iter().position(|&byte| byte == b'\n') {
            Some(newline) => {
                ended_by_newline = true;
                (&available[..newline], newline + 1)
            }
            None => (available, available.len()),
        };
        let room = (limit + 1).saturating_sub(kept.len());
        kept.extend_from_slice(&content[..content.len().min(room)]);
        length += content.len() as u64;
        input.consume(used);
    }
    if length == 0 && !ended_by_newline {
        return Ok(None);
    }
    let text = String::from_utf8_lossy(&kept).into_owned();
    Ok(Some(if length > limit as u64 {
        Input::TooLong { head: text, length }
    } else {
        Input::Line(text)
    }))
}

/// The moves so far, in words for people: `before any move`, `after 1 move: 5`,
/// `after 3 moves: 5 1 9`.
fn so_far(game: &Game) -> String {
    match game.moves().len() {
        0 => "before any move".to_string(),
        1 => format!("after 1 move: {}", moves(game)),
        n => format!("after {n} moves: {}", moves(game)),
    }
}

/// The moves so far, separated by spaces (`none` before the first), as the `result:` line
/// gives them.
fn moves(game: &Game) -> String {
    if game.moves().is_empty() {
        return "none".to_string();
    }
    game.moves()
        .iter()
        .map(Cell::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Takes back the human's last move and everything after it. `false` when the human has not
/// moved yet.
fn undo_pair(game: &mut Game, human: Player) -> bool {
    // X moves first, so O has moved once there are two moves.
    let human_moved = game.moves().len() > usize::from(human == Player::O);
    if !human_moved {
        return false;
    }
    while game.undo().is_some() {
        if game.board().to_move() == human {
            break;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use std::io::{BufReader, Cursor};

    use super::*;

    /// Every line of `text`, read through a buffer of 3 bytes so that lines span many chunks.
    fn lines(text: &[u8], limit: usize) -> Vec<Result<String, (String, u64)>> {
        let mut input = BufReader::with_capacity(3, Cursor::new(text.to_vec()));
        let mut lines = Vec::new();
        while let Some(input) = read_bounded_line(&mut input, limit).unwrap() {
            lines.push(match input {
                Input::Line(line) => Ok(line),
                Input::TooLong { head, length } => Err((head, length)),
            });
        }
        lines
    }

    #[test]
    fn the_moves_so_far_read_as_words() {
        let mut game = Game::new();
        assert_eq!(so_far(&game), "before any move");
        assert_eq!(moves(&game), "none");
        for (n, said) in [
            (5, "after 1 move: 5"),
            (1, "after 2 moves: 5 1"),
            (9, "after 3 moves: 5 1 9"),
        ] {
            game.play(Cell::from_number(n).unwrap()).unwrap();
            assert_eq!(so_far(&game), said);
        }
        assert_eq!(moves(&game), "5 1 9");
    }

    #[test]
    fn lines_up_to_the_limit_are_read_and_longer_ones_skipped_whole() {
        assert_eq!(
            lines(b"5\n\n12345\n123456\n9", 5),
            [
                Ok("5".to_string()),
                Ok(String::new()),
                Ok("12345".to_string()),
                Err(("123456".to_string(), 6)),
                Ok("9".to_string()),
            ]
        );
        let mut long = vec![b'x'; 100_000];
        long.extend_from_slice(b"\r\nquit\n");
        assert_eq!(
            lines(&long, 5),
            [Err(("xxxxxx".to_string(), 100_001)), Ok("quit".to_string())]
        );
        assert!(lines(b"", 5).is_empty());
    }
}
