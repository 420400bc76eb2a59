//! Child processes we can always take back.
//!
//! An external bot runs as `sh -c COMMAND` in a process group of its own. Every write to it and
//! every read from it is bounded by a deadline and by size, through non-blocking pipes and
//! `poll(2)`, so nothing it does (stop reading, print without end, hang) can block or grow the
//! caller. Stopping it stops everything it started:
//!
//! - its process group is killed, and on Linux every descendant that left the group (a new
//!   session with `setsid`, a daemon's double fork) is found through `/proc` and killed too,
//!   after being frozen with `SIGSTOP` so that none can fork while the tree is walked;
//! - once a program calls [`take_charge`] (the `ttt` binary does, at start), Linux makes it the
//!   *child subreaper* of its descendants, so one whose parent has already exited is re-parented
//!   to it rather than to init, where it is still found, killed and reaped; and a bot is killed
//!   by the kernel if the program dies without a chance to clean up (`SIGKILL`);
//! - every bot still running is on a process-wide list, which [`stop_all`] empties from another
//!   thread (the signal handler in `shutdown`) at any moment.
//!
//! On other Unix systems only the process group is killed: a descendant that left it survives.

use std::collections::{HashMap, HashSet};
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;

mod relay;
use std::thread;
use std::time::{Duration, Instant};

/// The group leaders (the `sh` of each bot) of every bot process running now; `None` once
/// [`stop_all`] has run, when no bot may start any more.
static RUNNING: Mutex<Option<Vec<u32>>> = Mutex::new(Some(Vec::new()));

/// Whether any bot was started in this program.
static STARTED: AtomicBool = AtomicBool::new(false);

/// Whether this program has taken charge of its bots' descendants ([`take_charge`]).
static IN_CHARGE: AtomicBool = AtomicBool::new(false);

/// How often a wait looks at whether the bot has exited, when it prints nothing.
const EXIT_CHECK: Duration = Duration::from_millis(25);

/// Makes this program answerable for every process its bots start, on Linux: it becomes their
/// child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`), so that an orphaned descendant is
/// re-parented to it and can still be stopped; and each bot started afterwards is killed by
/// the kernel if the thread that started it dies (`PR_SET_PDEATHSIG`).
///
/// Meant for a program whose only children are bots, such as the `ttt` binary: afterwards any
/// orphan re-parented to this program counts as a bot's, and is stopped with the bot.
/// Elsewhere than on Linux it does nothing.
pub(crate) fn take_charge() -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes one integer argument and changes
        // only this process's attribute.
        if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
        IN_CHARGE.store(true, Ordering::SeqCst);
    }
    Ok(())
}

/// Stops every bot process still running, with all it started. Safe to call from any thread
/// at any moment; the signal handler calls it before the program exits.
pub(crate) fn stop_all() {
    let leaders: Vec<u32> = lock_running().take().unwrap_or_default();
    for leader in leaders {
        stop_tree(leader);
        reap(leader, Duration::from_millis(500));
    }
    reap_orphans();
}

fn lock_running() -> std::sync::MutexGuard<'static, Option<Vec<u32>>> {
    // A panic while holding the lock cannot leave the list inconsistent: every change is a
    // single push or retain.
    RUNNING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What a look at the bot's output, without waiting, found.
pub(crate) enum Pending {
    /// Nothing.
    Nothing,
    /// Bytes nobody asked for (at most the read limit of them).
    Bytes(Vec<u8>),
    /// Its output has ended.
    Ended,
}

/// What came of waiting for a line.
pub(crate) enum Line {
    /// A whole line, without its newline (nor a `\r` before it).
    Complete(Vec<u8>),
    /// A whole line that came while what was sent was still unread, so it cannot answer it.
    Early(Vec<u8>),
    /// The bot closed its input (and has not exited).
    InputClosed,
    /// No whole line by the deadline; the bytes of an unfinished line so far.
    TimedOut(Vec<u8>),
    /// A [`Deadline::AfterRead`] passed with what was sent still unread.
    Unread,
    /// The output ended, or the bot exited, before a whole line; what came of it.
    Ended(Vec<u8>),
    /// More than the limit without a newline; the first bytes.
    TooLong(Vec<u8>),
}

