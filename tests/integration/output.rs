//! `-o` through the real binary: what `ttt export -o PATH` does with each kind of path.
//!
//! These tests run as root on shared machines: they never name the real `/dev/null`,
//! `/dev/full` or `/dev/stdout` as a destination, so a regression cannot replace them. Devices
//! are reached through `/proc/self/fd/N` (which nothing can rename over) or made in a private
//! mount namespace.

use crate::common;

use std::ffi::{CStr, CString, OsStr};
use std::fs::{self, File};
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::sync::{OnceLock, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use common::{default_signals, names};
use predicates::prelude::*;
use tempfile::TempDir;
use ttt_oracle::Game;
use ttt_oracle::export::{self, ExportFormat};

fn ttt() -> Command {
    Command::new(crate::common::ttt())
}

fn ttt_path() -> PathBuf {
    crate::common::ttt()
}

/// `ttt export -o PATH`.
fn export_to(path: impl AsRef<OsStr>) -> assert_cmd::assert::Assert {
    ttt().arg("export").arg("-o").arg(path).assert()
}

/// What `ttt export` writes: every position, as JSON Lines.
fn jsonl() -> &'static [u8] {
    static JSONL: OnceLock<Vec<u8>> = OnceLock::new();
    JSONL.get_or_init(|| {
        let game = Game::TIC_TAC_TOE;
        let mut bytes = Vec::new();
        let records = export::records(game, false).unwrap();
        export::write(&mut bytes, ExportFormat::Jsonl, game, records).unwrap();
        bytes
    })
}

fn tempdir() -> TempDir {
    tempfile::tempdir().unwrap()
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

fn inode(path: &Path) -> u64 {
    fs::metadata(path).unwrap().ino()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// Runs `script` with `sh -c`, `$0` being `ttt` and `$1`... `args`.
fn sh(script: &str, args: &[&OsStr]) -> assert_cmd::assert::Assert {
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(ttt_path())
        .args(args)
        .assert()
}

#[test]
fn a_new_file_gets_0666_minus_the_umask() {
    let dir = tempdir();
    let path = dir.path().join("table.jsonl");
    sh(
        r#"umask 027 && exec "$0" export -o "$1""#,
        &[path.as_os_str()],
    )
    .success();
    assert_eq!(mode(&path), 0o640);
    assert_eq!(fs::read(&path).unwrap(), jsonl());
    assert_eq!(names(dir.path()), ["table.jsonl"]);
}

#[test]
fn an_existing_0600_file_stays_0600_and_is_replaced_whole() {
    let dir = tempdir();
    let path = dir.path().join("table.jsonl");
    fs::write(&path, "old").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    let before = inode(&path);
    export_to(&path).success().stdout("");
    assert_eq!(mode(&path), 0o600);
    assert_ne!(inode(&path), before, "a new file renamed into place");
    assert_eq!(fs::read(&path).unwrap(), jsonl());
    assert_eq!(names(dir.path()), ["table.jsonl"]);
}

#[test]
fn an_existing_files_owner_and_group_are_kept_where_the_process_may_set_them() {
    if !is_root() {
        eprintln!("skipped: only root may give a file to another owner");
        return;
    }
    let dir = tempdir();
    let path = dir.path().join("table.jsonl");
    fs::write(&path, "old").unwrap();
    std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    export_to(&path).success();
    let metadata = fs::metadata(&path).unwrap();
    assert_eq!((metadata.uid(), metadata.gid()), (65534, 65534));
    assert_eq!(mode(&path), 0o640);
    assert_eq!(fs::read(&path).unwrap(), jsonl());
}

#[test]
fn a_symlink_is_kept_and_its_target_replaced() {
    let dir = tempdir();
    let (link, target) = (dir.path().join("link"), dir.path().join("target"));
    fs::write(&target, "old").unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
    symlink("target", &link).unwrap();
    export_to(&link).success();
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("target"));
    assert_eq!(fs::read(&target).unwrap(), jsonl());
    assert_eq!(mode(&target), 0o640);
    assert_eq!(names(dir.path()), ["link", "target"]);
}

#[test]
fn a_symlink_chain_is_followed_to_its_end() {
    let dir = tempdir();
    fs::create_dir(dir.path().join("a")).unwrap();
    fs::create_dir(dir.path().join("b")).unwrap();
    let target = dir.path().join("b").join("target");
    fs::write(&target, "old").unwrap();
    // first -> a/second -> ../b/target, each relative to its own directory.
    symlink("a/second", dir.path().join("first")).unwrap();
    symlink("../b/target", dir.path().join("a").join("second")).unwrap();
    export_to(dir.path().join("first")).success();
    assert_eq!(fs::read(&target).unwrap(), jsonl());
    assert!(
        fs::symlink_metadata(dir.path().join("first"))
            .unwrap()
            .is_symlink()
    );
    assert!(
        fs::symlink_metadata(dir.path().join("a").join("second"))
            .unwrap()
            .is_symlink()
    );
    assert_eq!(names(dir.path()), ["a", "b", "first"]);
    assert_eq!(names(&dir.path().join("a")), ["second"]);
    assert_eq!(names(&dir.path().join("b")), ["target"]);
}

#[test]
fn a_dangling_symlink_creates_its_target_as_the_shell_does() {
    let dir = tempdir();
    let link = dir.path().join("link");
    symlink("target", &link).unwrap();
    sh(
        r#"umask 022 && exec "$0" export -o "$1""#,
        &[link.as_os_str()],
    )
    .success();
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("target"));
    assert_eq!(fs::read(dir.path().join("target")).unwrap(), jsonl());
    assert_eq!(mode(&dir.path().join("target")), 0o644);
    assert_eq!(names(dir.path()), ["link", "target"]);

    // Into a directory that does not exist: an error, and the link stays dangling.
    let nowhere = dir.path().join("nowhere");
    symlink("missing/target", &nowhere).unwrap();
    export_to(&nowhere)
        .code(2)
        .stderr(predicate::str::contains("No such file or directory"));
    assert_eq!(names(dir.path()), ["link", "nowhere", "target"]);
}

