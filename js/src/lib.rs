//! `ttt_oracle_js.wasm`: the library as WebAssembly, for the npm package `ttt-oracle` (js/),
//! a thin layer over the crate as the Python package's is (every rule lives in the library).
//!
//! Why raw `extern "C"` exports and a hand-written glue (js/ttt-oracle.cjs) rather than
//! wasm-bindgen: the bindings need a handful of calls, each taking and giving text (a board, a
//! game's name, a JSON request and its JSON reply), which pass through linear memory in a few
//! lines of JavaScript. wasm-bindgen would generate that glue, but only with its command-line
//! tool at the exact version of the crate, compiled from crates.io on every fresh machine:
//! minutes of CI for code we can read in one file. A JavaScript bot is a function the glue
//! holds; the audit asks it through one imported function, synchronously (`jsbot`).
//!
//! The calls, each wrapped by the glue:
//! - `ttt_alloc`/`ttt_free`: a buffer for the text the glue passes in;
//! - `ttt_open`/`ttt_close`: an oracle of one game, by handle, and `ttt_best_move`, the quick
//!   path of `Oracle.bestMove` (a board or move list in the scratch buffer, `ttt_scratch`);
//! - `ttt_call`: every other call, a JSON request answered in JSON (`calls`);
//! - `ttt_reply_ptr`/`ttt_reply_len`: where the last reply, or error, lies;
//! - `ttt_answer`: a JavaScript bot's answer, when it is more than one cell.
//!
//! The page's worker (src/web/page/worker.js) uses the same module through `ttt_call`'s
//! `respond`: what `ttt serve` answers to a request, made here, reporting any solve it makes
//! through the imported `solving`.
//!
//! A panic cannot unwind on this target: it aborts the module (a trap). The hook installed by
//! `ttt_init` hands its message to the glue first, which then drops the instance and starts a
//! new one for the next call, and reports the panic as an `Error`.

mod calls;
mod jsbot;

use std::cell::RefCell;
use std::fmt::Display;

use serde_json::{Value as Json, json};
use ttt_oracle::{BatchBest, Game, Oracle, Position};

#[cfg(target_family = "wasm")]
#[link(wasm_import_module = "ttt")]
unsafe extern "C" {
    /// Hands the glue a panic's message (UTF-8 at `ptr`, `len` bytes) before the abort.
    fn panicked(ptr: *const u8, len: usize);
    /// Tells the glue how far the solve of a game (its name, UTF-8 at `ptr`, `len` bytes) is,
    /// `share` from 0 to 1, while a `respond` call solves one (the page's worker shows it).
    fn solving(ptr: *const u8, len: usize, share: f64);
}

/// Tells the glue how far the solve of `game` is (`solving`); nothing off WebAssembly.
pub(crate) fn tell_solving(game: Game, share: f64) {
    let name = game.to_string();
    #[cfg(target_family = "wasm")]
    // SAFETY: the glue reads `len` bytes at `ptr` before returning.
    unsafe {
        solving(name.as_ptr(), name.len(), share)
    };
    #[cfg(not(target_family = "wasm"))]
    let _ = (name, share);
}

thread_local! {
    /// The reply to the last call: JSON, `{"ok": ...}` or `{"error": {"kind", "message"}}`.
    static REPLY: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The oracles open, by handle - 1; a closed one's place is `None` until reused.
    static ORACLES: RefCell<Vec<Option<Opened>>> = const { RefCell::new(Vec::new()) };
}

/// An oracle open, with the crate's quick path for best moves when its game has one.
struct Opened {
    oracle: Oracle,
    /// Reads a board as `ttt best -` reads one, legal and in play, with nothing allocated: in
    /// WebAssembly, where the general path's 128-bit boards cost many instructions, a call of
    /// `Oracle.bestMove` with a board takes a fifth of the time through it.
    batch: Option<BatchBest>,
    /// Its answer, a cell and a newline.
    answer: Vec<u8>,
}

/// The scratch buffer of `ttt_best_move`: a board or a move list shorter than this is written
/// here by the glue, with a newline after it, and no allocation.
const SCRATCH: usize = 128;

