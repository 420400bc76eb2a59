//! Standard output as `ttt` writes it: failing, not quietly dropping, when it was closed.

use std::io::{self, IsTerminal, StdoutLock, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once a write or flush of standard output has failed in this process.
static FAILED: AtomicBool = AtomicBool::new(false);

/// Whether a write to standard output has failed already: its error was returned to whoever
/// wrote, and another attempt (the flush at the end) would only fail again.
pub fn failed() -> bool {
    FAILED.load(Ordering::SeqCst)
}

/// `result`, noting a failure.
fn noted<T>(result: io::Result<T>) -> io::Result<T> {
    if result.is_err() {
        FAILED.store(true, Ordering::SeqCst);
    }
    result
}

/// Standard output, locked, for the whole of a command's output. It differs from
/// [`io::stdout`] in one way: when standard output was closed as the program started (`>&-`),
/// the Rust runtime quietly puts `/dev/null` in its place, and a write here fails instead, so
/// that output that cannot arrive is never taken for output written.
#[derive(Debug)]
pub struct StandardOutput {
    inner: StdoutLock<'static>,
}

/// Standard output, locked: see [`StandardOutput`].
pub fn standard_output() -> StandardOutput {
    StandardOutput {
        inner: io::stdout().lock(),
    }
}

impl StandardOutput {
    /// Whether standard output is a terminal.
    pub fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }
}

impl Write for StandardOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !buf.is_empty() && closed_at_start::stdout() {
            return noted(Err(io::Error::other(
                "it was closed when ttt started (Bad file descriptor)",
            )));
        }
        noted(self.inner.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        noted(self.inner.flush())
    }
}

/// Whether standard output was closed when the program started, looked at before the Rust
/// runtime opens `/dev/null` over a closed descriptor: by a function the dynamic loader runs
/// before `main` (`.init_array`). Elsewhere than Linux, never known to be.
mod closed_at_start {
    use std::sync::atomic::{AtomicBool, Ordering};

    static STDOUT: AtomicBool = AtomicBool::new(false);

    #[cfg(target_os = "linux")]
    #[used]
    #[unsafe(link_section = ".init_array")]
    static LOOK: extern "C" fn() = look;

    #[cfg(target_os = "linux")]
    extern "C" fn look() {
        // SAFETY: fcntl(F_GETFD) only reads the descriptor's flags; -1 means it is not open.
        if unsafe { libc::fcntl(1, libc::F_GETFD) } == -1 {
            STDOUT.store(true, Ordering::SeqCst);
        }
    }

    /// Whether standard output was closed when the program started.
    pub(super) fn stdout() -> bool {
        STDOUT.load(Ordering::SeqCst)
    }
}
