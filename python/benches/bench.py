"""The Python package's speed, medians of one run: a best move from Python, and the audit of
a perfect Python bot on 3x3 in-process beside the same bot audited through `ttt audit --cmd`.

Run from the repository's root, with the package installed and ttt built in release:
    python python/benches/bench.py
"""

import os
import statistics
import subprocess
import sys
import time
import timeit

import ttt_oracle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOT = os.path.join(ROOT, "python", "tests", "bots", "perfect.py")
sys.path.insert(0, os.path.dirname(BOT))
from perfect import perfect  # noqa: E402


def median_seconds(run, times):
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def main():
    oracle = ttt_oracle.Oracle()
    board = "XO..X...."
    assert oracle.best_move(board) == 9
    number = 200_000
    calls = timeit.repeat(lambda: None, number=number, repeat=1)  # warm up
    calls = timeit.repeat("best(board)", globals={"best": oracle.best_move, "board": board},
                          number=number, repeat=9)
    best_ns = statistics.median(calls) / number * 1e9
    moves = timeit.repeat("best(moves)", globals={"best": oracle.best_move, "moves": [5, 1]},
                          number=number, repeat=9)
    moves_ns = statistics.median(moves) / number * 1e9
    builtin = timeit.repeat("len(board)", globals={"board": board}, number=number, repeat=9)
    builtin_ns = statistics.median(builtin) / number * 1e9

    def in_process():
        report = ttt_oracle.audit(perfect, stateless=True)
        assert report.never_loses

    def by_histories():
        assert ttt_oracle.audit(perfect).never_loses

    ttt = os.path.join(ROOT, "target", "release", "ttt")
    command = [ttt, "audit", "--cmd", f"{sys.executable} {BOT}", "--stateless"]

    def through_cmd():
        done = subprocess.run(command, capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout.rstrip().endswith("never loses"), done

    in_process()
    audit_ms = median_seconds(in_process, 21) * 1e3
    cmd_ms = median_seconds(through_cmd, 7) * 1e3
    histories_ms = median_seconds(by_histories, 7) * 1e3
    print(f"Oracle.best_move(board)        {best_ns:8.0f} ns a call (median of 9 x {number:,})")
    print(f"len(board), the baseline      {builtin_ns:8.0f} ns a call (median of 9 x {number:,})")
    print(f"Oracle.best_move([5, 1])       {moves_ns:8.0f} ns a call (median of 9 x {number:,})")
    print(f"audit(perfect, stateless=True) {audit_ms:8.1f} ms (median of 21), both sides")
    print(f"ttt audit --cmd ... --stateless{cmd_ms:8.1f} ms (median of 7), both sides")
    print(f"audit(perfect), by histories  {histories_ms:8.1f} ms (median of 7), both sides")
    print(f"in-process is {cmd_ms / audit_ms:.0f} times as fast")


if __name__ == "__main__":
    main()
