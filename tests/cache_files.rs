//! The files of the cache folder under attack, through the real binary: a symbolic link, a
//! FIFO or a device where a table, a tier or a lock file goes (refused, never followed,
//! written through or waited on); a table this user may not
//! read (exit 2, "Permission denied").
//!
//! The game is 1x17k2, the cheapest past 16 cells (a second to solve in release). `.ci/test`
//! runs it in release.

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const GAME: &str = "1x17k2";

fn ttt_command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(common::ttt());
    command
        .args(args)
        .arg("--cache-dir")
        .arg(dir)
        .env_remove("XDG_CACHE_HOME")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// `ttt ARGS --cache-dir DIR`, stopped and failed if it takes more than a minute (a FIFO
/// opened and waited on would hang it).
fn ttt(dir: &Path, args: &[&str]) -> Output {
    finished(ttt_command(dir, args).spawn().unwrap(), args)
}

/// What `child` printed and how it ended, within a minute.
fn finished(mut child: Child, what: &[&str]) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("`ttt {}` hung: stopped after a minute", what.join(" "));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// An empty folder of its own for `name`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cache-files-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The bytes of 1x17k2's table, solved once for the whole file.
fn table_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let dir = scratch("solved");
        let out = ttt(&dir, &["solve", "--game", GAME]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let bytes = fs::read(dir.join(format!("{GAME}.table"))).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        bytes
    })
}

/// A cache folder for `name` with 1x17k2's table in it, and the table's path.
fn with_table(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let table = dir.join(format!("{GAME}.table"));
    fs::write(&table, table_bytes()).unwrap();
    (dir, table)
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

/// Asserts that `out` is a refusal with exit code 2 naming `path` and saying `what` is there.
fn refused(out: &Output, path: &Path, what: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&path.display().to_string())
            && stderr.contains(&format!(
                "it is {what}, and ttt reads and writes only regular"
            )),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_link_at_a_tables_path_is_refused_and_what_it_leads_to_left_alone() {
    let dir = scratch("link");
    // Another game's table, which a solve through the link would have replaced.
    let other = dir.join("1x17k5.table");
    let precious: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
    fs::write(&other, &precious).unwrap();
    let table = dir.join(format!("{GAME}.table"));
    std::os::unix::fs::symlink("1x17k5.table", &table).unwrap();
    let out = ttt(&dir, &["solve", "--game", GAME]);
    refused(&out, &table, "a symbolic link");
    assert_eq!(
        fs::read(&other).unwrap(),
        precious,
        "written through the link"
    );
    assert!(fs::symlink_metadata(&table).unwrap().is_symlink());
    // A reader does not follow it either, even to a whole table of the game.
    fs::write(&other, table_bytes()).unwrap();
    let out = ttt(&dir, &["best", "--game", GAME]);
    refused(&out, &table, "a symbolic link");
    // Nor to a device: nothing solved into /dev/zero, nothing read from it.
    fs::remove_file(&table).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &table).unwrap();
    for args in [&["solve", "--game", GAME][..], &["analyze", "--game", GAME]] {
        let out = ttt(&dir, args);
        refused(&out, &table, "a symbolic link");
        assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fifo_where_a_table_tier_or_lock_goes_is_refused_without_waiting() {
    let dir = scratch("fifo");
    let table = dir.join(format!("{GAME}.table"));
    mkfifo(&table);
    for args in [
        &["solve", "--game", GAME][..],
        &["best", "--game", GAME],
        &["analyze", "--game", GAME, "--moves", "1"],
        &["export", "--game", GAME],
        &["stats", "--game", GAME],
        &["audit", "perfect", "--game", GAME],
    ] {
        let out = ttt(&dir, args);
        refused(&out, &table, "a FIFO");
    }
    fs::remove_file(&table).unwrap();
    // The lock file of a solve, and the file of the first tier it would take up again.
    let lock = dir.join(format!("{GAME}.lock"));
    mkfifo(&lock);
    refused(&ttt(&dir, &["solve", "--game", GAME]), &lock, "a FIFO");
    fs::remove_file(&lock).unwrap();
    let tiers = dir.join(format!("{GAME}.tiers"));
    fs::create_dir_all(&tiers).unwrap();
    let tier = tiers.join("tier-17.bin");
    mkfifo(&tier);
    refused(&ttt(&dir, &["solve", "--game", GAME]), &tier, "a FIFO");
    assert!(!table.exists());
    // A link where the tiers' folder goes.
    fs::remove_dir_all(&tiers).unwrap();
    let elsewhere = scratch("fifo-elsewhere");
    std::os::unix::fs::symlink(&elsewhere, &tiers).unwrap();
    refused(
        &ttt(&dir, &["solve", "--game", GAME]),
        &tiers,
        "a symbolic link",
    );
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
    fs::remove_dir_all(&elsewhere).unwrap();
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_table_this_user_may_not_read_is_said_so_with_exit_2() {
    let (dir, table) = with_table("unreadable");
    fs::set_permissions(&table, fs::Permissions::from_mode(0o000)).unwrap();
    // Root reads any file: as root, ttt runs as nobody (the folder lets anyone in).
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let as_user = |args: &[&str]| {
        let mut command = ttt_command(&dir, args);
        if root {
            let program = command.get_program().to_owned();
            let args: Vec<_> = command.get_args().map(|a| a.to_owned()).collect();
            command = Command::new("setpriv");
            command
                .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(program)
                .args(args)
                .env_remove("XDG_CACHE_HOME")
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
        }
        finished(command.spawn().unwrap(), args)
    };
    let out = as_user(&["best", "--game", GAME]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        format!(
            "error: cannot read the table of game {GAME} at {}: Permission denied (os error 13)",
            table.display()
        )
    );
    // A solve leaves it alone too, and says why.
    let out = as_user(&["solve", "--game", GAME]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "cannot read {}: Permission denied",
            table.display()
        )),
        "{stderr}"
    );
    fs::remove_dir_all(&dir).unwrap();
}
