//! Bots written in any language, spoken to over a line protocol on standard input and output.
//!
//! The protocol, as `docs/protocol.md` documents it:
//!
//! - The bot is started as `sh -c "COMMAND"`, afresh for each audited side, in a process
//!   group of its own. Each request is one line on its standard input; it answers each with
//!   exactly one line on its standard output.
//! - The game comes in the environment, set before the bot starts: `TTT_GAME` (its name,
//!   `3x3`, `4x4`, `4x4k3`...), `TTT_ROWS`, `TTT_COLUMNS` and `TTT_K`. A tic-tac-toe bot may
//!   ignore them: on 3x3 nothing else differs from before the variables existed.
//! - A request is `<board> <mark> <moves>`: the board as rows * columns characters of `X`,
//!   `O`, `.` row-major (9 on 3x3, no separators); the bot's mark, which is the side to move;
//!   then every move so far as cells 1..rows * columns separated by single spaces (nothing
//!   after the mark at the start of a game). For example `X...O.... X 1 5`.
//! - A reply is one cell (`1`..`9` on 3x3), or several separated by spaces, meaning "any of these",
//!   which the audit explores as equally likely; at most [`MAX_REPLY`] bytes before its
//!   newline. Surrounding spaces are ignored.
//! - Requests come in any order and each distinct request is sent at most once.
//! - The first reply may take the start-up allowance on top of the reply timeout; every other
//!   request must be read and answered within the timeout.
//! - A line that arrives when no request is waiting (before the first, a second line after a
//!   reply, anything after the last) is an error, never the answer to a later request.
//! - At the end the bot's standard input is closed; after a short grace period it is killed,
//!   with everything it started (see the `child` module for how, and on which systems).
//!
//! After an audit, a fresh process is asked again one request at a time along a sample of the
//! games audited ([`Bot::one_at_a_time`]): a program that sees its requests queued can tell an
//! audit from a game.
//!
//! Anything else breaks the protocol: [`Bot::choose`] (or [`Bot::finish`]) returns a
//! [`BotError`] naming the request, what came back and what was expected, and the bot is
//! stopped at once. The bot's standard error is the caller's own, so it reaches the user and
//! can never fill a pipe.

mod messages;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use self::messages::{describe, first_line, quote_head, read_reply, stray};
use super::protocol::board_text;
use super::{Bot, BotError, Choice, Turn};
use crate::Game;
use crate::board::Cell;
use crate::child::{Clock, Deadline, Leftover, Line, Pending, Process, SendError};
use crate::history::History;
use crate::ratio::Ratio;
use crate::text::{quote, quote_bytes};

pub use super::protocol::{MAX_REPLY, environment, parse_reply, parse_reply_in, request};

/// How long a reply may take unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(2000);

/// How long a bot may take to start, on top of [`DEFAULT_TIMEOUT`], before its first reply.
pub const DEFAULT_STARTUP: Duration = Duration::from_millis(5000);

/// How long a bot may take to exit once its standard input is closed; what it prints meanwhile
/// is checked, then it is killed.
pub const GRACE: Duration = Duration::from_millis(200);

/// How long a bot that closed its pipe is given to finish exiting before it is said to be
/// still running: a loaded machine can take a while to tear a process down.
const EXIT_PATIENCE: Duration = Duration::from_millis(500);

/// How many requests are written to a bot ahead of the reply awaited, unless told otherwise:
/// the bot never waits for its next question, and what is written stays far below a pipe's
/// capacity.
pub const DEFAULT_IN_FLIGHT: usize = 256;

/// A bot run as an external program, speaking the line protocol.
pub struct External {
    name: String,
    command: String,
    timeout: Duration,
    startup: Duration,
    process: Option<Process>,
    /// The last request the running process answered, to name where a stray line came from.
    last_request: Option<String>,
    /// Whether the bot answers from the board alone.
    stateless: bool,
    /// How many requests may be written ahead of the reply awaited.
    in_flight: usize,
    /// The game the running process was told; a question about another starts it afresh.
    game: Game,
    /// Every answer, by request, or by board for a stateless bot.
    answers: HashMap<String, Vec<Cell>>,
    /// Set by someone else when the answers are no longer wanted.
    cancel: Option<Arc<AtomicBool>>,
    /// Set by this bot when it breaks the protocol, for whoever waits on it.
    broke: Option<Arc<AtomicBool>>,
    /// Whether this is the instance that asks again one request at a time, after an audit
    /// ([`Bot::one_at_a_time`]): its errors say so.
    again: bool,
}

