#!/usr/bin/env python3
"""Whole-process timings, start to finish, with a baseline process measured in the same run.

  python3 benches/process.py [RUNS]

Builds the release binary, then times (median of RUNS runs, default 51):
  - `true`, the cost of starting any process (the baseline);
  - `ttt best BOARD` on a few boards;
  - the full audit, both sides, of the example Python bots through the line protocol.
"""
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 51


def median_ms(command, runs, ok_codes=(0,)):
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        done = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append((time.perf_counter_ns() - start) / 1e6)
        if done.returncode not in ok_codes:
            sys.exit(f"{command} exited {done.returncode}")
    return statistics.median(times)


def main():
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    ttt = str(ROOT / "target" / "release" / "ttt")
    rows = [("true (process start, baseline)", median_ms(["true"], RUNS))]
    for board in [".........", "X...O....", "XO..X...."]:
        rows.append((f"ttt best {board}", median_ms([ttt, "best", board], RUNS)))
    audit_runs = max(3, RUNS // 10)
    for name, command, codes in [
        ("minimax.py (never loses)", "python3 data/bots/minimax.py", (0,)),
        ("misbehave.py first (first empty cell)", "python3 tests/bots/misbehave.py first", (1,)),
    ]:
        rows.append((f"ttt audit --cmd {name}", median_ms([ttt, "audit", "--cmd", command], audit_runs, codes)))
    width = max(len(r[0]) for r in rows)
    print(f"{'command':{width}}  median")
    for label, ms in rows:
        print(f"{label:{width}}  {ms:8.2f} ms")
    print(f"(medians of {RUNS} runs; audits of {audit_runs})")


if __name__ == "__main__":
    main()
