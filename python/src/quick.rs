//! `Oracle.best_move` called the quickest way an abi3 module for Python 3.9 has, `METH_O`: one
//! argument, no tuple. PyO3 gives methods `METH_FASTCALL` with abi3 only from Python 3.10 on,
//! and before that builds a tuple of the arguments and parses it; the call's goal is 200 ns.

use std::ffi::CStr;

use pyo3::ffi;
use pyo3::panic::PanicException;
use pyo3::prelude::*;

use crate::Oracle;

/// The docstring, with the signature `help()` shows.
const DOC: &CStr = c"best_move($self, position, /)
--

The best move (a cell number) for the side to move, or None when the game is over. Ties go to
the lowest cell, as `ttt best` prints.";

/// The method: `slf` an `Oracle`, `position` its one argument; the GIL is held. A Rust panic
/// becomes a Python exception (`PanicException`), never an unwind into the interpreter.
unsafe extern "C" fn best_move(
    slf: *mut ffi::PyObject,
    position: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls a method with the GIL held and both pointers borrowed for the call.
    let py = unsafe { Python::assume_attached() };
    let answer = std::panic::catch_unwind(|| -> PyResult<*mut ffi::PyObject> {
        let slf = unsafe { Bound::from_borrowed_ptr(py, slf) };
        let position = unsafe { Bound::from_borrowed_ptr(py, position) };
        let oracle = slf.cast::<Oracle>()?;
        let cell = oracle.get().best_move(&position)?;
        Ok(cell.into_pyobject(py)?.into_ptr())
    });
    let error = match answer {
        Ok(Ok(object)) => return object,
        Ok(Err(error)) => error,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            PanicException::new_err(message)
        }
    };
    error.restore(py);
    std::ptr::null_mut()
}

/// Puts the `METH_O` method on the class `Oracle`.
pub fn install(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let class = py.get_type::<Oracle>();
    // The interpreter keeps a pointer to the definition for as long as the class lives: for
    // the process, as the module is never unloaded.
    let definition = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: c"best_move".as_ptr(),
        ml_meth: ffi::PyMethodDefPointer {
            PyCFunction: best_move,
        },
        ml_flags: ffi::METH_O,
        ml_doc: DOC.as_ptr(),
    }));
    // SAFETY: `class` is a type object and `definition` lives for the process.
    let descriptor = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyDescr_NewMethod(class.as_ptr().cast(), definition),
        )?
    };
    class.setattr("best_move", descriptor)
}
