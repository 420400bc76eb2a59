//! A Python callable as a bot: the crate's `Bot`, calling Python under the GIL.
//!
//! What the callable returns is read as an external bot's reply is: a cell, or several equally
//! likely, or (beyond the line protocol) a dict of cell to probability. A taken cell is a move
//! the audit judges (a forfeit); anything that is not an answer at all (an exception, a
//! string, `None`, a float, a cell off the board, probabilities that are not a distribution,
//! no answer within the timeout) stops the audit with an error naming the bot and the request,
//! as a program that breaks the protocol does. `KeyboardInterrupt` (and any exception that is
//! not an `Exception`, `SystemExit` say) is kept as it is, and raised again by the caller once
//! the audit has stopped.

use std::ffi::c_long;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyBaseException, PyException};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString, PyTuple};
use ttt_oracle::bots::external::request;
use ttt_oracle::bots::{Bot, BotError, Choice, Turn, parse_probability};
use ttt_oracle::{Cell, Game, History, Ratio};

pyo3::create_exception!(
    ttt_oracle,
    BotTimeout,
    PyBaseException,
    "Raised inside a Python bot that did not answer within its timeout. A BaseException, so \
     that a bot's own `except Exception` does not swallow it."
);

/// What stopped a Python bot's audit that is not the bot's fault to report: an exception to
/// raise again as it is (KeyboardInterrupt, SystemExit), or nothing.
pub type Held = Arc<Mutex<Option<PyErr>>>;

/// A Python callable `f(board, to_move)` as a bot.
pub struct PyBot {
    name: String,
    function: Py<PyAny>,
    stateless: bool,
    timeout: Duration,
    watchdog: Option<Arc<Watch>>,
    held: Held,
    /// Whether this is the instance asked again one request at a time after the audit.
    again: bool,
}

impl PyBot {
    pub fn new(name: String, function: Py<PyAny>, stateless: bool, timeout: Duration) -> PyBot {
        PyBot {
            name,
            function,
            stateless,
            timeout,
            watchdog: None,
            held: Arc::new(Mutex::new(None)),
            again: false,
        }
    }

    /// The exception to raise again as it is, shared with every copy of this bot.
    pub fn held(&self) -> Held {
        Arc::clone(&self.held)
    }

    /// Interrupts a call that outlives the timeout, from `watchdog`.
    pub fn watched(mut self, watchdog: Arc<Watch>) -> PyBot {
        self.watchdog = Some(watchdog);
        self
    }

    fn fail(&self, game: &History, message: String) -> BotError {
        let when = if self.again {
            " when asked again one request at a time, after its audit"
        } else {
            ""
        };
        BotError {
            message: format!(
                "Python bot {:?} failed{when} on request {:?}: {message}",
                self.name,
                request(game)
            ),
        }
    }

    /// Asks the function once, under the GIL; `Err` holds the message of a broken answer.
    fn ask(&self, py: Python<'_>, game: &History) -> Result<Vec<Choice>, BotError> {
        if let Err(error) = py.check_signals() {
            return Err(self.hold(py, game, error));
        }
        let position = game.position();
        let board = position.to_string().replace('/', "");
        let to_move = position.to_move().to_string();
        let started = Instant::now();
        let call = self
            .watchdog
            .as_ref()
            .map(|w| w.start(started + self.timeout));
        let result = self.function.bind(py).call1((board, to_move));
        let fired = match (&self.watchdog, call) {
            (Some(watch), Some(call)) => watch.end(call),
            _ => false,
        };
        let late = started.elapsed() > self.timeout;
        match result {
            Err(error) if fired || (late && error.is_instance_of::<BotTimeout>(py)) => {
                Err(self.late(game))
            }
            Err(error) => Err(self.hold(py, game, error)),
            Ok(_) if late => Err(self.late(game)),
            Ok(answer) => choices(game.game(), &answer).map_err(|message| self.fail(game, message)),
        }
    }

    fn late(&self, game: &History) -> BotError {
        self.fail(
            game,
            format!(
                "no answer within {} ms (a call blocked in C, time.sleep say, is only seen \
                 late once it returns)",
                self.timeout.as_millis()
            ),
        )
    }

