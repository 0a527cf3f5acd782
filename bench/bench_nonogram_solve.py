"""Nonogram solver speed: in-process solve times, cold start, and the PyPI peers side by side.

Run: `.venv/bin/python -m bench.run_all nonogram_solve` (peers from
bench/requirements.txt; a peer that is not installed is reported as such).

1. In process, every puzzle in ../shared/nonograms: median of repeated
   `solve()` calls (verdict proven: two solutions searched for).
2. Cold process start of `autoplayer solve` on a 20x20 (webpbn #6, Cat).
3. Whole-process wall time per puzzle, ours (`python -m autoplayer solve FILE`,
   which parses the file, proves the verdict and prints the grid) against each
   peer driven by bench/nonogram_peers.py in its own process (it gets the clues
   pre-parsed as JSON and only has to find one solution). Peers' answers are
   checked against the clues.

Our package is byte-compiled first, as `pip install` does for the peers.
"""

from __future__ import annotations

import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autoplayer.games.nonogram.solver.cpu import cpu_seconds
from bench.report import write_section

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "nonograms"
UNFINISHED = ("faase.non",)
"""Run once with a limit: no known solver finishes them (knotty.non, which none of the
survey's solvers finished either, now finishes here and is timed like the rest)."""
PEERS = ("nonogram", "picross-solver", "puzzlekit")
PEER_LIMIT = float(os.environ.get("BENCH_PEER_LIMIT", "30"))
UNFINISHED_LIMIT = 10.0
OURS_LIMIT = 120.0
"""Ours must finish every puzzle but the unfinished: its limit is not the peers'."""
REPEATS = 5
timings: dict[str, tuple[str, float, float]] = {}
"""puzzle -> (verdict, median wall, median CPU) of the in-process run, for the summary."""


def _puzzles() -> list[Path]:
    """Every puzzle in shared/nonograms, or those named in BENCH_ONLY (comma-separated)."""
    only = {n for n in os.environ.get("BENCH_ONLY", "").split(",") if n}
    return sorted(
        (p for p in SHARED.rglob("*")
         if p.suffix in (".non", ".nin") and (not only or p.name in only)),
        key=lambda p: (p.name in UNFINISHED, p.parent.name, p.name),
    )


