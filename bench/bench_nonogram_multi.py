"""Large random nonograms with several solutions: in-process and whole-process CPU (issue 26).

The set is bench/data/nonogram-multi/ (made by bench/nonogram_multi_set.py: random
40x40 to 60x60 grids whose clues are proven to have several solutions). Puzzles that
may not be kept in the repository (for instance survey puzzles with several solutions)
can be added for a local run with BENCH_MULTI_EXTRA=DIR (every .non in DIR).

For each puzzle:
1. In process: CPU of `solve(puzzle)` (two solutions searched for), median of the runs,
   the time split into what logic and probing took and what the SAT back end took
   (`SolveStats.sat_seconds`); the verdict must be multiple, with both grids checked
   against the clues.
2. Whole process: CPU (user + sys) of `python -m autoplayer solve FILE --stats`, median
   of the runs, and of that the start-up (the process less the solve's own CPU, which
   `--stats` prints).

Run: `.venv/bin/python -m bench.run_all nonogram_multi` (BENCH_ONLY=a.non,b.non for a
subset; BENCH_NO_WRITE=1 prints without writing docs/benchmarks.md).
"""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import sys
from pathlib import Path

from autoplayer.games.nonogram.solver.cpu import cpu_seconds

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "bench" / "data" / "nonogram-multi"
RUNS = 3
"""Runs per puzzle (one when the first takes over SLOW seconds)."""
SLOW = 5.0
LIMIT = 300.0


def _puzzles() -> list[Path]:
    only = {n for n in os.environ.get("BENCH_ONLY", "").split(",") if n}
    found = sorted(DATA.glob("*.non"))
    extra = os.environ.get("BENCH_MULTI_EXTRA")
    if extra:
        found += sorted(Path(extra).glob("*.non"))
    return [p for p in found if not only or p.name in only]


def _fmt(seconds: float | None) -> str:
    if seconds is None or seconds != seconds:
        return "–"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.2f} s"


def in_process(path: Path) -> dict[str, object]:
    """Median CPU of `solve` on one puzzle, its verdict checked."""
    from autoplayer.games.nonogram.formats import load_puzzle
    from autoplayer.games.nonogram.model import satisfies
    from autoplayer.games.nonogram.solver import solve

    puzzle = load_puzzle(path)
    cpus, sats = [], []
    result = None
    for _ in range(RUNS):
        c0 = cpu_seconds()
        result = solve(puzzle, timeout=LIMIT)
        cpus.append(cpu_seconds() - c0)
        sats.append(getattr(result.stats, "sat_seconds", float("nan")))
        if cpus[-1] > SLOW:
            break
    assert result is not None
    verdict = result.verdict.value
    if verdict == "multiple":
        first, second = result.solutions
        if not (satisfies(puzzle, first) and satisfies(puzzle, second)
                and (first != second).any()):
            verdict = "**two grids that do not both fit**"
    elif verdict != "timeout":
        verdict = f"**{verdict}**"
    s = result.stats
    return {"size": f"{puzzle.width}x{puzzle.height}", "verdict": verdict,
            "cpu": statistics.median(cpus), "sat": statistics.median(sats),
            "runs": len(cpus), "probes": s.probes, "nodes": s.nodes, "used_sat": s.sat}


_STATS = re.compile(r"autoplayer solve: .*?\(([\d.]+) s CPU\)")


def whole_process(path: Path, runs: int) -> tuple[float, float]:
    """(median CPU of the process, median start-up CPU: the process less the solve)."""
    totals, starts = [], []
    cmd = [sys.executable, "-m", "autoplayer", "solve", str(path), "--stats",
           "--timeout", f"{LIMIT:g}"]
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        total = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        totals.append(total)
        found = _STATS.search(proc.stderr)
        starts.append(total - float(found.group(1)) if found else float("nan"))
    return statistics.median(totals), statistics.median(starts)


def main() -> None:
    load = os.getloadavg()[0]
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "autoplayer")],
                   check=True)
    rows = [
        "| puzzle | size | verdict | solve CPU | of it SAT | runs | probes | nodes | SAT used "
        "| whole process CPU | of it start-up |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    total_solve = total_process = 0.0
    for path in _puzzles():
        got = in_process(path)
        runs = int(got["runs"])
        process, start = whole_process(path, runs)
        total_solve += float(got["cpu"])  # type: ignore[arg-type]
        total_process += process
        rows.append(
            f"| {path.stem} | {got['size']} | {got['verdict']} | {_fmt(got['cpu'])} "  # type: ignore[arg-type]
            f"| {_fmt(got['sat'])} | {runs} | {got['probes']} | {got['nodes']} "  # type: ignore[arg-type]
            f"| {'yes' if got['used_sat'] else 'no'} | {_fmt(process)} | {_fmt(start)} |"
        )
        print(rows[-1], flush=True)
    rows.append(f"| **total** | | | {_fmt(total_solve)} | | | | | | {_fmt(total_process)} | |")
    table = "\n".join(rows)
    print(rows[-1])
    if os.environ.get("BENCH_NO_WRITE"):
        return
    from bench.report import write_section

    write_section("nonogram-multi", f"""Written by `bench/bench_nonogram_multi.py`; command:
`.venv/bin/python -m bench.run_all nonogram_multi`. Load average when the run
started: {load:.2f} (2 cores shared with other work; CPU time is what is compared).

The set: bench/data/nonogram-multi/, random grids of 40 to 60 cells a side and
density 0.50 to 0.58 whose clues are proven to have several solutions (made by
`bench/nonogram_multi_set.py`, seeded). "solve CPU": `solve(puzzle)` in process,
median of the runs; "of it SAT": the part spent in the SAT back end; "whole
process": `python -m autoplayer solve FILE --stats` (parse, prove the verdict,
print both grids), and of that the start-up (the process less the solve's CPU).
Every verdict is multiple, with both grids checked against the clues.

{table}
""")


if __name__ == "__main__":
    main()
