//! `audit` and the reports it returns: a bot is a built-in spec or a Python
//! callable; the walk runs in Rust without the GIL, which a Python bot takes back at each call.

use std::sync::Arc;
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyException, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use serde_json::Value as Json;
use ttt_oracle::audit::{AuditJson, MistakeLine, Mistakes, Report, Verdict};
use ttt_oracle::bots::external::DEFAULT_TIMEOUT;
use ttt_oracle::bots::{self, Bot, Choice, DependsOn, FunctionBot, Turn};
use ttt_oracle::{AuditError, AuditOptions, Game, History, Player, SplitMix64};

use crate::convert::{game_of, json_to_python, value_error};
use crate::pybot::{Held, PyFunction, Watch};

pyo3::create_exception!(
    ttt_oracle,
    AuditFailed,
    PyException,
    "An audit or a match that could not run to its end: over its budget or the memory limit, \
     or a table that could not be read."
);
pyo3::create_exception!(
    ttt_oracle,
    BotError,
    AuditFailed,
    "A bot that could not answer at all: a Python bot that raised, returned something that is \
     not an answer, or ran out of time; the message names the bot and the request, with the \
     traceback. A bot that does not play the game raises it too."
);

/// A bot from Python, ready to be asked: a built-in spec, or a callable watched for its
/// timeout and for Ctrl-C.
pub(crate) struct Prepared {
    pub(crate) bot: Interruptible,
    watch: Option<(Arc<Watch>, std::thread::JoinHandle<()>)>,
}

impl Prepared {
    pub(crate) fn new(
        py: Python<'_>,
        bot: &Bound<'_, PyAny>,
        name: Option<String>,
        stateless: bool,
        timeout: Duration,
    ) -> PyResult<Prepared> {
        let held: Held = Default::default();
        if let Ok(spec) = bot.cast::<PyString>() {
            let inner = bots::from_spec(&spec.to_cow()?).map_err(value_error)?;
            if stateless {
                return Err(value_error(
                    "stateless is said of Python bots; a built-in bot knows what it depends on",
                ));
            }
            let inner: Box<dyn Bot + Send> = match name {
                Some(name) => Box::new(Renamed { inner, name }),
                None => inner,
            };
            return Ok(Prepared {
                bot: Interruptible::new(inner, held),
                watch: None,
            });
        }
        if !bot.is_callable() {
            return Err(PyTypeError::new_err(
                "a bot is a built-in spec (\"casual:0.3\") or a callable f(board, to_move)",
            ));
        }
        let name = match name {
            Some(name) => name,
            None => bot
                .getattr("__qualname__")
                .or_else(|_| bot.getattr("__name__"))
                .and_then(|n| n.extract::<String>())
                .unwrap_or_else(|_| "python bot".to_string()),
        };
        let thread: i64 = py
            .import("threading")?
            .call_method0("get_ident")?
            .extract()?;
        let (watch, handle) = Watch::spawn(thread as std::ffi::c_long);
        let python = PyFunction::new(bot.clone().unbind(), timeout).watched(Arc::clone(&watch));
        let held = python.held();
        Ok(Prepared {
            bot: Interruptible::new(Box::new(FunctionBot::new(name, python, stateless)), held),
            watch: Some((watch, handle)),
        })
    }

    /// The exception held back to raise as it is (Ctrl-C), or `error` as Python's.
    pub(crate) fn raise(&self, error: impl Into<Failure>) -> PyErr {
        if let Some(held) = self
            .bot
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            return held;
        }
        match error.into() {
            Failure::Bot(message) => BotError::new_err(message),
            Failure::Other(message) => AuditFailed::new_err(message),
        }
    }
}

impl Drop for Prepared {
    fn drop(&mut self) {
        if let Some((watch, handle)) = self.watch.take() {
            watch.stop();
            let _ = handle.join();
        }
    }
}

pub(crate) enum Failure {
    Bot(String),
    Other(String),
}

impl From<AuditError> for Failure {
    fn from(error: AuditError) -> Failure {
        match error {
            AuditError::Bot(error) | AuditError::Refused(error) => Failure::Bot(error.message),
            other => Failure::Other(other.to_string()),
        }
    }
}

