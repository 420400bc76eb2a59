//! `ttt_oracle._native`: the Rust side of the Python package `ttt_oracle`, a thin layer of PyO3
//! wrappers over the library (every rule lives there). `convert` reads what Python passes (games,
//! positions) and turns errors into exceptions; `pybot` is a Python callable as a bot; `audit`
//! and `data` are the functions; `quick` the one method called the quickest way.

mod audit;
mod convert;
mod data;
mod matchup;
mod pybot;
mod quick;

use pyo3::prelude::*;
use ttt_oracle::{Oracle as Solved, Position};

use convert::{game_of, position_of, value_error};

/// The solved table of one game: every question about a position in constant time.
///
/// `Oracle("4x4")` solves the game first when its table is not embedded (3x3, 3x4, 4x3, 4x4
/// and 4x4k3 are), without holding the GIL. Positions are board strings (`"XO..X...."`, rows
/// optionally separated by `/`) or move lists (`"5 1"`, `[5, 1]`), cells numbered from 1, row
/// by row.
#[pyclass(module = "ttt_oracle", frozen)]
struct Oracle {
    oracle: Solved,
}

#[pymethods]
impl Oracle {
    #[new]
    #[pyo3(signature = (game = "3x3"))]
    fn new(py: Python<'_>, game: &str) -> PyResult<Oracle> {
        let game = game_of(game)?;
        let oracle = py.detach(|| Solved::of(game)).map_err(value_error)?;
        Ok(Oracle { oracle })
    }

    /// The game, by name (`"3x3"`, `"4x4k3"`...).
    #[getter]
    fn game(&self) -> String {
        self.oracle.game().to_string()
    }

    /// Every optimal move, lowest cell first; empty when the game is over.
    fn best_moves(&self, position: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let position = self.position(position)?;
        Ok(self
            .oracle
            .best_moves(&position)
            .iter()
            .map(|c| u32::from(c.number()))
            .collect())
    }

    /// The position analysed, as `ttt analyze --format json` prints it: board, to_move,
    /// status, value (`"win"`, `"draw"`, `"loss"` for the side to move), remoteness (plies to
    /// the end under perfect play), best, line (the perfect line) and moves (each move's value).
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let position = self.position(position)?;
        convert::to_python(py, &self.oracle.analyze(&position))
    }

    fn __repr__(&self) -> String {
        format!("Oracle({:?})", self.oracle.game().to_string())
    }
}

impl Oracle {
    /// `Oracle.best_move`, which Python calls through `quick`.
    fn best_move(&self, position: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        let position = self.position(position)?;
        Ok(self
            .oracle
            .best_move(&position)
            .map(|cell| u32::from(cell.number())))
    }

    fn position(&self, position: &Bound<'_, PyAny>) -> PyResult<Position> {
        position_of(self.oracle.game(), position)
    }
}

/// The best move (a cell number) in `position` of `game`, or None when the game is over.
#[pyfunction]
#[pyo3(signature = (position, game = "3x3"))]
fn best_move(py: Python<'_>, position: &Bound<'_, PyAny>, game: &str) -> PyResult<Option<u32>> {
    Oracle::new(py, game)?.best_move(position)
}

/// Every optimal move in `position` of `game`, lowest cell first.
#[pyfunction]
#[pyo3(signature = (position, game = "3x3"))]
fn best_moves(py: Python<'_>, position: &Bound<'_, PyAny>, game: &str) -> PyResult<Vec<u32>> {
    Oracle::new(py, game)?.best_moves(position)
}

/// `position` of `game` analysed: see `Oracle.analyze`.
#[pyfunction]
#[pyo3(signature = (position, game = "3x3"))]
fn analyze<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    game: &str,
) -> PyResult<Bound<'py, PyAny>> {
    Oracle::new(py, game)?.analyze(py, position)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Oracle>()?;
    quick::install(m)?;
    m.add_function(wrap_pyfunction!(best_move, m)?)?;
    m.add_function(wrap_pyfunction!(best_moves, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    audit::register(m)?;
    matchup::register(m)?;
    data::register(m)?;
    m.add("BotTimeout", m.py().get_type::<pybot::BotTimeout>())?;
    Ok(())
}
