//! A Python callable as a bot: the function the crate's `FunctionBot` asks, calling Python
//! under the GIL.
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
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyBaseException, PyException};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString, PyTuple};
use ttt_oracle::bots::{Ask, Asking, BotError, Choice, Turn, parse_probability};
use ttt_oracle::{Cell, Cells, Game, History, Ratio};

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

/// A Python callable `f(board, to_move)`, called under the GIL: the bot is
/// `FunctionBot<PyFunction>`, which keeps its answers and names it in errors.
pub struct PyFunction {
    function: Py<PyAny>,
    timeout: Duration,
    watchdog: Option<Arc<Watch>>,
    held: Held,
}

impl PyFunction {
    pub fn new(function: Py<PyAny>, timeout: Duration) -> PyFunction {
        PyFunction {
            function,
            timeout,
            watchdog: None,
            held: Arc::new(Mutex::new(None)),
        }
    }

    /// The exception to raise again as it is, shared with every copy of this function.
    pub fn held(&self) -> Held {
        Arc::clone(&self.held)
    }

    /// Interrupts a call that outlives the timeout, from `watchdog`.
    pub fn watched(mut self, watchdog: Arc<Watch>) -> PyFunction {
        self.watchdog = Some(watchdog);
        self
    }

    /// Asks the function once, under the GIL; `Err` holds the message of a broken answer.
    fn call(
        &self,
        py: Python<'_>,
        game: &History,
        asking: &Asking<'_>,
    ) -> Result<Vec<Choice>, BotError> {
        if let Err(error) = py.check_signals() {
            return Err(self.hold(py, game, asking, error));
        }
        let position = game.position();
        let board = position.to_string().replace('/', "");
        let to_move = position.to_move().to_string();
        let started = Instant::now();
        let call = self
            .watchdog
            .as_ref()
            .map(|w| w.start(started + self.timeout));
        // The answer is read under the watch too: reading it runs the bot's code as well
        // (`__index__`, `__str__`, `__iter__`), which may loop or be interrupted.
        let result = self
            .function
            .bind(py)
            .call1((board, to_move))
            .map_err(Broken::Raised)
            .and_then(|answer| choices(game.game(), &answer));
        let fired = match (&self.watchdog, call) {
            (Some(watch), Some(call)) => watch.end(call),
            _ => false,
        };
        let late = started.elapsed() > self.timeout;
        match result {
            Err(Broken::Raised(error))
                if fired || (late && error.is_instance_of::<BotTimeout>(py)) =>
            {
                Err(self.late(game, asking))
            }
            Err(Broken::Raised(error)) => Err(self.hold(py, game, asking, error)),
            _ if late || fired => Err(self.late(game, asking)),
            Err(Broken::Answer(message)) => Err(asking.fail(game, message)),
            Ok(choices) => Ok(choices),
        }
    }

    fn late(&self, game: &History, asking: &Asking<'_>) -> BotError {
        asking.fail(
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
    fn hold(&self, py: Python<'_>, game: &History, asking: &Asking<'_>, error: PyErr) -> BotError {
        // A panic of Rust code the bot called (this package's own) is the bot's error too.
        if error.is_instance_of::<PyException>(py)
            || error.is_instance_of::<pyo3::panic::PanicException>(py)
        {
            return asking.fail(game, format!("it raised {}", traceback(py, &error)));
        }
        let message = format!("interrupted ({error})");
        *self.held.lock().unwrap_or_else(|e| e.into_inner()) = Some(error);
        asking.fail(game, message)
    }
}

impl Ask for PyFunction {
    const LANGUAGE: &'static str = "Python";

    /// A panic while the function is asked is this binding's, not a move of the bot's: an
    /// error, never the forfeit the audit makes of a built-in bot's panic.
    fn ask(&mut self, game: &History, asking: &Asking<'_>) -> Result<Vec<Choice>, BotError> {
        let asked = catch_unwind(AssertUnwindSafe(|| {
            Python::attach(|py| self.call(py, game, asking))
        }));
        asked.unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            Err(asking.fail(game, format!("reading its answer panicked: {what}")))
        })
    }