/// How long to wait for a line.
#[derive(Clone, Copy)]
pub(crate) enum Deadline {
    /// Until this moment.
    At(Instant),
    /// Until the bot has read everything written to it, by `read_by` at the latest, and then
    /// for `then` more: a start-up allowance, ended by the bot's first read, and a timeout
    /// after it. Where the system cannot tell what was read, until `read_by` plus `then`.
    AfterRead {
        /// When the bot must have read what it was sent.
        read_by: Instant,
        /// How long it has from then.
        then: Duration,
    },
}

/// Why a line could not be written.
pub(crate) enum SendError {
    /// The deadline passed with the line not all written: the bot stopped reading.
    TimedOut,
    /// The bot closed its input, or exited.
    Closed,
    /// The bot printed something while the line was being written, so before it was asked.
    Output(Vec<u8>),
    /// Its output ended while the line was being written.
    Ended,
    /// Anything else the system said.
    Io(io::Error),
}

/// What a bot printed after its input was closed, and how much.
pub(crate) struct Leftover {
    /// The first bytes (at most the read limit).
    pub head: Vec<u8>,
    /// How many bytes in all, up to the moment it was stopped.
    pub total: u64,
}

/// A running bot: `sh -c COMMAND` in a process group of its own, with non-blocking pipes.
pub(crate) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// Bytes read and not yet taken as a line: never more than `limit + 2` (a line of the
    /// limit, `\r` and `\n`).
    buffer: Vec<u8>,
    limit: usize,
    /// Its standard output reached end of file.
    ended: bool,
    stopped: bool,
    /// Says when everything the bot wrote to its standard error has been passed on.
    relayed: Receiver<()>,
    /// Bytes written to the bot's input since it started.
    written: u64,
}

/// A request's deadline as set: how many times this program had been continued then
/// ([`crate::shutdown::resumes`]), and the whole allowance, which a stop (Ctrl-Z) after that
/// moment gives again, so that time this program spends stopped never counts against a bot.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Clock {
    /// [`crate::shutdown::resumes`] when the deadline was set.
    pub resumes: usize,
    /// The time the request was allowed.
    pub allowance: Duration,
}

impl Process {
    /// Starts `sh -c command`; what it writes to its standard error is passed on to ours, each
    /// line after `[label]` (see [`relay`]). Lines longer than `limit` bytes are refused, and no
    /// more than `limit + 2` bytes are ever held.
    /// `env` is added to the command's environment.
    pub(crate) fn start(
        command: &str,
        label: &str,
        limit: usize,
        env: &[(&str, String)],
    ) -> io::Result<Process> {
        let mut shell = Command::new("sh");
        shell
            .arg("-c")
            .arg(shell_line(command))
            .envs(env.iter().map(|(key, value)| (key, value)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            shell.process_group(0);
        }
        #[cfg(target_os = "linux")]
        if IN_CHARGE.load(Ordering::SeqCst) {
            use std::os::unix::process::CommandExt;
            let parent = std::process::id() as libc::pid_t;
            // SAFETY: the closure runs in the child between fork and exec and calls only
            // async-signal-safe functions (prctl, getppid, raise).
            unsafe {
                shell.pre_exec(move || {
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                    // The parent may have died before the prctl took effect.
                    if libc::getppid() != parent {
                        libc::raise(libc::SIGKILL);
                    }
                    Ok(())
                });
            }
        }
        // Registered under the lock, so that no signal can find it started but not listed.
        let mut running = lock_running();
        let Some(list) = running.as_mut() else {
            return Err(io::Error::other("the program is ending"));
        };
        let mut child = shell.spawn()?;
        STARTED.store(true, Ordering::SeqCst);
        list.push(child.id());
        drop(running);
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let relayed = relay::start(child.stderr.take().expect("stderr is piped"), label)?;
        let mut process = Process {
            child,
            stdin: None,
            stdout,
            buffer: Vec::new(),
            limit,
            ended: false,
            stopped: false,
            relayed,
            written: 0,
        };
        set_nonblocking(stdin.as_raw_fd())?;
        set_nonblocking(process.stdout.as_raw_fd())?;
        process.stdin = Some(stdin);
        Ok(process)
    }

    /// Reads what is there now, without waiting.
    pub(crate) fn pending(&mut self) -> io::Result<Pending> {
        self.read_available()?;
        Ok(if !self.buffer.is_empty() {
            Pending::Bytes(self.buffer.clone())
        } else if self.ended {
            Pending::Ended
        } else {
            Pending::Nothing
        })
    }

    /// Whether bytes beyond the last line taken are waiting.
    pub(crate) fn has_unread(&self) -> bool {
        !self.buffer.is_empty()
    }

    /// The bytes beyond the last line taken.
    pub(crate) fn unread(&self) -> &[u8] {
        &self.buffer
    }

    /// Writes `bytes` to the bot's input by `deadline`, watching its output meanwhile.
    pub(crate) fn send(&mut self, bytes: &[u8], deadline: Instant) -> Result<(), SendError> {
        let mut written = 0;
        while written < bytes.len() {
            let Some(stdin) = self.stdin.as_mut() else {
                return Err(SendError::Closed);
            };
            match stdin.write(&bytes[written..]) {
                Ok(n) => {
                    written += n;
                    self.written += n as u64;
                    continue;
                }
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
                    return Err(SendError::Closed);
                }
                Err(error) => return Err(SendError::Io(error)),
            }
            // The pipe is full: wait until it drains, the bot prints, or time is up.
            let now = Instant::now();
            if now >= deadline {
                return Err(SendError::TimedOut);
            }
            let stdin_fd = stdin.as_raw_fd();
            let wait = (deadline - now).min(EXIT_CHECK);
            let [_, out] = poll(
                [
                    (stdin_fd, libc::POLLOUT),
                    (self.stdout.as_raw_fd(), libc::POLLIN),
                ],
                wait,
            )
            .map_err(SendError::Io)?;
            if out {
                self.read_available().map_err(SendError::Io)?;
                if !self.buffer.is_empty() {
                    return Err(SendError::Output(self.buffer.clone()));
                }
                if self.ended {
                    return Err(SendError::Ended);
                }
            }
            if self.has_exited() {
                return Err(SendError::Closed);
            }
        }
        Ok(())
    }

