//! Output that cannot be written, made so for real: a file size limit (`ulimit -f`), a full
//! device (`/dev/full`), standard output closed (`>&-`), a reader that goes away (`head -c 1`),
//! and `SIGKILL` in the middle of an export. Whatever the command and wherever the output goes,
//! it is exit code 5 and one line naming where and why; never a verdict's 1, a quiet 0 or death
//! by `SIGXFSZ` (153); and no file is left half-written, replaced or lying beside the target.

use crate::common;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use common::names;

fn ttt_path() -> PathBuf {
    crate::common::ttt()
}

/// Runs `script` with bash, `$TTT` the binary, in `dir`, with `input` on standard input.
fn bash_in(dir: &Path, script: &str, input: &str) -> Output {
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(script)
        .env("TTT", ttt_path())
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    // From a thread, and whether or not it is all read: ttt stops reading when its output fails.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn bash(script: &str, input: &str) -> Output {
    bash_in(Path::new(env!("CARGO_TARGET_TMPDIR")), script, input)
}

/// Asserts exit code 5 and exactly `message` on standard error.
fn assert_failed(out: &Output, message: &str, what: &str) {
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("{message}\n"),
        "{what}"
    );
    assert_eq!(out.status.code(), Some(5), "{what}: {:?}", out.status);
}

const EFBIG: &str = "File too large (os error 27)";
const ENOSPC: &str = "No space left on device (os error 28)";
const CLOSED: &str = "it was closed when ttt started (Bad file descriptor)";

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn a_file_size_limit_on_dash_o_is_exit_5_every_time_never_the_signal() {
    let dir = tempdir();
    // Today's bug came at random: run it a few times.
    for run in 0..5 {
        let out = bash_in(
            dir.path(),
            r#"ulimit -f 100; exec "$TTT" export -o f.jsonl"#,
            "",
        );
        assert_failed(
            &out,
            &format!("error: cannot write \"f.jsonl\": {EFBIG}"),
            &format!("run {run}"),
        );
        assert_eq!(names(dir.path()), Vec::<String>::new(), "run {run}");
    }
    // An existing file is left as it was.
    fs::write(dir.path().join("f.jsonl"), "precious").unwrap();
    let out = bash_in(
        dir.path(),
        r#"ulimit -f 100; exec "$TTT" export --format csv -o f.jsonl"#,
        "",
    );
    assert_failed(
        &out,
        &format!("error: cannot write \"f.jsonl\": {EFBIG}"),
        "csv",
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("f.jsonl")).unwrap(),
        "precious"
    );
    assert_eq!(names(dir.path()), ["f.jsonl"]);
}

#[test]
fn a_file_size_limit_on_standard_output_is_exit_5() {
    let dir = tempdir();
    for (command, what) in [
        ("export", "export"),
        ("audit random --losing-games -", "--losing-games -"),
        ("export --game 3x4 --format csv", "an embedded game"),
    ] {
        let out = bash_in(
            dir.path(),
            &format!(r#"ulimit -f 100; exec "$TTT" {command} > out"#),
            "",
        );
        assert_failed(
            &out,
            &format!("error: cannot write standard output: {EFBIG}"),
            what,
        );
        assert_eq!(fs::metadata(dir.path().join("out")).unwrap().len(), 102_400);
    }
}

#[test]
fn a_file_size_limit_on_losing_games_is_exit_5_after_the_verdict_was_printed() {
    let dir = tempdir();
    let out = bash_in(
        dir.path(),
        r#"ulimit -f 100; exec "$TTT" audit random --losing-games games.jsonl"#,
        "",
    );
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("random can lose\n"));
    assert_failed(
        &out,
        &format!("error: cannot write \"games.jsonl\": {EFBIG}"),
        "--losing-games",
    );
    assert_eq!(names(dir.path()), Vec::<String>::new());
}