impl External {
    /// A bot that will be started as `sh -c command` at its first request, with `timeout` for
    /// each reply and [`DEFAULT_STARTUP`] more for the first.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use std::time::Duration;
    /// use ttt_oracle::audit::Verdict;
    /// use ttt_oracle::{AuditOptions, Game, Player, audit, bots::External};
    ///
    /// let mut bot = External::new("minimax.py", "python3 data/bots/minimax.py", Duration::from_secs(2))
    ///     .with_startup(Duration::from_secs(10));
    /// let report = audit(&mut bot, &AuditOptions::new(Game::TIC_TAC_TOE, Player::O))?;
    /// assert_eq!(report.verdict(), Some(Verdict::NeverLoses));
    /// # Ok::<(), ttt_oracle::AuditError>(())
    /// ```
    pub fn new(name: impl Into<String>, command: impl Into<String>, timeout: Duration) -> External {
        External {
            name: name.into(),
            command: command.into(),
            timeout,
            startup: DEFAULT_STARTUP,
            process: None,
            last_request: None,
            stateless: false,
            in_flight: DEFAULT_IN_FLIGHT,
            game: Game::TIC_TAC_TOE,
            answers: HashMap::new(),
            cancel: None,
            broke: None,
            again: false,
        }
    }

    /// The same bot, allowed `startup` on top of the reply timeout before its first reply.
    pub fn with_startup(mut self, startup: Duration) -> External {
        self.startup = startup;
        self
    }

    /// The same bot, declared to answer from the board alone, whatever the moves that led
    /// there: each distinct board is asked once (with the moves of the first history to reach
    /// it, which such a bot ignores), and the auditor walks positions rather than histories.
    ///
    /// The audit checks the claim only along the games it asks again one request at a time
    /// ([`Bot::one_at_a_time`], which asks with each game's own moves): elsewhere, a bot that
    /// answers one board in two ways depending on the moves is asked only once, so the audit
    /// describes the bot that always gives its first answer.
    pub fn stateless(mut self) -> External {
        self.stateless = true;
        self
    }

    /// The same bot, with up to `requests` requests written to it ahead of the reply awaited
    /// (at least 1, which asks each request only once the last one is answered). The default
    /// is [`DEFAULT_IN_FLIGHT`].
    pub fn with_in_flight(mut self, requests: usize) -> External {
        self.in_flight = requests.max(1);
        self
    }

    /// The same bot, which stops asking (with a [`BotError`]) once `cancel` is set: another
    /// thread's way to end its audit early, such as when the side audited beside it broke the
    /// protocol and this one's report would not be shown. The bot is stopped before the error
    /// returns.
    pub fn with_cancel(mut self, cancel: Arc<AtomicBool>) -> External {
        self.cancel = Some(cancel);
        self
    }

    /// The same bot, which sets `broke` when it breaks the protocol: with [`External::with_cancel`]
    /// on another bot, the way one side's protocol error stops the side audited beside it.
    pub fn with_broke(mut self, broke: Arc<AtomicBool>) -> External {
        self.broke = Some(broke);
        self
    }

    /// What the answer to `game` is remembered by: the request, or for a stateless bot the
    /// board alone.
    fn key(&self, game: &History) -> String {
        if self.stateless {
            board_text(game)
        } else {
            request(game)
        }
    }

    /// Readies the bot to be asked about `game`: a process told another game is stopped
    /// (its answers checked, as at the end of a side), to start afresh with this one.
    fn switch_to(&mut self, game: Game) -> Result<(), BotError> {
        if game != self.game {
            self.finish()?;
            self.answers.clear();
            self.game = game;
        }
        Ok(())
    }

    /// The error for `message`; every protocol error of the bot is made here.
    fn fail(&self, message: String) -> BotError {
        if let Some(broke) = &self.broke {
            broke.store(true, Ordering::SeqCst);
        }
        let when = if self.again {
            " when asked again one request at a time, after its audit"
        } else {
            ""
        };
        BotError {
            message: format!(
                "external bot {} broke the protocol{when}: {message}",
                quote(&self.command)
            ),
        }
    }