/// Where the glue writes short text for the quick calls. Those calls never reach JavaScript
/// while they run, so no other call can write here meanwhile.
static mut SCRATCH_BUFFER: [u8; SCRATCH] = [0; SCRATCH];

/// Installs the panic hook; the glue calls it once an instance is made.
#[unsafe(no_mangle)]
pub extern "C" fn ttt_init() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        #[cfg(target_family = "wasm")]
        // SAFETY: the glue reads `len` bytes at `ptr` before returning.
        unsafe {
            panicked(message.as_ptr(), message.len())
        };
        #[cfg(not(target_family = "wasm"))]
        eprintln!("{message}");
    }));
}

/// The scratch buffer's address and size (`SCRATCH` bytes).
#[unsafe(no_mangle)]
pub extern "C" fn ttt_scratch() -> *mut u8 {
    &raw mut SCRATCH_BUFFER as *mut u8
}

/// A buffer of `len` bytes for the glue to fill; `ttt_free` gives it back.
#[unsafe(no_mangle)]
pub extern "C" fn ttt_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Gives back a buffer of `ttt_alloc(len)`.
///
/// # Safety
///
/// `ptr` came from `ttt_alloc(len)` and is given back once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ttt_free(ptr: *mut u8, len: usize) {
    // SAFETY: as the caller promises, a vector of this capacity allocated it.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len.max(1)) });
}

/// The address of the last reply.
#[unsafe(no_mangle)]
pub extern "C" fn ttt_reply_ptr() -> *const u8 {
    REPLY.with_borrow(|reply| reply.as_ptr())
}

/// The length of the last reply, in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn ttt_reply_len() -> usize {
    REPLY.with_borrow(Vec::len)
}

fn reply(json: &Json) {
    let text = json.to_string().into_bytes();
    REPLY.with_borrow_mut(|reply| *reply = text);
}

/// What a call could not do: the kind the glue turns into an exception (`value`: a bad
/// argument, `Error`; `bot`: a bot that could not answer, `BotError`; `audit`: an audit or
/// a match that could not run to its end, `AuditFailed`) and the crate's own message.
pub(crate) struct Failure {
    kind: &'static str,
    message: String,
}

impl Failure {
    pub(crate) fn value(error: impl Display) -> Failure {
        Failure {
            kind: "value",
            message: error.to_string(),
        }
    }

    pub(crate) fn bot(error: impl Display) -> Failure {
        Failure {
            kind: "bot",
            message: error.to_string(),
        }
    }

    pub(crate) fn audit(error: impl Display) -> Failure {
        Failure {
            kind: "audit",
            message: error.to_string(),
        }
    }

    fn reply(&self) {
        reply(&json!({"error": {"kind": self.kind, "message": self.message}}));
    }
}

/// Text the glue passed in: `len` bytes at `ptr`.
///
/// # Safety
///
/// `ptr` points to `len` initialised bytes that stay unchanged during the call.
unsafe fn text<'a>(ptr: *const u8, len: usize) -> Result<&'a str, Failure> {
    // SAFETY: as the caller promises.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    std::str::from_utf8(bytes).map_err(Failure::value)
}

/// A position of `game`: a move list (digits and white space, `""` for the start) or a board
/// (`"XO..X...."`, rows optionally separated by `/`), as the Python package and the command
/// line's `--moves` and boards read them.
pub(crate) fn position_of(game: Game, text: &str) -> Result<Position, Failure> {
    if text
        .chars()
        .all(|c| c.is_ascii_digit() || c.is_whitespace())
    {
        return Position::from_move_list(game, text)
            .map(|(position, _)| position)
            .map_err(Failure::value);
    }
    Position::parse(game, text).map_err(Failure::value)
}

