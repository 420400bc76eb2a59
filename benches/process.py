#!/usr/bin/env python3
"""Whole-process timings, start to finish, with a baseline process measured in the same run.

  python3 benches/process.py [RUNS]

Builds the release binary, then times (median of RUNS runs, default 51, the commands before
the audits taken in turn):
  - `true`, the cost of starting any process (the baseline);
  - `ttt best BOARD` on a few boards, and `ttt analyze` (with its perfect line) on one;
  - the same on 4x4 (`--game 4x4`), whose table is read in place for so few lookups;
  - `ttt review` of a six-move game with a mistake, from --moves (text and JSON) and from the
    transcript of `ttt play` on standard input;
  - `ttt audit perfect random`, built-in bots;
  - `ttt match perfect random` and `ttt match --all` over the ten built-in bots (100 matches);
  - `python3 -c pass`, the cost of starting Python (the baseline of the external audits);
  - the full audit, both sides, of the example Python bots through the line protocol, with the
    options that change only its speed: `--stateless`, and the old way, one request at a time
    and one side after the other (`--in-flight 1 --jobs 1`);
  - `ttt match` of `minimax.py` against `perfect`, both orders, with and without `--stateless`.
"""
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 51
BUILT_IN = ["perfect", "tricky", "random", "smartbot", "geeks-minimax", "geeks-minimax-depth",
            "marcelo", "c-minimax", "forkbot", "newell-simon"]


def run_ms(command, ok_codes=(0,), stdin=None):
    start = time.perf_counter_ns()
    done = subprocess.run(command, cwd=ROOT, input=stdin, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    elapsed = (time.perf_counter_ns() - start) / 1e6
    if done.returncode not in ok_codes:
        sys.exit(f"{command} exited {done.returncode}")
    return elapsed


def median_ms(command, runs, ok_codes=(0,)):
    return statistics.median(run_ms(command, ok_codes) for _ in range(runs))


def in_turn(measures, runs):
    """Medians of `runs` runs of each (label, command, stdin), each run taking every measure
    in turn, so that a change of load on a shared machine falls on all of them alike."""
    times = {label: [] for label, _, _ in measures}
    for _ in range(runs):
        for label, command, stdin in measures:
            times[label].append(run_ms(command, stdin=stdin))
    return [(label, statistics.median(times[label])) for label, _, _ in measures]


def main():
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    ttt = str(ROOT / "target" / "release" / "ttt")
    game = "5 3 9 1 4 2"
    transcript = subprocess.run([ttt, "play", "--seed", "7"], input=b"5\n9\n3\n4\n",
                                capture_output=True, check=True).stdout
    assert transcript.endswith(f"result: o_wins moves: {game}\n".encode()), transcript
    # What is timed is checked once: the review of the game, both ways in, finds its mistake.
    for args, stdin in [(["--moves", game], None), ([], transcript)]:
        review = subprocess.run([ttt, "review", *args, "--format", "json"], input=stdin,
                                capture_output=True, check=True).stdout
        assert json.loads(review)["mistakes"] == 1, review
    measures = [("true (process start, baseline)", ["true"], None)]
    for board in [".........", "X...O....", "XO..X...."]:
        measures.append((f"ttt best {board}", [ttt, "best", board], None))
    for board in ["..../..../..../....", "X.../.O../..../...."]:
        measures.append((f"ttt best --game 4x4 {board}", [ttt, "best", "--game", "4x4", board], None))
    measures += [
        ("ttt analyze XO..X....", [ttt, "analyze", "XO..X...."], None),
        ("ttt analyze --game 4x4 X.../.O../..../....",
         [ttt, "analyze", "--game", "4x4", "X.../.O../..../...."], None),
        (f'ttt review --moves "{game}"', [ttt, "review", "--moves", game], None),
        (f'ttt review --moves "{game}" --format json',
         [ttt, "review", "--moves", game, "--format", "json"], None),
        ("ttt review < transcript of ttt play", [ttt, "review"], transcript),
    ]
    rows = in_turn(measures, RUNS)
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
