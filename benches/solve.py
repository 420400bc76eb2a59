#!/usr/bin/env python3
"""The tiered solve (`ttt solve`) timed beside plain C solvers, all in one run.

  python3 benches/solve.py [--no-plain] [GAME...]      (default: 4x5k4 5x4k4)

Builds the release binary and benches/mnk_solver.c (`cc -O2`), then for each game, one after
the other, each run once: `ttt solve --threads 1`, `ttt solve --threads 2` (into a fresh cache
folder each time), the C solver with the board's symmetries (`ROWS COLUMNS K sym`) and the
plain C solver without (`ROWS COLUMNS K`: 3^N bytes, 3.4 GB at 20 cells). For 4x4, which
`ttt solve` leaves to the embedded table, only the C solvers run (`cargo bench --bench tiers`
times the tiered 4x4 solve). Prints wall time, CPU time and peak resident memory
(`/usr/bin/time`), the table's size, and each time as a ratio of the plain C solver's (of the
C solver with symmetry with --no-plain, which leaves out the plain one's 3.4 GB and minutes).
"""
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NO_PLAIN = "--no-plain" in sys.argv
GAMES = [a for a in sys.argv[1:] if a != "--no-plain"] or ["4x5k4", "5x4k4"]


def timed(command, **kw):
    out = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M"] + command, capture_output=True,
                         text=True, check=True, **kw)
    wall, user, system, peak = out.stderr.strip().splitlines()[-1].split()
    return float(wall), float(user) + float(system), int(peak) * 1024, out.stdout.strip()


def main():
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    solver = ROOT / "target" / "mnk_solver"
    subprocess.run(["cc", "-O2", "-o", str(solver), str(ROOT / "benches/mnk_solver.c")], check=True)
    ttt = str(ROOT / "target" / "release" / "ttt")
    for game in GAMES:
        m = re.fullmatch(r"(\d+)x(\d+)(?:k(\d+))?", game)
        rows, columns = int(m[1]), int(m[2])
        k = int(m[3]) if m[3] else min(rows, columns)
        rows_out = []
        for threads in ["1", "2"]:
            if rows * columns <= 16:
                break
            cache = tempfile.mkdtemp(dir=ROOT / "target")
            wall, cpu, peak, said = timed([ttt, "solve", "--game", game, "--threads", threads,
                                           "--cache-dir", cache])
            size = sum(p.stat().st_size for p in Path(cache).iterdir())
            shutil.rmtree(cache)
            rows_out.append((f"ttt solve, {threads} thread(s)", wall, cpu, peak,
                             f"table {size:,} bytes"))
        for name, extra in [("C, symmetry", ["sym"])] + [("C, plain", [])] * (not NO_PLAIN):
            wall, cpu, peak, said = timed([str(solver), str(rows), str(columns), str(k)] + extra)
            rows_out.append((name, wall, cpu, peak, f"empty board: {said}"))
        plain = rows_out[-1][1]
        print(f"game {game}")
        for name, wall, cpu, peak, note in rows_out:
            print(f"  {name:<26} {wall:8.2f} s wall {cpu:8.2f} s CPU {peak / 2**20:9.1f} MiB "
                  f"peak  {plain / wall:5.1f}x faster than {rows_out[-1][0]}  {note}")
        sys.stdout.flush()


main()