    /// An exception from the function: an `Exception` is the bot's error, with its traceback;
    /// anything else (KeyboardInterrupt, SystemExit) is held to be raised again as it is.
    fn hold(&self, py: Python<'_>, game: &History, error: PyErr) -> BotError {
        if error.is_instance_of::<PyException>(py) {
            return self.fail(game, format!("it raised {}", traceback(py, &error)));
        }
        let message = format!("interrupted ({error})");
        *self.held.lock().unwrap_or_else(|e| e.into_inner()) = Some(error);
        self.fail(game, message)
    }
}

/// The exception and its traceback, as Python prints them.
fn traceback(py: Python<'_>, error: &PyErr) -> String {
    let formatted = py
        .import("traceback")
        .and_then(|module| module.getattr("format_exception"))
        .and_then(|format| format.call1((error.get_type(py), error.value(py), error.traceback(py))))
        .and_then(|lines| lines.extract::<Vec<String>>());
    match formatted {
        Ok(lines) => lines.concat().trim_end().to_string(),
        Err(_) => error.to_string(),
    }
}

/// What the function's `answer` means in `game`: its choices, or what is wrong with it.
pub fn choices(game: Game, answer: &Bound<'_, PyAny>) -> Result<Vec<Choice>, String> {
    let expected = format!(
        "expected a cell 1..{}, a list of cells or a dict of cell to probability",
        game.cells()
    );
    let cell = |item: &Bound<'_, PyAny>| -> Result<Cell, String> {
        if item.is_instance_of::<PyBool>() || item.is_instance_of::<PyFloat>() {
            return Err(format!("{} is not a cell; {expected}", describe(item)));
        }
        match item.extract::<i64>() {
            Ok(n) if n >= 1 && (n as usize) <= game.cells() => {
                Cell::new(n as usize - 1).ok_or_else(|| format!("{n} is not a cell"))
            }
            _ => Err(format!("{} is not a cell; {expected}", describe(item))),
        }
    };
    if let Ok(dict) = answer.cast::<PyDict>() {
        let mut choices: Vec<Choice> = Vec::new();
        let mut total = Ratio::ZERO;
        for (key, value) in dict.iter() {
            let cell = cell(&key)?;
            let p = probability(&value)
                .map_err(|why| format!("the probability of cell {} is {why}", cell.number()))?;
            if p == Ratio::ZERO {
                continue;
            }
            total += p;
            choices.push(Choice {
                turn: Turn::Mark(cell),
                probability: p,
            });
        }
        if total != Ratio::ONE {
            return Err(format!("its probabilities add up to {total}, not 1"));
        }
        return Ok(choices);
    }
    if answer.is_instance_of::<PyList>() || answer.is_instance_of::<PyTuple>() {
        let mut cells: Vec<Cell> = Vec::new();
        for item in answer.try_iter().map_err(|e| e.to_string())? {
            let cell = cell(&item.map_err(|e| e.to_string())?)?;
            if !cells.contains(&cell) {
                cells.push(cell);
            }
        }
        if cells.is_empty() {
            return Err(format!("an empty list; {expected}"));
        }
        let p = Ratio::new(1, cells.len() as u128);
        return Ok(cells
            .into_iter()
            .map(|cell| Choice {
                turn: Turn::Mark(cell),
                probability: p,
            })
            .collect());
    }
    Ok(vec![Choice::certain(Turn::Mark(cell(answer)?))])
}

/// A probability as the styles take one: 0 to 1, in steps no finer than a thousandth, from an
/// int, a `fractions.Fraction`, a float (by its shortest decimal) or a str.
fn probability(value: &Bound<'_, PyAny>) -> Result<Ratio, String> {
    let text = if value.is_instance_of::<PyBool>() {
        return Err(describe(value));
    } else if value.is_instance_of::<PyString>() || value.is_instance_of::<PyFloat>() {
        value.str().map_err(|e| e.to_string())?.to_string()
    } else if let (Ok(num), Ok(den)) = (value.getattr("numerator"), value.getattr("denominator")) {
        format!("{num}/{den}")
    } else {
        return Err(describe(value));
    };
    parse_probability(&text).map_err(|error| format!("{}: {error}", describe(value)))
}