/// The sides `side` names: `"x"`, `"o"` or `"both"`.
fn sides(side: &str) -> PyResult<Vec<Player>> {
    match side.to_ascii_lowercase().as_str() {
        "x" => Ok(vec![Player::X]),
        "o" => Ok(vec![Player::O]),
        "both" => Ok(vec![Player::X, Player::O]),
        _ => Err(value_error(format!(
            "side {side:?} is not a side; expected \"x\", \"o\" or \"both\""
        ))),
    }
}

/// Audits `bot` playing `side` ("x", "o" or "both") of `game`: every reply of the opponent
/// and every choice of the bot, to the end of every game.
///
/// `bot` is a built-in spec ("smartbot", "casual:0.3") or a callable `f(board, to_move)`
/// returning a cell, a list of equally likely cells, or a dict of cell to probability.
/// `name` names it in the report (the callable's name by default); `stateless=True` declares
/// that it answers from the board alone, which the audit checks along a sample of games;
/// `timeout` is the seconds a call may take (2, as on the command line); `recheck_seed` the
/// seed of that sample (`ttt audit --recheck-seed`); `all_mistakes=True` lists every mistake
/// of each side in `mistakes`, as `ttt audit --mistakes FILE` writes them, rather than the
/// first 100 (on 4x4 a bot can make millions).
///
/// Returns an AuditReport, whose to_dict() is `ttt audit --format json`. Raises BotError when
/// the bot cannot answer (naming the bot and the request, with the traceback), ValueError for
/// a bad game, side or spec, AuditFailed over a budget, KeyboardInterrupt on Ctrl-C.
#[pyfunction]
#[pyo3(signature = (bot, game = "3x3", side = "both", *, name = None, stateless = false, timeout = None, recheck_seed = None, all_mistakes = false))]
#[allow(clippy::too_many_arguments)]
fn audit(
    py: Python<'_>,
    bot: &Bound<'_, PyAny>,
    game: &str,
    side: &str,
    name: Option<String>,
    stateless: bool,
    timeout: Option<f64>,
    recheck_seed: Option<u64>,
    all_mistakes: bool,
) -> PyResult<AuditReport> {
    let game = game_of(game)?;
    let sides = sides(side)?;
    let timeout = timeout_of(timeout)?;
    let mut prepared = Prepared::new(py, bot, name, stateless, timeout)?;
    let mut reports = Vec::new();
    for side in sides {
        let options = AuditOptions {
            mistakes: if all_mistakes {
                usize::MAX
            } else {
                Mistakes::LISTED
            },
            recheck_seed,
            ..AuditOptions::new(game, side)
        };
        let bot = &mut prepared.bot;
        let report = py.detach(|| ttt_oracle::audit(bot, &options));
        reports.push(report.map_err(|error| prepared.raise(error))?);
    }
    let name = prepared.bot.name().to_string();
    let json = match reports.first() {
        Some(Report::Searched(_)) => {
            let sides: Vec<_> = reports
                .iter()
                .filter_map(Report::searched)
                .cloned()
                .collect();
            serde_json::to_value(AuditJson::new(game, vec![(&name, &sides[..])], None))
        }
        _ => {
            let sides: Vec<_> = reports.iter().filter_map(Report::solved).cloned().collect();
            serde_json::to_value(AuditJson::new(game, vec![(&name, &sides[..])], None))
        }
    }
    .map_err(value_error)?;
    let verdicts = reports.iter().map(Report::verdict).collect();
    let mistakes = reports
        .iter()
        .map(|report| {
            report
                .solved()
                .map(|side| mistake_lines(game, &name, side))
                .transpose()
        })
        .collect::<Result<_, _>>()
        .map_err(value_error)?;
    Ok(AuditReport {
        game,
        name,
        json,
        verdicts,
        mistakes,
    })
}

/// The mistakes `side` lists, each as a line of `ttt audit --mistakes FILE`: the game (other
/// games only), the bot and the side, then the mistake's keys.
fn mistake_lines(
    game: Game,
    bot: &str,
    side: &ttt_oracle::audit::SideReport,
) -> serde_json::Result<Vec<Json>> {
    MistakeLine::all(game, bot, side)
        .map(serde_json::to_value)
        .collect()
}

