//! What Python passes in, read as the command line reads it, and what goes back: errors as
//! `ValueError` with the crate's own message, the crate's JSON forms as Python objects.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde::Serialize;
use serde_json::Value as Json;
use ttt_oracle::{Cell, Game, History, Position};

/// A library error as a `ValueError` with its own message.
pub fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// A game by name: `"3x3"`, `"4x4"`, `"4x4k3"`, `"5x5"`...
pub fn game_of(name: &str) -> PyResult<Game> {
    name.parse().map_err(value_error)
}

/// A position of `game`: a board string, a move list as a string of cells (`"5 1"`, `""` for
/// the start), or a sequence of cell numbers.
pub fn position_of(game: Game, position: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(text) = position.cast::<PyString>() {
        let mut buffer = [0; TEXT];
        let cow;
        let text: &str = match ascii(text, &mut buffer) {
            Some(text) => text,
            None => {
                cow = text.to_cow()?;
                &cow
            }
        };
        if text
            .chars()
            .all(|c| c.is_ascii_digit() || c.is_whitespace())
        {
            return Position::from_move_list(game, text)
                .map(|(position, _)| position)
                .map_err(value_error);
        }
        return Position::parse(game, text).map_err(value_error);
    }
    Ok(history_of(game, position)?.position())
}

/// The longest position text read without an allocation: a board of 16 cells and its
/// separators, or a short move list.
const TEXT: usize = 40;

/// `text` when it is short and ASCII, read into `buffer` without making a Python object (an
/// abi3 module for Python 3.9 cannot borrow a str's UTF-8): the quick path of `best_move`.
fn ascii<'a>(text: &Bound<'_, PyString>, buffer: &'a mut [u8; TEXT]) -> Option<&'a str> {
    let mut wide = [0u32; TEXT];
    // SAFETY: `text` is a str (checked by the cast); PyUnicode_AsUCS4 writes at most
    // `wide.len()` code points and fails, setting an exception we clear, when it is longer.
    let length = unsafe { pyo3::ffi::PyUnicode_GetLength(text.as_ptr()) };
    if length < 0 || length as usize > TEXT {
        return None;
    }
    let copied =
        unsafe { pyo3::ffi::PyUnicode_AsUCS4(text.as_ptr(), wide.as_mut_ptr(), TEXT as isize, 0) };
    if copied.is_null() {
        let _ = PyErr::take(text.py());
        return None;
    }
    let length = length as usize;
    for (byte, &point) in buffer.iter_mut().zip(&wide[..length]) {
        *byte = u8::try_from(point).ok().filter(u8::is_ascii)?;
    }
    std::str::from_utf8(&buffer[..length]).ok()
}

/// A game's moves: a string of cells (`"5 1"`) or a sequence of cell numbers.
pub fn history_of(game: Game, moves: &Bound<'_, PyAny>) -> PyResult<History> {
    if let Ok(text) = moves.cast::<PyString>() {
        return History::parse(game, &text.to_cow()?).map_err(value_error);
    }
    let numbers: Vec<i64> = moves.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "a position is a board string, a move list string or a sequence of cell numbers, \
             not {}",
            moves
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    let mut history = History::empty(game);
    for (index, number) in numbers.into_iter().enumerate() {
        let cell = usize::try_from(number)
            .ok()
            .filter(|n| (1..=game.cells()).contains(n))
            .and_then(|n| Cell::new(n - 1))
            .ok_or_else(|| {
                value_error(format!(
                    "move {}: {number} is not a cell of {game} (1..{})",
                    index + 1,
                    game.cells()
                ))
            })?;
        history
            .play(cell)
            .map_err(|error| value_error(format!("move {}: {error}", index + 1)))?;
    }
    Ok(history)
}

/// `value` in its JSON form (the crate's, as the command line prints it), as Python objects.
pub fn to_python<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    let json = serde_json::to_value(value).map_err(value_error)?;
    json_to_python(py, &json)
}

pub fn json_to_python<'py>(py: Python<'py>, json: &Json) -> PyResult<Bound<'py, PyAny>> {
    Ok(match json {
        Json::Null => py.None().into_bound(py),
        Json::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Json::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (_, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Json::String(s) => s.into_pyobject(py)?.into_any(),
        Json::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_python(py, item)?)?;
            }
            list.into_any()
        }
        Json::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, json_to_python(py, item)?)?;
            }
            dict.into_any()
        }
    })
}