    /// Stops the process at once, and builds the error for `message`. When a signal is ending
    /// the program, the failure is the signal's doing: wait for the end instead of reporting.
    fn abandon(&mut self, message: String) -> BotError {
        if let Some(mut process) = self.process.take() {
            process.stop();
        }
        self.last_request = None;
        while crate::shutdown::stopping() {
            std::thread::park();
        }
        self.fail(message)
    }

    /// How the bot went away `when`: exited (and how), or only closed its output.
    fn gone(process: &mut Process, when: &str) -> String {
        match process.exit_status(EXIT_PATIENCE) {
            Some(status) => format!("it exited ({}) {when}", describe(status)),
            None => format!("it closed its standard output {when}, but is still running"),
        }
    }

    /// The options that set the time a request had, with their values: `--timeout-ms`, and
    /// `--startup-ms` too for a fresh process's first request.
    fn limits(&self, deadline: Deadline) -> String {
        let timeout = format!("--timeout-ms {}", self.timeout.as_millis());
        match deadline {
            Deadline::At(_) => timeout,
            Deadline::AfterRead { .. } => {
                format!("--startup-ms {} plus {timeout}", self.startup.as_millis())
            }
        }
    }

    /// Where a line nobody asked for came: after which request.
    fn after_last(&self) -> String {
        match &self.last_request {
            Some(request) => format!("after its reply to request {}", quote(request)),
            None => "before the first request".to_string(),
        }
    }

