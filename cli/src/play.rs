//! `ttt play`: a game in the terminal against any bot or style.

use std::fmt;
use std::io::{self, BufRead, IsTerminal, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};

use clap::{Args, ValueEnum};
use ttt_oracle::bots::{self, Bot, Turn};
use ttt_oracle::draw::{
    Style, board_squares, cells, grid_within, outcome_squares, pair_fits, pair_within,
};
use ttt_oracle::text::{QUOTE_LIMIT, escape, quote};
use ttt_oracle::{Cell, Game, History, Outcome, Player, PositionError, SplitMix64};
use unicode_width::UnicodeWidthStr;

use super::lines::{Line, read_bounded_line};
use super::named::Opponent;
use super::style;
use super::{Failure, any_game};
use ttt_oracle::review::result_line::{GameResult, ResultLine};

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
// `--help` only; main adds the exit codes after it, as under every help.
#[command(after_long_help = after_long_help())]
pub struct PlayArgs {
    /// The side you play.
    #[arg(long = "as", value_enum, ignore_case = true, default_value_t = SideChoice::X)]
    side: SideChoice,
    #[command(flatten)]
    opponent: Opponent,
    /// Show, every turn, what each empty cell leads to.
    #[arg(long)]
    hints: bool,
    /// Seed the opponent's random choices, to replay a game exactly.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// The game: 3x3 (tic-tac-toe), MxN (M rows, N columns, k = the shorter side) or MxNkK,
    /// up to 128 cells, numbered 1..M*N row by row. Hints need a table: at most 16 cells, or
    /// up to 25 with the table `ttt solve --game G` cached.
    #[arg(short = 'g', long, value_name = "GAME", default_value = "3x3", value_parser = super::values::GameValues, hide_possible_values = true)]
    game: Game,
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
    format!("In the game, type at the prompt:\n{COMMANDS}")
}

/// The longest input line `ttt play` reads, in bytes, not counting the newline that ends it.
/// A move or a command takes a few bytes; a longer line is refused with one line of output,
/// and skipped to its end without being kept, so that piping a huge file in cannot fill the
/// memory or the screen.
const LINE_LIMIT: usize = 256;

/// How a game ended.
enum Ending {
    /// Played to the end (or won by forfeit), with the result for the human.
    Finished(GameEnd),
    /// The human typed `quit`.
    Quit,
    /// Standard input ended.
    InputEnded,
}

/// How a finished game went for the human.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GameEnd {
    Won,
    Drew,
    Lost,
}

/// The games finished in one session on a terminal, counted for the human.
#[derive(Debug, Default)]
struct Score {
    wins: u32,
    draws: u32,
    losses: u32,
}

impl Score {
    fn add(&mut self, verdict: GameEnd) {
        match verdict {
            GameEnd::Won => self.wins += 1,
            GameEnd::Drew => self.draws += 1,
            GameEnd::Lost => self.losses += 1,
        }
    }

    fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

impl fmt::Display for Score {
    /// `1 win, 0 draws, 2 losses`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count =
            |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        write!(
            f,
            "{}, {}, {}",
            count(self.wins, "win", "wins"),
            count(self.draws, "draw", "draws"),
            count(self.losses, "loss", "losses")
        )
    }
}

/// What answers hints: the table of the game played, when it has one. Read before the first
/// move, so that no bot can stumble on a damaged table mid-game.
#[derive(Clone)]
enum Hints {
    /// The game's: embedded, solved before the game, or cached by `ttt solve` (17 to 25).
    Game(ttt_oracle::Oracle),
    /// None (too many cells, or none cached): why, in full and short for a line (no path).
    Nothing { why: String, short: String },
}