#[test]
fn a_fifo_is_written_in_place() {
    let dir = tempdir();
    let fifo = dir.path().join("fifo");
    let name = CString::new(fifo.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let (sender, receiver) = mpsc::channel();
    let reader = fifo.clone();
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let read = File::open(&reader).and_then(|mut f| f.read_to_end(&mut bytes));
        let _ = sender.send(read.map(|_| bytes));
    });
    export_to(&fifo).success();
    let bytes = receiver
        .recv_timeout(Duration::from_secs(10))
        .expect("nothing was written into the FIFO")
        .unwrap();
    assert_eq!(bytes, jsonl());
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(names(dir.path()), ["fifo"]);
}

#[test]
fn dev_fd_1_writes_into_a_piped_standard_output() {
    for path in ["/dev/fd/1", "/proc/self/fd/1"] {
        let out = ttt().args(["export", "-o", path]).output().unwrap();
        assert!(out.status.success(), "{path}: {out:?}");
        assert!(out.stdout == jsonl(), "{path}: the pipe holds the export");
    }
}

#[test]
fn dev_fd_1_writes_in_place_into_the_file_standard_output_is() {
    let dir = tempdir();
    let captured = dir.path().join("captured");
    fs::write(&captured, "old contents, longer than nothing").unwrap();
    let before = inode(&captured);
    let status = Process::new(ttt_path())
        .args(["export", "-o", "/dev/fd/1"])
        .stdout(File::options().write(true).open(&captured).unwrap())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(inode(&captured), before, "written in place, not replaced");
    assert_eq!(fs::read(&captured).unwrap(), jsonl(), "truncated first");
    assert_eq!(names(dir.path()), ["captured"]);
}

#[test]
fn a_device_reached_through_proc_is_written_in_place_and_its_errors_reported() {
    // The child opens the devices itself; `-o` only names its descriptor 3.
    sh(
        r#"exec 3>/dev/null && exec "$0" export -o /proc/self/fd/3"#,
        &[],
    )
    .success()
    .stdout("")
    .stderr("");
    sh(
        r#"exec 3>/dev/full && exec "$0" export -o /proc/self/fd/3"#,
        &[],
    )
    .code(5)
    .stdout("")
    .stderr("error: cannot write \"/proc/self/fd/3\": No space left on device (os error 28)\n");
}

/// Makes `/dev/null` and `/dev/full` look-alikes on a tmpfs over `dir`, in a mount namespace of
/// the script's own, runs `ttt` on them and reports what happened.
const DEVICES: &str = r#"
d=$1
mount -t tmpfs tmpfs "$d" || exit 77
mknod "$d/null" c 1 3 && mknod "$d/full" c 1 7 || exit 77
ln -s null "$d/link"
"$0" export -o "$d/null"; echo "null: $?"
"$0" export -o "$d/link"; echo "link: $?"
err=$("$0" export -o "$d/full" 2>&1); echo "full: $?"; echo "$err" | sed "s|$d|DIR|"
cd "$d" && stat -c '%n: %F' full link null && ls -A
"#;

