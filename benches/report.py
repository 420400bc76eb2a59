#!/usr/bin/env python3
"""Prints criterion's medians from the last `cargo bench --bench oracle` as the table in docs/performance.md.

  python3 benches/report.py
  python3 benches/report.py games   # the last `cargo bench --bench games`: the m,n,k figures
  python3 benches/report.py tableless   # the last `cargo bench --bench tableless`
"""
import json
import sys
from pathlib import Path

CRITERION = Path(__file__).resolve().parent.parent / "target" / "criterion"


def median_ns(group, bench=None):
    path = CRITERION / group / (bench or "") / "new" / "estimates.json"
    return json.loads(path.read_text())["median"]["point_estimate"]


def fmt(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def games():
    """The m,n,k benchmarks: each median, per position where a run asks 4,520, and the 4x4
    queries against 3x3's best move of the same run."""
    print("| benchmark | median | per query |")
    print("| --- | --- | --- |")
    groups = ("games_query", "games_play", "peers_3x3_best_move", "games_solve")
    for group in groups:
        if not (CRITERION / group).exists():
            continue
        for path in sorted((CRITERION / group).iterdir()):
            if not (path / "new" / "estimates.json").exists():
                continue
            ns = median_ns(group, path.name)
            per = fmt(ns / 4520) if group != "games_solve" else ""
            print(f"| {group}/{path.name} | {fmt(ns)} | {per} |")
    try:
        baseline = median_ns("games_query", "3x3_best_move")
    except FileNotFoundError:
        return
    for group, bench in (("games_query", "4x4_best_move_oracle"),
                         ("games_query", "4x4_value_remoteness")):
        try:
            print(f"{group}/{bench}: {median_ns(group, bench) / baseline:,.1f} times 3x3's best move")
        except FileNotFoundError:
            continue


def tableless():
    """The audits without a table: each median, on 3x3 the memoised walk against the same walk
    by histories, and on 5x5 the searches against the same searches for a bot that does not
    say it blocks threats."""
    print("| benchmark | median |")
    print("| --- | --- |")
    for path in sorted((CRITERION / "tableless").iterdir()):
        if (path / "new" / "estimates.json").exists():
            print(f"| tableless/{path.name} | {fmt(median_ns('tableless', path.name))} |")
    walk = median_ns("tableless", "3x3_marcelo_by_histories")
    print(f"3x3: by histories {walk / median_ns('tableless', '3x3_marcelo'):,.1f} times the memoised walk")
    unsaid = median_ns("tableless", "5x5_marcelo_searches_blocks_unsaid")
    print(f"5x5: blocks unsaid {unsaid / median_ns('tableless', '5x5_marcelo_searches'):,.0f} times the searches")


def main():
    if sys.argv[1:] == ["games"]:
        games()
        return
    if sys.argv[1:] == ["tableless"]:
        tableless()
        return
    per = {"best_move": 4520, "best_move_opening": 10, "analyze": 4520}
    print("| benchmark | median | per query, or the baseline by histories |")
    print("| --- | --- | --- |")
    for group, n in per.items():
        for bench in ("table", "alphabeta", "minimax"):
            try:
                ns = median_ns(group, bench)
            except FileNotFoundError:
                continue
            print(f"| {group}/{bench} ({n} positions) | {fmt(ns)} | {fmt(ns / n)} |")
    for name in ("solve",):
        try:
            print(f"| {name} | {fmt(median_ns(name))} | |")
        except FileNotFoundError:
            continue
    for group, what in (("audit", " (both sides)"), ("match", "")):
        if not (CRITERION / group).exists():
            continue
        for path in sorted((CRITERION / group).iterdir()):
            if (path / "new" / "estimates.json").exists():
                ns = median_ns(group, path.name)
                try:
                    walk = median_ns(f"{group}_by_histories", path.name)
                    baseline = f"by histories {fmt(walk)}, {walk / ns:,.1f}x"
                except FileNotFoundError:
                    baseline = "walks histories"
                print(f"| {group}/{path.name}{what} | {fmt(ns)} | {baseline} |")
    print()
    for group in ("best_move", "best_move_opening"):
        if not (CRITERION / group).exists():
            continue
        table = median_ns(group, "table")
        for baseline in ("alphabeta", "minimax"):
            print(f"{group}: table is {median_ns(group, baseline) / table:,.0f} times faster than {baseline}")


if __name__ == "__main__":
    main()
