#!/usr/bin/env python3
"""Batch mode, whole process: answers per second through `ttt best -` and `ttt analyze -`.

  python3 benches/batch.py [RUNS] [BOARDS] [ROUND_TRIPS]

Builds the release binary, then reports the median of RUNS runs (default 7), each run taking
every measure below in turn, so that the load of a shared machine weighs on all alike:
  - BOARDS boards (default 100,000: the 4,520 positions with a move to make, over and over)
    written at once to `ttt best -`, `ttt best - --format json` and
    `ttt analyze - --format json`, from the process's start to its end; `cat` on the same
    input is the baseline, the cost of moving the bytes through any process;
  - ping-pong, what a game does: a Python client writes one board, waits for its answer,
    then writes the next, ROUND_TRIPS times (default 20,000), against one `ttt best -` (text
    and JSON, which the client also parses); the same client against `cat`, which echoes each
    line back, is the baseline, the cost of the pipes and of Python's own loop;
  - one process per board, `ttt best BOARD` (200 boards), for comparison.

Every answer is checked against the table as `ttt export` gives it, so a fast wrong answer
fails the run instead of looking good.
"""
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
BOARDS = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
ROUND_TRIPS = int(sys.argv[3]) if len(sys.argv) > 3 else 20_000
TTT = str(ROOT / "target" / "release" / "ttt")


def positions():
    """Every position with a move to make, and its best move: the lowest optimal cell."""
    export = subprocess.run([TTT, "export"], check=True, capture_output=True, text=True).stdout
    records = [json.loads(line) for line in export.splitlines()]
    return [(r["board"], min(r["best"])) for r in records if r["status"] == "in_progress"]


def boards_and_answers(count):
    table = positions()
    assert len(table) == 4520, len(table)
    picked = [table[i % len(table)] for i in range(count)]
    return [board for board, _ in picked], [best for _, best in picked]


def check_text(out, expected):
    answers = [int(line) for line in out.splitlines()]
    assert answers == expected, "ttt best - gave a wrong answer"


def check_json(out, expected, boards):
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["board"] for a in answers] == boards, "answers out of order"
    assert [a["best"] for a in answers] == expected, "ttt best - --format json gave a wrong answer"


def check_analyze(out, expected, boards):
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["board"] for a in answers] == boards, "answers out of order"
    assert [a["best"][0] for a in answers] == expected, "ttt analyze - gave a wrong answer"


def piped_seconds(command, data, check):
    """One run: the whole input written at once, the whole output read, the process ended."""
    start = time.perf_counter()
    done = subprocess.run(command, input=data, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{command} exited {done.returncode}: {done.stderr}")
    check(done.stdout)
    return seconds


def ping_pong_seconds(command, boards, check_answer):
    """One run: one line written, its answer awaited, then the next line."""
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    start = time.perf_counter()
    for i, board in enumerate(boards):
        process.stdin.write(board + "\n")
        process.stdin.flush()
        check_answer(i, process.stdout.readline())
    seconds = time.perf_counter() - start
    process.stdin.close()
    if process.wait() != 0:
        sys.exit(f"{command} exited {process.returncode}")
    return seconds


def medians(measures):
    """The median of RUNS runs of each measure, taken in turn."""
    times = [[] for _ in measures]
    for _ in range(RUNS):
        for measure, seconds in zip(measures, times):
            seconds.append(measure())
    return [statistics.median(seconds) for seconds in times]


def main():
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    boards, expected = boards_and_answers(BOARDS)
    data = "".join(board + "\n" for board in boards)

    def piped(command, check):
        return lambda: piped_seconds(command, data, check)

    trips, trip_answers = boards[:ROUND_TRIPS], expected[:ROUND_TRIPS]

    def echoed(i, line):
        assert line == trips[i] + "\n", "cat did not echo the line"

    def text_answer(i, line):
        assert int(line) == trip_answers[i], "wrong answer"

    def json_answer(i, line):
        answer = json.loads(line)
        assert (answer["board"], answer["best"]) == (trips[i], trip_answers[i]), "wrong answer"

    def ping_pong(command, check):
        return lambda: ping_pong_seconds(command, trips, check)

    singles = boards[:200]

    def one_process_per_board():
        start = time.perf_counter()
        for board, best in zip(singles, expected):
            out = subprocess.run([TTT, "best", board], capture_output=True, text=True, check=True)
            assert int(out.stdout) == best, "wrong answer"
        return time.perf_counter() - start

    def per_board(seconds):
        return BOARDS / seconds, f"{seconds * 1e3:.0f} ms for {BOARDS:,} boards"

    def per_trip(seconds):
        return ROUND_TRIPS / seconds, f"{seconds * 1e6 / ROUND_TRIPS:.1f} µs a round trip"

    def per_process(seconds):
        return len(singles) / seconds, f"{seconds * 1e3 / len(singles):.2f} ms a process"

    cases = [
        ("cat (baseline: bytes through a process)", piped(["cat"], lambda out: None), per_board),
        ("ttt best -", piped([TTT, "best", "-"], lambda out: check_text(out, expected)), per_board),
        ("ttt best - --format json", piped([TTT, "best", "-", "--format", "json"],
                                           lambda out: check_json(out, expected, boards)), per_board),
        ("ttt analyze - --format json", piped([TTT, "analyze", "-", "--format", "json"],
                                              lambda out: check_analyze(out, expected, boards)),
         per_board),
        ("ping-pong: cat (baseline: pipes and Python)", ping_pong(["cat"], echoed), per_trip),
        ("ping-pong: ttt best -", ping_pong([TTT, "best", "-"], text_answer), per_trip),
        ("ping-pong: ttt best - --format json",
         ping_pong([TTT, "best", "-", "--format", "json"], json_answer), per_trip),
        ("one process a board: ttt best BOARD", one_process_per_board, per_process),
    ]
    results = medians([measure for _, measure, _ in cases])
    width = max(len(label) for label, _, _ in cases)
    print(f"{'what':{width}}  {'answers/s':>11}  median run")
    for (label, _, rate_of), seconds in zip(cases, results):
        rate, detail = rate_of(seconds)
        print(f"{label:{width}}  {rate:11,.0f}  {detail}")
    print(f"(medians of {RUNS} runs, taken in turn; every answer checked against `ttt export`)")


if __name__ == "__main__":
    main()
