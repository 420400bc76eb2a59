#!/usr/bin/env python3
"""What `ttt audit perfect`, `random` and `tricky --game 4x4` take, whole processes.

  python3 benches/audit_games.py [RUNS] [TTT...]

Runs each audit with each `ttt` binary given (default target/release/ttt; give the build
before, saved aside, as a baseline), and with the first one also `--jobs 1` (one side after the
other, the baseline of the two sides at once), RUNS rounds (default 3), every command once a
round in turn, so that the machine's load falls on all of them alike; prints each median wall
time. Every report is checked: `perfect` and `tricky` never lose (exit 0), `random`
can lose (exit 1), and every binary and way gives the same JSON report, byte for byte.
Build first: `cargo build --release`.
"""
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
BINARIES = sys.argv[2:] or [str(ROOT / "target" / "release" / "ttt")]
BOTS = {"perfect": 0, "random": 1, "tricky": 0}

commands = []
for bot in BOTS:
    audit = ["audit", bot, "--game", "4x4", "--format", "json"]
    commands.append((bot, [BINARIES[0], *audit, "--jobs", "1"]))
    commands += [(bot, [ttt, *audit, "--jobs", "2"]) for ttt in BINARIES]

times = {i: [] for i in range(len(commands))}
reports = {}
for _ in range(RUNS):
    for i, (bot, command) in enumerate(commands):
        start = time.perf_counter_ns()
        process = subprocess.run(command, capture_output=True)
        out, err = process.stdout, process.stderr
        elapsed = (time.perf_counter_ns() - start) / 1e9
        assert process.returncode == BOTS[bot], f"{command}: exit {process.returncode}: {err!r}"
        report = json.loads(out)
        verdicts = [side["verdict"] for entry in report["bots"] for side in entry["sides"]]
        expected = "can_lose" if BOTS[bot] else "never_loses"
        assert verdicts == [expected, expected], f"{command}: {verdicts}"
        assert reports.setdefault(bot, out) == out, f"{command}: another report"
        times[i].append(elapsed)
for i, (bot, command) in enumerate(commands):
    line = f"{command[0]} {' '.join(command[1:3])} {command[-2]} {command[-1]}"
    print(f"{line:64} {statistics.median(times[i]):6.2f} s")
print(f"(medians of {RUNS} runs, taken in turn; every report the same)")
