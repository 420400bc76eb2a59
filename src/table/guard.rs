//! What stops a process whose mapped table changes under it, so that it never answers from
//! bytes other than those it checked: a read lease on the table (Linux), whose break the
//! kernel signals before another process may open the file for writing or truncate it, and a
//! handler for the `SIGBUS` a read past a truncated file's end raises where no lease could be
//! taken. Either way the process writes one line naming the table and ends with exit code 4,
//! from the signal handler itself (only `write` and `_exit`, which are async-signal-safe).
//!
//! Only a program that owns its process, as the `ttt` binary does, wants that: the guard is
//! on once [`crate::shutdown::install`] has run ([`enable`]), and a library user's process
//! (a test reading a table it then rewrites, Python) reads its tables unguarded, as mapped
//! files are read anywhere.
//!
//! A tier found damaged when it is first read ([`stop_damaged`]) ends a guarded process the
//! same way, after the program's cleanup; an unguarded one panics.
//!
//! `ttt solve` never writes a table in place (it replaces it by a rename, which leaves a reader
//! the file it opened), so only another program writing into the file can set these off.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Once, OnceLock};

/// Tables guarded at once; a table opened beyond them is read unguarded.
const SLOTS: usize = 32;

/// A guarded table: its descriptor (-1 for a free slot), its mapping, and the line written
/// when it changes.
struct Slot {
    fd: AtomicI32,
    start: AtomicUsize,
    len: AtomicUsize,
    message: AtomicUsize,
    message_len: AtomicUsize,
}

#[allow(clippy::declare_interior_mutable_const)]
const FREE: Slot = Slot {
    fd: AtomicI32::new(-1),
    start: AtomicUsize::new(0),
    len: AtomicUsize::new(0),
    message: AtomicUsize::new(0),
    message_len: AtomicUsize::new(0),
};

static GUARDED: [Slot; SLOTS] = [FREE; SLOTS];

/// The `SIGBUS` action in place before ours, given back for a fault outside every table.
static PREVIOUS_BUS: std::sync::OnceLock<libc::sigaction> = std::sync::OnceLock::new();

/// Whether tables opened from now on are guarded.
static ENABLED: AtomicBool = AtomicBool::new(false);

/// What the program does before it ends over a damaged tier, given to [`enable`].
static CLEANUP: OnceLock<fn()> = OnceLock::new();

/// Guards the tables this process opens from now on (see the [module](self)), and has a tier
/// found damaged end the process after `cleanup` (which stops the program's children and
/// removes its temporary files). Call it from the main thread before any other starts: it
/// lets `SIGBUS` and `SIGIO` through in the calling thread, and so in every thread it starts
/// afterwards, as a mask inherited blocked from the program's parent would leave a changed
/// table unseen and a truncated one a plain bus error.
pub(crate) fn enable(cleanup: fn()) {
    let _ = CLEANUP.set(cleanup);
    // SAFETY: sigemptyset and sigaddset fill a zeroed set of ours; pthread_sigmask changes
    // only the calling thread's mask.
    unsafe {
        let mut both: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut both);
        libc::sigaddset(&mut both, libc::SIGBUS);
        #[cfg(target_os = "linux")]
        libc::sigaddset(&mut both, libc::SIGIO);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &both, std::ptr::null_mut());
    }
    ENABLED.store(true, Ordering::SeqCst);
}

/// Ends the read of a tier that does not match its checksum, which a probe cannot report:
/// where the guard is on, runs the cleanup given to [`enable`], writes `error: MESSAGE` and
/// ends the process with exit code 4, as a table changed under it does; elsewhere, panics with
/// `message`. Either way, nothing is answered from the tier.
pub(crate) fn stop_damaged(message: &str) -> ! {
    if !ENABLED.load(Ordering::SeqCst) {
        panic!("{message}");
    }
    // The first reader to find it ends the process; any other waits for the end.
    static ENDING: AtomicBool = AtomicBool::new(false);
    if !ENDING.swap(true, Ordering::SeqCst) {
        if let Some(cleanup) = CLEANUP.get() {
            cleanup();
        }
        let _ = writeln!(std::io::stderr(), "error: {message}");
        // SAFETY: _exit has no preconditions; it ends the process without running anything
        // more while other threads may still be reading.
        unsafe { libc::_exit(4) }
    }
    loop {
        std::thread::park();
    }
}

/// A table's place among the guarded ones; freed when dropped.
#[derive(Debug)]
pub(crate) struct Guard {
    slot: Option<usize>,
}

/// Why a table is not guarded, nor read: another process has it open for writing.
#[derive(Debug)]
pub(crate) struct OpenForWriting;

