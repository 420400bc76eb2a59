//! Bots written in any language, spoken to over a line protocol on standard input and output.
//!
//! The protocol, as the README documents it:
//!
//! - The bot is started once, as `sh -c "COMMAND"`. Each request is one line on its standard
//!   input; it answers each with one line on its standard output.
//! - A request is `<board> <mark> <moves>`: the board as 9 characters of `X`, `O`, `.`
//!   row-major; the bot's mark, which is the side to move; then every move so far as cells
//!   1..9 separated by single spaces (nothing after the mark at the start of a game). For
//!   example `X...O.... X 1 5`.
//! - A reply is one cell 1..9, or several separated by spaces, meaning "any of these", which
//!   the audit explores as equally likely. Surrounding spaces are ignored.
//! - Requests come in any order and each distinct request is sent at most once.
//! - At the end the bot's standard input is closed; after a short grace period it is killed,
//!   with everything it started.
//!
//! A reply that is not cells 1..9, no reply within the timeout, and a bot that exits or cannot
//! be started all break the protocol: [`Bot::choose`] returns a [`BotError`] naming the request,
//! what came back and what was expected. The bot's standard error is the caller's own, so it
//! reaches the user and can never fill a pipe.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::{Bot, BotError, Choice, Turn};
use crate::board::{Cell, Cells};
use crate::game::Game;
use crate::ratio::Ratio;

/// How long a reply may take unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(2000);

/// How long a bot may take to exit once its standard input is closed.
const GRACE: Duration = Duration::from_millis(200);

/// The longest reply line read; a longer one is garbage anyway.
const MAX_LINE: u64 = 4096;

/// The request line for `game`: board, mark, moves.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Game, bots::external::request};
///
/// let game = Game::from_moves(&ttt_oracle::parse_moves("1 5")?)?;
/// assert_eq!(request(&game), "X...O.... X 1 5");
/// assert_eq!(request(&Game::new()), "......... X");
/// # Ok::<(), ttt_oracle::MoveListError>(())
/// ```
pub fn request(game: &Game) -> String {
    let mut line = format!("{} {}", game.board(), game.board().to_move());
    for cell in game.moves() {
        line.push(' ');
        line.push_str(&cell.to_string());
    }
    line
}

/// Reads a reply: one or more cells 1..9 separated by spaces; repeated cells count once.
///
/// # Errors
///
/// What was expected, when the reply is anything else.
pub fn parse_reply(reply: &str) -> Result<Vec<Cell>, String> {
    let expected = "one or more cells 1..9 separated by spaces";
    let tokens: Vec<&str> = reply.split_whitespace().collect();
    if tokens.is_empty() {
        return Err(format!("an empty line; expected {expected}"));
    }
    let mut seen = Cells::EMPTY;
    let mut cells = Vec::new();
    for token in tokens {
        let cell = token
            .parse::<u32>()
            .ok()
            .and_then(Cell::from_number)
            .ok_or_else(|| format!("{token:?} is not a cell; expected {expected}"))?;
        if !seen.contains(cell) {
            seen.insert(cell);
            cells.push(cell);
        }
    }
    Ok(cells)
}

/// A running bot process.
struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<io::Result<String>>,
}

