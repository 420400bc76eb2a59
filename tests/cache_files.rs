//! The files of the cache folder under attack, through the real binary: a symbolic link, a
//! FIFO or a device where a table, a tier or a lock file goes (refused, never followed,
//! written through or waited on); a table truncated or rewritten in place while `ttt` reads it
//! (exit 4 with a message, never a wrong answer, never a signal); a tier damaged on disk (the
//! table opens, the other tiers answer, a question that reads that tier stops with exit 4, or
//! a panic in a library); a table this user may not read (exit 2, "Permission denied"); a
//! solve resumed on a disk that holds only what is left to write; `--threads` past the cores.
//!
//! The game is 1x17k2, the cheapest past 16 cells (a second to solve in release), and 3x6k4
//! where a solve must last long enough to be killed half-way. `.ci/test` runs it in release.

mod common;

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
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
    fs::remove_file(&tiers).unwrap();
    // A folder where the lock file goes, and a file where the tiers' folder goes.
    let _ = fs::remove_file(&lock);
    fs::create_dir(&lock).unwrap();
    refused(&ttt(&dir, &["solve", "--game", GAME]), &lock, "a folder");
    fs::remove_dir(&lock).unwrap();
    fs::write(&tiers, "mine").unwrap();
    let out = ttt(&dir, &["solve", "--game", GAME]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}: it is a file where a solve keeps its tiers",
            tiers.display()
        )),
        "{stderr}"
    );
    assert_eq!(fs::read(&tiers).unwrap(), b"mine");
    fs::remove_dir_all(&dir).unwrap();
}

/// Whether the kernel gives file leases (`/proc/sys/fs/leases-enable`), which guard a table
/// against a writer that opens it while `ttt` reads it.
fn leases() -> bool {
    let enabled = fs::read_to_string("/proc/sys/fs/leases-enable").is_ok_and(|s| s.trim() == "1");
    if !enabled {
        eprintln!("SKIPPED the parts that need file leases: /proc/sys/fs/leases-enable is not 1");
    }
    enabled
}

/// `ttt analyze --moves - --format json` on 1x17k2, reading from a pipe kept open, run by
/// `wrap` (a program and its arguments before `ttt`, or none).
struct Reader {
    child: Child,
    input: std::process::ChildStdin,
    output: BufReader<std::process::ChildStdout>,
}

impl Reader {
    fn start(dir: &Path, wrap: &[&str]) -> Reader {
        let mut command = match wrap.split_first() {
            Some((program, rest)) => {
                let mut command = Command::new(program);
                command.args(rest).arg(common::ttt());
                command
            }
            None => Command::new(common::ttt()),
        };
        let mut child = command
            .args([
                "analyze", "--game", GAME, "--moves", "-", "--format", "json",
            ])
            .arg("--cache-dir")
            .arg(dir)
            .env_remove("XDG_CACHE_HOME")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Reader {
            child,
            input,
            output,
        }
    }

    /// The answer to `moves`, or `None` once the reader has ended.
    fn ask(&mut self, moves: &str) -> Option<String> {
        writeln!(self.input, "{moves}").ok()?;
        self.input.flush().ok()?;
        let mut line = String::new();
        match self.output.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line),
        }
    }

    /// Asks every question of `asked` until the reader ends, then waits for it to end.
    fn end(mut self, asked: &[&str]) -> (Vec<String>, Output) {
        let answers = asked.iter().map_while(|moves| self.ask(moves)).collect();
        drop(self.input);
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut self.output, &mut rest);
        (answers, finished(self.child, &["analyze", "--moves", "-"]))
    }
}

/// Starts the program after it with `SIGIO` and `SIGBUS` blocked.
const BLOCKED: [&str; 3] = [
    "python3",
    "-c",
    "import os, signal, sys; signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGIO, \
     signal.SIGBUS}); os.execv(sys.argv[1], sys.argv[1:])",
];

/// Questions whose answers read the table all over: every first move, then two.
const QUESTIONS: [&str; 6] = ["1", "9", "1 2", "3 17", "5 12", "17 1"];

