#!/usr/bin/env python3
"""Whole-process timings, start to finish, with a baseline process measured in the same run.

  python3 benches/process.py [RUNS]

Builds the release binary, then times (median of RUNS runs, default 51):
  - `true`, the cost of starting any process (the baseline);
  - `ttt best BOARD` on a few boards;
  - `ttt audit perfect random`, built-in bots;
  - `ttt match perfect random` and `ttt match --all` over the ten built-in bots (100 matches);
  - `python3 -c pass`, the cost of starting Python (the baseline of the external audits);
  - the full audit, both sides, of the example Python bots through the line protocol, with the
    options that change only its speed: `--stateless`, and the old way, one request at a time
    and one side after the other (`--in-flight 1 --jobs 1`);
  - `ttt match` of `minimax.py` against `perfect`, both orders, with and without `--stateless`.
"""
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 51
BUILT_IN = ["perfect", "tricky", "random", "smartbot", "geeks-minimax", "geeks-minimax-depth",
            "marcelo", "c-minimax", "forkbot", "newell-simon"]


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
    rows.append(("ttt audit perfect random", median_ms([ttt, "audit", "perfect", "random"], RUNS, (1,))))
    rows.append(("ttt match perfect random", median_ms([ttt, "match", "perfect", "random"], RUNS)))
    rows.append(("ttt match --all (10 built-in bots)", median_ms([ttt, "match", "--all", *BUILT_IN], RUNS)))
    audit_runs = max(3, RUNS // 3)
    rows.append(("python3 -c pass (Python start, baseline)", median_ms(["python3", "-c", "pass"], audit_runs)))
    for name, command, options, codes in [
        ("minimax.py", "python3 data/bots/minimax.py", ["--stateless"], (0,)),
        ("minimax.py", "python3 data/bots/minimax.py", [], (0,)),
        ("minimax.py", "python3 data/bots/minimax.py", ["--in-flight", "1", "--jobs", "1"], (0,)),
        ("misbehave.py first", "python3 tests/bots/misbehave.py first", [], (1,)),
    ]:
        label = " ".join([f"ttt audit --cmd {name}", *options])
        rows.append((label, median_ms([ttt, "audit", "--cmd", command, *options], audit_runs, codes)))
    for options in [[], ["--stateless"]]:
        label = " ".join(["ttt match --cmd minimax.py perfect", *options])
        command = [ttt, "match", "--cmd", "python3 data/bots/minimax.py", "perfect", *options]
        rows.append((label, median_ms(command, audit_runs)))
    width = max(len(r[0]) for r in rows)
    print(f"{'command':{width}}  median")
    for label, ms in rows:
        print(f"{label:{width}}  {ms:8.2f} ms")
    print(f"(medians of {RUNS} runs; external bots of {audit_runs})")


if __name__ == "__main__":
    main()
