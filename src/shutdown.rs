//! Leaving cleanly on every way out: running bots stopped, with everything they started, and
//! temporary files removed, on a normal end, an error, a panic (by their `Drop`), and on
//! `SIGINT`, `SIGTERM` or `SIGHUP`.
//!
//! [`install`] is for programs, such as the `ttt` binary, that own their process: it starts a
//! thread that waits for those signals, stops every bot ([`cleanup`]), and then lets the
//! signal end the program as it would have without a handler, so that a shell sees the usual
//! status (130 for Ctrl-C).

use std::io;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use signal_hook::consts::{
    SIGALRM, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGXCPU, SIGXFSZ,
};
use signal_hook::iterator::Signals;

use crate::child;

static STOPPING: AtomicBool = AtomicBool::new(false);

/// The signals whose default action ends the program and that a program may catch: Ctrl-C
/// (`SIGINT`), Ctrl-\\ (`SIGQUIT`), `kill` and `timeout` (`SIGTERM`), a closed terminal
/// (`SIGHUP`), and the timers, user signals and the CPU time limit. Each is handled the same
/// way. Not `SIGXFSZ`: see [`ignore_file_size_signal`].
pub const SIGNALS: [i32; 9] = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGXCPU,
];

/// Ignores `SIGXFSZ`, the signal a write past the file size limit (`ulimit -f`) sends, so that
/// the write fails with `EFBIG` instead and is reported as every failed write is; left to the
/// signal, the program would end halfway, or not, depending on which came first. Bots started
/// afterwards get the default action back. Call it first thing in `main`, before anything
/// is written.
pub fn ignore_file_size_signal() {
    if ignored(SIGXFSZ) {
        return; // Ignored already by whoever started the program, and so in its bots too.
    }
    // SAFETY: setting a signal's action to SIG_IGN has no memory preconditions.
    unsafe { libc::signal(SIGXFSZ, libc::SIG_IGN) };
    child::restore_file_size_signal();
}

/// Takes charge of this program's bots and handles [`SIGNALS`] (those not ignored at the start) (`SIGINT`, `SIGTERM`, `SIGHUP`,
/// `SIGQUIT` and the rest): on any of them, every bot still running is stopped and reaped with all it started, temporary files
/// are removed ([`cleanup`]), then the program ends by that signal. On Linux it also makes the program the child subreaper of its bots'
/// descendants, and has the kernel kill a bot if the program dies without a chance to clean up.
/// It also guards the tables of the cache folder the program opens from then on: one that
/// another program writes into or truncates while it is read ends the program with a line
/// naming it and exit code 4 (docs/scale.md, "A table changed while it is read"), and so does
/// a tier that fails its checksum when first read, after the cleanup above.
/// Calling it again does nothing.
///
/// Call it at the start of `main`, before any bot starts, in a program whose only children are
/// bots: afterwards any orphan re-parented to the program is taken for a bot's and stopped
/// with it.
///
/// # Errors
///
/// The system's error when the handler cannot be set up.
pub fn install() -> io::Result<()> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| result = start());
    result
}

fn start() -> io::Result<()> {
    child::take_charge()?;
    // A program that owns its process also stops when a table it reads is changed under it,
    // or has a tier found damaged: after this cleanup.
    crate::table::guard::enable(cleanup);
    // A signal ignored when the program started (`nohup` ignores SIGHUP; a shell may trap
    // SIGXFSZ) stays ignored, as it would without a handler.
    let handled: Vec<i32> = SIGNALS.into_iter().filter(|&s| !ignored(s)).collect();
    let mut signals = Signals::new(handled)?;
    // SAFETY: the action only increments an atomic counter (`child::resumed`), which is
    // async-signal-safe.
    unsafe {
        signal_hook::low_level::register(signal_hook::consts::SIGCONT, child::resumed)?;
    }
    thread::Builder::new()
        .name("ttt-signals".to_string())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                STOPPING.store(true, Ordering::SeqCst);
                cleanup();
                // The default action of all three ends the program.
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

/// Whether `signal` is ignored in this process now.
fn ignored(signal: i32) -> bool {
    // SAFETY: sigaction with a null new action only reads the current one into `current`,
    // a zeroed sigaction, which is a valid value of the type.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0
            && current.sa_sigaction == libc::SIG_IGN
    }
}

/// Stops every bot still running, with everything it started, and reaps them; removes every
/// temporary file being written for `-o` (see [`crate::output::remove_temporary_files`], after
/// which no file can be replaced any more). For the end of the program only.
pub fn cleanup() {
    child::stop_all();
    crate::output::remove_temporary_files();
}

/// Whether a signal is ending the program: work that fails now failed because its bot was
/// stopped, and should neither report nor retry.
pub fn stopping() -> bool {
    STOPPING.load(Ordering::SeqCst)
}