pub(crate) fn timeout_of(seconds: Option<f64>) -> PyResult<Duration> {
    match seconds {
        None => Ok(DEFAULT_TIMEOUT),
        Some(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(Duration::from_secs_f64(s)),
        Some(s) => Err(value_error(format!(
            "timeout {s} is not a number of seconds between 0 and 86400"
        ))),
    }
}

/// What an audit found: the verdict, the shortest loss and forfeit over the sides, and each
/// side audited as a `SideReport`; `to_dict()` is what `ttt audit --format json` prints.
#[pyclass(module = "ttt_oracle", frozen)]
struct AuditReport {
    game: Game,
    name: String,
    /// The whole document, as `ttt audit --format json` prints it.
    json: Json,
    /// Each side's verdict, as its JSON has it.
    verdicts: Vec<Option<Verdict>>,
    /// Each side's mistakes as `ttt audit --mistakes FILE` writes them; `None` without a table.
    mistakes: Vec<Option<Vec<Json>>>,
}

#[pymethods]
impl AuditReport {
    /// The bot's name.
    #[getter]
    fn bot(&self) -> &str {
        &self.name
    }

    /// The game, by name.
    #[getter]
    fn game(&self) -> String {
        self.game.to_string()
    }

    /// Each side audited, X first.
    #[getter]
    fn sides(&self) -> Vec<SideReport> {
        self.side_jsons()
            .iter()
            .zip(&self.verdicts)
            .zip(&self.mistakes)
            .map(|((json, &verdict), mistakes)| SideReport {
                json: json.clone(),
                verdict,
                mistakes: mistakes.clone(),
            })
            .collect()
    }

    /// The verdict: `"never loses"` when every side never loses, otherwise the gravest
    /// side's (`"answers differently"`, `"can lose, breaks the rules"`, `"can lose"`,
    /// `"breaks the rules"`), or None when a search without a table did not settle it.
    #[getter]
    fn verdict(&self) -> Option<String> {
        const GRAVEST_FIRST: [Verdict; 5] = [
            Verdict::AnswersDifferently,
            Verdict::CanLoseAndBreaksRules,
            Verdict::CanLose,
            Verdict::BreaksRules,
            Verdict::NeverLoses,
        ];
        let verdicts = &self.verdicts;
        if verdicts.contains(&None) {
            return None;
        }
        GRAVEST_FIRST
            .iter()
            .find(|v| verdicts.contains(&Some(**v)))
            .map(Verdict::to_string)
    }

    /// Whether every side audited never loses (on the board or by a forfeit).
    #[getter]
    fn never_loses(&self) -> bool {
        self.side_jsons()
            .iter()
            .all(|side| side["never_loses"] == Json::Bool(true))
    }

    /// The shortest game the bot loses on the board, over the sides audited, as a move list;
    /// None when it never loses.
    #[getter]
    fn shortest_loss(&self) -> Option<Vec<u32>> {
        self.shortest("shortest_loss")
    }

    /// The shortest game the bot forfeits (a taken cell), as a move list; None when none.
    #[getter]
    fn shortest_forfeit(&self) -> Option<Vec<u32>> {
        self.shortest("shortest_illegal")
    }

    /// The mistakes of every side audited, X's first, each a dict as a line of `ttt audit
    /// --mistakes FILE`: the first 100 of each side, or all with `audit(..., all_mistakes=True)`.
    /// Empty without a table to judge the moves by.
    #[getter]
    fn mistakes<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        self.mistakes
            .iter()
            .flatten()
            .flatten()
            .map(|line| json_to_python(py, line))
            .collect()
    }

    /// The report as `ttt audit BOT --side SIDE --format json` prints it.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_python(py, &self.json)
    }

    fn __repr__(&self) -> String {
        format!(
            "<AuditReport {:?} on {}: {}>",
            self.name,
            self.game,
            self.verdict().unwrap_or_else(|| "not settled".to_string())
        )
    }
}

impl AuditReport {
    fn side_jsons(&self) -> &[Json] {
        self.json["bots"][0]["sides"]
            .as_array()
            .map_or(&[], Vec::as_slice)
    }

    fn shortest(&self, key: &str) -> Option<Vec<u32>> {
        self.side_jsons()
            .iter()
            .filter_map(|side| moves(&side[key]))
            .min_by_key(Vec::len)
    }
}

fn moves(json: &Json) -> Option<Vec<u32>> {
    json.as_array().map(|cells| {
        cells
            .iter()
            .filter_map(|c| c.as_u64())
            .map(|c| c as u32)
            .collect()
    })
}

