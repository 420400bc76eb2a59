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

mod clock;
mod relay;
mod tree;

use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::Receiver;
use std::thread;
use std::time::{Duration, Instant};

use self::tree::{reap_orphans, stop_tree};

pub(crate) use self::clock::{Clock, Deadline, resumed, resumes};
pub(crate) use self::tree::{restore_file_size_signal, stop_all, take_charge};

/// How often a wait looks at whether the bot has exited, when it prints nothing.
const EXIT_CHECK: Duration = Duration::from_millis(25);

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
        let mut child = tree::spawn(&mut shell)?;
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
            if clock::resumes() != resumes {
                resumes = clock::resumes();
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
        tree::unlist(leader);
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
}