/// `value` for a message: its repr and its type.
fn describe(value: &Bound<'_, PyAny>) -> String {
    let repr = value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".to_string());
    let repr: String = if repr.chars().count() > 60 {
        repr.chars().take(57).chain("...".chars()).collect()
    } else {
        repr
    };
    let kind = value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    format!("{repr} ({kind})")
}

impl Bot for PyBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        Python::attach(|py| self.ask(py, game))
    }

    /// Every game: the function is told the board and the side to move.
    fn plays(&self, _game: Game) -> Result<(), BotError> {
        Ok(())
    }

    fn memoryless(&self) -> bool {
        self.stateless
    }

    /// A bot declared stateless is asked again with the moves of games drawn at random, one
    /// turn at a time, and must answer as it did by the board alone: the check of
    /// `ttt audit --stateless`, which costs a few hundred calls.
    fn one_at_a_time(&self) -> Option<Box<dyn Bot>> {
        self.stateless.then(|| {
            let function = Python::attach(|py| self.function.clone_ref(py));
            Box::new(PyBot {
                name: self.name.clone(),
                function,
                stateless: false,
                timeout: self.timeout,
                watchdog: self.watchdog.clone(),
                held: Arc::clone(&self.held),
                again: true,
            }) as Box<dyn Bot>
        })
    }
}

/// A thread that raises [`BotTimeout`] in the thread of a call that outlives its deadline
/// (`PyThreadState_SetAsyncExc`), again every tenth of a second until the call returns. Python
/// sees it at its next bytecode: a call blocked in C is only seen late once it returns.
pub struct Watch {
    state: Mutex<WatchState>,
    wake: Condvar,
}

struct WatchState {
    /// The call in progress (a count), and its deadline.
    call: Option<(u64, Instant)>,
    calls: u64,
    fired: bool,
    stop: bool,
    thread: c_long,
}

impl Watch {
    /// A watchdog for calls made on the thread whose `threading.get_ident()` is `thread`.
    pub fn spawn(thread: c_long) -> (Arc<Watch>, JoinHandle<()>) {
        let watch = Arc::new(Watch {
            state: Mutex::new(WatchState {
                call: None,
                calls: 0,
                fired: false,
                stop: false,
                thread,
            }),
            wake: Condvar::new(),
        });
        let handle = {
            let watch = Arc::clone(&watch);
            std::thread::spawn(move || watch.run())
        };
        (watch, handle)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, WatchState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn start(&self, deadline: Instant) -> u64 {
        let mut state = self.lock();
        state.calls += 1;
        state.call = Some((state.calls, deadline));
        state.fired = false;
        self.wake.notify_one();
        state.calls
    }

    /// Ends `call` (under the GIL, so that the watchdog cannot fire between the call's return
    /// and this); whether the timeout fired in it. Clears an exception set but not yet raised.
    fn end(&self, call: u64) -> bool {
        let mut state = self.lock();
        let fired = state.fired && state.call.map(|c| c.0) == Some(call);
        state.call = None;
        if fired {
            // SAFETY: called with the GIL held (the caller is inside the call's `attach`).
            unsafe { pyo3::ffi::PyThreadState_SetAsyncExc(state.thread, std::ptr::null_mut()) };
        }
        fired
    }

    pub fn stop(&self) {
        self.lock().stop = true;
        self.wake.notify_one();
    }

    fn run(&self) {
        let mut state = self.lock();
        loop {
            if state.stop {
                return;
            }
            let Some((call, deadline)) = state.call else {
                state = self.wake.wait(state).unwrap_or_else(|e| e.into_inner());
                continue;
            };
            let now = Instant::now();
            if now < deadline {
                state = self
                    .wake
                    .wait_timeout(state, deadline - now)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                continue;
            }
            drop(state);
            // The GIL first, then the lock: the bot's thread takes the lock holding the GIL.
            Python::attach(|py| {
                let mut state = self.lock();
                if state.call.map(|c| c.0) == Some(call) && !state.stop {
                    let exception = py.get_type::<BotTimeout>();
                    // SAFETY: the GIL is held; the type object outlives the call.
                    unsafe {
                        pyo3::ffi::PyThreadState_SetAsyncExc(state.thread, exception.as_ptr())
                    };
                    state.fired = true;
                    state.call = Some((call, Instant::now() + Duration::from_millis(100)));
                }
            });
            state = self.lock();
        }
    }
}