impl Hints {
    /// The table of `game`, if it has one: a damaged one stops the command.
    fn of(game: Game) -> Result<Hints, Failure> {
        if game.has_table() {
            any_game::oracle_of(game).map(Hints::Game)
        } else if game.cells() <= Game::MAX_TIER_CELLS {
            match ttt_oracle::Oracle::of(game) {
                Ok(oracle) => Ok(Hints::Game(oracle)),
                // Play goes on without hints; asking for them says how to make the table.
                Err(error @ ttt_oracle::TableError::NotSolved { .. }) => Ok(Hints::Nothing {
                    why: error.to_string(),
                    short: format!("no table solved yet; make one with `ttt solve --game {game}`"),
                }),
                Err(error) => Err(error.into()),
            }
        } else {
            let (cells, most) = (game.cells(), Game::MAX_TIER_CELLS);
            let why = format!(
                "hints come from a solved table, and {game} has {cells} cells; tables stop at {most}"
            );
            Ok(Hints::Nothing {
                short: why.clone(),
                why,
            })
        }
    }
}

struct Session<'a> {
    /// The game played.
    game: Game,
    oracle: Hints,
    bot: Box<dyn Bot + Send>,
    /// Echo what was typed, so a transcript of piped input reads like a terminal session.
    echo: bool,
    rng: SplitMix64,
    input: Box<dyn BufRead + 'a>,
    out: super::Stdout,
    style: Style,
    hints: bool,
}

/// Plays games until the human stops, keeping the score; one game, and no score, when input
/// is not a terminal.
pub fn run(args: &PlayArgs) -> Result<(), Failure> {
    let game = args.game;
    let bot = args.opponent.make()?;
    bot.plays(game)
        .map_err(|error| Failure::usage(format!("--opponent: {}", error.message)))?;
    // `perfect` and the styles read the table inside `choose`: were it damaged, they would
    // panic there and the game would be scored as a forfeit.
    let oracle = Hints::of(game)?;
    if args.hints
        && let Hints::Nothing { why, .. } = &oracle
    {
        return Err(Failure::usage(format!(
            "--hints: no hints on {game}: {why}; play without --hints"
        )));
    }
    let interactive = io::stdin().is_terminal();
    let mut session = Session {
        game,
        oracle,
        bot,
        echo: !interactive,
        rng: args
            .seed
            .map_or_else(SplitMix64::from_entropy, SplitMix64::new),
        input: Box::new(io::stdin().lock()),
        out: super::stdout(),
        style: style::for_stdout(),
        hints: args.hints,
    };
    let mut score = Score::default();
    loop {
        let human = match args.side {
            SideChoice::X => Player::X,
            SideChoice::O => Player::O,
            SideChoice::Random if session.rng.next_u64() & 1 == 0 => Player::X,
            SideChoice::Random => Player::O,
        };
        let ending = session.game(human)?;
        if !interactive {
            return Ok(());
        }
        if let Ending::Finished(verdict) = ending {
            score.add(verdict);
            writeln!(session.out, "Score: {score}.")?;
            match session.ask("Play again? [y/N] ")? {
                Some(Line::Text(answer)) if is_yes(&answer) => {
                    writeln!(session.out)?;
                    continue;
                }
                Some(_) => {}
                // End of input (Ctrl-D) leaves the cursor after the prompt: end its line.
                None => writeln!(session.out)?,
            }
        }
        if score.games() > 0 {
            writeln!(session.out, "Final score: {score}.")?;
        }
        return Ok(());
    }
}