def _fmt(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


def in_process(puzzles: list[Path]) -> tuple[str, dict[str, str]]:
    from autoplayer.games.nonogram.formats import load_puzzle
    from autoplayer.games.nonogram.solver import solve

    rows = [
        "| puzzle | size | verdict | median wall | median CPU | runs | line solves | probes "
        "| nodes | SAT |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    verdicts = {}
    timings.clear()
    timed = []
    for path in puzzles:
        puzzle = load_puzzle(path)
        if path.name in UNFINISHED:
            timed.append((path, puzzle, solve(puzzle, timeout=UNFINISHED_LIMIT), 0))
            continue
        result = solve(puzzle)
        first = result.stats.seconds
        timed.append((path, puzzle, result, 15 if first < 0.05 else 5 if first < 1 else 3))
    # the timed runs go round-robin over the puzzles, so that a burst of load from other
    # work on this shared machine costs every puzzle a run or two, not one puzzle all its runs
    walls: dict[str, list[float]] = {path.name: [] for path, *_ in timed}
    cpus: dict[str, list[float]] = {path.name: [] for path, *_ in timed}
    for run in range(max(repeat for *_, repeat in timed)):
        for path, puzzle, _, repeat in timed:
            if run < repeat:
                t0, c0 = time.perf_counter(), cpu_seconds()
                solve(puzzle)
                walls[path.name].append(time.perf_counter() - t0)
                cpus[path.name].append(cpu_seconds() - c0)
    for path, puzzle, result, repeat in timed:
        size = f"{puzzle.width}x{puzzle.height}"
        s = result.stats
        if path.name in UNFINISHED:
            cells = puzzle.width * puzzle.height
            rows.append(
                f"| {path.name} | {size} | {result.verdict.value} at {UNFINISHED_LIMIT:g} s: "
                f"{result.decided}/{cells} cells decided | – | – | 1 | {s.lines_solved} | "
                f"{s.probes} | {s.nodes} | {'yes' if s.sat else 'no'} |"
            )
            verdicts[path.name] = result.verdict.value
            continue
        median = statistics.median(walls[path.name])
        cpu = statistics.median(cpus[path.name])
        timings[path.name] = (result.verdict.value, median, cpu)
        ok = ""
        goal = puzzle.solution
        proven = result.verdict.value in ("line-solvable", "unique")
        if proven and goal is not None and (result.solutions[0] != goal).any():
            ok = " (**differs from goal**)"
        rows.append(
            f"| {path.name} | {size} | {result.verdict.value}{ok} | {_fmt(median)} | {_fmt(cpu)} "
            f"| {repeat} | "
            f"{s.lines_solved} | {s.probes} | {s.nodes} | {'yes' if s.sat else 'no'} |"
        )
        verdicts[path.name] = result.verdict.value
    return "\n".join(rows), verdicts


def _run(cmd: list[str], limit: float) -> tuple[float | None, float, str, int, str]:
    """(wall seconds or None on time-out, CPU seconds of the child, stdout, exit code,
    stderr)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=limit, cwd=REPO)
    except subprocess.TimeoutExpired:
        return None, float("nan"), "", -1, ""
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout, proc.returncode, proc.stderr


_SOLVE_CPU = re.compile(r"autoplayer solve: [\d.]+ s \(([\d.]+) s CPU\)")


def _split(cpu: float, stderr: str) -> tuple[float, float]:
    """(start-up, solve) CPU of one of our runs: `--stats` prints the solve's own CPU;
    the start-up is the rest of the process (interpreter, imports, parsing, printing)."""
    found = _SOLVE_CPU.search(stderr)
    if not found:
        return float("nan"), float("nan")
    solve = float(found.group(1))
    return cpu - solve, solve


def cold_start() -> str:
    cat = SHARED / "griddler-solver" / "webpbn-00006.non"
    cases = [
        ("`python -c pass`", [sys.executable, "-c", "pass"]),
        ("`python -c 'import numpy'`", [sys.executable, "-c", "import numpy"]),
        ("`autoplayer --help`", [sys.executable, "-m", "autoplayer", "--help"]),
        ("`autoplayer solve webpbn-00006.non` (20x20)",
         [sys.executable, "-m", "autoplayer", "solve", str(cat)]),
    ]
    rows = ["| command | wall, median of 7 | CPU (user+sys), median of 7 |", "|---|---|---|"]
    for name, cmd in cases:
        runs = [_run(cmd, 30) for _ in range(7)]
        wall = statistics.median(r[0] or float("nan") for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        rows.append(f"| {name} | {_fmt(wall)} | {_fmt(cpu)} |")
    return "\n".join(rows)


def _peer_installed(peer: str) -> bool:
    module = {"nonogram": "nonogram", "picross-solver": "picross_solver",
              "puzzlekit": "puzzlekit"}[peer]
    probe = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
    return probe.returncode == 0


def _cell(took: float | None, cpu: float, limit: float) -> str:
    if took is None:
        return f"> {limit:g} s"
    return f"{_fmt(took)} ({_fmt(cpu)})"


def side_by_side(puzzles: list[Path], verdicts: dict[str, str]) -> tuple[str, list[str]]:
    """Ours and every peer on each puzzle, runs interleaved so load changes hit all alike."""
    from autoplayer.games.nonogram.formats import load_puzzle
    from autoplayer.games.nonogram.model import clues_of

    installed = [p for p in PEERS if _peer_installed(p)]
    header = ("| puzzle | verdict | ours | ours CPU: start-up + solve | " + " | ".join(PEERS)
              + " | ours fastest (wall)? |")
    rows = [header, "|---" * (len(PEERS) + 5) + "|"]
    losses = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in puzzles:
            puzzle = load_puzzle(path)
            clue_file = Path(tmp) / "clues.json"
            clue_file.write_text(json.dumps(
                {"rows": [list(r) for r in puzzle.rows],
                 "columns": [list(c) for c in puzzle.columns]}
            ))
            ours_cmd = [sys.executable, "-m", "autoplayer", "solve", str(path), "--stats"]
            if path.name in UNFINISHED:
                ours_cmd += ["--timeout", f"{UNFINISHED_LIMIT:g}"]
            commands = {"ours": ours_cmd}
            for peer in installed:
                commands[peer] = [sys.executable, str(REPO / "bench" / "nonogram_peers.py"),
                                  peer, str(clue_file)]
            runs: dict[str, list] = {name: [] for name in commands}
            active = dict(commands)
            for _ in range(REPEATS):
                for name, cmd in list(active.items()):
                    limit = PEER_LIMIT if name != "ours" else max(PEER_LIMIT, OURS_LIMIT)
                    result = _run(cmd, limit + (UNFINISHED_LIMIT if name == "ours" else 0))
                    runs[name].append(result)
                    failed = name != "ours" and result[3] != 0
                    if result[0] is None or result[0] > 2 or failed:
                        del active[name]  # slow or failing: one run is enough
            summary = {}
            for name, results in runs.items():
                done = [r for r in results if r[0] is not None]
                if len(done) < len(results) or not done:
                    summary[name] = (None, float("nan"), "", -1)
                    continue
                walls = sorted(done, key=lambda r: r[0])
                mid = walls[len(walls) // 2]
                summary[name] = (mid[0], statistics.median(r[1] for r in done), mid[2], mid[3])
            ours_runs = [_split(r[1], r[4]) for r in runs["ours"] if r[0] is not None]
            if ours_runs:
                split = (f"{_fmt(statistics.median(r[0] for r in ours_runs))} + "
                         f"{_fmt(statistics.median(r[1] for r in ours_runs))}")
            else:
                split = "–"
            ours, ours_cpu, _, code = summary["ours"]
            ours_text = _cell(ours, ours_cpu, PEER_LIMIT)
            if path.name in UNFINISHED and code == 5:
                ours_text += " timeout"
            cells = []
            best_peer = None
            for peer in PEERS:
                if peer not in installed:
                    cells.append("not installed")
                    continue
                took, cpu, out, code = summary[peer]
                if took is None:
                    cells.append(_cell(None, cpu, PEER_LIMIT))
                    continue
                grid_rows = [line for line in out.split() if line]
                valid = False
                if code == 0 and len(grid_rows) == puzzle.height:
                    grid = [[int(ch) for ch in line] for line in grid_rows]
                    valid = clues_of(grid) == (puzzle.rows, puzzle.columns)
                if not valid:
                    cells.append(f"{_fmt(took)}: no valid solution" if code == 0
                                 else f"failed (exit {code})")
                    continue
                cells.append(_cell(took, cpu, PEER_LIMIT))
                best_peer = took if best_peer is None else min(best_peer, took)
            if ours is None:
                fastest = "no"
            elif not installed:
                fastest = "– (no peer installed)"
            elif best_peer is None:
                fastest = "yes (no peer solved it)"
            else:
                fastest = "yes" if ours < best_peer else "**no**"
            if "no" in fastest.split("*") or fastest == "no":
                losses.append(path.name)
            rows.append(f"| {path.name} | {verdicts.get(path.name, '')} | {ours_text} | {split} | "
                        + " | ".join(cells) + f" | {fastest} |")
            print(rows[-1], flush=True)
    return "\n".join(rows), losses


def compile_bytecode() -> None:
    """Compiles our package the way `pip install` compiles every installed one.

    The peers come from site-packages with their bytecode; ours is an editable
    checkout, and with PYTHONDONTWRITEBYTECODE set (as on this machine) Python
    would recompile its modules from source on every start: about 20 ms of a
    race decided by start-up time.
    """
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "autoplayer")],
                   check=True)


def main() -> None:
    from autoplayer.games.nonogram.solver.search import NODE_BUDGET

    load = os.getloadavg()[0]
    compile_bytecode()
    puzzles = _puzzles()
    table, verdicts = in_process(puzzles)
    print(table, flush=True)
    start = cold_start()
    print(start, flush=True)
    peers, losses = side_by_side(puzzles, verdicts)
    summary = (
        "Ours faster than the fastest peer on every puzzle."
        if not losses else f"Ours is **not** the fastest on: {', '.join(losses)}."
    )
    if not any(_peer_installed(p) for p in PEERS):
        summary = ("No peer was installed for this run (`pip install -r "
                   "bench/requirements.txt`): ours alone. The last run with the peers is "
                   "in this file's history (commit 514608d).")
    line = [(w, c, n) for n, (v, w, c) in timings.items() if v == "line-solvable"]
    slowest = max(line)
    forever = timings.get("webpbn-06574.non")
    others = [(w, n) for n, (v, w, _) in timings.items() if n != "webpbn-06574.non"]
    targets = (
        f"- Line-solvable puzzles: slowest median {_fmt(slowest[0])} wall, "
        f"{_fmt(max(c for _, c, _ in line))} CPU ({slowest[2]}); target 20 ms.\n"
        + (f"- Forever (webpbn-06574): {forever[0]}, {_fmt(forever[1])} wall, "
           f"{_fmt(forever[2])} CPU; target 2 s.\n" if forever else "")
        + f"- Every other puzzle: slowest {_fmt(max(others)[0])} ({max(others)[1]}); "
        "target 10 s.\n"
    )
    write_section("nonogram-solve", f"""Written by `bench/bench_nonogram_solve.py`; command:
`.venv/bin/python -m bench.run_all nonogram_solve`. Load average when the
run started: {load:.2f} (2 cores shared with other work: treat differences under
~30 % as noise).

### In process: `solve(puzzle)` (verdict proven; two solutions searched for)

The pipeline: complete bit-parallel line solver with a line cache, propagation to a
fixpoint, probing, probe-guided search for a budget of {NODE_BUDGET} root-sized probed nodes, then
the CaDiCaL SAT back end on what is left. Median of the runs shown, taken
round-robin over the puzzles (a burst of load hits all of them alike).
faase (which no known solver finishes) runs once with a {UNFINISHED_LIMIT:g} s limit; the
row says how far logic got. knotty, which no solver in the survey finished, is timed
like the rest (several solutions, found with the clues' quarter-turn symmetry).

{table}

{targets}
### Cold start

{start}

### Whole process, side by side with the PyPI peers

Wall time of one process per puzzle, and in brackets its CPU time (user+sys,
which the load on this shared machine disturbs far less than wall time). Ours
runs with `--stats`, which prints the solve's own CPU: "start-up + solve" splits
our process's CPU into that and the rest (interpreter, imports, parsing the file,
printing; medians of the runs). Median
of {REPEATS} runs, interleaved ours/peer/peer/peer so that load changes hit all
alike; a solver whose run takes over 2 s or fails runs once. Limit {PEER_LIMIT:g} s.
Ours parses the file, proves the verdict (unique/multiple) and
prints the grid; each peer gets the clues pre-parsed as JSON and only finds one
solution (none of them checks uniqueness). A peer's grid is checked against the
clues. `nonogram` falls back to Gurobi (not installed) when its search gives up
after 100 calls, which shows as "failed". Every package, ours included, runs
from compiled bytecode, as after `pip install`.

{peers}

{summary}
""")


if __name__ == "__main__":
    main()