    /// Asks every request of `requests` in turn, keeping up to [`External::with_in_flight`]
    /// of them written ahead of the reply awaited, so that the bot never waits for its next
    /// question; the answers, in the same order. Each reply is the answer to the oldest
    /// request still unanswered.
    fn ask_all(&mut self, requests: &[String]) -> Result<Vec<Vec<Cell>>, BotError> {
        let mut answers = Vec::with_capacity(requests.len());
        let mut batch = Batch::new(requests);
        for (i, request) in requests.iter().enumerate() {
            if self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::SeqCst))
            {
                return Err(self.abandon("its audit was cancelled".to_string()));
            }
            // Taken before the deadline is set: a stop (Ctrl-Z) from here on moves it.
            let resumes = crate::child::resumes();
            let now = Instant::now();
            // A fresh process has the start-up allowance and the timeout for its first reply,
            // and at least the timeout from the moment it reads the request.
            let deadline = if self.process.is_none() {
                let label: String = crate::text::escape(&self.name).chars().take(30).collect();
                let env = environment(self.game);
                let process = match Process::start(&self.command, &label, MAX_REPLY, &env) {
                    Ok(process) => process,
                    // Refused when a signal is ending the program: `abandon` waits for the end.
                    Err(error) => {
                        return Err(self.abandon(format!("it could not be started ({error})")));
                    }
                };
                self.process = Some(process);
                Deadline::AfterRead {
                    read_by: now + self.startup + self.timeout,
                    then: self.timeout,
                }
            } else {
                Deadline::At(now + self.timeout)
            };
            match self.exchange(&mut batch, i, deadline, resumes) {
                Ok(cells) => {
                    self.last_request = Some(request.clone());
                    answers.push(cells);
                }
                Err(message) => return Err(self.abandon(message)),
            }
        }
        Ok(answers)
    }

    /// Request `i` of `batch` and its reply, with the requests after it written ahead as the
    /// window allows; the error's message on failure.
    fn exchange(
        &mut self,
        batch: &mut Batch,
        i: usize,
        deadline: Deadline,
        resumes: usize,
    ) -> Result<Vec<Cell>, String> {
        let (write_by, allowance) = match deadline {
            Deadline::At(at) => (at, self.timeout),
            Deadline::AfterRead { read_by, .. } => (read_by, self.startup + self.timeout),
        };
        let after_last = self.after_last();
        let in_flight = self.in_flight;
        let process = self.process.as_mut().expect("started by ask_all");
        let request = &batch.requests[i];
        let to = format!("to request {}", quote(request));
        if i == 0 {
            batch.base = process.written();
        }
        // Nothing is asked yet: whatever the bot printed, it printed unasked.
        if batch.sent == batch.start(i) {
            match process
                .pending()
                .map_err(|e| format!("{to}: reading failed ({e})"))?
            {
                Pending::Nothing => {}
                Pending::Bytes(bytes) => return Err(stray(&after_last, &bytes)),
                Pending::Ended => return Err(External::gone(process, &after_last)),
            }
        }
        batch.write_ahead(process, i, in_flight);
        let end = batch.ends[i];
        if batch.sent < end {
            match process.send(&batch.bytes[batch.sent..end], write_by) {
                Ok(()) => batch.sent = end,
                Err(SendError::TimedOut) => {
                    return Err(format!(
                        "{to}: it stopped reading its input (the request could not be written \
                         within {} ms, {})",
                        allowance.as_millis(),
                        self.limits(deadline)
                    ));
                }
                Err(SendError::Closed) => {
                    let how = match process.exit_status(EXIT_PATIENCE) {
                        Some(status) => {
                            format!("it exited ({}) before reading it", describe(status))
                        }
                        None => "it closed its standard input before reading it, but is still \
                                 running"
                            .to_string(),
                    };
                    return Err(format!("{to}: {how}"));
                }
                Err(SendError::Output(bytes)) => return Err(stray(&after_last, &bytes)),
                Err(SendError::Ended) => {
                    return Err(format!(
                        "{to}: {}",
                        External::gone(process, "before replying")
                    ));
                }
                Err(SendError::Io(error)) => {
                    return Err(format!("{to}: writing failed ({error})"));
                }
            }
        }
        let end_in_input = batch.base + end as u64;
        let clock = Clock { resumes, allowance };
        let reply = match process
            .receive(deadline, end_in_input, clock)
            .map_err(|e| format!("{to}: reading its reply failed ({e})"))?
        {
            Line::Complete(reply) => reply,
            Line::Early(line) => {
                return Err(format!(
                    "{to}: it printed {} before reading the request, so it answers nothing \
                     (one line a request, after reading it)",
                    quote_bytes(&line)
                ));
            }
            Line::InputClosed => {
                return Err(format!(
                    "{to}: it closed its standard input, but is still running"
                ));
            }
            Line::Unread => {
                return Err(format!(
                    "{to}: it did not read its first request within {} ms of starting ({})",
                    allowance.as_millis(),
                    self.limits(deadline)
                ));
            }
            Line::TimedOut(partial) => {
                let what = match (partial.is_empty(), process.has_read(end_in_input)) {
                    (false, _) => format!(
                        "it printed {} without ending the line",
                        quote_bytes(&partial)
                    ),
                    (true, Some(false)) => "it has not read the request".to_string(),
                    (true, Some(true)) => "it read the request but printed nothing; does it \
                                           flush its output after each line?"
                        .to_string(),
                    (true, None) => {
                        "it printed nothing; does it flush its output after each line?".to_string()
                    }
                };
                let within = match deadline {
                    Deadline::At(_) => format!("{} ms", self.timeout.as_millis()),
                    Deadline::AfterRead { .. } => {
                        format!("{} ms of starting", allowance.as_millis())
                    }
                };
                let within = format!("{within} ({})", self.limits(deadline));
                // Replies are matched to requests by their order: one missing earlier in the
                // batch leaves the last request without its line.
                let hint = if i > 0 && in_flight > 1 {
                    format!(
                        " (with up to {in_flight} requests written ahead, the missing reply may \
                         be an earlier request's; --in-flight 1 names it exactly)"
                    )
                } else {
                    String::new()
                };
                return Err(format!("{to}: no reply within {within}: {what}{hint}"));
            }
            Line::Ended(partial) => {
                let when = if partial.is_empty() {
                    "without replying".to_string()
                } else {
                    format!(
                        "without ending its reply {} with a newline",
                        quote_bytes(&partial)
                    )
                };
                return Err(format!("{to}: {}", External::gone(process, &when)));
            }
            Line::TooLong(head) => {
                return Err(format!(
                    "{to}: its reply is longer than the limit of {MAX_REPLY} bytes: {}",
                    quote_head(&head)
                ));
            }
        };
        let cells = read_reply(self.game, &reply).map_err(|why| format!("{to}: {why}"))?;
        // More output with no later request written cannot be an answer; with one written,
        // it is that request's reply, checked when its turn comes.
        if process.has_unread() && batch.sent == end {
            let extra = process.unread().to_vec();
            return Err(format!(
                "{to}: it replied {}, then printed more, {}, when no request was waiting \
                 (one line a request)",
                quote_bytes(&reply),
                quote_bytes(first_line(&extra))
            ));
        }
        Ok(cells)
    }
}