    fn again(&self) -> PyFunction {
        PyFunction {
            function: Python::attach(|py| self.function.clone_ref(py)),
            timeout: self.timeout,
            watchdog: self.watchdog.clone(),
            held: Arc::clone(&self.held),
        }
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

/// Why a Python bot gave no choices: an exception its code raised (the function, or the answer
/// as it was read), or an answer that means nothing.
pub enum Broken {
    Raised(PyErr),
    Answer(String),
}

impl From<String> for Broken {
    fn from(message: String) -> Broken {
        Broken::Answer(message)
    }
}

/// `error`, raised while an answer was read: what it says of the answer, unless it is no
/// `Exception` (a Ctrl-C, the timeout, an exit), which stops the bot as it is.
fn reading(error: PyErr, what: impl FnOnce(PyErr) -> String) -> Broken {
    let interrupt = Python::attach(|py| !error.is_instance_of::<PyException>(py));
    match interrupt {
        true => Broken::Raised(error),
        false => Broken::Answer(what(error)),
    }
}

/// What the function's `answer` means in `game`: its choices, or what is wrong with it. A cell
/// named twice (two keys of a dict that read as one cell, or twice in a list) is an error: its
/// probability would be counted twice, or its chance would not be what the list seems to say.
pub fn choices(game: Game, answer: &Bound<'_, PyAny>) -> Result<Vec<Choice>, Broken> {
    let expected = format!(
        "expected a cell 1..{}, a list of cells or a dict of cell to probability",
        game.cells()
    );
    let cell = |item: &Bound<'_, PyAny>| -> Result<Cell, Broken> {
        let not_a_cell = || Broken::Answer(format!("{} is not a cell; {expected}", describe(item)));
        if item.is_instance_of::<PyBool>() || item.is_instance_of::<PyFloat>() {
            return Err(not_a_cell());
        }
        match item.extract::<i64>() {
            Ok(n) if n >= 1 && (n as usize) <= game.cells() => {
                Cell::new(n as usize - 1).ok_or_else(|| format!("{n} is not a cell").into())
            }
            Ok(_) => Err(not_a_cell()),
            Err(error) => Err(reading(error, |_| {
                format!("{} is not a cell; {expected}", describe(item))
            })),
        }
    };
    if let Ok(dict) = answer.cast::<PyDict>() {
        let mut choices: Vec<Choice> = Vec::new();
        let mut total = Ratio::ZERO;
        let mut named = Cells::EMPTY;
        for (key, value) in dict.iter() {
            let cell = cell(&key)?;
            if named.contains(cell) {
                return Err(format!(
                    "cell {} is named twice (by {}); name each cell once",
                    cell.number(),
                    describe(&key)
                )
                .into());
            }
            named.insert(cell);
            let p = probability(&value).map_err(|why| match why {
                Broken::Answer(why) => Broken::Answer(format!(
                    "the probability of cell {} is {why}",
                    cell.number()
                )),
                raised => raised,
            })?;
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
            return Err(format!("its probabilities add up to {total}, not 1").into());
        }
        return Ok(choices);
    }
    if answer.is_instance_of::<PyList>() || answer.is_instance_of::<PyTuple>() {
        let mut cells: Vec<Cell> = Vec::new();
        let listed = |error: PyErr| reading(error, |error| error.to_string());
        for item in answer.try_iter().map_err(listed)? {
            let item = item.map_err(listed)?;
            let cell = cell(&item)?;
            if cells.contains(&cell) {
                return Err(format!(
                    "cell {} is named twice in its list (by {}); name each cell once (a dict \
                     gives cells their chances)",
                    cell.number(),
                    describe(&item)
                )
                .into());
            }
            cells.push(cell);
        }
        if cells.is_empty() {
            return Err(format!("an empty list; {expected}").into());
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
fn probability(value: &Bound<'_, PyAny>) -> Result<Ratio, Broken> {
    let text = if value.is_instance_of::<PyBool>() {
        return Err(describe(value).into());
    } else if value.is_instance_of::<PyString>() || value.is_instance_of::<PyFloat>() {
        let text = value.str().map_err(|e| reading(e, |e| e.to_string()))?;
        text.to_string()
    } else if let (Ok(num), Ok(den)) = (value.getattr("numerator"), value.getattr("denominator")) {
        format!("{num}/{den}")
    } else {
        return Err(describe(value).into());
    };
    parse_probability(&text).map_err(|error| format!("{}: {error}", describe(value)).into())
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