#[test]
fn a_full_device_is_exit_5_not_a_verdict() {
    let cases = [
        // A bot that never loses: the report is the answer, and it did not arrive.
        ("exec \"$TTT\" audit perfect > /dev/full", ""),
        // A bot that can lose: 5, not 1, whose answer did not arrive either.
        ("exec \"$TTT\" audit random > /dev/full", ""),
        ("exec \"$TTT\" audit random --format json > /dev/full", ""),
        ("exec \"$TTT\" best X........ > /dev/full", ""),
        ("exec \"$TTT\" analyze X........ > /dev/full", ""),
        ("exec \"$TTT\" best - > /dev/full", "X........\n.........\n"),
        (
            "exec \"$TTT\" analyze --moves - --format json > /dev/full",
            "5 1\n",
        ),
        ("exec \"$TTT\" play --as x > /dev/full", "5\n1\n9\n"),
        ("exec \"$TTT\" review --moves '5 1 9' > /dev/full", ""),
        ("exec \"$TTT\" stats > /dev/full", ""),
        ("exec \"$TTT\" bots > /dev/full", ""),
        ("exec \"$TTT\" match perfect random > /dev/full", ""),
        ("exec \"$TTT\" simulate random --games 10 > /dev/full", ""),
        ("exec \"$TTT\" export > /dev/full", ""),
        ("exec \"$TTT\" export -o - > /dev/full", ""),
        ("exec \"$TTT\" --help > /dev/full", ""),
        ("exec \"$TTT\" man > /dev/full", ""),
    ];
    for (script, input) in cases {
        let out = bash(script, input);
        assert_failed(
            &out,
            &format!("error: cannot write standard output: {ENOSPC}"),
            script,
        );
    }
    let out = bash("exec \"$TTT\" export -o /dev/full", "");
    assert_failed(
        &out,
        &format!("error: cannot write \"/dev/full\": {ENOSPC}"),
        "-o",
    );
    let out = bash("exec \"$TTT\" audit random --losing-games /dev/full", "");
    assert_failed(
        &out,
        &format!("error: cannot write \"/dev/full\": {ENOSPC}"),
        "--losing-games",
    );
}

#[test]
fn a_closed_standard_output_is_exit_5_when_written_to() {
    for (script, input) in [
        ("exec \"$TTT\" best X........ >&-", ""),
        ("exec \"$TTT\" export >&-", ""),
        ("exec \"$TTT\" audit perfect >&-", ""),
        ("exec \"$TTT\" best - >&-", "X........\n"),
        ("exec \"$TTT\" play --as x >&-", "5\n"),
        ("exec \"$TTT\" audit random --losing-games - >&-", ""),
    ] {
        let out = bash(script, input);
        assert_failed(
            &out,
            &format!("error: cannot write standard output: {CLOSED}"),
            script,
        );
    }
    // Closed, but not written to: nothing is wrong.
    let dir = tempdir();
    let out = bash_in(dir.path(), "exec \"$TTT\" export -o t.jsonl >&-", "");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(names(dir.path()), ["t.jsonl"]);
}

#[test]
fn a_reader_that_goes_away_ends_it_quietly_with_its_own_answer() {
    // `head -c 1` reads one byte and exits; bash gives ttt's status in PIPESTATUS. The reader
    // chose to stop, as with coreutils: no message, and the exit code is the command's answer
    // (an audit's verdict: random can lose, 1).
    let pipe = |command: &str| {
        format!(r#""$TTT" {command} | head -c 1 >/dev/null; exit ${{PIPESTATUS[0]}}"#)
    };
    let batch: String = "X........\n".repeat(100_000);
    for (command, input, answer) in [
        ("export", "", 0),
        ("export --game 4x4 --format bincode", "", 0),
        ("audit random --losing-games -", "", 1),
        ("audit random --mistakes -", "", 1),
        ("audit random smartbot marcelo forkbot", "", 1),
        ("audit perfect perfect perfect perfect", "", 0),
        ("best -", batch.as_str(), 0),
        ("analyze - --format json", batch.as_str(), 0),
    ] {
        let started = std::time::Instant::now();
        let out = bash(&pipe(command), input);
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{command}");
        assert_eq!(
            out.status.code(),
            Some(answer),
            "{command}: {:?}",
            out.status
        );
        // At once: the 4x4 export and the batch stop at the next write, not at their end.
        assert!(started.elapsed() < Duration::from_secs(20), "{command}");
    }
    // The answer stays what it was: a batch with a bad line is exit 2, and says so; a match
    // of a bot that answers otherwise in a game is exit 1.
    let bad = format!("bad\n{batch}");
    let out = bash(&pipe("best -"), &bad);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("got an error instead of an answer, the first at line 1"),
        "{stderr}"
    );
    let aware = "match random --cmd 'python3 tests/bots/audit_aware.py'";
    let out = bash_in(crate::common::root(), &pipe(aware), "");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    // A TCP reader that stops early resets the connection: the same.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let reader = std::thread::spawn(move || {
        use std::io::Read;
        use std::os::fd::AsRawFd;
        let (mut socket, _) = listener.accept().unwrap();
        let _ = socket.read(&mut [0; 16]);
        // Closed with unread data and a zero linger: a reset, as a reader killed sends.
        let linger = libc::linger {
            l_onoff: 1,
            l_linger: 0,
        };
        // SAFETY: setsockopt on a socket this thread owns, with a linger struct of its size.
        unsafe {
            libc::setsockopt(
                socket.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_LINGER,
                (&linger as *const libc::linger).cast(),
                std::mem::size_of::<libc::linger>() as libc::socklen_t,
            );
        }
    });
    let socket = std::net::TcpStream::connect(address).unwrap();
    let out = std::process::Command::new(ttt_path())
        .args(["export", "--game", "4x4"])
        .stdout(std::process::Stdio::from(std::os::fd::OwnedFd::from(
            socket,
        )))
        .output()
        .unwrap();
    reader.join().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "tcp");
    assert_eq!(out.status.code(), Some(0), "tcp: {:?}", out.status);
    // Through -o: a FIFO whose reader goes away.
    let dir = tempdir();
    let out = bash_in(
        dir.path(),
        r#"mkfifo fifo && { head -c 1 fifo >/dev/null & } && exec "$TTT" export -o fifo"#,
        "",
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "fifo");
    assert_eq!(out.status.code(), Some(0), "fifo: {:?}", out.status);
}

