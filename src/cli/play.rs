//! `ttt play`: a game in the terminal against any bot or style.

use std::io::{self, BufRead, IsTerminal, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};

use clap::{Args, ValueEnum};
use ttt_oracle::bots::{self, Bot, Turn};
use ttt_oracle::quote::{escape, quote};
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
pub struct PlayArgs {
    /// The side you play.
    #[arg(long = "as", value_enum, default_value_t = SideChoice::X)]
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
    let table = try_table().map_err(|error| {
        Failure::negative(format!(
            "the embedded table is damaged: {error}; rebuild ttt"
        ))
    })?;
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
                    Some(answer) if matches!(answer.trim(), "y" | "Y" | "yes") => continue,
                    _ => return Ok(()),
                }
            }
            _ => return Ok(()),
        }
    }
}

impl Session<'_> {
    /// The next line of input, or `None` at its end. A line that is not UTF-8 reads as text
    /// with replacement characters, which then fails as a move like any other garbage. When
    /// input is piped, the line is echoed with its control characters escaped.
    fn read_line(&mut self) -> io::Result<Option<String>> {
        let mut bytes = Vec::new();
        if self.input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&bytes).into_owned();
        if self.echo {
            writeln!(self.out, "{}", escape(line.trim_end()))?;
        }
        Ok(Some(line))
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
            "You are {human}, against {}. Type a cell 1-9 (1 2 3 / 4 5 6 / 7 8 9), or hint, undo, quit.",
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
            let Some(line) = self.read_line()? else {
                writeln!(self.out)?;
                writeln!(
                    self.out,
                    "Input ended; game abandoned after moves: {}.",
                    moves(&game)
                )?;
                return Ok(Ending::InputEnded);
            };
            let typed = line.trim();
            match typed.to_ascii_lowercase().as_str() {
                "quit" | "q" | "exit" => {
                    writeln!(self.out, "You quit after moves: {}.", moves(&game))?;
                    return Ok(Ending::Quit);
                }
                "hint" | "h" | "?" => self.show(board, true)?,
                "undo" | "u" => {
                    if undo_pair(&mut game, human) {
                        writeln!(self.out, "Took back your last move and the reply.")?;
                        shown = false;
                    } else {
                        writeln!(self.out, "Nothing to undo yet.")?;
                    }
                }
                "" => writeln!(self.out, "Type a cell 1-9, or hint, undo, quit.")?,
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
                        "{} is not a move: type a cell 1-9, or hint, undo, quit.",
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

/// The moves so far, separated by spaces (`none` before the first).
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