/// Opens the oracle of the game named by `len` bytes at `ptr` (`"3x3"`, `"4x4k3"`...),
/// solving it first when its table is not embedded: a handle, or 0 with the error as the
/// reply.
///
/// # Safety
///
/// `ptr` points to `len` initialised bytes that stay unchanged during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ttt_open(ptr: *const u8, len: usize) -> u32 {
    // SAFETY: as the caller promises.
    let opened = unsafe { text(ptr, len) }.and_then(|name| {
        let game: Game = name.parse().map_err(Failure::value)?;
        Oracle::of(game).map_err(Failure::value)
    });
    match opened {
        Ok(oracle) => ORACLES.with_borrow_mut(|oracles| {
            let oracle = Opened {
                batch: BatchBest::new(&oracle, false),
                oracle,
                answer: Vec::with_capacity(8),
            };
            let free = oracles.iter().position(Option::is_none);
            let index = free.unwrap_or(oracles.len());
            match free {
                Some(index) => oracles[index] = Some(oracle),
                None => oracles.push(Some(oracle)),
            }
            index as u32 + 1
        }),
        Err(failure) => {
            failure.reply();
            0
        }
    }
}

/// Closes an oracle `ttt_open` gave; a handle closed already, or never given, is ignored.
#[unsafe(no_mangle)]
pub extern "C" fn ttt_close(handle: u32) {
    ORACLES.with_borrow_mut(|oracles| {
        if let Some(slot) = oracles.get_mut((handle as usize).wrapping_sub(1)) {
            *slot = None;
        }
    });
}

/// The best move of the oracle `handle` in the position of `len` bytes in the scratch
/// buffer, followed there by a newline (`SCRATCH` bytes in all): the cell's number, 0 when
/// the game is over, -1 with the error as the reply.
#[unsafe(no_mangle)]
pub extern "C" fn ttt_best_move(handle: u32, len: usize) -> i32 {
    let best = ORACLES.with_borrow_mut(|oracles| {
        let Some(Some(opened)) = oracles.get_mut((handle as usize).wrapping_sub(1)) else {
            return Err(Failure::value(format!("no oracle is open as {handle}")));
        };
        // SAFETY: the glue wrote `len` bytes and a newline there, and nothing writes during
        // this call.
        let line =
            unsafe { std::slice::from_raw_parts(&raw const SCRATCH_BUFFER as *const u8, SCRATCH) };
        let line = &line[..(len + 1).min(SCRATCH)];
        if let Some(batch) = &opened.batch {
            opened.answer.clear();
            // The whole text as one line, not the first of several.
            if batch.answer_lines(line, &mut opened.answer) == (line.len(), 1) {
                let digits = opened.answer.strip_suffix(b"\n").unwrap_or_default();
                let cell = digits
                    .iter()
                    .fold(0, |cell, digit| cell * 10 + i32::from(digit - b'0'));
                return Ok(Some(cell));
            }
        }
        let text = std::str::from_utf8(&line[..len.min(line.len())]).map_err(Failure::value)?;
        let position = position_of(opened.oracle.game(), text)?;
        let best = opened.oracle.best_move(&position);
        Ok(best.map(|cell| i32::from(cell.number())))
    });
    match best {
        Ok(cell) => cell.unwrap_or(0),
        Err(failure) => {
            failure.reply();
            -1
        }
    }
}

/// Answers the JSON request of `len` bytes at `ptr` (`calls`): 0 with `{"ok": ...}` as the
/// reply, 1 with `{"error": ...}`.
///
/// # Safety
///
/// `ptr` points to `len` initialised bytes that stay unchanged during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ttt_call(ptr: *const u8, len: usize) -> u32 {
    // SAFETY: as the caller promises.
    let answered = unsafe { text(ptr, len) }.and_then(|text| {
        let request: Json = serde_json::from_str(text).map_err(Failure::value)?;
        calls::answer(&request)
    });
    match answered {
        Ok(json) => {
            let text = format!("{{\"ok\":{json}}}").into_bytes();
            REPLY.with_borrow_mut(|reply| *reply = text);
            0
        }
        Err(failure) => {
            failure.reply();
            1
        }
    }
}

/// Takes a JavaScript bot's answer, `len` bytes of JSON at `ptr`, for the `ask` that is
/// waiting for it (`jsbot`).
///
/// # Safety
///
/// `ptr` points to `len` initialised bytes that stay unchanged during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ttt_answer(ptr: *const u8, len: usize) {
    // SAFETY: as the caller promises.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec();
    jsbot::ANSWER.with_borrow_mut(|answer| *answer = Some(bytes));
}
