#!/usr/bin/env python3
"""What starting `ttt best BOARD` costs above starting `true`, the two taken in turn.

  python3 benches/start.py [RUNS] [TTT...]

Times `true` and `ttt best X........` (and any other `ttt` binaries given, such as the build
before, saved aside) one after the other, RUNS rounds (default 1000), so that the machine's
load falls on all of them alike; prints each median and its distance above `true`. Every
answer is checked: 5, the only move that does not lose. Build first: `cargo build --release`.
"""
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
BINARIES = sys.argv[2:] or [str(ROOT / "target" / "release" / "ttt")]
COMMANDS = [["true"]] + [[ttt, "best", "X........"] for ttt in BINARIES]

for command in COMMANDS[1:]:
    answer = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert answer == "5\n", f"{command} answered {answer!r}"
times = {i: [] for i in range(len(COMMANDS))}
for _ in range(RUNS):
    for i, command in enumerate(COMMANDS):
        start = time.perf_counter_ns()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        times[i].append((time.perf_counter_ns() - start) / 1e6)
baseline = statistics.median(times[0])
for i, command in enumerate(COMMANDS):
    median = statistics.median(times[i])
    print(f"{' '.join(command):48} {median:6.3f} ms  +{median - baseline:.3f} ms above true")
print(f"(medians of {RUNS} runs, taken in turn)")