    /// Writes as much of `bytes` as the pipe takes now, without waiting; how much it took.
    /// Nothing is taken once the bot has closed its input or the pipe is full: whoever waits
    /// for the bot next finds out why.
    pub(crate) fn write_ahead(&mut self, bytes: &[u8]) -> usize {
        let mut written = 0;
        while written < bytes.len() {
            let Some(stdin) = self.stdin.as_mut() else {
                break;
            };
            match stdin.write(&bytes[written..]) {
                Ok(n) => {
                    written += n;
                    self.written += n as u64;
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        written
    }

    /// Bytes written to the bot's input since it started.
    pub(crate) fn written(&self) -> u64 {
        self.written
    }

    /// Whether the bot has read its input up to byte `end` (counted from its start), where
    /// the system tells.
    pub(crate) fn has_read(&self, end: u64) -> Option<bool> {
        let unread = self.unread_input()? as u64;
        Some(self.written - unread >= end)
    }

    /// Bytes written to the bot's input that it has not read yet, where the system tells.
    pub(crate) fn unread_input(&self) -> Option<usize> {
        #[cfg(target_os = "linux")]
        if let Some(stdin) = &self.stdin {
            let mut unread: libc::c_int = 0;
            // SAFETY: FIONREAD on a pipe (either end) stores the bytes it holds in the int.
            if unsafe { libc::ioctl(stdin.as_raw_fd(), libc::FIONREAD, &mut unread) } == 0 {
                return usize::try_from(unread).ok();
            }
        }
        None
    }

    /// Waits for one line of output, as long as `deadline` says: the answer to what was
    /// written up to byte `request_end` of the bot's input (counted from its start), which it must
    /// have read before the line comes. Bytes written after it may still be unread.
    ///
    /// `clock` is what a stop of this program (Ctrl-Z) after the deadline was set does to the
    /// deadline: it starts the whole allowance over.
    pub(crate) fn receive(
        &mut self,
        deadline: Deadline,
        request_end: u64,
        clock: Clock,
    ) -> io::Result<Line> {
        let (mut deadline, mut waiting_read) = match deadline {
            Deadline::At(at) => (at, None),
            Deadline::AfterRead { read_by, then } => match self.unread_input() {
                Some(_) => (read_by, Some(then)),
                None => (read_by + then, None),
            },
        };
        let Clock {
            allowance: span,
            mut resumes,
        } = clock;
        // While the bot has yet to read, look often: its read moves the deadline.
        let mut slice = if waiting_read.is_some() {
            Duration::from_millis(2)
        } else {
            EXIT_CHECK
        };
        loop {
            if let Some(then) = waiting_read {
                if self.has_read(request_end) == Some(true) {
                    // Read at last: the timeout runs from now, if that is later. (What read it
                    // may be a process in front of the bot, such as `cat |`.)
                    deadline = deadline.max(Instant::now() + then);
                    waiting_read = None;
                    slice = EXIT_CHECK;
                }
            }
            // Time this program spent stopped (Ctrl-Z) is not the bot's: the wait starts over.
            if crate::shutdown::resumes() != resumes {
                resumes = crate::shutdown::resumes();
                deadline = deadline.max(Instant::now() + span);
            }
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.buffer.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.len() > self.limit {
                    return Ok(Line::TooLong(line));
                }
                // A reply comes after its request is read; a line that came before is not one.
                if self.has_read(request_end) == Some(false) {
                    return Ok(Line::Early(line));
                }
                return Ok(Line::Complete(line));
            }
            if self.buffer.len() > self.limit + 1 {
                return Ok(Line::TooLong(std::mem::take(&mut self.buffer)));
            }
            if self.ended {
                return Ok(Line::Ended(std::mem::take(&mut self.buffer)));
            }
            let now = Instant::now();
            if now >= deadline {
                // A reply may be waiting in the pipe since the last look.
                self.read_available()?;
                if self.buffer.contains(&b'\n') {
                    continue;
                }
                if waiting_read.is_some() {
                    return Ok(Line::Unread);
                }
                return Ok(Line::TimedOut(std::mem::take(&mut self.buffer)));
            }
            // The input is watched too: an error there means the bot closed it.
            let stdin = self.stdin.as_ref().map_or(-1, AsRawFd::as_raw_fd);
            let [readable, input_closed] = poll(
                [(self.stdout.as_raw_fd(), libc::POLLIN), (stdin, 0)],
                (deadline - now).min(slice),
            )?;
            if readable {
                self.read_available()?;
            } else if self.has_exited() {
                // A reply written just before exiting is in the pipe already.
                self.read_available()?;
                if !self.buffer.contains(&b'\n') {
                    return Ok(Line::Ended(std::mem::take(&mut self.buffer)));
                }
            } else if input_closed {
                return Ok(Line::InputClosed);
            }
        }
    }

    /// Reads whatever the pipe holds, up to the limit, without waiting.
    fn read_available(&mut self) -> io::Result<()> {
        let mut chunk = [0u8; 8192];
        while !self.ended && self.buffer.len() < self.limit + 2 {
            let room = (self.limit + 2 - self.buffer.len()).min(chunk.len());
            match self.stdout.read(&mut chunk[..room]) {
                Ok(0) => self.ended = true,
                Ok(n) => self.buffer.extend_from_slice(&chunk[..n]),
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }

    /// Whether the bot (the process started) has exited.
    fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// How the bot exited, waiting up to `patience` for it to finish exiting; `None` while
    /// it runs.
    pub(crate) fn exit_status(&mut self, patience: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + patience;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Closes the bot's input and gives it `grace` to exit, reading what it prints meanwhile
    /// (counted, and kept up to the limit); then stops it and everything it started.
    pub(crate) fn finish(&mut self, grace: Duration) -> io::Result<Leftover> {
        drop(self.stdin.take());
        let deadline = Instant::now() + grace;
        let mut head = std::mem::take(&mut self.buffer);
        let mut total = head.len() as u64;
        let mut chunk = [0u8; 8192];
        while !self.ended {
            match self.stdout.read(&mut chunk) {
                Ok(0) => self.ended = true,
                Ok(n) => {
                    total += n as u64;
                    let room = (self.limit + 2).saturating_sub(head.len()).min(n);
                    head.extend_from_slice(&chunk[..room]);
                }
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {
                    let now = Instant::now();
                    if now >= deadline {
                        break;
                    }
                    poll(
                        [(self.stdout.as_raw_fd(), libc::POLLIN)],
                        (deadline - now).min(EXIT_CHECK),
                    )?;
                    if self.has_exited() {
                        // What it wrote before exiting is in the pipe; a descendant holding the
                        // pipe open is no reason to wait longer.
                        self.ended =
                            !poll([(self.stdout.as_raw_fd(), libc::POLLIN)], Duration::ZERO)?[0];
                    }
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        self.stop();
        Ok(Leftover { head, total })
    }

    /// Stops the bot and everything it started, at once, and reaps it.
    pub(crate) fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        drop(self.stdin.take());
        let leader = self.child.id();
        stop_tree(leader);
        let _ = self.child.kill();
        let _ = self.child.wait();
        reap_orphans();
        // The last words of the bot reach the user before whatever the caller says next.
        let _ = self.relayed.recv_timeout(Duration::from_millis(200));
        if let Some(list) = lock_running().as_mut() {
            list.retain(|&pid| pid != leader);
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop();
    }
}

/// What `sh -c` runs for `command`: the command itself, with `exec` before it when it is a
/// plain command (words of ordinary characters, no shell syntax, not a shell built-in), so
/// that the shell becomes the bot instead of waiting as its parent. The bot is then the
/// process started: its exit is seen at once, and so is closing its output, which a waiting
/// shell (holding the same pipe) would otherwise hide until the timeout.
fn shell_line(command: &str) -> String {
    const BUILT_INS: &[&str] = &[
        "!", ".", ":", "alias", "bg", "break", "case", "cd", "command", "continue", "do", "done",
        "elif", "else", "esac", "eval", "exec", "exit", "export", "fg", "fi", "for", "getopts",
        "hash", "if", "jobs", "local", "read", "readonly", "return", "set", "shift", "then",
        "times", "trap", "type", "ulimit", "umask", "unalias", "unset", "until", "wait", "while",
    ];
    let plain = command.bytes().all(|b| {
        b.is_ascii_alphanumeric()
            || matches!(
                b,
                b' ' | b'_' | b'.' | b'/' | b':' | b',' | b'@' | b'%' | b'+' | b'-'
            )
    });
    match command.split_whitespace().next() {
        Some(first) if plain && !BUILT_INS.contains(&first) => format!("exec {command}"),
        _ => command.to_string(),
    }
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor this process owns, setting one more status flag.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Waits up to `wait` for any of the descriptors to be ready for its event; which are (a hang-up
/// or error counts as ready, so that the read or write that follows reports it).
fn poll<const N: usize>(fds: [(RawFd, libc::c_short); N], wait: Duration) -> io::Result<[bool; N]> {
    let mut pollfds = fds.map(|(fd, events)| libc::pollfd {
        fd,
        events,
        revents: 0,
    });
    // Round up, so that a wait is never cut to 0 ms and spun.
    let millis = wait.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int;
    loop {
        // SAFETY: `pollfds` is a valid array of N pollfd structures for the duration of the
        // call.
        let ready = unsafe { libc::poll(pollfds.as_mut_ptr(), N as libc::nfds_t, millis) };
        if ready >= 0 {
            return Ok(pollfds.map(|p| p.revents != 0));
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// Kills the process group led by `leader` and, on Linux, every descendant of `leader` and
/// (once in charge) every other orphan re-parented to this program, frozen first so that
/// none can fork meanwhile.
fn stop_tree(leader: u32) {
    #[cfg(target_os = "linux")]
    let frozen = freeze_descendants(leader);
    #[cfg(unix)]
    if let Ok(group) = libc::pid_t::try_from(leader) {
        // SAFETY: kill(2) with a negative pid signals that process group, nothing else.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    #[cfg(target_os = "linux")]
    {
        for &pid in &frozen {
            signal(pid, libc::SIGKILL);
        }
        // The killed that were re-parented to us are ours to reap; a process is re-parented
        // when its parent dies, which may be a moment after the kill.
        let me = std::process::id();
        let deadline = Instant::now() + Duration::from_millis(500);
        let mut left: Vec<u32> = frozen.into_iter().filter(|&pid| pid != leader).collect();
        while !left.is_empty() && Instant::now() < deadline {
            left.retain(|&pid| match parent_of(pid) {
                None => false,
                Some(parent) if parent == me => !reaped(pid),
                Some(_) => true,
            });
            if !left.is_empty() {
                thread::sleep(Duration::from_millis(2));
            }
        }
    }
}

#[cfg(target_os = "linux")]
fn signal(pid: u32, signal: libc::c_int) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill(2) on one process id, with a valid signal.
        unsafe {
            libc::kill(pid, signal);
        }
    }
}

/// Reaps the dead children a bot left unreaped, re-parented to this program when the bot died
/// (once in charge; the bots' own leaders are reaped where they are waited for).
fn reap_orphans() {
    // No bot, no orphan: a program that started none does not walk /proc on its way out.
    #[cfg(target_os = "linux")]
    if IN_CHARGE.load(Ordering::SeqCst) && STARTED.load(Ordering::SeqCst) {
        let me = std::process::id();
        let leaders: HashSet<u32> = lock_running().iter().flatten().copied().collect();
        for (pid, parent, state) in processes() {
            if parent == me && state == 'Z' && !leaders.contains(&pid) {
                reaped(pid);
            }
        }
    }
}

/// Reaps the child `pid` if it has ended; whether it had (or is gone).
#[cfg(target_os = "linux")]
fn reaped(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    let mut status = 0;
    // SAFETY: waitpid on one process id with a valid pointer to an int.
    unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) != 0 }
}

/// Waits up to `patience` for the child `pid` to end, and reaps it.
fn reap(pid: u32, patience: Duration) {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return;
    };
    let deadline = Instant::now() + patience;
    loop {
        let mut status = 0;
        // SAFETY: waitpid on one process id with a valid pointer to an int.
        let done = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if done != 0 || Instant::now() >= deadline {
            return;
        }
        thread::sleep(Duration::from_millis(2));
    }
}

/// Stops (SIGSTOP) the whole tree under `leader`, and any orphan this program adopted, until a
/// walk of `/proc` finds no live process of it left running; returns every process stopped.
#[cfg(target_os = "linux")]
fn freeze_descendants(leader: u32) -> Vec<u32> {
    let me = std::process::id();
    let others: HashSet<u32> = lock_running()
        .iter()
        .flatten()
        .copied()
        .filter(|&pid| pid != leader)
        .collect();
    let in_charge = IN_CHARGE.load(Ordering::SeqCst);
    let mut frozen: Vec<u32> = Vec::new();
    let mut seen: HashSet<u32> = HashSet::new();
    // Each round freezes what the last one missed (a child forked meanwhile); a tree stops
    // growing once all of it is frozen.
    for _ in 0..64 {
        let table = processes();
        let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
        for &(pid, parent, _) in &table {
            children.entry(parent).or_default().push(pid);
        }
        let mut roots = vec![leader];
        if in_charge {
            roots.extend(
                children
                    .get(&me)
                    .into_iter()
                    .flatten()
                    .copied()
                    .filter(|pid| *pid != leader && !others.contains(pid)),
            );
        }
        let zombie: HashSet<u32> = table
            .iter()
            .filter(|(_, _, state)| matches!(state, 'Z' | 'X'))
            .map(|&(pid, _, _)| pid)
            .collect();
        let mut fresh = Vec::new();
        let mut stack = roots;
        while let Some(pid) = stack.pop() {
            if !zombie.contains(&pid) && seen.insert(pid) {
                fresh.push(pid);
            }
            stack.extend(children.get(&pid).into_iter().flatten().copied());
        }
        // Orphans already dead still need reaping.
        if in_charge {
            for &pid in children.get(&me).into_iter().flatten() {
                let ours = zombie.contains(&pid) && pid != leader && !others.contains(&pid);
                if ours && seen.insert(pid) {
                    frozen.push(pid);
                }
            }
        }
        if fresh.is_empty() {
            break;
        }
        for &pid in &fresh {
            signal(pid, libc::SIGSTOP);
        }
        frozen.extend(fresh);
    }
    frozen
}

/// Every process: its id, its parent's, and its state letter, from `/proc/PID/stat`.
#[cfg(target_os = "linux")]
fn processes() -> Vec<(u32, u32, char)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let (state, parent) = parse_stat(&stat)?;
            Some((pid, parent, state))
        })
        .collect()
}

/// The state letter and parent id from the text of `/proc/PID/stat`, whose second field (the
/// command name, in parentheses) may itself hold spaces and parentheses.
#[cfg(target_os = "linux")]
fn parse_stat(stat: &str) -> Option<(char, u32)> {
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let parent = fields.next()?.parse().ok()?;
    Some((state, parent))
}

#[cfg(target_os = "linux")]
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&stat).map(|(_, parent)| parent)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn plain_commands_are_execed() {
        assert_eq!(shell_line("python3 bot.py --x=1"), "python3 bot.py --x=1");
        assert_eq!(
            shell_line("python3 data/bots/minimax.py"),
            "exec python3 data/bots/minimax.py"
        );
        assert_eq!(shell_line("cd bots && ./bot"), "cd bots && ./bot");
        assert_eq!(shell_line("exec ./bot"), "exec ./bot");
        assert_eq!(shell_line("read x"), "read x");
        assert_eq!(shell_line("./bot $HOME"), "./bot $HOME");
    }

    #[test]
    fn stat_lines_with_odd_command_names() {
        assert_eq!(parse_stat("42 (a) b) (c) S 7 42 42 0 -1"), Some(('S', 7)));
        assert_eq!(parse_stat("garbage"), None);
    }
}