/// The unnamed temporary file of `pid` in `dir` (`/proc/PID/fd` shows it as `DIR/#INODE
/// (deleted)`), and its size.
fn unnamed_file_size(pid: u32, dir: &Path) -> Option<u64> {
    for entry in fs::read_dir(format!("/proc/{pid}/fd")).ok()? {
        let entry = entry.ok()?;
        let target = fs::read_link(entry.path()).ok()?;
        if target.starts_with(dir) && target.to_string_lossy().ends_with(" (deleted)") {
            return fs::metadata(entry.path()).ok().map(|m| m.len());
        }
    }
    None
}

/// `ttt export --game 4x4 -o DIR/keep.jsonl` killed by SIGKILL once it has written 8 MB: no
/// file is left in the directory, and an existing target is as it was.
#[test]
fn sigkill_in_the_middle_of_an_export_leaves_nothing() {
    // Under the target directory, not /tmp: the export grows to 8 MB before it is killed.
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let dir_path = fs::canonicalize(dir.path()).unwrap();
    let target = dir_path.join("keep.jsonl");
    for existing in [false, true] {
        if existing {
            fs::write(&target, "precious").unwrap();
        }
        let mut child = Command::new(ttt_path())
            .args(["export", "--game", "4x4", "-o"])
            .arg(&target)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let size = unnamed_file_size(child.id(), &dir_path);
            if size.is_some_and(|size| size > 8 << 20) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "no unnamed temporary file grew in {}: is O_TMPFILE refused here? names: {:?}",
                dir_path.display(),
                names(&dir_path)
            );
            assert!(child.try_wait().unwrap().is_none(), "the export ended");
            thread::sleep(Duration::from_millis(20));
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        if existing {
            assert_eq!(names(&dir_path), ["keep.jsonl"]);
            assert_eq!(fs::read_to_string(&target).unwrap(), "precious");
        } else {
            assert_eq!(names(&dir_path), Vec::<String>::new());
        }
    }
}

/// ttt ignores SIGXFSZ for itself only: a bot meets the file size limit as it would alone.
#[test]
fn a_bot_gets_the_default_action_of_sigxfsz_back() {
    // The bot prints its mask of ignored signals to standard error (relayed by ttt), then plays.
    let bot = format!(
        "grep SigIgn /proc/self/status >&2; exec perl {}",
        common::root()
            .join("data/bots/centre_win_block.pl")
            .display()
    );
    let out = Command::new(ttt_path())
        .args(["audit", "--side", "x", "--cmd", &bot])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mask = stderr
        .lines()
        .find_map(|line| line.split("SigIgn:").nth(1))
        .map(|hex| u64::from_str_radix(hex.trim(), 16).unwrap())
        .unwrap_or_else(|| panic!("the bot said nothing: {stderr}"));
    let sigxfsz = 1u64 << (libc::SIGXFSZ - 1);
    assert_eq!(mask & sigxfsz, 0, "SIGXFSZ is ignored in the bot: {stderr}");
}