/// Asserts that a reader ended with exit code 4 and the message naming the table, not by a
/// signal.
fn stopped_with_4(out: &Output, table: &Path) {
    let stderr = text(&out.stderr);
    assert_eq!(
        out.status.signal(),
        None,
        "ended by a signal: {:?}; {stderr}",
        out.status
    );
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the table of game {GAME} at {} was changed while ttt read it",
            table.display()
        )),
        "{stderr}"
    );
}

#[test]
fn a_table_truncated_under_a_reader_stops_it_with_exit_4() {
    let (dir, table) = with_table("truncated");
    let right = Reader::start(&dir, &[]).end(&QUESTIONS).0;
    assert_eq!(right.len(), QUESTIONS.len());
    // Started as it is, and with both signals of the guard blocked by the program that
    // starts it (a mask survives exec): ttt lets them through.
    for wrap in [&[][..], &BLOCKED[..]] {
        if !leases() {
            break;
        }
        fs::write(&table, table_bytes()).unwrap();
        let mut reader = Reader::start(&dir, wrap);
        assert_eq!(reader.ask("1").as_ref(), Some(&right[0]));
        // The open for writing waits until the reader has stopped.
        let file = fs::OpenOptions::new().write(true).open(&table).unwrap();
        file.set_len(4096).unwrap();
        let (_, out) = reader.end(&QUESTIONS);
        stopped_with_4(&out, &table);
    }
    // A reader that holds no lease (another user's table: as root, the reader runs as
    // nobody), truncated under it: the read past the end is caught, not a SIGBUS.
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        fs::write(&table, table_bytes()).unwrap();
        let nobody = [
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
        ];
        let mut reader = Reader::start(&dir, &nobody);
        assert_eq!(reader.ask("1").as_ref(), Some(&right[0]));
        let file = fs::OpenOptions::new().write(true).open(&table).unwrap();
        file.set_len(4096).unwrap();
        let (answers, out) = reader.end(&QUESTIONS[1..]);
        stopped_with_4(&out, &table);
        assert_eq!(answers[..], right[1..1 + answers.len()]);
    } else {
        eprintln!("SKIPPED the unleased reader: it takes root to run one as another user");
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_table_rewritten_in_place_under_a_reader_never_gives_a_wrong_answer() {
    if !leases() {
        return;
    }
    let (dir, table) = with_table("rewritten");
    let right = Reader::start(&dir, &[]).end(&QUESTIONS).0;
    let mut reader = Reader::start(&dir, &[]);
    assert_eq!(reader.ask("1").as_ref(), Some(&right[0]));
    // Every entry's bits flipped, the size the same, through a descriptor opened for writing
    // while the reader reads: the open waits until the reader has stopped.
    {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&table)
            .unwrap();
        let mut entries = Vec::new();
        file.seek(SeekFrom::Start(4096)).unwrap();
        file.read_to_end(&mut entries).unwrap();
        entries.iter_mut().for_each(|byte| *byte ^= 0x41);
        file.seek(SeekFrom::Start(4096)).unwrap();
        file.write_all(&entries).unwrap();
    }
    let (answers, out) = reader.end(&QUESTIONS[1..]);
    stopped_with_4(&out, &table);
    assert_eq!(answers[..], right[1..1 + answers.len()], "a wrong answer");
    // A table open for writing elsewhere when ttt opens it may change at any moment: refused.
    let writer = fs::OpenOptions::new().write(true).open(&table).unwrap();
    fs::write(&table, table_bytes()).unwrap();
    let out = ttt(&dir, &["best", "--game", GAME]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains("is open for writing in another process, so it may change while read"),
        "{stderr}"
    );
    assert!(!stderr.contains("damaged"), "{stderr}");
    // Nor is it solved again: nothing is wrong with it, and another program holds it.
    let out = ttt(&dir, &["solve", "--game", GAME]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("try again once that process has closed it"),
        "{stderr}"
    );
    assert_eq!(fs::read(&table).unwrap(), table_bytes());
    drop(writer);
    let out = ttt(&dir, &["best", "--game", GAME]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    fs::remove_dir_all(&dir).unwrap();
}

/// A cache folder for `name` with 1x17k2's table in it, one byte of its last tier (the full
/// board's) flipped, the header and its checksums left as they were; and the table's path.
fn with_last_tier_damaged(name: &str) -> (PathBuf, PathBuf) {
    let (dir, table) = with_table(name);
    let mut bytes = table_bytes().to_vec();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&table, bytes).unwrap();
    (dir, table)
}