/// What an audit found on one side: the keys of its JSON as attributes, with the exact odds
/// as `fractions.Fraction`.
#[pyclass(module = "ttt_oracle", frozen)]
struct SideReport {
    json: Json,
    verdict: Option<Verdict>,
    mistakes: Option<Vec<Json>>,
}

#[pymethods]
impl SideReport {
    /// The side, `"X"` or `"O"`.
    #[getter]
    fn side(&self) -> String {
        self.json["side"].as_str().unwrap_or_default().to_string()
    }

    /// `"never loses"`, `"can lose"`, `"breaks the rules"`, `"can lose, breaks the rules"`,
    /// `"answers differently"`; None when a search without a table did not settle it.
    #[getter]
    fn verdict(&self) -> Option<String> {
        self.verdict.map(|verdict| verdict.to_string())
    }

    /// Whether the side never loses, on the board or by a forfeit.
    #[getter]
    fn never_loses(&self) -> bool {
        self.json["never_loses"] == Json::Bool(true)
    }

    /// The shortest game lost on the board, as a move list, or None.
    #[getter]
    fn shortest_loss(&self) -> Option<Vec<u32>> {
        moves(&self.json["shortest_loss"])
    }

    /// The shortest game forfeited, as a move list, or None.
    #[getter]
    fn shortest_forfeit(&self) -> Option<Vec<u32>> {
        moves(&self.json["shortest_illegal"])
    }

    /// The positions where the bot chose, counted once per history reaching them.
    #[getter]
    fn decision_points(&self) -> Option<u64> {
        self.json["decision_points"].as_u64()
    }

    /// Every game the bot can face, to its end.
    #[getter]
    fn games(&self) -> Option<u64> {
        self.json["games"].as_u64()
    }

    /// The games lost on the board.
    #[getter]
    fn losing_games(&self) -> Option<u64> {
        self.json["losing_games"].as_u64()
    }

    /// The games forfeited (a taken cell).
    #[getter]
    fn forfeited_games(&self) -> Option<u64> {
        self.json["illegal_games"].as_u64()
    }

    /// The exact odds against an opponent who moves at random: a dict of `win`, `draw`,
    /// `loss` and `illegal` (forfeit) to `fractions.Fraction`.
    #[getter]
    fn vs_random<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        odds(py, &self.json["vs_random"])
    }

    /// The exact odds against a perfect opponent, as `vs_random`.
    #[getter]
    fn vs_perfect<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        odds(py, &self.json["vs_perfect"])
    }

    /// The worst an opponent who knows the bot can do: `(chance of a loss as a Fraction, the
    /// line that gets it)`, or None without a table.
    #[getter]
    fn worst_case<'py>(&self, py: Python<'py>) -> PyResult<Option<(Bound<'py, PyAny>, Vec<u32>)>> {
        let worst = &self.json["worst_case"];
        let Some(loss) = worst["loss"].as_str() else {
            return Ok(None);
        };
        Ok(Some((
            fraction(py, loss)?,
            moves(&worst["line"]).unwrap_or_default(),
        )))
    }

    /// The side's mistakes, each a dict as a line of `ttt audit --mistakes FILE` (the first 100,
    /// or all with `audit(..., all_mistakes=True)`), blunders first; None without a table.
    #[getter]
    fn mistakes<'py>(&self, py: Python<'py>) -> PyResult<Option<Vec<Bound<'py, PyAny>>>> {
        self.mistakes
            .as_ref()
            .map(|lines| lines.iter().map(|line| json_to_python(py, line)).collect())
            .transpose()
    }

    /// How many mistakes the side made, each position and move once, however many are listed;
    /// None without a table.
    #[getter]
    fn mistakes_total(&self) -> Option<u64> {
        self.json["mistakes"]["total"].as_u64()
    }

    /// The side as it appears in `to_dict()["bots"][0]["sides"]`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_python(py, &self.json)
    }

    fn __repr__(&self) -> String {
        format!(
            "<SideReport {}: {}>",
            self.side(),
            self.verdict().unwrap_or_else(|| "not settled".to_string())
        )
    }
}

pub(crate) fn fraction<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("fractions")?.getattr("Fraction")?.call1((text,))
}

