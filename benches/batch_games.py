#!/usr/bin/env python3
"""Batch mode on 3x3 and 4x4 in bulk: answers per second through `ttt best -`, text and JSON.

  python3 benches/batch_games.py [RUNS] [BOARDS]

Uses the release binary as built (`cargo build --release`). For each game, 100,000 positions
in play from random games (a fixed seed), repeated to BOARDS lines (default 2,000,000), are
read from a file by `ttt best -` and by `ttt best - --format json`; `cat` on the same input is
the baseline. Each measure is the median of RUNS runs (default 5), all measures taken in turn
in each run. Besides the whole process, the rate at the margin: the lines past the first 2,000
over the time they add to a run of 2,000 lines (which pays the start, and on 4x4 the table's
unpacking and its half bytes of best moves).

Every answer is checked: the text answers against the lowest optimal move that
`ttt analyze - --format json` (the general path) gives for each distinct board, and the JSON
answers line by line against the general path's fields.
"""
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
BOARDS = int(sys.argv[2]) if len(sys.argv) > 2 else 2_000_000
TTT = str(ROOT / "target" / "release" / "ttt")
DISTINCT = 100_000
SMALL = 2_000


def lines_of(rows, columns, k):
    """Every line of k cells of the board, as lists of cell indices."""
    found = []
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= y < rows and 0 <= x < columns for y, x in cells):
                    found.append([y * columns + x for y, x in cells])
    return found


def boards(rows, columns, seed):
    """DISTINCT positions in play, written as `ttt` writes them."""
    rng = random.Random(seed)
    lines = lines_of(rows, columns, min(rows, columns))
    cells = rows * columns
    found = []
    while len(found) < DISTINCT:
        board, mark = ["."] * cells, "X"
        for _ in range(rng.randrange(cells)):
            board[rng.choice([i for i in range(cells) if board[i] == "."])] = mark
            mark = "O" if mark == "X" else "X"
        won = any(board[line[0]] != "." and len({board[i] for i in line}) == 1 for line in lines)
        if not won and "." in board:
            text = "".join(board)
            if (rows, columns) != (3, 3):
                text = "/".join(text[r * columns:(r + 1) * columns] for r in range(rows))
            found.append(text)
    return found


def timed(command, data):
    """Seconds from start to end of `command` reading `data` from a file and writing to a
    file (so that no pipe to this script paces it), and what it wrote."""
    scratch = ROOT / "target" / "batch_games"
    scratch.mkdir(parents=True, exist_ok=True)
    (scratch / "in").write_bytes(data)
    with open(scratch / "in", "rb") as given, open(scratch / "out", "wb") as taken:
        start = time.perf_counter()
        subprocess.run(command, stdin=given, stdout=taken, check=True)
        elapsed = time.perf_counter() - start
    return elapsed, (scratch / "out").read_bytes()


def main():
    report = []
    for game, rows, columns in (("3x3", 3, 3), ("4x4", 4, 4)):
        distinct = boards(rows, columns, 29)
        game_args = [] if game == "3x3" else ["--game", game]
        general = subprocess.run(
            [TTT, "analyze", *game_args, "-", "--format", "json"],
            input="".join(b + "\n" for b in distinct).encode(),
            capture_output=True, check=True).stdout.decode().splitlines()
        analyses = [json.loads(line) for line in general]
        expected_text = [str(min(a["best"])) for a in analyses]
        expected_json = [
            {**({"game": game} if game != "3x3" else {}), "board": a["board"],
             "to_move": a["to_move"], "best": min(a["best"]), "value": a["value"],
             "remoteness": a["remoteness"]}
            for a in analyses]
        repeat = BOARDS // DISTINCT
        data = "".join(b + "\n" for b in distinct).encode() * repeat
        small = "".join(b + "\n" for b in distinct[:SMALL]).encode()
        measures = {
            "cat": ["cat"],
            "ttt best -": [TTT, "best", *game_args, "-"],
            "ttt best - --format json": [TTT, "best", *game_args, "-", "--format", "json"],
        }
        times = {name: [] for name in measures}
        small_times = {name: [] for name in measures}
        for _ in range(RUNS):
            for name, command in measures.items():
                elapsed, out = timed(command, data)
                times[name].append(elapsed)
                small_elapsed, _ = timed(command, small)
                small_times[name].append(small_elapsed)
                answers = out.decode().splitlines()
                assert len(answers) == len(distinct) * repeat, name
                if name == "ttt best -":
                    assert answers == expected_text * repeat, name
                elif name.endswith("json"):
                    for i in range(len(distinct)):
                        assert json.loads(answers[i]) == expected_json[i], answers[i]
                    assert answers == answers[:len(distinct)] * repeat, name
        for name in measures:
            whole = statistics.median(times[name])
            start = statistics.median(small_times[name])
            margin = (len(data) and (BOARDS - SMALL) / max(whole - start, 1e-9))
            report.append((game, name, BOARDS / whole, whole, margin, start))
    print(f"{'game':5} {'what':26} {'answers/s':>12} {'whole run':>10} {'at the margin':>14}"
          f" {'2,000 lines':>12}")
    for game, name, rate, whole, margin, start in report:
        print(f"{game:5} {name:26} {rate:12,.0f} {whole * 1e3:8.0f} ms {margin:12,.0f}/s"
              f" {start * 1e3:9.1f} ms")
    print(f"({BOARDS:,} lines a run, medians of {RUNS} runs taken in turn; every answer checked"
          " against `ttt analyze -`)")


if __name__ == "__main__":
    main()