/// Requests asked together: their lines, one after the other, as written to the bot.
struct Batch<'a> {
    requests: &'a [String],
    /// Every request with its newline.
    bytes: Vec<u8>,
    /// Where each request's line ends in `bytes`.
    ends: Vec<usize>,
    /// How much of `bytes` is written.
    sent: usize,
    /// How many bytes the bot had been sent before the batch.
    base: u64,
}

impl<'a> Batch<'a> {
    fn new(requests: &'a [String]) -> Batch<'a> {
        let mut bytes = Vec::with_capacity(requests.iter().map(|r| r.len() + 1).sum());
        let mut ends = Vec::with_capacity(requests.len());
        for request in requests {
            bytes.extend_from_slice(request.as_bytes());
            bytes.push(b'\n');
            ends.push(bytes.len());
        }
        Batch {
            requests,
            bytes,
            ends,
            sent: 0,
            base: 0,
        }
    }

    /// Where request `i` starts in `bytes`.
    fn start(&self, i: usize) -> usize {
        if i == 0 { 0 } else { self.ends[i - 1] }
    }

    /// Writes, without waiting, what the pipe takes of the requests from `i` on, up to
    /// `in_flight` of them.
    fn write_ahead(&mut self, process: &mut Process, i: usize, in_flight: usize) {
        let last = (i + in_flight.max(1)).min(self.ends.len()) - 1;
        let limit = self.ends[last];
        if self.sent < limit {
            self.sent += process.write_ahead(&self.bytes[self.sent..limit]);
        }
    }
}

impl Bot for External {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        self.switch_to(game.game())?;
        let key = self.key(game);
        let cells = match self.answers.get(&key) {
            Some(cells) => cells.clone(),
            None => {
                let mut answers = self.ask_all(&[request(game)])?;
                let cells = answers.pop().expect("one answer a request");
                self.answers.insert(key, cells.clone());
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

    /// Every game: the program is told which, and answers with its cells.
    fn plays(&self, _game: Game) -> Result<(), BotError> {
        Ok(())
    }

    /// As the bot was declared: [`External::stateless`] or not.
    fn memoryless(&self) -> bool {
        self.stateless
    }

    fn asks_ahead(&self) -> bool {
        true
    }

    /// The same program, told the same game, asked one request at a time by a process of its
    /// own, and keeping nothing of this one's answers; it asks as a bot that is not stateless
    /// (each distinct request once, by its moves), so that a stateless bot is asked each board
    /// again with the moves of the game that reached it.
    fn one_at_a_time(&self) -> Option<Box<dyn Bot>> {
        let mut fresh = External::new(self.name.clone(), self.command.clone(), self.timeout)
            .with_startup(self.startup)
            .with_in_flight(1);
        fresh.game = self.game;
        fresh.cancel = self.cancel.clone();
        fresh.broke = self.broke.clone();
        fresh.again = true;
        Some(Box::new(fresh))
    }

    /// Asks every game not answered yet, in order, pipelined.
    fn prepare(&mut self, games: &[History]) -> Result<(), BotError> {
        if let Some(first) = games.first() {
            self.switch_to(first.game())?;
        }
        let mut keys = Vec::new();
        let mut requests = Vec::new();
        let mut asked = std::collections::HashSet::new();
        for game in games {
            let key = self.key(game);
            if !self.answers.contains_key(&key) && asked.insert(key.clone()) {
                keys.push(key);
                requests.push(request(game));
            }
        }
        let answers = self.ask_all(&requests)?;
        self.answers.extend(keys.into_iter().zip(answers));
        Ok(())
    }

    /// Closes the bot's input, checks that it printed nothing more, and stops it.
    fn finish(&mut self) -> Result<(), BotError> {
        let Some(mut process) = self.process.take() else {
            return Ok(());
        };
        let after_last = self.after_last();
        self.last_request = None;
        match process.finish(GRACE) {
            Ok(Leftover { total: 0, .. }) => Ok(()),
            Ok(Leftover { head, total }) => {
                let more = if total > head.len() as u64 {
                    format!(" ({total} bytes in all)")
                } else {
                    String::new()
                };
                Err(self.fail(format!("{}{more}", stray(&after_last, &head))))
            }
            Err(error) => Err(self.fail(format!("reading its last output failed ({error})"))),
        }
    }
}