fn odds<'py>(py: Python<'py>, json: &Json) -> PyResult<Bound<'py, PyAny>> {
    let Some(exact) = json["exact"].as_object() else {
        return Ok(py.None().into_bound(py));
    };
    let dict = pyo3::types::PyDict::new(py);
    for (key, value) in exact {
        dict.set_item(key, fraction(py, value.as_str().unwrap_or("0"))?)?;
    }
    Ok(dict.into_any())
}

/// A built-in bot under the name the caller gave it.
struct Renamed {
    inner: Box<dyn Bot + Send>,
    name: String,
}

/// A bot whose caller checks for Ctrl-C every few hundredths of a second, taking the GIL for
/// it: a Python bot checks at each call too, a built-in one only here.
pub(crate) struct Interruptible {
    inner: Box<dyn Bot + Send>,
    pub(crate) held: Held,
    checked: Instant,
    calls: u32,
}

impl Interruptible {
    fn new(inner: Box<dyn Bot + Send>, held: Held) -> Interruptible {
        Interruptible {
            inner,
            held,
            checked: Instant::now(),
            calls: 0,
        }
    }

    fn check(&mut self, game: &History) -> Result<(), BotError_> {
        self.calls = self.calls.wrapping_add(1);
        if self.calls % 64 != 0 || self.checked.elapsed() < Duration::from_millis(20) {
            return Ok(());
        }
        self.checked = Instant::now();
        let Err(error) = Python::attach(|py| py.check_signals()) else {
            return Ok(());
        };
        *self.held.lock().unwrap_or_else(|e| e.into_inner()) = Some(error);
        Err(BotError_ {
            message: format!(
                "{} interrupted at {:?}",
                self.inner.name(),
                bots::external::request(game)
            ),
        })
    }
}

type BotError_ = ttt_oracle::bots::BotError;

macro_rules! delegate {
    ($ty:ty) => {
        impl Bot for $ty {
            fn name(&self) -> &str {
                delegate!(@name self)
            }
            fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError_> {
                delegate!(@check self game);
                self.inner.choose(game)
            }
            fn choose_into(&mut self, game: &History, choices: &mut Vec<Choice>) -> Result<(), BotError_> {
                delegate!(@check self game);
                self.inner.choose_into(game, choices)
            }
            fn pick(&mut self, game: &History, rng: &mut SplitMix64) -> Result<Turn, BotError_> {
                self.inner.pick(game, rng)
            }
            fn plays(&self, game: Game) -> Result<(), BotError_> {
                self.inner.plays(game)
            }
            fn memoryless(&self) -> bool {
                self.inner.memoryless()
            }
            fn symmetric(&self) -> bool {
                self.inner.symmetric()
            }
            fn depends_on(&self, game: &History) -> DependsOn {
                self.inner.depends_on(game)
            }
            fn blocks_threats(&self) -> bool {
                self.inner.blocks_threats()
            }
            fn never_forfeits(&self) -> bool {
                self.inner.never_forfeits()
            }
            fn asks_ahead(&self) -> bool {
                self.inner.asks_ahead()
            }
            fn prepare(&mut self, games: &[History]) -> Result<(), BotError_> {
                self.inner.prepare(games)
            }
            fn one_at_a_time(&self) -> Option<Box<dyn Bot>> {
                self.inner.one_at_a_time()
            }
            fn finish(&mut self) -> Result<(), BotError_> {
                self.inner.finish()
            }
        }
    };
    (@name $self:ident) => { $self.name_of() };
    (@check $self:ident $game:ident) => { $self.before($game)? };
}

impl Renamed {
    fn name_of(&self) -> &str {
        &self.name
    }
    fn before(&mut self, _game: &History) -> Result<(), BotError_> {
        Ok(())
    }
}

impl Interruptible {
    fn name_of(&self) -> &str {
        self.inner.name()
    }
    fn before(&mut self, game: &History) -> Result<(), BotError_> {
        self.check(game)
    }
}

delegate!(Renamed);
delegate!(Interruptible);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(audit, m)?)?;
    m.add_class::<AuditReport>()?;
    m.add_class::<SideReport>()?;
    m.add("AuditFailed", m.py().get_type::<AuditFailed>())?;
    m.add("BotError", m.py().get_type::<BotError>())?;
    Ok(())
}