impl Guard {
    /// Guards the table open at `fd`: registers `message` (leaked: a handler may still read it
    /// after the table is dropped), then takes a read lease where the kernel gives one. Call it
    /// before reading the table's bytes, so that a change after the call stops the process and
    /// a change before it is seen by the checks that follow.
    ///
    /// # Errors
    ///
    /// [`OpenForWriting`] when another process has the file open for writing (the kernel
    /// refuses the lease for that): it may change at any moment, and no check could tell.
    pub(crate) fn take(fd: i32, message: String) -> Result<Guard, OpenForWriting> {
        let unguarded = Guard { slot: None };
        if !ENABLED.load(Ordering::SeqCst) {
            return Ok(unguarded);
        }
        install();
        let message: &'static str = Box::leak(message.into_boxed_str());
        let free = GUARDED.iter().position(|slot| {
            slot.fd
                .compare_exchange(-1, -2, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        });
        let Some(slot) = free else {
            return Ok(unguarded);
        };
        let entry = &GUARDED[slot];
        entry
            .message
            .store(message.as_ptr() as usize, Ordering::Relaxed);
        entry.message_len.store(message.len(), Ordering::Relaxed);
        entry.fd.store(fd, Ordering::Release);
        let guard = Guard { slot: Some(slot) };
        // Without a lease for another reason, a change is not seen, but a truncation still
        // ends in the message. A file open for writing is asked again for a moment: a
        // writer may be about to let go (a child forked by a process that had just written
        // the file, before its exec closes the descriptor).
        for wait in [0, 5, 10, 20, 40, 80, 160] {
            std::thread::sleep(std::time::Duration::from_millis(wait));
            match lease(fd) {
                Err(error) if error.raw_os_error() == Some(libc::EAGAIN) => continue,
                _ => return Ok(guard),
            }
        }
        Err(OpenForWriting)
    }

    /// Records where the table is mapped, so that a `SIGBUS` there is known as its own.
    pub(crate) fn mapped(&self, bytes: &[u8]) {
        if let Some(slot) = self.slot {
            GUARDED[slot].len.store(0, Ordering::Release);
            GUARDED[slot]
                .start
                .store(bytes.as_ptr() as usize, Ordering::Release);
            GUARDED[slot].len.store(bytes.len(), Ordering::Release);
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            let entry = &GUARDED[slot];
            entry.len.store(0, Ordering::Release);
            entry.fd.store(-1, Ordering::Release);
        }
    }
}

/// A read lease on `fd`, broken by a signal of ours; an error where the kernel refuses it
/// (`EAGAIN`: a file open for writing somewhere; a file this user does not own, a network file
/// system, leases turned off) or on a system without leases.
fn lease(fd: i32) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        /// `fcntl`'s command that sets the signal a lease break sends (`<fcntl.h>`'s
        /// `F_SETSIG`, 10 on every Linux architecture), which the libc crate does not name.
        const F_SETSIG: i32 = 10;
        // SAFETY: fcntl on a descriptor the caller holds open; F_SETSIG makes the break come
        // as SIGIO with the descriptor in its `si_fd`.
        let leased = unsafe {
            libc::fcntl(fd, F_SETSIG, libc::SIGIO) == 0
                && libc::fcntl(fd, libc::F_SETLEASE, libc::F_RDLCK) == 0
        };
        match leased {
            true => Ok(()),
            false => Err(std::io::Error::last_os_error()),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = fd;
        Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
    }
}

/// Installs the handlers, once per process.
fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: sigaction with a zeroed struct filled with a handler of the SA_SIGINFO
        // signature; the old action is kept to be given back.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            let mut previous: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGBUS, &action, &mut previous) == 0 {
                let _ = PREVIOUS_BUS.set(previous);
            }
            #[cfg(target_os = "linux")]
            libc::sigaction(libc::SIGIO, &action, std::ptr::null_mut());
        }
    });
}

/// The handler: a lease broken or a fault in a guarded table writes that table's line and
/// ends the process with 4; any other `SIGBUS` gets the action it had before, by returning to
/// the fault with that action back in place; any other `SIGIO` is ignored.
extern "C" fn on_signal(signal: i32, info: *mut libc::siginfo_t, _context: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler.
    let info = unsafe { &*info };
    let hit = GUARDED.iter().find(|slot| {
        let fd = slot.fd.load(Ordering::Acquire);
        if fd < 0 {
            return false;
        }
        if signal == libc::SIGBUS {
            // SAFETY: si_addr is set for SIGBUS.
            let at = unsafe { info.si_addr() } as usize;
            let start = slot.start.load(Ordering::Acquire);
            let len = slot.len.load(Ordering::Acquire);
            return at >= start && at - start < len;
        }
        lease_broken_fd(info) == Some(fd)
    });
    if let Some(slot) = hit {
        let message = slot.message.load(Ordering::Relaxed) as *const libc::c_void;
        let len = slot.message_len.load(Ordering::Relaxed);
        // SAFETY: write and _exit are async-signal-safe; the message is leaked, never freed.
        unsafe {
            libc::write(2, message, len);
            libc::_exit(4);
        }
    }
    if signal == libc::SIGBUS {
        let previous = PREVIOUS_BUS.get();
        // SAFETY: sigaction is async-signal-safe; returning re-runs the faulting access,
        // which the action given back then handles (by default, ends the process).
        unsafe {
            let mut default: libc::sigaction = std::mem::zeroed();
            default.sa_sigaction = libc::SIG_DFL;
            let action = previous.unwrap_or(&default);
            libc::sigaction(libc::SIGBUS, action, std::ptr::null_mut());
        }
    }
}

/// The descriptor whose lease broke, from a `SIGIO` sent with `F_SETSIG` (its `si_fd`).
#[cfg(target_os = "linux")]
fn lease_broken_fd(info: &libc::siginfo_t) -> Option<i32> {
    /// The head of the kernel's `siginfo_t` for SIGIO (`si_band`, `si_fd` after the three ints
    /// and the padding that aligns the union), which libc does not name.
    #[repr(C)]
    struct Poll {
        signo: i32,
        errno: i32,
        code: i32,
        #[cfg(target_pointer_width = "64")]
        _pad: i32,
        band: libc::c_long,
        fd: i32,
    }
    // SAFETY: siginfo_t is larger than this prefix and laid out as it says for SIGIO.
    let poll = unsafe { &*(info as *const libc::siginfo_t).cast::<Poll>() };
    Some(poll.fd)
}

#[cfg(not(target_os = "linux"))]
fn lease_broken_fd(_info: &libc::siginfo_t) -> Option<i32> {
    None
}
