//! `match` and the report it returns: the exact odds of every way the games of two bots end.

use pyo3::prelude::*;
use serde_json::Value as Json;
use ttt_oracle::matchup::MatchOptions;

use crate::audit::{Failure, Prepared, fraction, timeout_of};
use crate::convert::{game_of, json_to_python, value_error};

/// Plays `x` against `o` (specs or callables, as `audit` takes) through every game of `game`,
/// every choice of both: a MatchReport with the exact odds of each way a game ends, as
/// `ttt match` gives them. A function is then asked again along games drawn from the match
/// (`recheck_seed` their seed, fresh by default), one turn at a time in the order of a game:
/// `answers_differently` names its side when an answer differed.
#[pyfunction]
#[pyo3(name = "match", signature = (x, o, game = "3x3", *, timeout = None, recheck_seed = None))]
fn play_match(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    o: &Bound<'_, PyAny>,
    game: &str,
    timeout: Option<f64>,
    recheck_seed: Option<u64>,
) -> PyResult<MatchReport> {
    let game = game_of(game)?;
    let timeout = timeout_of(timeout)?;
    let mut first = Prepared::new(py, x, None, false, timeout)?;
    let mut second = Prepared::new(py, o, None, false, timeout)?;
    let options = MatchOptions {
        game,
        recheck_seed,
        ..MatchOptions::default()
    };
    let (a, b) = (&mut first.bot, &mut second.bot);
    let report = py.detach(|| ttt_oracle::matchup(a, b, &options));
    let report = report.map_err(|error| {
        let failure = Failure::from(error);
        match second
            .bot
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            Some(held) => held,
            None => first.raise(failure),
        }
    })?;
    let json = serde_json::to_value(&report).map_err(value_error)?;
    Ok(MatchReport { report, json })
}

/// The exact odds of every way a match ends.
#[pyclass(module = "ttt_oracle", frozen)]
struct MatchReport {
    report: ttt_oracle::matchup::MatchReport,
    json: Json,
}

#[pymethods]
impl MatchReport {
    /// The name of the bot playing X.
    #[getter]
    fn x(&self) -> &str {
        &self.report.x
    }
    /// The name of the bot playing O.
    #[getter]
    fn o(&self) -> &str {
        &self.report.o
    }
    /// How many distinct games the two bots can play.
    #[getter]
    fn games(&self) -> u64 {
        self.report.games
    }
    /// The chance that X wins, exact.
    #[getter]
    fn x_wins<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, &self.report.x_wins.to_string())
    }
    /// The chance of a draw, exact.
    #[getter]
    fn draws<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, &self.report.draws.to_string())
    }
    /// The chance that O wins, exact.
    #[getter]
    fn o_wins<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, &self.report.o_wins.to_string())
    }
    /// The chance that X forfeits (a taken cell), exact.
    #[getter]
    fn x_forfeits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, &self.report.x_forfeits.to_string())
    }
    /// The chance that O forfeits, exact.
    #[getter]
    fn o_forfeits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, &self.report.o_forfeits.to_string())
    }
    /// "X" or "O" when that side's function answered differently when asked again one turn
    /// at a time, in the order of a game (the odds are then not those of its games); None
    /// otherwise. Where: `to_dict()["x_recheck"]` or `["o_recheck"]`.
    #[getter]
    fn answers_differently(&self) -> Option<String> {
        self.report
            .answers_differently()
            .map(|side| side.to_string())
    }
    /// The report in the JSON form of `ttt match X O --format json` for one pairing.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_python(py, &self.json)
    }
    fn __repr__(&self) -> String {
        format!(
            "<MatchReport {} (X) vs {} (O): {} games>",
            self.report.x, self.report.o, self.report.games
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play_match, m)?)?;
    m.add_class::<MatchReport>()?;
    Ok(())
}