impl Session<'_> {
    /// Shows `prompt` and reads the next line of input, or `None` at its end. When input is
    /// piped, what was read is echoed after the prompt, as [`echo`] shows it.
    fn ask(&mut self, prompt: &str) -> io::Result<Option<Line>> {
        write!(self.out, "{prompt}")?;
        self.out.flush()?;
        let input = read_bounded_line(&mut self.input, LINE_LIMIT)?;
        if self.echo
            && let Some(input) = &input
        {
            let room = WIDTH.saturating_sub(prompt.width());
            writeln!(self.out, "{}", echo(input, room))?;
        }
        Ok(input)
    }

    /// Writes a line that starts with the bot's name, cut to leave room for `rest`.
    fn about_bot(&mut self, rest: &str) -> io::Result<()> {
        // A bot's name can be any text (an external bot is named by its command).
        let room = WIDTH.saturating_sub(rest.width()).min(QUOTE_LIMIT);
        writeln!(self.out, "{}{rest}", clip(self.bot.name(), room))
    }

    /// Writes a line that starts with what was typed, quoted and cut to leave room for `rest`.
    fn about_input(&mut self, typed: &str, rest: &str) -> io::Result<()> {
        let room = WIDTH.saturating_sub(rest.width());
        writeln!(self.out, "{}{rest}", quote_within(typed, room))
    }

    /// Draws the board, beside (or under, when both would not fit) what each empty cell
    /// leads to if `hints` and the game has a table.
    fn show(&mut self, game: &History, hints: bool) -> io::Result<()> {
        let hints = hints && !game.position().is_over();
        let mut where_hints = "Right";
        let lines = match &self.oracle {
            Hints::Game(oracle) if hints => {
                let board = game.position();
                let analysis = oracle.analyze(&board);
                let left = board_squares(&board, self.style);
                let right = outcome_squares(&analysis, self.style);
                let columns = self.game.columns();
                if !pair_fits(&left, &right, columns, 5, WIDTH - 2) {
                    where_hints = "Below";
                }
                pair_within(&left, &right, columns, 5, WIDTH - 2)
            }
            Hints::Game(_) | Hints::Nothing { .. } => {
                let squares = board_squares(&game.position(), self.style);
                grid_within(&squares, self.game.columns(), WIDTH - 2)
            }
        };
        writeln!(self.out)?;
        for line in lines {
            if line.is_empty() {
                writeln!(self.out)?;
            } else {
                writeln!(self.out, "  {line}")?;
            }
        }
        if hints {
            writeln!(
                self.out,
                "{}",
                self.style.faint(&format!(
                    "  {where_hints}: W win, D draw, L loss for you, then plies to the end; * best"
                ))
            )?;
        }
        writeln!(self.out)
    }

    fn game(&mut self, human: Player) -> Result<Ending, Failure> {
        let mut game = History::empty(self.game);
        write!(self.out, "You are {human}, against ")?;
        if game.is_tic_tac_toe() {
            self.about_bot(".")?;
            writeln!(
                self.out,
                "Type a cell 1-9 (1 2 3 / 4 5 6 / 7 8 9), or hint, undo, help, quit."
            )?;
        } else {
            self.about_bot(&format!(", on {}.", rules(self.game)))?;
            writeln!(
                self.out,
                "Type a cell {} (numbered row by row), or hint, undo, help, quit.",
                self.cells()
            )?;
        }
        let mut shown = false;
        loop {
            let board = game.position();
            if let Some(winner) = board.winner() {
                self.show(&game, false)?;
                let (who, verdict) = if winner == human {
                    ("You win", GameEnd::Won)
                } else {
                    ("You lose", GameEnd::Lost)
                };
                let run = match self.game.k() {
                    3 => "three".to_string(),
                    k => k.to_string(),
                };
                writeln!(self.out, "{who}: {winner} made {run} in a row.")?;
                self.result(&game, GameResult::Board(Outcome::Win(winner)))?;
                return Ok(Ending::Finished(verdict));
            }
            if board.is_over() {
                self.show(&game, false)?;
                writeln!(self.out, "A draw.")?;
                self.result(&game, GameResult::Board(Outcome::Draw))?;
                return Ok(Ending::Finished(GameEnd::Drew));
            }
            if board.to_move() != human {
                if let Some(ending) = self.bot_move(&mut game, human)? {
                    return Ok(ending);
                }
                shown = false;
                continue;
            }
            if !shown {
                self.show(&game, self.hints)?;
                shown = true;
            }
            let line = match self.ask(&format!("{human} to move: "))? {
                Some(Line::Text(line)) => line,
                Some(Line::TooLong { length, .. }) => {
                    writeln!(
                        self.out,
                        "That line is {length} bytes; ttt play reads at most {LINE_LIMIT}. Type a cell {}, or help.",
                        self.cells()
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
                "hint" | "h" | "?" => match &self.oracle {
                    Hints::Nothing { short, .. } => {
                        writeln!(self.out, "No hints on {}: {short}.", self.game)?;
                    }
                    _ => self.show(&game, true)?,
                },
                "help" => writeln!(self.out, "Commands:\n{}", commands(self.game))?,
                "undo" | "u" => {
                    if undo_pair(&mut game, human) {
                        writeln!(self.out, "Took back your last move and the reply.")?;
                        shown = false;
                    } else {
                        writeln!(self.out, "Nothing to undo yet.")?;
                    }
                }
                "" => writeln!(
                    self.out,
                    "Type a cell {}, or hint, undo, help, quit.",
                    self.cells()
                )?,
                _ => match read_cell(self.game, typed) {
                    Ok(cell) => match game.play(cell) {
                        Ok(()) => {}
                        Err(error) => writeln!(self.out, "{error}; pick an empty cell.")?,
                    },
                    Err(Some(why)) => {
                        self.about_input(typed, &format!(" is not a cell: {why}."))?;
                    }
                    Err(None) => self.about_input(
                        typed,
                        &format!(
                            " is not a move: type a cell {}, or hint, undo, help, quit.",
                            self.cells()
                        ),
                    )?,
                },
            }
        }
    }

    /// The bot's turn. `Some` when the game ends because the bot broke the rules.
    fn bot_move(&mut self, game: &mut History, human: Player) -> Result<Option<Ending>, Failure> {
        let answer = catch_unwind(AssertUnwindSafe(|| self.bot.choose(game)));
        let why = match answer {
            Ok(Ok(choices)) => {
                let turn = bots::sample(&choices, &mut self.rng).cloned();
                match turn.unwrap_or(Turn::Nothing) {
                    Turn::Mark(cell) if game.play(cell).is_ok() => {
                        self.about_bot(&format!(" ({}) plays {cell}.", !human))?;
                        return Ok(None);
                    }
                    Turn::Mark(cell) => {
                        format!(" played {cell}, which is taken: you win by forfeit.")
                    }
                    other => format!(" {other}, which the rules forbid: you win by forfeit."),
                }
            }
            Ok(Err(error)) => return Err(Failure::protocol(error)),
            Err(_) => " crashed, so you win by forfeit.".to_string(),
        };
        self.about_bot(&why)?;
        self.result(game, GameResult::Forfeit(human))?;
        Ok(Some(Ending::Finished(GameEnd::Won)))
    }

    /// The cells as the prompts name them: `1-9`, `1-16`.
    fn cells(&self) -> String {
        format!("1-{}", self.game.cells())
    }

    /// The line that ends a finished game, which `ttt review` reads back.
    fn result(&mut self, game: &History, result: GameResult) -> io::Result<()> {
        let line = ResultLine {
            result,
            moves: game.moves(),
        };
        writeln!(self.out, "{line}")
    }
}

/// The widest line `ttt play` writes for people, in columns, whatever was typed and whatever
/// the bot is called: names and input are cut to fit.
const WIDTH: usize = 100;

/// The longest start of `text` escaped as [`escape`] does (and `"` too, when `quoted`) that
/// takes at most `room` columns, and whether that is all of it. An escape is never cut.
fn escaped_start(text: &str, room: usize, quoted: bool) -> (String, bool) {
    let mut shown = String::new();
    let mut used = 0;
    for ch in text.chars() {
        let piece = if quoted && ch == '"' {
            "\\\"".to_string()
        } else {
            escape(ch.encode_utf8(&mut [0; 4]))
        };
        used += piece.width();
        if used > room {
            return (shown, false);
        }
        shown.push_str(&piece);
    }
    (shown, true)
}

/// `text` escaped, in at most `room` columns: cut, and ended with `…`, when it is wider.
fn clip(text: &str, room: usize) -> String {
    match escaped_start(text, room, false) {
        (all, true) => all,
        _ => format!("{}…", escaped_start(text, room.saturating_sub(1), false).0),
    }
}

/// `text` as [`quote`] shows it or, when that is wider than `room` columns, as much of its
/// start as fits, with `…` before the closing quote.
fn quote_within(text: &str, room: usize) -> String {
    let quoted = quote(text);
    if quoted.width() <= room {
        return quoted;
    }
    let (start, _) = escaped_start(text, room.saturating_sub(3), true);
    format!("\"{start}…\"")
}

/// What piped input echoes after a prompt, in at most `room` columns: the line escaped (cut
/// with `…` if need be), or for a line too long, its start (at most [`QUOTE_LIMIT`] columns)
/// and its length.
fn echo(input: &Line, room: usize) -> String {
    match input {
        Line::Text(line) => clip(line.trim_end(), room),
        Line::TooLong { head, length } => {
            let end = format!("… ({length} bytes)");
            let room = room.saturating_sub(end.width()).min(QUOTE_LIMIT);
            let head = String::from_utf8_lossy(head);
            format!("{}{end}", escaped_start(&head, room, false).0)
        }
    }
}

/// A game in words: `4x4: 4 rows of 4, 4 in a row wins`.
fn rules(game: Game) -> String {
    let rows = match game.rows() {
        1 => "1 row".to_string(),
        n => format!("{n} rows"),
    };
    format!(
        "{game}: {rows} of {}, {} in a row wins",
        game.columns(),
        game.k()
    )
}

/// The commands typed at the prompt in `game`: [`COMMANDS`] on tic-tac-toe; elsewhere the
/// cells are numbered up to the game's count.
fn commands(game: Game) -> String {
    if game == Game::TIC_TAC_TOE {
        return COMMANDS.to_string();
    }
    let rest = COMMANDS.split_once('\n').map_or("", |(_, rest)| rest);
    let cells = format!("1-{}", game.cells());
    format!("  {cells:<4}  mark that cell, numbered row by row as the board shows\n{rest}")
}

/// Reads a cell of `game` as typed at the prompt: on tic-tac-toe as [`Cell`]'s `FromStr`
/// reads it; on other games a number from 1 to the cell count, in decimal with no sign or
/// leading zero (as a move list's). The error says why when what was typed is a number at
/// all, and is `None` when it is not (another word, perhaps a command mistyped).
fn read_cell(game: Game, typed: &str) -> Result<Cell, Option<String>> {
    if game == Game::TIC_TAC_TOE {
        return typed.parse::<Cell>().map_err(|error| match error {
            PositionError::CellOutOfRange | PositionError::CellSigned => Some(error.to_string()),
            _ => None,
        });
    }
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    let unsigned = typed.strip_prefix(['+', '-']).unwrap_or(typed);
    if !digits(unsigned) {
        return Err(None);
    }
    let cells = game.cells();
    // Cells run to 128 at most: three digits.
    let number = (unsigned == typed && !typed.starts_with('0') && typed.len() <= 3)
        .then(|| typed.parse::<usize>().ok())
        .flatten()
        .filter(|number| (1..=cells).contains(number));
    number
        .and_then(|number| Cell::new(number - 1))
        .ok_or_else(|| {
            Some(format!(
                "cells are numbered 1 to {cells}, in decimal with no sign or leading zero"
            ))
        })
}

/// Whether an answer to `Play again? [y/N]` is yes.
fn is_yes(answer: &str) -> bool {
    matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes")
}

/// The moves so far, in words for people: `before any move`, `after 1 move: 5`,
/// `after 3 moves: 5 1 9`.
fn so_far(game: &History) -> String {
    match game.moves().len() {
        0 => "before any move".to_string(),
        1 => format!("after 1 move: {}", cells(game.moves())),
        n => format!("after {n} moves: {}", cells(game.moves())),
    }
}

/// Takes back the human's last move and everything after it. `false` when the human has not
/// moved yet.
fn undo_pair(game: &mut History, human: Player) -> bool {
    // X moves first, so O has moved once there are two moves.
    let human_moved = game.moves().len() > usize::from(human == Player::O);
    if !human_moved {
        return false;
    }
    while game.undo().is_some() {
        if game.position().to_move() == human {
            break;
        }
    }
    true
}
