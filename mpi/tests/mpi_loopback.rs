//! The tiered solve across MPI ranks (docs/scale.md), run for real: `mpirun` starts `ttt-mpi`
//! on this machine, its ranks exchanging tiers over loopback, and every entry of every tier
//! the ranks wrote must be the single-process solve's. Needs Open MPI (`mpirun`), and libclang
//! to build: `cargo test -p ttt-mpi`, which `.ci/test` runs.

use std::fs;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use ttt_oracle::Game;
use ttt_oracle::tiers::{Tiers, solve_in_memory};

/// Longer than any run here takes, even on a loaded debug build: then the run is stopped.
const TIME_LIMIT: Duration = Duration::from_secs(300);

/// `mpirun -np RANKS ttt-mpi ARGS`, on this machine alone, stopped with everything it started
/// if it outlives [`TIME_LIMIT`]. The ranks talk TCP over the loopback interface, as ranks on
/// a cluster's machines talk over its network, rather than through shared memory; the other
/// flags make it run wherever a test runs: as root (CI), and with more ranks than cores.
fn mpirun(ranks: usize, args: &[&str]) -> Output {
    let child = Command::new("mpirun")
        .args([
            "--allow-run-as-root",
            "--oversubscribe",
            "--host",
            "localhost",
        ])
        .args([
            "--mca",
            "btl",
            "self,tcp",
            "--mca",
            "btl_tcp_if_include",
            "lo",
        ])
        .args(["--mca", "oob_tcp_if_include", "lo"])
        .args(["-np", &ranks.to_string(), "-x", "RAYON_NUM_THREADS=1"])
        .arg(env!("CARGO_BIN_EXE_ttt-mpi"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group, so a run that hangs is stopped with every rank it started.
        .process_group(0)
        .spawn()
        .unwrap_or_else(|error| {
            panic!("cannot start mpirun (Open MPI's openmpi-bin, which .ci/test installs): {error}")
        });
    wait_within(child, TIME_LIMIT)
}

fn wait_within(mut child: Child, limit: Duration) -> Output {
    let deadline = Instant::now() + limit;
    while child
        .try_wait()
        .expect("mpirun can be waited for")
        .is_none()
    {
        if Instant::now() > deadline {
            let group = child.id() as i32;
            // SIGTERM lets mpirun stop its ranks; SIGKILL then takes whatever is left.
            unsafe { libc::kill(-group, libc::SIGTERM) };
            sleep(Duration::from_secs(5));
            unsafe { libc::kill(-group, libc::SIGKILL) };
            let output = child.wait_with_output().expect("mpirun is stopped");
            panic!(
                "mpirun ran past {limit:?} and was stopped; it printed:\n{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        sleep(Duration::from_millis(50));
    }
    child
        .wait_with_output()
        .expect("mpirun's output can be read")
}

/// Solves `game` on `ranks` ranks, then checks that the slices each rank wrote, put together
/// in rank order, are every tier of the single-process solve; returns what rank 0 printed.
fn solves_as_one_process(game: &str, ranks: usize, more: &[&str]) -> String {
    let scratch = tempfile::Builder::new()
        .prefix("ttt-mpi")
        .tempdir()
        .unwrap();
    let out = scratch.path().join("slices");
    let mut args = vec!["--game", game, "--out", out.to_str().unwrap()];
    args.extend(more);
    let output = mpirun(ranks, &args);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "mpirun -np {ranks} ttt-mpi --game {game}: {}\n{stdout}{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let tiers = Tiers::new(game.parse::<Game>().unwrap());
    let solved = solve_in_memory(&tiers);
    let mut files = 0;
    for (t, expected) in solved.iter().enumerate() {
        let mut tier = Vec::new();
        for rank in 0..ranks {
            tier.extend(read(&out.join(format!("tier-{t:02}.rank-{rank}"))));
            files += 1;
        }
        assert_eq!(tier.len(), expected.len(), "{game}, tier {t}: entries");
        if let Some(i) = (0..tier.len()).find(|&i| tier[i] != expected[i]) {
            panic!(
                "{game} on {ranks} ranks, tier {t}, entry {i}: {} where one process has {}",
                tier[i], expected[i]
            );
        }
    }
    assert_eq!(
        fs::read_dir(&out).unwrap().count(),
        files,
        "{game}: stray files"
    );
    stdout
}

fn read(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

#[test]
fn two_ranks_solve_a_square_as_one_process_does() {
    let printed = solves_as_one_process("4x4k3", 2, &[]);
    assert!(
        printed.starts_with("game 4x4k3 on 2 ranks: 17 tiers\n"),
        "{printed}"
    );
    // Every X-move tier but the last gathers the tier above: each of the two ranks receives
    // the other's slice, so the tier once in all.
    let tiers = Tiers::new("4x4k3".parse().unwrap());
    let exchanged: u64 = (0..16)
        .filter(|t| t % 2 == 0)
        .map(|t| tiers.size(t + 1))
        .sum();
    let last = printed.lines().last().unwrap();
    let grouped = ttt_oracle::text::grouped(exchanged);
    assert!(
        last.ends_with(&format!("; {grouped} bytes exchanged in all")),
        "{printed}"
    );
}

#[test]
fn three_ranks_split_a_rectangle_unevenly_and_agree() {
    // 3x4 has 4 symmetries and few blocks in its small tiers: some ranks own none of them.
    solves_as_one_process("3x4k3", 3, &[]);
    solves_as_one_process("2x7k3", 2, &[]);
}

#[test]
fn slices_sent_in_pieces_of_a_few_bytes_arrive_whole() {
    // Pieces of 1 GiB carry the tiers of 5x5 past the 2^31 - 1 of an MPI count; pieces of
    // 7 bytes cut every slice here, and not at block boundaries.
    solves_as_one_process("3x4k3", 2, &["--piece", "7"]);
    solves_as_one_process("3x4k3", 1, &["--piece", "7"]);
}

#[test]
fn a_wrong_argument_is_said_once_and_fails_every_rank() {
    let output = mpirun(2, &["--game", "3x4k9", "--out", "unused"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert_eq!(
        stderr.matches("ttt-mpi: --game 3x4k9:").count(),
        1,
        "{stderr}"
    );
    assert!(
        stderr.contains("usage: mpirun -np P ttt-mpi --game G --out DIR"),
        "{stderr}"
    );
    assert!(!Path::new("unused").exists());
}

#[test]
fn a_game_too_large_for_tiers_is_refused_before_any_exchange() {
    let scratch = tempfile::Builder::new()
        .prefix("ttt-mpi")
        .tempdir()
        .unwrap();
    let out = scratch.path().join("slices");
    let output = mpirun(2, &["--game", "6x6k4", "--out", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert_eq!(
        stderr
            .matches("ttt-mpi: game 6x6k4 has 36 cells; a tiered solve takes at most 25")
            .count(),
        1,
        "{stderr}"
    );
}

#[test]
fn an_output_folder_that_cannot_be_made_stops_every_rank() {
    let scratch = tempfile::Builder::new()
        .prefix("ttt-mpi")
        .tempdir()
        .unwrap();
    let file = scratch.path().join("a-file");
    fs::write(&file, "").unwrap();
    let out = file.join("slices");
    let output = mpirun(2, &["--game", "3x4k3", "--out", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("cannot create"), "{stderr}");
}
