//! What the tests through the binary share: the misbehaving bot and the files that tell which
//! of its processes are still running, the names in a directory, and a reader that closes the
//! pipe early.

#![allow(dead_code)]

pub mod blocks_unsaid;
pub mod by_histories;
pub mod cli;
pub mod mnk;
pub mod plain;
pub mod play;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use ttt_oracle::audit::{Report, SideReport};
use ttt_oracle::bots::Bot;
use ttt_oracle::{AuditError, AuditOptions, Player};

/// The `ttt` under test: the one the environment variable `TTT` names (`.ci/test` names the
/// statically linked one on x86-64 Linux), else the one cargo built beside these tests.
pub fn ttt() -> PathBuf {
    std::env::var_os("TTT").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_ttt")), PathBuf::from)
}

pub fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

pub fn misbehave(mode: &str) -> String {
    format!(
        "python3 {} {mode}",
        root().join("tests/bots/misbehave.py").display()
    )
}

/// A fresh file for the bot to write its process ids into, removed when the test is done.
pub struct PidFile(PathBuf);

impl std::ops::Deref for PidFile {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for PidFile {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for PidFile {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for PidFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A path in the temporary folder no other test of any process uses: `PREFIX-PID-N-NAME`, N
/// counting the calls (the tests of one crate share the process id).
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("{prefix}-{}-{call}-{name}", std::process::id()))
}

pub fn pidfile(name: &str) -> PidFile {
    let path = scratch("ttt-pids", name);
    let _ = std::fs::remove_file(&path);
    PidFile(path)
}

/// Whether `pid` is a process still running (a zombie waiting to be reaped is not).
pub fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .chars()
                .next();
            !matches!(state, Some('Z') | Some('X'))
        }
        Err(_) => false,
    }
}

/// Waits until `count` processes have written their pid to `pids`, for at most `within`;
/// `what` says what did not start otherwise.
pub fn wait_for_pids(pids: &Path, count: usize, within: Duration, what: &str) {
    let deadline = Instant::now() + within;
    while std::fs::read_to_string(pids).map_or(0, |t| t.lines().count()) < count {
        assert!(Instant::now() < deadline, "{what} did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
}

pub fn assert_none_left(pids: &Path) {
    let text = std::fs::read_to_string(pids).expect("the bot wrote its pid");
    let pids: Vec<u32> = text.lines().map(|l| l.parse().unwrap()).collect();
    assert!(!pids.is_empty());
    // The auditor has exited; give the kernel a moment to tear the processes down.
    let deadline = Instant::now() + Duration::from_secs(2);
    while pids.iter().any(|&p| running(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    for pid in pids {
        assert!(!running(pid), "bot process {pid} is still running");
    }
}

/// Every name in `dir`, hidden ones included, sorted: a temporary file left behind shows here.
pub fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs `ttt ARGS`, reads the first 64 bytes it writes to standard output, then closes the
/// pipe, as `| head -c 64` would: those bytes, and how `ttt` ended.
pub fn close_after_64_bytes(args: &[&str]) -> ([u8; 64], Output) {
    let mut child = Command::new(ttt())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    (first, child.wait_with_output().unwrap())
}

/// A standard output for `ttt` whose reader is gone before `ttt` starts, as that of `| true`:
/// every write fails, however fast `ttt` is and however loaded the machine.
pub fn no_reader() -> Stdio {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut ends = [0; 2];
    // SAFETY: pipe(2) writes two new descriptors into `ends`, each then owned once.
    unsafe {
        assert_eq!(libc::pipe(ends.as_mut_ptr()), 0, "pipe(2)");
        drop(OwnedFd::from_raw_fd(ends[0]));
        Stdio::from(OwnedFd::from_raw_fd(ends[1]))
    }
}

/// The keys of a JSON object, sorted: what a test compares with the documented ones.
pub fn json_keys(json: &serde_json::Value) -> Vec<&str> {
    let mut keys: Vec<&str> = json
        .as_object()
        .expect("a JSON object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

/// Fails with the command's standard error unless it succeeded.
pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The audit of `bot` playing `side` of tic-tac-toe, judged by its table.
pub fn audit_3x3(bot: &mut dyn Bot, side: Player) -> Result<SideReport, AuditError> {
    let options = AuditOptions {
        side,
        ..AuditOptions::default()
    };
    match ttt_oracle::audit(bot, &options)? {
        Report::Solved(report) => Ok(report),
        Report::Searched(report) => panic!("tic-tac-toe has a table: {report:?}"),
    }
}

/// `ttt audit ARGS` from the repository's root, the misbehaving bot writing its pids to `pids`,
/// within a minute.
pub fn audit_command(args: &[&str], pids: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::new(ttt());
    cmd.arg("audit")
        .args(args)
        .env("TTT_TEST_PIDFILE", pids)
        .current_dir(root());
    cmd.timeout(Duration::from_secs(60));
    cmd
}

/// Starts `command`'s process with the default action for the signals the tests send it. A
/// shell without job control starts a command put in the background (`cargo test &` in a
/// script) with SIGINT and SIGQUIT ignored, and `nohup` ignores SIGHUP; `ttt` keeps a signal
/// ignored at its start ignored, as a background job should, which would leave nothing to test.
pub fn default_signals(command: &mut std::process::Command) -> &mut std::process::Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the child only calls signal(2), which is
    // async-signal-safe, and touches no memory of the parent's.
    unsafe {
        command.pre_exec(|| {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
                libc::signal(signal, libc::SIG_DFL);
            }
            Ok(())
        })
    }
}

/// Runs `ttt ARGS` with standard error on a pseudo-terminal and standard output on a pipe;
/// returns (exit code, stdout, what reached the terminal).
pub fn on_a_terminal(args: &[&str], env: &[(&str, &str)]) -> (i32, Vec<u8>, Vec<u8>) {
    const RUN: &str = r#"
import os, pty, subprocess, sys
master, slave = pty.openpty()
child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=slave)
os.close(slave)
seen = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:  # EIO once the child has closed the terminal, on Linux
        break
    if not chunk:
        break
    seen += chunk
out = child.stdout.read()
code = child.wait()
sys.stdout.buffer.write(b"%d\n%d\n" % (code, len(out)) + out + seen)
"#;
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(RUN)
        .arg(ttt())
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert_success(&out);
    let text = out.stdout;
    let mut parts = text.splitn(3, |&b| b == b'\n');
    let code: i32 = std::str::from_utf8(parts.next().unwrap())
        .unwrap()
        .parse()
        .unwrap();
    let len: usize = std::str::from_utf8(parts.next().unwrap())
        .unwrap()
        .parse()
        .unwrap();
    let rest = parts.next().unwrap();
    (code, rest[..len].to_vec(), rest[len..].to_vec())
}
