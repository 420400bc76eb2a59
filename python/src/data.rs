//! The data: every position of a game as records (`export`), a game reviewed move by move,
//! and the built-in bots.

use std::collections::VecDeque;

use pyo3::prelude::*;
use ttt_oracle::bots::{CATALOG, PARAMETERISED};
use ttt_oracle::export::{Record, Records};
use ttt_oracle::{Game, Review};

use crate::convert::{game_of, history_of, to_python, value_error};

/// How many records are made at a time, without the GIL.
const CHUNK: usize = 4096;

/// Every position of a game, one dict a record, in the order and form of `ttt export --format
/// jsonl`; made a chunk at a time without the GIL.
#[pyclass(module = "ttt_oracle")]
struct Export {
    records: Option<Records>,
    ready: VecDeque<Record>,
}

#[pymethods]
impl Export {
    /// The iterator itself.
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        if self.ready.is_empty() {
            let Some(mut records) = self.records.take() else {
                return Ok(None);
            };
            let (records, chunk) = py.detach(move || {
                let chunk: VecDeque<Record> = records.by_ref().take(CHUNK).collect();
                (records, chunk)
            });
            if chunk.len() == CHUNK {
                self.records = Some(records);
            }
            self.ready = chunk;
        }
        match self.ready.pop_front() {
            Some(record) => to_python(py, &record).map(Some),
            None => Ok(None),
        }
    }
}

/// Every position of `game` (one of each set equal up to a symmetry with `canonical=True`).
#[pyfunction]
#[pyo3(signature = (game = "3x3", *, canonical = false))]
fn export(py: Python<'_>, game: &str, canonical: bool) -> PyResult<Export> {
    let game: Game = game_of(game)?;
    let records = py
        .detach(|| ttt_oracle::export::records(game, canonical))
        .map_err(value_error)?;
    Ok(Export {
        records: Some(records),
        ready: VecDeque::new(),
    })
}

/// Every move of a game judged against the table, as `ttt review --format json` prints it.
#[pyfunction]
#[pyo3(signature = (moves, game = "3x3"))]
fn review<'py>(
    py: Python<'py>,
    moves: &Bound<'py, PyAny>,
    game: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let history = history_of(game_of(game)?, moves)?;
    let review = py.detach(|| Review::new(&history)).map_err(value_error)?;
    let json = to_python(py, &review)?;
    // `ttt review` names a side that forfeited when its result line says so; a move list
    // cannot, so the key is always None here, as the command prints it for a move list.
    json.cast::<pyo3::types::PyDict>()?
        .set_item("forfeit", py.None())?;
    Ok(json)
}

/// The built-in bots: each a dict of `name`, `summary` and `source` (where it was
/// published, or None for the project's own); then the forms that take a parameter
/// (`casual:P`...), with `name` the form.
#[pyfunction]
fn bots<'py>(py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let mut list = Vec::new();
    for bot in CATALOG {
        let dict = pyo3::types::PyDict::new(py);
        dict.set_item("name", bot.name)?;
        dict.set_item("summary", bot.summary)?;
        dict.set_item("source", bot.source.map(|s| s.to_string()))?;
        list.push(dict.into_any());
    }
    for &(form, summary) in PARAMETERISED {
        let dict = pyo3::types::PyDict::new(py);
        dict.set_item("name", form)?;
        dict.set_item("summary", summary)?;
        dict.set_item("source", py.None())?;
        list.push(dict.into_any());
    }
    Ok(list)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(export, m)?)?;
    m.add_function(wrap_pyfunction!(review, m)?)?;
    m.add_function(wrap_pyfunction!(bots, m)?)?;
    m.add_class::<Export>()?;
    Ok(())
}