/// The line a question that reads the damaged last tier of `table` stops with.
fn last_tier_damaged(table: &Path) -> String {
    format!(
        "the table of game {GAME} is damaged: {}: tier 17's checksum does not match; solve it \
         again with `ttt solve --game {GAME}`",
        table.display()
    )
}

/// The moves that fill 16 of the 17 cells with no two marks of a side side by side: the one
/// move left makes the full board, in the last tier.
fn sixteen_moves() -> String {
    (1..=16)
        .map(|cell| cell.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_damaged_tier_is_found_when_first_read_and_never_answers() {
    let (whole, _) = with_table("tier-whole");
    let (dir, table) = with_last_tier_damaged("tier-damaged");
    // The table opens, and questions that read only the tiers before the last are answered
    // as the whole table answers them.
    for args in [
        &["best", "--game", GAME, "--moves", "1 3"][..],
        &[
            "analyze", "--game", GAME, "--moves", "1 3 5", "--format", "json",
        ],
    ] {
        let (right, out) = (ttt(&whole, args), ttt(&dir, args));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(text(&out.stdout), text(&right.stdout), "{args:?}");
        assert!(!out.stdout.is_empty());
    }
    // A question that reads the last tier: exit 4, one line naming the table, the tier and
    // what to do, and no answer.
    let sixteen = sixteen_moves();
    for command in ["best", "analyze"] {
        let out = ttt(&dir, &[command, "--game", GAME, "--moves", &sixteen]);
        assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
        assert_eq!(
            text(&out.stderr),
            format!("error: {}\n", last_tier_damaged(&table))
        );
        assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
        let right = ttt(&whole, &[command, "--game", GAME, "--moves", &sixteen]);
        assert!(right.status.success(), "{}", text(&right.stderr));
    }
    // Stats read every tier, and verify checks every tier before anything else: both say so
    // in the same words, stats with exit 4, verify with 1 (the damage is its answer).
    for (command, code) in [("stats", 4), ("verify", 1)] {
        let out = ttt(&dir, &[command, "--game", GAME]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{command}: {stderr}");
        assert!(stderr.contains(&last_tier_damaged(&table)), "{stderr}");
        assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    }
    // A solve checks every tier of the table there too, and replaces it.
    let out = ttt(&dir, &["solve", "--game", GAME]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(fs::read(&table).unwrap(), table_bytes());
    // A damaged header is still refused when the table is opened, whatever the question.
    let mut bytes = table_bytes().to_vec();
    bytes[20] ^= 1; // the first tier's length
    fs::write(&table, bytes).unwrap();
    let out = ttt(&dir, &["best", "--game", GAME, "--moves", "1 3"]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("the header's checksum does not match"),
        "{}",
        text(&out.stderr)
    );
    fs::remove_dir_all(&whole).unwrap();
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_tier_read_by_a_library_panics_in_every_thread_that_reads_it() {
    use ttt_oracle::{Game, Oracle, Position};
    let (dir, table) = with_last_tier_damaged("tier-library");
    // The only table this test process opens (the others run the binary).
    ttt_oracle::cache::set_cache_dir(dir.clone());
    let game: Game = GAME.parse().unwrap();
    let oracle = Oracle::of(game).unwrap();
    // An early tier answers: the best first move, as `ttt best` gives it from a whole table.
    let (whole, _) = with_table("tier-library-whole");
    let right = ttt(&whole, &["best", "--game", GAME]);
    let best = oracle.best_move(&Position::empty(game)).unwrap();
    assert_eq!(format!("{best}\n"), text(&right.stdout));
    fs::remove_dir_all(&whole).unwrap();
    // Four threads read the damaged tier at once: each panics with the line, none answers.
    let before_last = Position::parse(game, "XOXOXOXOXOXOXOXO.").unwrap();
    for _ in 0..2 {
        let ended: Vec<_> = std::thread::scope(|scope| {
            let readers: Vec<_> = (0..4)
                .map(|_| scope.spawn(|| oracle.best_moves(&before_last)))
                .collect();
            readers.into_iter().map(|reader| reader.join()).collect()
        });
        for end in ended {
            let payload = end.expect_err("an answer from a damaged tier");
            let message = payload.downcast_ref::<String>().expect("a message");
            assert_eq!(*message, last_tier_damaged(&table));
        }
    }
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

#[test]
fn a_solve_killed_on_a_tight_disk_goes_on_in_the_room_left() {
    use ttt_oracle::cache::Plan;
    let game = "3x6k4";
    let plan = Plan::of(game.parse().unwrap());
    // A file system of its own, the size of the solve and 1 MiB more: a tmpfs mounted in a
    // mount namespace (and a user namespace, so that no privilege is needed).
    let mount = scratch("tight");
    let size = plan.disk_bytes + (1 << 20);
    let script = r#"
        mount -t tmpfs -o size="$SIZE" tmpfs "$MNT" || exit 99
        tiers="$MNT/c/$GAME.tiers"
        "$TTT" solve --game "$GAME" --threads 1 --cache-dir "$MNT/c" > /dev/null 2>&1 &
        pid=$!
        # Killed once more than the 1 MiB to spare is kept in tier files.
        while :; do
            kept=$(cat "$tiers"/tier-*.bin 2> /dev/null | wc -c)
            [ "$kept" -gt $((2 << 20)) ] && break
            [ -e "$MNT/c/$GAME.table" ] && { echo "finished before the kill"; exit 98; }
            sleep 0.01
        done
        kill -9 $pid
        wait $pid
        echo "kept $(cat "$tiers"/tier-*.bin | wc -c)"
        echo "free $(df -B1 --output=avail "$MNT" | tail -1)"
        "$TTT" solve --game "$GAME" --cache-dir "$MNT/c"
        echo "resumed $?"
        cmp "$MNT/c/$GAME.table" "$WHOLE" && echo "same table"
    "#;
    let whole = scratch("tight-whole");
    let out = ttt(&whole, &["solve", "--game", game]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "sh", "-c", script])
        .env("SIZE", size.to_string())
        .env("MNT", &mount)
        .env("GAME", game)
        .env("TTT", common::ttt())
        .env("WHOLE", whole.join(format!("{game}.table")))
        .output()
        .unwrap();
    let said = text(&out.stdout);
    if out.status.code() == Some(99) || said.is_empty() && !out.status.success() {
        eprintln!(
            "SKIPPED: no mount namespace for a tmpfs here: {}",
            text(&out.stderr)
        );
    } else {
        let figure = |name: &str| -> u64 {
            said.lines()
                .find_map(|line| line.strip_prefix(name))
                .unwrap_or_else(|| panic!("no {name}: {said}{}", text(&out.stderr)))
                .trim()
                .parse()
                .unwrap()
        };
        // Too little room for a solve from scratch, enough for what is left.
        assert!(
            figure("free ") < plan.disk_bytes,
            "{said}{}",
            text(&out.stderr)
        );
        assert!(
            said.contains("going on from tier") && said.contains("resumed 0"),
            "{said}{}",
            text(&out.stderr)
        );
        assert!(said.contains("same table"), "{said}");
    }
    fs::remove_dir_all(&mount).unwrap();
    fs::remove_dir_all(&whole).unwrap();
}

#[test]
fn more_threads_than_cores_are_lowered_with_a_note() {
    let dir = scratch("threads");
    let child = ttt_command(&dir, &["solve", "--game", GAME, "--threads", "10000"])
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut most = 0;
    let start = Instant::now();
    let mut child = child;
    while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(60) {
        let threads = fs::read_to_string(&status).ok().and_then(|s| {
            s.lines()
                .find_map(|line| line.strip_prefix("Threads:"))
                .and_then(|n| n.trim().parse::<usize>().ok())
        });
        most = most.max(threads.unwrap_or(0));
        std::thread::sleep(Duration::from_millis(1));
    }
    let out = finished(child, &["solve", "--threads", "10000"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let cores = std::thread::available_parallelism().unwrap().get();
    let noun = if cores == 1 { "core" } else { "cores" };
    assert_eq!(
        text(&out.stderr),
        format!(
            "note: --threads 10000 is more than the {cores} {noun} here; solving with {cores}\n"
        )
    );
    // The solve's threads, the main one and ttt's own few (signals, the progress line).
    assert!(most <= cores + 4, "{most} threads at once");
    assert!(dir.join(format!("{GAME}.table")).exists());
    fs::remove_dir_all(&dir).unwrap();
}