impl Process {
    fn start(command: &str) -> io::Result<Process> {
        let mut shell = Command::new("sh");
        shell
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own process group, so that stopping it stops whatever it started too.
            shell.process_group(0);
        }
        let mut child = shell.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut bytes = Vec::new();
                let read = (&mut reader).take(MAX_LINE).read_until(b'\n', &mut bytes);
                let message = match read {
                    Ok(0) => break,
                    Ok(_) => Ok(String::from_utf8_lossy(&bytes)
                        .trim_end_matches(['\n', '\r'])
                        .to_string()),
                    Err(error) => Err(error),
                };
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines,
        })
    }

    /// How the process ended, if it has.
    fn exit_status(&mut self) -> Option<String> {
        // Give a process that is exiting a moment to finish, so the status can be named.
        let deadline = Instant::now() + Duration::from_millis(100);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(describe(status)),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Closes its input, waits a grace period, then kills its process group and reaps it.
    fn stop(&mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        #[cfg(unix)]
        {
            // The group may outlive its leader (a bot that started others); end it all.
            if let Ok(pid) = i32::try_from(self.child.id()) {
                // SAFETY: kill(2) with a negative pid signals that process group and has no
                // other effect; the group is the one this bot was started in.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn describe(status: std::process::ExitStatus) -> String {
    match status.code() {
        Some(127) => "exit code 127: the command was not found".to_string(),
        Some(126) => "exit code 126: the command could not be run".to_string(),
        Some(code) => format!("exit code {code}"),
        None => {
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt;
                if let Some(signal) = status.signal() {
                    return format!("killed by signal {signal}");
                }
            }
            "no exit code".to_string()
        }
    }
}

/// A bot run as an external program, speaking the line protocol.
pub struct External {
    name: String,
    command: String,
    timeout: Duration,
    process: Option<Process>,
    answers: HashMap<String, Vec<Cell>>,
}

impl External {
    /// A bot that will be started as `sh -c command` at its first request.
    pub fn new(name: impl Into<String>, command: impl Into<String>, timeout: Duration) -> External {
        External {
            name: name.into(),
            command: command.into(),
            timeout,
            process: None,
            answers: HashMap::new(),
        }
    }

    fn fail(&self, message: String) -> BotError {
        BotError {
            message: format!(
                "external bot `{}` broke the protocol: {message}",
                self.command
            ),
        }
    }

    fn ask(&mut self, request: &str) -> Result<Vec<Cell>, BotError> {
        if self.process.is_none() {
            let process = Process::start(&self.command)
                .map_err(|error| self.fail(format!("it could not be started ({error})")))?;
            self.process = Some(process);
        }
        let timeout = self.timeout;
        let process = self.process.as_mut().expect("started above");
        let sent = process
            .stdin
            .as_mut()
            .map(|stdin| writeln!(stdin, "{request}").and_then(|()| stdin.flush()));
        let exited = |process: &mut Process| {
            process.exit_status().map_or_else(
                || "it closed its output".to_string(),
                |s| format!("it exited ({s})"),
            )
        };
        if !matches!(sent, Some(Ok(()))) {
            let how = exited(process);
            return Err(self.fail(format!("to request {request:?}: {how} before reading it")));
        }
        let reply = match process.lines.recv_timeout(timeout) {
            Ok(Ok(line)) => line,
            Ok(Err(error)) => {
                return Err(self.fail(format!(
                    "to request {request:?}: reading its reply failed ({error})"
                )));
            }
            Err(RecvTimeoutError::Timeout) => {
                return Err(self.fail(format!(
                    "to request {request:?}: no reply within {} ms (does it flush its output after each line?)",
                    timeout.as_millis()
                )));
            }
            Err(RecvTimeoutError::Disconnected) => {
                let how = exited(process);
                return Err(self.fail(format!("to request {request:?}: {how} without replying")));
            }
        };
        parse_reply(&reply).map_err(|expected| {
            self.fail(format!(
                "to request {request:?} it replied {reply:?}: {expected}"
            ))
        })
    }
}

impl Bot for External {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, game: &Game) -> Result<Vec<Choice>, BotError> {
        let request = request(game);
        let cells = match self.answers.get(&request) {
            Some(cells) => cells.clone(),
            None => {
                let cells = self.ask(&request)?;
                self.answers.insert(request, cells.clone());
                cells
            }
        };
        let p = Ratio::new(1, cells.len() as u128);
        Ok(cells
            .into_iter()
            .map(|cell| Choice {
                turn: Turn::Mark(cell),
                probability: p,
            })
            .collect())
    }
}

impl Drop for External {
    fn drop(&mut self) {
        if let Some(process) = self.process.as_mut() {
            process.stop();
        }
    }
}