#[test]
fn character_devices_are_written_in_place_never_replaced() {
    let available = Process::new("unshare")
        .args(["--mount", "--propagation", "private", "true"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !available {
        eprintln!("skipped: cannot make a private mount namespace (unshare --mount) here");
        return;
    }
    let dir = tempdir();
    let out = Process::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", DEVICES])
        .arg(ttt_path())
        .arg(dir.path())
        .output()
        .unwrap();
    if out.status.code() == Some(77) {
        eprintln!("skipped: cannot mount a tmpfs or make device nodes in a mount namespace");
        return;
    }
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "null: 0\n\
         link: 0\n\
         full: 5\n\
         error: cannot write \"DIR/full\": No space left on device (os error 28)\n\
         full: character special file\n\
         link: symbolic link\n\
         null: character special file\n\
         full\n\
         link\n\
         null\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success());
    assert_eq!(
        names(dir.path()),
        Vec::<String>::new(),
        "the tmpfs went away"
    );
}

#[test]
fn a_250_character_name_is_written() {
    let dir = tempdir();
    let name = format!("{}.jsonl", "a".repeat(244));
    assert_eq!(name.len(), 250);
    export_to(dir.path().join(&name)).success();
    assert_eq!(fs::read(dir.path().join(&name)).unwrap(), jsonl());
    assert_eq!(names(dir.path()), [name]);
}

#[test]
fn dash_is_standard_output_and_dot_slash_dash_a_file() {
    let dir = tempdir();
    let out = ttt()
        .current_dir(dir.path())
        .args(["export", "-o", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout == jsonl());
    assert_eq!(names(dir.path()), Vec::<String>::new());

    ttt()
        .current_dir(dir.path())
        .args(["export", "-o", "./-"])
        .assert()
        .success()
        .stdout("");
    assert_eq!(fs::read(dir.path().join("-")).unwrap(), jsonl());
}

#[test]
fn dash_ends_quietly_when_the_reader_closes_the_pipe() {
    let (_, out) = common::close_after_64_bytes(&["export", "-o", "-"]);
    assert_eq!(out.status.code(), Some(0), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn a_missing_directory_is_one_line_exit_2_and_nothing_created() {
    let dir = tempdir();
    ttt()
        .current_dir(dir.path())
        .args(["export", "-o", "missing/t.jsonl"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "error: cannot write \"missing/t.jsonl\": No such file or directory (os error 2)\n",
        );
    assert_eq!(names(dir.path()), Vec::<String>::new());
}

#[test]
fn control_characters_in_the_path_do_not_reach_the_terminal() {
    let dir = tempdir();
    ttt()
        .current_dir(dir.path())
        .args(["export", "-o", "evil\x1b[31m\n/t.jsonl"])
        .assert()
        .code(2)
        .stderr(
            "error: cannot write \"evil\\u{1b}[31m\\n/t.jsonl\": No such file or directory (os error 2)\n",
        );
}

#[test]
fn a_failed_write_leaves_the_original_and_no_temporary_file() {
    let dir = tempdir();
    let path = dir.path().join("table.jsonl");
    fs::write(&path, "precious").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    let before = inode(&path);
    // A file size limit far below the export: the write fails with EFBIG half way (ttt
    // ignores SIGXFSZ, so the write returns the error instead of killing it).
    sh(
        r#"ulimit -f 64 && exec "$0" export -o "$1""#,
        &[path.as_os_str()],
    )
    .code(5)
    .stderr(predicate::str::contains("File too large"));
    assert_eq!(fs::read_to_string(&path).unwrap(), "precious");
    assert_eq!(inode(&path), before);
    assert_eq!(mode(&path), 0o640);
    assert_eq!(names(dir.path()), ["table.jsonl"]);
}

#[test]
fn symlinks_planted_in_the_directory_are_never_followed_or_touched() {
    let dir = tempdir();
    let elsewhere = tempdir();
    let victim = elsewhere.path().join("victim");
    fs::write(&victim, "precious").unwrap();
    // The names the old writer used (.NAME.tmp-PID, for the next few hundred process ids) and
    // some in today's pattern.
    let last_pid: u32 = fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(1);
    let mut planted: Vec<String> = (1..=300)
        .map(|n| format!(".out.jsonl.tmp-{}", last_pid + n))
        .collect();
    planted.extend((0..20).map(|n| format!(".ttt-{n:012}.tmp")));
    for name in &planted {
        symlink(&victim, dir.path().join(name)).unwrap();
    }
    export_to(dir.path().join("out.jsonl")).success();
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(fs::read(dir.path().join("out.jsonl")).unwrap(), jsonl());
    for name in &planted {
        assert_eq!(fs::read_link(dir.path().join(name)).unwrap(), victim);
    }
    planted.push("out.jsonl".to_string());
    planted.sort();
    assert_eq!(names(dir.path()), planted);
}

#[test]
fn another_users_link_in_a_sticky_directory_is_not_followed() {
    if !is_root() {
        eprintln!("skipped: only root may make a link that belongs to another user");
        return;
    }
    // As in /tmp: sticky and world-writable, and the link planted by someone else.
    let sticky = tempdir();
    fs::set_permissions(sticky.path(), fs::Permissions::from_mode(0o1777)).unwrap();
    let elsewhere = tempdir();
    let victim = elsewhere.path().join("victim");
    fs::write(&victim, "precious").unwrap();
    let link = sticky.path().join("out.jsonl");
    symlink(&victim, &link).unwrap();
    std::os::unix::fs::lchown(&link, Some(65534), Some(65534)).unwrap();
    export_to(&link)
        .code(2)
        .stderr(predicate::str::contains("not following a symbolic link"));
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(fs::read_link(&link).unwrap(), victim);
    assert_eq!(names(sticky.path()), ["out.jsonl"]);
}

/// A new pseudo-terminal: its controlling side and the path of its terminal device.
fn pty() -> Option<(File, PathBuf)> {
    // SAFETY: plain calls on a descriptor this function owns; ptsname_r writes at most
    // `name.len()` bytes, NUL included.
    unsafe {
        let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        if fd < 0 {
            return None;
        }
        let master = File::from_raw_fd(fd);
        if libc::grantpt(master.as_raw_fd()) != 0 || libc::unlockpt(master.as_raw_fd()) != 0 {
            return None;
        }
        let mut name = [0 as libc::c_char; 128];
        if libc::ptsname_r(master.as_raw_fd(), name.as_mut_ptr(), name.len()) != 0 {
            return None;
        }
        let path = PathBuf::from(CStr::from_ptr(name.as_ptr()).to_str().ok()?);
        Some((master, path))
    }
}

#[test]
fn bincode_is_not_written_to_a_terminal_by_dash_or_in_place() {
    let Some((mut master, terminal)) = pty() else {
        eprintln!("skipped: no pseudo-terminal here");
        return;
    };
    // Held open until the end, so that whatever the child writes is read, never blocks.
    let slave = File::options().write(true).open(&terminal).unwrap();
    let drain = thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buffer = [0u8; 4096];
        while let Ok(n @ 1..) = master.read(&mut buffer) {
            seen.extend_from_slice(&buffer[..n]);
        }
        seen
    });
    let out = Process::new(ttt_path())
        .args(["export", "--format", "bincode", "-o", "-"])
        .stdout(slave.try_clone().unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bincode is binary"));
    ttt()
        .args(["export", "--format", "bincode", "-o"])
        .arg(&terminal)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "bincode is binary: not writing it to the terminal",
        ));
    drop(slave);
    let seen = drain.join().unwrap();
    assert!(
        !seen.windows(8).any(|w| w == b"TTTEXPRT"),
        "bincode reached the terminal"
    );
}

/// Kills `ttt export -o DIR/out.jsonl` with a signal at moments spread over a whole run:
/// before, while and after its temporary file exists.
#[test]
fn a_signal_during_the_write_leaves_no_temporary_file() {
    let dir = tempdir();
    let out = dir.path().join("out.jsonl");
    let start = Instant::now();
    export_to(&out).success();
    let run = start.elapsed();
    fs::remove_file(&out).unwrap();

    let signals = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];
    let runs = 30;
    let mut stopped = 0;
    for i in 0..runs {
        let signal = signals[i % signals.len()];
        let delay = run.mul_f64(i as f64 / runs as f64);
        let mut child = default_signals(&mut Process::new(ttt_path()))
            .args(["export", "-o"])
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        thread::sleep(delay);
        // SAFETY: kill has no memory preconditions; the child is not reaped yet, so its id
        // cannot belong to another process.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        if !child.wait().unwrap().success() {
            stopped += 1;
        }
        let left = names(dir.path());
        assert!(
            left.iter().all(|name| name == "out.jsonl"),
            "signal {signal} after {delay:?} left {left:?}"
        );
        if out.exists() {
            assert!(
                fs::read(&out).unwrap() == jsonl(),
                "signal {signal} after {delay:?}: out.jsonl is incomplete"
            );
        }
    }
    assert!(stopped > 0, "no run was stopped: the test proved nothing");
}
